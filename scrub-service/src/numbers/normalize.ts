/**
 * The product's one phone-number normalizer (pipeline, forms, API, list loading). Pure CPU, no I/O: safe to
 * import anywhere, client code included. Rules: docs/decisions/100-phone-number-rules.md.
 *
 * Reads North American (NANP, +1) numbers: 10 digits, 11 starting with 1, +1 or 011 1 before 10 digits,
 * separated by any Unicode space or dash, dots, slashes and parentheses, in any Unicode decimal digits;
 * `tel:`, Excel's text markers ('2125550100, ="2125550100") and an extension (x, ext, ext., extension, #)
 * are read past. A number is valid when its area code and central-office code are in service per the
 * generated numbering table (numbering.generated.ts, from libphonenumber's metadata), its exchange is not an
 * N11 service code and it is not a 555-01XX number (reserved for fiction). A valid number is the 10-digit
 * integer NPA·10^7 + NXX·10^4 + line; an invalid one a negative code naming the reason (reasonOfCode,
 * invalidReasonText).
 */
import { AREA_CODE_ROWS, KIND_LETTERS, MIXED_EXCHANGES, NUMBER_KINDS, NUMBERING_VERSION, UNICODE_DIGIT_ZEROS, type NumberKind } from "./numbering.generated";
import { INVALID_REASONS, INVALID_REASON_LABELS, type InvalidReason } from "./invalid-reasons";

export { NUMBER_KINDS, type NumberKind };

/**
 * Names the rules below; printed in every scrub certificate. Changes whenever a cell's verdict can change
 * (a new accepted format, a newly rejected area code, regenerated numbering data), so a certificate says
 * which rules judged its rows. "nanp-1" was the first rules (10/11 digits, NPA and NXX not 0/1).
 */
export const NORMALIZER_RULES_VERSION = `nanp-2/libphonenumber-js@${NUMBERING_VERSION}`;

export { INVALID_REASONS, INVALID_REASON_LABELS, type InvalidReason };

/**
 * Negative codes: -(1 + reason index) - 64·detail, where detail is the area code, exchange, NPA·1000+NXX or
 * digit count the reason names (0 when none).
 */
const DETAIL = 64;
const code = (reason: number, detail = 0): number => -(1 + reason) - DETAIL * detail;
export const CODE_EMPTY = -1;
export const CODE_EXCEL = -2;
export const CODE_NOT_A_NUMBER = -3;
export const CODE_WRONG_LENGTH = -4;
export const CODE_AREA_CODE = -5;
export const CODE_EXCHANGE = -6;
const R_SERVICE_AREA = 6;
const R_UNASSIGNED_AREA = 7;
const R_SERVICE_EXCHANGE = 8;
const R_UNASSIGNED_EXCHANGE = 9;
const CODE_FICTION = code(10);
const CODE_TWO_NUMBERS = code(11);
const CODE_NOT_NANP = code(12);

/** Index of a negative code's reason in INVALID_REASONS. */
export function reasonIndexOfCode(c: number): number {
  return (-c - 1) % DETAIL;
}

export function reasonOfCode(c: number): InvalidReason {
  return INVALID_REASONS[reasonIndexOfCode(c)];
}

const pad3 = (n: number) => String(n).padStart(3, "0");

/** The sentence a customer reads (invalid.csv's reason). Plain ASCII without , ; | or quotes: safe in any CSV dialect. */
export function invalidReasonText(c: number): string {
  const detail = Math.floor((-c - 1) / DETAIL);
  switch (reasonOfCode(c)) {
    case "empty":
      return "empty: no phone number in this cell";
    case "excel_notation":
      return "Excel scientific notation (like 1.23457E+9): digits were lost - format the column as text and export again";
    case "not_a_number":
      return "not a phone number";
    case "wrong_length":
      return `${detail} digit${detail === 1 ? "" : "s"}: a US phone number has 10 digits (11 starting with 1)`;
    case "invalid_area_code":
      return `area code ${pad3(detail)} is not a phone area code (area codes never start with 0 or 1)`;
    case "invalid_exchange":
      return `exchange ${pad3(detail)} is not a phone exchange (exchanges never start with 0 or 1)`;
    case "service_area_code":
      return `area code ${detail} is not a phone area code (N11 codes like 411 and 911 are service numbers)`;
    case "unassigned_area_code":
      return `area code ${detail} is not in service (unassigned or reserved)`;
    case "service_exchange":
      return `exchange ${detail} is a service code (N11) and not a phone exchange`;
    case "unassigned_exchange":
      return `exchange ${Math.floor(detail / 1000)}-${pad3(detail % 1000)} is not in service`;
    case "fictional_number":
      return "555-0100 to 555-0199 numbers are reserved for films and fiction";
    case "two_numbers":
      return "two phone numbers in one cell: put one number per row";
    case "not_nanp":
      return "not a North American number (only +1 numbers: US and Canada and the Caribbean)";
  }
}

// ---------- numbering table ----------

const KIND_BY_LETTER = new Map<string, number>(Object.entries(KIND_LETTERS).map(([k, l]) => [l, NUMBER_KINDS.indexOf(k as NumberKind) + 1]));
/** Bit of EXCHANGES entries whose line number decides (555 and the mixed NPA-NXX of the table). */
const CHECK_LINE = 128;
/** Per NPA·1000+NXX: 0 not in service, else kind index + 1, with CHECK_LINE when the line number decides. */
const EXCHANGES = new Uint8Array(1_000_000);
const AREA_REGION: string[] = new Array(1000).fill("");
/**
 * The hot path's question, one bit per NPA·1000+NXX: in service whatever the line number (EXCHANGES entry
 * set, without CHECK_LINE). 125 KB instead of the 1 MB byte table: it stays in the core's cache, where the
 * byte table cost a cache miss on most rows of a large file (decision 090, "bench:scrub before and after").
 */
const IN_SERVICE = new Int32Array(1_000_000 / 32);
/** Sets (or clears) the IN_SERVICE bits of keys [from, to): whole words at once (this runs in every thread at load). */
function markInService(from: number, to: number, on: boolean): void {
  while (from < to) {
    const w = from >> 5;
    const lo = from & 31;
    const hi = Math.min(32, lo + (to - from));
    const bits = hi - lo === 32 ? -1 : ((1 << (hi - lo)) - 1) << lo;
    IN_SERVICE[w] = on ? IN_SERVICE[w] | bits : IN_SERVICE[w] & ~bits;
    from += hi - lo;
  }
}
for (const [npa, region, runs] of AREA_CODE_ROWS) {
  AREA_REGION[npa] = region;
  let nxx = 200;
  for (const m of runs.matchAll(/([a-z.])(\d+)/g)) {
    const kind = KIND_BY_LETTER.get(m[1]) ?? 0;
    const end = nxx + Number(m[2]);
    EXCHANGES.fill(kind, npa * 1000 + nxx, npa * 1000 + end);
    if (kind) markInService(npa * 1000 + nxx, npa * 1000 + end, true);
    nxx = end;
  }
  // N11 exchanges are service codes
  for (let n11 = 211; n11 < 1000; n11 += 100) {
    EXCHANGES[npa * 1000 + n11] = 0;
    markInService(npa * 1000 + n11, npa * 1000 + n11 + 1, false);
  }
  const key555 = npa * 1000 + 555;
  if (EXCHANGES[key555]) {
    EXCHANGES[key555] |= CHECK_LINE;
    markInService(key555, key555 + 1, false);
  }
}
for (const key of MIXED_EXCHANGES.keys()) {
  EXCHANGES[key] = CHECK_LINE;
  markInService(key, key + 1, false);
}
/** Whether a 10-digit value's NPA-NXX is in service for every line number (value < 10^10). */
export const inService = (value: number): boolean => {
  const key = (value / 10_000) | 0;
  return ((IN_SERVICE[key >> 5] >>> (key & 31)) & 1) === 1;
};

/** Kind index + 1 of a number whose exchange entry has CHECK_LINE set, or 0. */
function lineKind(value: number, entry: number): number {
  const exchange = Math.floor(value / 10_000);
  const line = value - exchange * 10_000;
  const ranges = MIXED_EXCHANGES.get(exchange);
  if (ranges) {
    for (const [first, last, letter] of ranges) if (line >= first && line <= last) return KIND_BY_LETTER.get(letter) ?? 0;
    return 0;
  }
  return line >= 100 && line <= 199 ? 0 : entry & ~CHECK_LINE; // 555-01XX
}

/** The code of a 10-digit candidate (0…9999999999): the number when valid, else why not. */
function checkTen(value: number): number {
  if (inService(value)) return value;
  const entry = EXCHANGES[(value / 10_000) | 0];
  if (entry !== 0 && lineKind(value, entry) !== 0) return value;
  return invalidTen(value);
}

function invalidTen(value: number): number {
  const npa = Math.floor(value / 10_000_000);
  const nxx = Math.floor(value / 10_000) % 1000;
  if (npa < 200) return code(4, npa);
  if (npa % 100 === 11) return code(R_SERVICE_AREA, npa);
  if (!AREA_REGION[npa]) return code(R_UNASSIGNED_AREA, npa);
  if (nxx < 200) return code(5, nxx);
  if (nxx % 100 === 11) return code(R_SERVICE_EXCHANGE, nxx);
  const line = value % 10_000;
  if (nxx === 555 && line >= 100 && line <= 199) return CODE_FICTION;
  return code(R_UNASSIGNED_EXCHANGE, npa * 1000 + nxx);
}

/** Kind of a valid number (a value normalizeCode returned ≥ 0). */
export function numberKind(n: number): NumberKind {
  const entry = EXCHANGES[Math.floor(n / 10_000)];
  const k = entry & CHECK_LINE ? lineKind(n, entry) : entry;
  return NUMBER_KINDS[k - 1];
}

/** ISO 3166 region of a valid number's area code (US for toll-free, premium and personal numbers). */
export function numberRegion(n: number): string {
  return AREA_REGION[Math.floor(n / 10_000_000)];
}

// ---------- reading a cell ----------

/** ASCII classes for the fast path: SEPARATOR for space tab . - ( ) /. */
const SEPARATOR = 2;
const ASCII = new Uint8Array(128);
for (const c of [32, 9, 46, 45, 40, 41, 47]) ASCII[c] = SEPARATOR;
/** Returned by scan when the text holds something the fast path does not read. */
const SLOW = 1;

/**
 * The fast path over ASCII text (a string or UTF-8 bytes through `at`): optional +, digits and
 * separators. Returns the code, or SLOW.
 */
function finish(value: number, digits: number, plus: boolean): number {
  if (digits === 10) return plus ? CODE_NOT_NANP : checkTen(value);
  if (digits === 11 && value >= 10_000_000_000 && value < 20_000_000_000) return checkTen(value - 10_000_000_000);
  if (digits === 0) return CODE_NOT_A_NUMBER;
  if (plus) return value >= 10 ** (digits - 1) && value < 2 * 10 ** (digits - 1) ? code(3, digits - 1) : CODE_NOT_NANP;
  if (digits === 14 && value >= 1_110_000_000_000 && value < 1_120_000_000_000) return checkTen(value - 1_110_000_000_000); // 011 1
  if (digits > 11 && value < 10 ** (digits - 3) * 12 && value >= 10 ** (digits - 3) * 11) return CODE_NOT_NANP; // 011 + another country
  return code(3, Math.min(digits, 999));
}

/** normalizeCode's fast path: s[i, n) trimmed of ASCII space and tab. */
function scan(s: string): number {
  let i = 0;
  let n = s.length;
  while (i < n && (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9)) i++;
  while (n > i && (s.charCodeAt(n - 1) === 32 || s.charCodeAt(n - 1) === 9)) n--;
  if (i === n) return CODE_EMPTY;
  let plus = false;
  if (s.charCodeAt(i) === 43) {
    plus = true;
    i++;
  }
  let digits = 0;
  let value = 0;
  for (; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d >= 0 && d <= 9) {
      if (digits < 15) value = value * 10 + d;
      digits++;
    } else if (d > 79 || ASCII[d + 48] !== SEPARATOR) return SLOW;
  }
  if (digits === 10 && !plus) {
    // the common case inline: a 10-digit number whose exchange is in service
    if (inService(value)) return value;
  }
  if (digits >= 20) return SLOW; // maybe two numbers
  return finish(value, digits, plus);
}

/**
 * The value of the ten bytes buf[i, i + 10) when all are digits, else -1: read as two five-digit halves (two short
 * integer sums instead of one long floating-point chain), unrolled (a loop over the digits took ~20 % longer to parse
 * a list file).
 */
export function tenDigitsAt(buf: Uint8Array, i: number): number {
  const a0 = buf[i] - 48;
  const a1 = buf[i + 1] - 48;
  const a2 = buf[i + 2] - 48;
  const a3 = buf[i + 3] - 48;
  const a4 = buf[i + 4] - 48;
  const b0 = buf[i + 5] - 48;
  const b1 = buf[i + 6] - 48;
  const b2 = buf[i + 7] - 48;
  const b3 = buf[i + 8] - 48;
  const b4 = buf[i + 9] - 48;
  // negative when a byte is not a digit
  const outside =
    a0 |
    a1 |
    a2 |
    a3 |
    a4 |
    b0 |
    b1 |
    b2 |
    b3 |
    b4 |
    (9 - a0) |
    (9 - a1) |
    (9 - a2) |
    (9 - a3) |
    (9 - a4) |
    (9 - b0) |
    (9 - b1) |
    (9 - b2) |
    (9 - b3) |
    (9 - b4);
  if (outside < 0) return -1;
  return (a0 * 10_000 + a1 * 1000 + a2 * 100 + a3 * 10 + a4) * 100_000 + (b0 * 10_000 + b1 * 1000 + b2 * 100 + b3 * 10 + b4);
}

/** The same fast path over UTF-8 bytes buf[s, e); SLOW when it cannot read them. */
export function scanBytes(buf: Uint8Array, s: number, e: number): number {
  if (e - s === 10) {
    // the commonest cell, ten bare digits; anything else, or an exchange not in service, takes the general loop
    const value = tenDigitsAt(buf, s);
    if (value >= 0 && inService(value)) return value;
  }
  while (s < e && (buf[s] === 32 || buf[s] === 9)) s++;
  while (e > s && (buf[e - 1] === 32 || buf[e - 1] === 9)) e--;
  if (s === e) return CODE_EMPTY;
  let plus = false;
  if (buf[s] === 43) {
    plus = true;
    s++;
  }
  let digits = 0;
  let value = 0;
  for (; s < e; s++) {
    const d = buf[s] - 48;
    if (d >= 0 && d <= 9) {
      if (digits < 15) value = value * 10 + d;
      digits++;
    } else if (d > 79 || ASCII[d + 48] !== SEPARATOR) return SLOW;
  }
  if (digits === 10 && !plus) {
    if (inService(value)) return value;
  }
  if (digits >= 20) return SLOW;
  return finish(value, digits, plus);
}

const decoder = new TextDecoder("utf-8");

/** normalizeCode over UTF-8 bytes; identical results to normalizeCode(the decoded text). */
export function normalizeBytes(buf: Uint8Array, s: number, e: number): number {
  const c = scanBytes(buf, s, e);
  if (c !== SLOW) return c;
  // Excel's scientific notation (1.23457E+9) is common in exported sheets: answered here, not through a string
  if (isExcelNotationBytes(buf, s, e)) return CODE_EXCEL;
  return slowPath(decoder.decode(buf.subarray(s, e)));
}

const isDigitByte = (c: number) => c >= 48 && c <= 57;

/**
 * EXCEL_NOTATION on the bytes buf[s, e) trimmed of ASCII spaces and tabs: ASCII only, so the text slowPath
 * would test (the decoded cell, trimmed) is the same characters.
 */
function isExcelNotationBytes(buf: Uint8Array, s: number, e: number): boolean {
  while (s < e && (buf[s] === 32 || buf[s] === 9)) s++;
  while (e > s && (buf[e - 1] === 32 || buf[e - 1] === 9)) e--;
  let i = s;
  if (i < e && (buf[i] === 43 || buf[i] === 45)) i++;
  const intStart = i;
  while (i < e && isDigitByte(buf[i])) i++;
  if (i === intStart) return false;
  if (i < e && buf[i] === 46) {
    i++;
    while (i < e && isDigitByte(buf[i])) i++;
  }
  if (i >= e || (buf[i] !== 69 && buf[i] !== 101)) return false;
  i++;
  if (i < e && (buf[i] === 43 || buf[i] === 45)) i++;
  const expStart = i;
  while (i < e && isDigitByte(buf[i])) i++;
  return i > expStart && i === e;
}

/** The 10-digit number (2000000000…9999999999) when valid, else a negative code (reasonOfCode). */
export function normalizeCode(s: string): number {
  const c = scan(s);
  return c === SLOW ? slowPath(s) : c;
}

const EXCEL_NOTATION = /^[+-]?\d+(\.\d*)?[eE][+-]?\d+$/;
const EXCEL_TEXT = /^(?:'|="(.*)"$)/s;
const TEL = /^tel:/i;
/** An extension at the end: x, ext, ext., extension, #, ;ext= (RFC 3966), then up to 10 digits. */
const EXTENSION = /(?<=\d[ .\-()/]*)(?:(?:;ext=|\s*(?:ext(?:ension)?\.?|x|#)\s*)\d{0,10}|#)\s*$/i;
/** Characters read as separators: Unicode spaces, dashes, the minus sign, brackets; format characters are dropped. */
const UNICODE_SEPARATOR = /[\p{Zs}\p{Pd}\u2212\s\[\]]/gu;
const FORMAT_CHAR = /\p{Cf}/gu;
const FULLWIDTH = /[\uFF01-\uFF5E]/g;
const NON_ASCII_DIGIT = /\p{Nd}/gu;
const NON_ASCII = /[^\x00-\x7f]/;

function asciiDigit(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 128) return ch;
  let lo = 0;
  let hi = UNICODE_DIGIT_ZEROS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (UNICODE_DIGIT_ZEROS[mid] <= cp) lo = mid;
    else hi = mid - 1;
  }
  return String(cp - UNICODE_DIGIT_ZEROS[lo]);
}

/** Text the fast path could not read: Unicode, prefixes, Excel markers, extensions, two numbers, letters. */
function slowPath(raw: string): number {
  let t = raw.trim();
  if (EXCEL_NOTATION.test(t)) return CODE_EXCEL;
  if (NON_ASCII.test(t)) {
    t = t
      .replace(FORMAT_CHAR, "")
      .replace(FULLWIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
      .replace(NON_ASCII_DIGIT, asciiDigit);
  }
  t = t.replace(UNICODE_SEPARATOR, " ").trim();
  if (t === "") return CODE_EMPTY;
  const excel = EXCEL_TEXT.exec(t);
  if (excel) t = (excel[1] ?? t.slice(1)).trim();
  if (TEL.test(t)) t = t.slice(4).trim();
  t = t.replace(EXTENSION, "");
  const c = scan(t);
  if (c !== SLOW) return c;
  if (isTwoNumbers(t)) return CODE_TWO_NUMBERS;
  const digits = t.replace(/\D/g, "").length;
  // only digits and separators left: too many digits for one number
  return digits >= 20 && /^\+?[\d .\-()/]+$/.test(t) ? code(3, Math.min(digits, 999)) : CODE_NOT_A_NUMBER;
}

/** Whether the text's digit groups split into two numbers of 10 digits (or 11 starting with 1). */
function isTwoNumbers(t: string): boolean {
  const groups = t.match(/\d+/g);
  if (!groups || groups.length < 2) return false;
  const total = groups.reduce((a, g) => a + g.length, 0);
  let left = "";
  for (let i = 0; i < groups.length - 1; i++) {
    left += groups[i];
    const right = total - left.length;
    const rightFirst = groups[i + 1][0];
    const okLeft = left.length === 10 || (left.length === 11 && left[0] === "1");
    const okRight = right === 10 || (right === 11 && rightFirst === "1");
    if (okLeft && okRight) return true;
  }
  return false;
}

// ---------- friendly forms ----------

export type PhoneParse = { ok: true; number: number; digits: string; kind: NumberKind; region: string } | { ok: false; reason: InvalidReason; message: string };

/** For forms and APIs: the number with its kind and region, or the reason with the customer's sentence. */
export function parsePhone(input: string): PhoneParse {
  const c = normalizeCode(input);
  if (c < 0) return { ok: false, reason: reasonOfCode(c), message: invalidReasonText(c) };
  return { ok: true, number: c, digits: String(c), kind: numberKind(c), region: numberRegion(c) };
}

/** The 10-digit string of a valid entry, or null. */
export function normalizePhone(input: string): string | null {
  const c = normalizeCode(input);
  return c < 0 ? null : String(c);
}

/** (555) 234-5678 */
export function formatPhone(n: number | bigint | string): string {
  const s = String(n).padStart(10, "0");
  return `(${s.slice(0, 3)}) ${s.slice(3, 6)}-${s.slice(6)}`;
}
