import { z } from "zod";

/*
 * The account forms' zod schemas, shared by the actions (parseWithZod on the server) and the components
 * (conform's onValidate in the browser). Texts are the spec's, with the password policy of DECISIONS.md
 * (8 to 128 characters) instead of the old client's 5 and 6.
 */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const PHONE_MAX_DIGITS = 11;

export const ACCOUNT_MESSAGES = {
  passwordMismatch: "Password and confirm password do not match",
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters long`,
  /** The reset form's wording ends with a period (spec section 5). */
  resetPasswordTooShort: `Password must be at least ${PASSWORD_MIN} characters long.`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX} characters long`,
  phoneTooLong: "Phone number cannot exceed 11 digits",
  inlineMismatch: "Passwords do not match",
  missingResetParams: "Missing required parameters for password reset.",
} as const;

/** Spec toast titles shown above a field's message (e.g. "Password Mismatch" over its description). */
export const MESSAGE_TITLES: Record<string, string> = {
  [ACCOUNT_MESSAGES.passwordMismatch]: "Password Mismatch",
  [ACCOUNT_MESSAGES.passwordTooShort]: "Password Too Short",
  [ACCOUNT_MESSAGES.resetPasswordTooShort]: "Password Too Short",
  [ACCOUNT_MESSAGES.phoneTooLong]: "Invalid Phone Number",
  [ACCOUNT_MESSAGES.inlineMismatch]: "Password Mismatch",
  [ACCOUNT_MESSAGES.missingResetParams]: "Invalid Request",
};

/** Digits only ("(555) 123-4567" → "5551234567"). */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, "");
}

/** Check the match as soon as both passwords are there, even while other fields still have errors. */
const bothPasswords = (payload: { value: unknown }) => {
  const v = payload.value as { password?: unknown; confirmPassword?: unknown } | undefined;
  return typeof v?.password === "string" && typeof v?.confirmPassword === "string";
};

const required = (message: string, max = 100) => z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

export const signupSchema = z
  .object({
    firstName: required("First name is required"),
    lastName: required("Last name is required"),
    email: z
      .string({ error: "Email is required" })
      .trim()
      .min(1, "Email is required")
      .max(254, "Please enter a valid email address")
      .pipe(z.email("Please enter a valid email address")),
    company: required("Company is required", 200),
    phoneNumber: z
      .string({ error: "Phone number is required" })
      .transform(phoneDigits)
      .pipe(z.string({ error: "Phone number is required" }).min(1, "Phone number is required").max(PHONE_MAX_DIGITS, ACCOUNT_MESSAGES.phoneTooLong)),
    password: z
      .string({ error: "Password is required" })
      .min(PASSWORD_MIN, ACCOUNT_MESSAGES.passwordTooShort)
      .max(PASSWORD_MAX, ACCOUNT_MESSAGES.passwordTooLong),
    confirmPassword: z.string({ error: "Please confirm your password" }),
  })
  .refine((v) => v.password === v.confirmPassword, { message: ACCOUNT_MESSAGES.passwordMismatch, path: ["confirmPassword"], when: bothPasswords });

export const forgotPasswordSchema = z.object({
  email: z
    .string({ error: "Email is required" })
    .trim()
    .min(1, "Email is required")
    .max(254, "Please enter a valid email address")
    .pipe(z.email("Please enter a valid email address")),
});

export const resetPasswordSchema = z
  .object({
    password: z
      .string({ error: "Password is required" })
      .min(PASSWORD_MIN, ACCOUNT_MESSAGES.resetPasswordTooShort)
      .max(PASSWORD_MAX, ACCOUNT_MESSAGES.passwordTooLong),
    confirmPassword: z.string({ error: "Please confirm your password" }),
  })
  .refine((v) => v.password === v.confirmPassword, { message: ACCOUNT_MESSAGES.inlineMismatch, path: ["confirmPassword"], when: bothPasswords });
