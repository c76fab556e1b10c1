/**
 * The product's one phone-number normalizer (forms, CSV, API, list loading). Pure: safe to import anywhere.
 *
 * US/NANP numbers: 10 digits, or 11 starting with 1, after stripping spaces (and tabs), dots, dashes,
 * parentheses and a leading +. Area code and exchange may not start with 0 or 1. Excel-mangled cells (1.23457E+9) are
 * rejected: digits were lost, never guess. A valid number is the 10-digit integer NPA·10^7 + NXX·10^4 + line.
 */

/**
 * Names the rules below; printed in every scrub certificate. Change it whenever a cell's verdict can change
 * (a new accepted format, a newly rejected area code), so a certificate says which rules judged its rows.
 */
export const NORMALIZER_RULES_VERSION = "nanp-1";

export const INVALID_REASONS = [
  "empty",
  "excel_notation",
  "not_a_number",
  "wrong_length",
  "invalid_area_code",
  "invalid_exchange",
] as const;
export type InvalidReason = (typeof INVALID_REASONS)[number];

/** Negative codes returned by normalizeCode; -code-1 indexes INVALID_REASONS. */
export const CODE_EMPTY = -1;
export const CODE_EXCEL = -2;
export const CODE_NOT_A_NUMBER = -3;
export const CODE_WRONG_LENGTH = -4;
export const CODE_AREA_CODE = -5;
export const CODE_EXCHANGE = -6;

export function reasonOfCode(code: number): InvalidReason {
  return INVALID_REASONS[-code - 1];
}

const EXCEL = /^[ \t]*[+-]?\d+(\.\d*)?[eE][+-]?\d+[ \t]*$/;

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * Hot-path form: the 10-digit number (2002000000…9999999999) when valid, else a negative CODE_*.
 */
export function normalizeCode(s: string): number {
  let i = 0;
  let n = s.length;
  while (i < n && isSpace(s.charCodeAt(i))) i++;
  while (n > i && isSpace(s.charCodeAt(n - 1))) n--;
  if (i === n) return CODE_EMPTY;
  if (s.charCodeAt(i) === 43) i++; // one leading +
  let digits = 0;
  let value = 0;
  let first = 0;
  let other = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits === 0) first = c - 48;
      if (digits < 15) value = value * 10 + (c - 48);
      digits++;
    } else if (c === 32 || c === 46 || c === 45 || c === 40 || c === 41 || c === 9) {
      // separators: space . - ( )
    } else {
      other = true;
    }
  }
  if (other) return EXCEL.test(s) ? CODE_EXCEL : CODE_NOT_A_NUMBER;
  if (digits === 0) return CODE_NOT_A_NUMBER;
  if (digits === 11 && first === 1) value -= 10_000_000_000;
  else if (digits !== 10) return CODE_WRONG_LENGTH;
  if (value < 2_000_000_000) return CODE_AREA_CODE;
  if (Math.floor(value / 10_000) % 1000 < 200) return CODE_EXCHANGE;
  return value;
}

export type PhoneParse = { ok: true; number: number; digits: string } | { ok: false; reason: InvalidReason };

/** Friendly form for forms and APIs. */
export function parsePhone(input: string): PhoneParse {
  const code = normalizeCode(input);
  if (code < 0) return { ok: false, reason: reasonOfCode(code) };
  return { ok: true, number: code, digits: String(code) };
}

/** The 10-digit string of a valid entry, or null. */
export function normalizePhone(input: string): string | null {
  const code = normalizeCode(input);
  return code < 0 ? null : String(code);
}

/** (555) 234-5678 */
export function formatPhone(n: number | bigint | string): string {
  const s = String(n).padStart(10, "0");
  return `(${s.slice(0, 3)}) ${s.slice(3, 6)}-${s.slice(6)}`;
}
