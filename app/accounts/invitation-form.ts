import { z } from "zod";

/** Invitation setup form (spec section 5 wording, DECISIONS.md password policy: 8 to 128 characters). */
export const INVITATION_MESSAGES = {
  passwordRequired: "Password is required",
  passwordTooShort: "Password must be at least 8 characters long",
  passwordTooLong: "Password must be at most 128 characters long",
  mismatch: "Passwords do not match",
  missingTitle: "Invalid invitation link",
  missingDescription: "Invalid confirmation link. Missing token or user ID.",
  invalid: "Invalid or expired invitation link",
  success: "Account setup completed successfully",
  failed: "Failed to setup account.",
  validateFailed: "Failed to validate invitation link",
} as const;

export const invitationSchema = z
  .object({
    password: z
      .string({ error: INVITATION_MESSAGES.passwordRequired })
      .min(1, INVITATION_MESSAGES.passwordRequired)
      .min(8, INVITATION_MESSAGES.passwordTooShort)
      .max(128, INVITATION_MESSAGES.passwordTooLong),
    confirmPassword: z.string({ error: "Please confirm your password" }),
  })
  .refine((v) => v.password === v.confirmPassword, { message: INVITATION_MESSAGES.mismatch, path: ["confirmPassword"] });
