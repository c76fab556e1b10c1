/** The /verify form's file fields besides the certificate, each also sendable as `<field>Sha256` (hashed in the browser). */
export const VERIFY_FILE_FIELDS = ["input", "good", "bad", "invalid"] as const;
export type VerifyFileField = (typeof VERIFY_FILE_FIELDS)[number];

/** The field of a verification check's subject ("good.csv" → "good"). */
export function fieldOfSubject(subject: string): VerifyFileField | null {
  const f = subject.replace(/\.csv$/, "");
  return (VERIFY_FILE_FIELDS as readonly string[]).includes(f) ? (f as VerifyFileField) : null;
}
