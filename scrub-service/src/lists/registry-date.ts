/**
 * The registry date an admin states for a DNC download (decision 110): the day the FTC file was obtained,
 * which starts the 31-day clock. One parser for the DNC form (browser and server), the scrub-service HTTP API
 * and the CLI. Pure, no imports: the browser bundle uses it too.
 *
 * Accepted: a real calendar date written YYYY-MM-DD, not in the future (after today in UTC, with one day of
 * slack: east of Greenwich an admin's today can already be tomorrow in UTC), and at most 365 days ago (an
 * older date is a typo: such a list would have been stale for eleven months). Stored as midnight UTC of that day.
 */

export const REGISTRY_DATE_MAX_AGE_DAYS = 365;
const DAY_MS = 86_400_000;

export type RegistryDateResult = { ok: true; date: Date } | { ok: false; message: string };

/** `now`: injectable (tests). */
export function parseRegistryDate(value: string, now: Date = new Date()): RegistryDateResult {
  const text = value.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return { ok: false, message: `Registry date must be a date written YYYY-MM-DD (got "${text.slice(0, 40)}").` };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
    return { ok: false, message: `Registry date ${text} is not a real calendar date.` };
  }
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (date.getTime() > today + DAY_MS) return { ok: false, message: `Registry date ${text} is in the future: state the day the registry file was downloaded.` };
  if (date.getTime() < today - REGISTRY_DATE_MAX_AGE_DAYS * DAY_MS) {
    return { ok: false, message: `Registry date ${text} is more than ${REGISTRY_DATE_MAX_AGE_DAYS} days ago: check the year.` };
  }
  return { ok: true, date };
}

/** An optional stated date: "" / undefined → null (the load time is used); otherwise parsed or refused. */
export function parseOptionalRegistryDate(
  value: string | null | undefined,
  now: Date = new Date(),
): { ok: true; date: Date | null } | { ok: false; message: string } {
  if (value == null || value.trim() === "") return { ok: true, date: null };
  return parseRegistryDate(value, now);
}

/** Today's date (UTC) as YYYY-MM-DD: the date input's `max`. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
