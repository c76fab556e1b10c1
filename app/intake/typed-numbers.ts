import { parsePhone } from "scrub-service/domain";

/**
 * Typed-in numbers (the purge wizard's manual entry, the container and DNC dialogs): split in this one place
 * and every entry checked by the engine's own normalizer, so a number valid on one screen is valid on every
 * screen and in the pipeline. Shared by the server and the browser (same messages). Each screen keeps its
 * spec texts (data-purging.md §5).
 */

/** Manual entry takes up to this many numbers (the old 10-character cap was a defect; DECISIONS). */
export const MAX_MANUAL_NUMBERS = 100_000;

export interface TypedNumbers {
  /** Valid entries as their 10-digit number, in input order. */
  numbers: string[];
  /** Entries the normalizer refused, as typed (trimmed). */
  invalid: string[];
}

export interface TypedEntry {
  /** The entry as typed (trimmed). */
  text: string;
  /** Its 10-digit number when the normalizer reads it, else null. */
  number: string | null;
}

/** Splits on commas and newlines, trims, drops empty entries, and normalizes each entry (input order). */
export function splitTypedEntries(text: string | undefined | null): TypedEntry[] {
  const entries: TypedEntry[] = [];
  for (const raw of (text ?? "").split(/[,\r\n]+/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const parsed = parsePhone(entry);
    entries.push({ text: entry, number: parsed.ok ? parsed.digits : null });
  }
  return entries;
}

/** The valid numbers and the refused entries of a typed list. */
export function splitManualNumbers(text: string | undefined | null): TypedNumbers {
  const numbers: string[] = [];
  const invalid: string[] = [];
  for (const e of splitTypedEntries(text)) {
    if (e.number) numbers.push(e.number);
    else invalid.push(e.text);
  }
  return { numbers, invalid };
}

const clip = (s: string) => (s.length > 30 ? `${s.slice(0, 30)}…` : s);

// ---------- container and DNC dialogs ----------

export const PHONE_ENTRY_MESSAGES = {
  noneValid: "You must enter at least one valid 10-digit phone number.",
  invalidTitle: "Invalid Phone Numbers",
  invalidPrefix: "The following numbers are invalid (must be exactly 10 digits with no alphabets): ",
  noFile: "You must upload a CSV file with phone numbers.",
} as const;

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
  const shown = invalid.slice(0, LISTED_INVALID).map(clip);
  const more = invalid.length > LISTED_INVALID ? ` and ${(invalid.length - LISTED_INVALID).toLocaleString("en-US")} more` : "";
  return `${PHONE_ENTRY_MESSAGES.invalidPrefix}${shown.join(", ")}${more}`;
}

export function isInvalidNumbersMessage(message: string | undefined): boolean {
  return !!message && message.startsWith(PHONE_ENTRY_MESSAGES.invalidPrefix);
}

/** The container/DNC dialogs' message for a manual entry, or null when it is acceptable. */
export function manualEntryError(text: string | undefined | null): string | null {
  const { numbers, invalid } = splitManualNumbers(text);
  if (invalid.length) return invalidNumbersMessage(invalid);
  if (!numbers.length) return PHONE_ENTRY_MESSAGES.noneValid;
  if (numbers.length > MAX_MANUAL_NUMBERS) return tooManyNumbersMessage(numbers.length);
  return null;
}

// ---------- purge wizard ----------

export const MANUAL_MESSAGES = {
  empty: "Please enter phone numbers",
  noneValid: "No valid phone numbers found",
  invalidPrefix: "Invalid phone numbers found: ",
} as const;

export type ManualCheck = { ok: true; numbers: string[] } | { ok: false; message: string };

/**
 * The purge wizard's check of its manual entry: the entries to scrub, or the spec's message. A purge does not
 * stop at invalid numbers (DECISIONS): an entry the normalizer refuses but that has 10 to 15 digits (a number
 * from another country, say) is scrubbed too and lands in invalid.csv with the engine's reason. At least one
 * entry must be a valid number. Valid entries are passed on as their 10 digits, the others as their digits.
 */
export function checkManualNumbers(text: string | null | undefined): ManualCheck {
  if (!(text ?? "").trim()) return { ok: false, message: MANUAL_MESSAGES.empty };
  const entries = splitTypedEntries(text);
  const numbers: string[] = [];
  const refused: string[] = [];
  let valid = 0;
  for (const e of entries) {
    if (e.number) {
      valid++;
      numbers.push(e.number);
      continue;
    }
    const digits = e.text.replace(/\D/g, "");
    if (digits.length >= 10 && digits.length <= 15) numbers.push(digits);
    else refused.push(e.text);
  }
  if (!valid) return { ok: false, message: MANUAL_MESSAGES.noneValid };
  if (refused.length) return { ok: false, message: `${MANUAL_MESSAGES.invalidPrefix}${refused.slice(0, 3).map(clip).join(", ")}...` };
  if (numbers.length > MAX_MANUAL_NUMBERS) return { ok: false, message: tooManyNumbersMessage(numbers.length) };
  return { ok: true, numbers };
}
