import { z } from "zod";

/** Shared by the Create New User / Edit User dialog (client validation) and the action (server validation). */
export const PHONE_TOO_LONG = "Phone number cannot exceed 11 digits";
export const DUPLICATE_EMAIL = "User with this email already exists.";

/** PostgreSQL text cannot hold NUL; refuse it as bad input instead of failing on insert. */
const NO_NUL = (v: string | undefined) => !v?.includes("\u0000");
const INVALID_CHARACTERS = "Contains characters that are not allowed";

const required = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`)
    .refine(NO_NUL, INVALID_CHARACTERS);

export const userFormSchema = z.object({
  firstName: required("First name"),
  lastName: required("Last name"),
  email: z
    .string({ error: "Email is required" })
    .trim()
    .min(1, "Email is required")
    .max(254, "Email must be at most 254 characters")
    .refine(NO_NUL, "Please enter a valid email address")
    .pipe(z.email("Please enter a valid email address")),
  // Spec: digits only, at most 11 (non-digits are stripped, as the dialog does while typing).
  // Digits only (other characters are stripped, as the dialog does while typing); see normalizeUserForm.
  phoneNumber: z
    .string()
    .optional()
    .refine((v) => phoneDigits(v).length <= 11, PHONE_TOO_LONG),
  company: z.string().trim().max(200, "Company must be at most 200 characters").refine(NO_NUL, INVALID_CHARACTERS).optional(),
  role: z.enum(["NormalUser", "UnlimitedUser", "Admin", "SuperAdmin"], { error: "Role is required" }),
  /** "none" (No Plan) or a plan id; checked against the catalogue by the action. */
  plan: z.string({ error: "Subscription plan is required" }).trim().min(1, "Subscription plan is required").max(100).refine(NO_NUL, INVALID_CHARACTERS),
  status: z.enum(["Active", "Blocked", "Pending"], { error: "Status is required" }),
});

export function phoneDigits(v: string | undefined): string {
  return (v ?? "").replace(/\D/g, "");
}

/** The stored form of the dialog's values: phone as digits, company as "" when blank. */
export function normalizeUserForm<T extends { phoneNumber?: string; company?: string }>(v: T): T & { phoneNumber: string; company: string } {
  return { ...v, phoneNumber: phoneDigits(v.phoneNumber), company: v.company ?? "" };
}

export const editUserFormSchema = userFormSchema.extend({
  userId: z.string({ error: "User is required" }).uuid("User not found"),
  // A self-signed-up user who has not confirmed yet is Draft; the dialog keeps it unless changed.
  status: z.enum(["Active", "Blocked", "Pending", "Draft"], { error: "Status is required" }),
});
