/** The `at` of a scrub or lookup: an ISO-8601 date-time with its offset (a bare local time names no instant). */
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** The years an instant may fall in, read in UTC (a local year would let 2099-12-31T23:00-05:00, i.e. 2100, pass). */
export const INSTANT_FIRST_YEAR = 2000;
export const INSTANT_LAST_YEAR = 2099;

/** The one range check of an instant's year: its UTC year. */
export function instantYearInRange(ms: number): boolean {
  const y = new Date(ms).getUTCFullYear();
  return y >= INSTANT_FIRST_YEAR && y <= INSTANT_LAST_YEAR;
}

export const AT_FORMAT_MESSAGE = "must be an ISO-8601 date-time with a UTC offset, e.g. 2026-11-26T15:00:00Z or 2026-11-26T10:00:00-05:00";

export type ParsedInstant = { ok: true; ms: number } | { ok: false; message: string };

export function parseInstant(text: string, field = "at"): ParsedInstant {
  const m = ISO.exec(text.trim());
  if (!m) return { ok: false, message: `${field} ${AT_FORMAT_MESSAGE}.` };
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const ms = Date.parse(text.trim().replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  const valid = mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth && h <= 23 && mi <= 59 && (Number.isNaN(s) || s <= 59);
  if (!valid || Number.isNaN(ms)) return { ok: false, message: `${field} is not a real date-time: ${text.trim()}.` };
  // the instant's UTC year (2099-12-31T23:00:00-05:00 is 2100)
  if (!instantYearInRange(ms)) return { ok: false, message: `${field} must be between the years ${INSTANT_FIRST_YEAR} and ${INSTANT_LAST_YEAR}.` };
  return { ok: true, ms: Math.floor(ms / 1000) * 1000 };
}
