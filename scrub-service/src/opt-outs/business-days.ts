/**
 * Business days for the opt-out clock (decision 195): 47 CFR 64.1200(d)(3) has a do-not-call request honoured "within a
 * reasonable time ... not to exceed ten business days from the receipt of the request". A business day is a Monday to
 * Friday that is not a federal legal public holiday (5 U.S.C. 6103(a)) nor its observed day (a Saturday holiday on the
 * Friday before, a Sunday one on the Monday after: 5 U.S.C. 6103(b)), read from the calling rules' one holiday table
 * (calling/holidays.ts). The day of receipt is the calendar day on the clock the instant was said in, and is not
 * counted; the request is late once the tenth business day after it has ended on that clock. Pure.
 */
import { FEDERAL_HOLIDAYS, dayKey, holidayDays, type DayKey } from "../calling/holidays";
import { numberRegion } from "../numbers/normalize";

export const HONOUR_BUSINESS_DAYS = 10;
const DAY_MS = 86_400_000;

const federalDays = new Map<number, Set<DayKey>>();
function federalHolidaysOf(year: number): Set<DayKey> {
  let s = federalDays.get(year);
  if (!s) federalDays.set(year, (s = holidayDays(FEDERAL_HOLIDAYS, "weekend-to-weekday", year)));
  return s;
}

/** Whether the calendar day (a UTC midnight standing for it) is a business day. */
export function isBusinessDay(day: Date): boolean {
  const wd = day.getUTCDay();
  if (wd === 0 || wd === 6) return false;
  const y = day.getUTCFullYear();
  return !federalHolidaysOf(y).has(dayKey(y, day.getUTCMonth() + 1, day.getUTCDate()));
}

/**
 * The instant by which a request received at `receivedMs` (said at `offsetMinutes` east of UTC) must be honoured: the
 * end of the tenth business day after the day of receipt, on that clock.
 */
export function honourDeadline(receivedMs: number, offsetMinutes = 0, businessDays = HONOUR_BUSINESS_DAYS): Date {
  const local = new Date(receivedMs + offsetMinutes * 60_000);
  let day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  let counted = 0;
  while (counted < businessDays) {
    day += DAY_MS;
    if (isBusinessDay(new Date(day))) counted++;
  }
  // the end of that day on the request's clock: the next local midnight
  return new Date(day + DAY_MS - offsetMinutes * 60_000);
}

/**
 * Canada's clock: the CRTC's Unsolicited Telecommunications Rules have a telemarketer add a consumer's number to its
 * internal do-not-call list within 14 days of the request (31 days until 2014-06-30). Counted like the US clock: the day
 * of receipt is not counted, and the request is late once the 14th calendar day after it has ended on its clock.
 */
export const HONOUR_CALENDAR_DAYS_CANADA = 14;

/** The rule an opt-out's deadline comes from, as the dashboard and the API name it. */
export type HonourRule = "47 CFR 64.1200(d)(3)" | "CRTC Unsolicited Telecommunications Rules, internal list within 14 days";

/**
 * The deadline of a request about `number`: ten US business days; for a Canadian number (by its area code) also the
 * CRTC's 14 calendar days, the earlier of the two (ten business days are never fewer than 14 calendar days, so for a
 * Canadian number it is the 14-day deadline, and a US holiday in between never lengthens it).
 */
export function optOutDeadline(number: number, receivedMs: number, offsetMinutes = 0): { deadline: Date; rule: HonourRule } {
  const us = honourDeadline(receivedMs, offsetMinutes);
  if (numberRegion(number) !== "CA") return { deadline: us, rule: "47 CFR 64.1200(d)(3)" };
  const local = new Date(receivedMs + offsetMinutes * 60_000);
  const day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) + HONOUR_CALENDAR_DAYS_CANADA * DAY_MS;
  const canada = new Date(day + DAY_MS - offsetMinutes * 60_000);
  return canada <= us
    ? { deadline: canada, rule: "CRTC Unsolicited Telecommunications Rules, internal list within 14 days" }
    : { deadline: us, rule: "47 CFR 64.1200(d)(3)" };
}

/** Whether a request about `number` honoured at `honouredMs` (or, when not yet honoured, still not at `nowMs`) is past its deadline. */
export function honouredLate(number: number, receivedMs: number, offsetMinutes: number, honouredMs: number | null, nowMs: number): boolean {
  return (honouredMs ?? nowMs) >= optOutDeadline(number, receivedMs, offsetMinutes).deadline.getTime();
}
