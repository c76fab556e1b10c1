/**
 * Manual entry in the container and DNC forms (data-purging.md §5): comma-separated (newlines accepted too),
 * each entry trimmed, each exactly 10 digits. Shared by the server and the browser (same messages).
 * This is form validation only: the numbers then go through the scrub service's one normalizer.
 */
export const PHONE_ENTRY_MESSAGES = {
  noneValid: "You must enter at least one valid 10-digit phone number.",
  invalidTitle: "Invalid Phone Numbers",
  invalidPrefix: "The following numbers are invalid (must be exactly 10 digits with no alphabets): ",
  noFile: "You must upload a CSV file with phone numbers.",
} as const;

/** Manual entry takes up to this many numbers (the old 10-character cap was a defect; DECISIONS). */
export const MAX_MANUAL_NUMBERS = 100_000;

/** How many invalid entries the message lists before "and N more". */
const LISTED_INVALID = 20;

/** The typed text itself was too large to read (far beyond the number cap). */
export const MANUAL_TOO_LARGE_MESSAGE = `Too many numbers: manual entry takes up to ${MAX_MANUAL_NUMBERS.toLocaleString("en-US")} numbers. Upload a CSV file for more.`;

export function tooManyNumbersMessage(count: number): string {
  return `You entered ${count.toLocaleString("en-US")} numbers; manual entry takes up to ${MAX_MANUAL_NUMBERS.toLocaleString(
    "en-US",
  )}. Upload a CSV file for more.`;
}

export function invalidNumbersMessage(invalid: string[]): string {
  const shown = invalid.slice(0, LISTED_INVALID).map((s) => (s.length > 30 ? `${s.slice(0, 30)}…` : s));
  const more = invalid.length > LISTED_INVALID ? ` and ${(invalid.length - LISTED_INVALID).toLocaleString("en-US")} more` : "";
  return `${PHONE_ENTRY_MESSAGES.invalidPrefix}${shown.join(", ")}${more}`;
}

export function isInvalidNumbersMessage(message: string | undefined): boolean {
  return !!message && message.startsWith(PHONE_ENTRY_MESSAGES.invalidPrefix);
}

export interface ManualEntry {
  numbers: string[];
  invalid: string[];
}

/** Splits on commas and newlines, trims, drops empty entries; every entry must be exactly 10 digits. */
export function splitManualNumbers(text: string | undefined | null): ManualEntry {
  const numbers: string[] = [];
  const invalid: string[] = [];
  for (const raw of (text ?? "").split(/[,\r\n]+/)) {
    const entry = raw.trim();
    if (!entry) continue;
    if (/^\d{10}$/.test(entry)) numbers.push(entry);
    else invalid.push(entry);
  }
  return { numbers, invalid };
}

/** The spec's message for a manual entry, or null when it is acceptable. */
export function manualEntryError(text: string | undefined | null): string | null {
  const { numbers, invalid } = splitManualNumbers(text);
  if (invalid.length) return invalidNumbersMessage(invalid);
  if (!numbers.length) return PHONE_ENTRY_MESSAGES.noneValid;
  if (numbers.length > MAX_MANUAL_NUMBERS) return tooManyNumbersMessage(numbers.length);
  return null;
}
