/**
 * Business days for the opt-out clock (decision 195): 47 CFR 64.1200(d)(3) has a do-not-call request honoured "within a
 * reasonable time ... not to exceed ten business days from the receipt of the request". A business day is a Monday to
 * Friday that is not a federal legal public holiday (5 U.S.C. 6103(a)) nor its observed day (a Saturday holiday on the
 * Friday before, a Sunday one on the Monday after: 5 U.S.C. 6103(b)), read from the calling rules' one holiday table
 * (calling/holidays.ts). The day of receipt is the calendar day on the clock the instant was said in, and is not
 * counted; the request is late once the tenth business day after it has ended on that clock. Pure.
 */
import { FEDERAL_HOLIDAYS, dayKey, holidayDays, type DayKey } from "../calling/holidays";

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

/** Whether a request honoured at `honouredMs` (or, when not yet honoured, still not at `nowMs`) is past its deadline. */
export function honouredLate(receivedMs: number, offsetMinutes: number, honouredMs: number | null, nowMs: number): boolean {
  const deadline = honourDeadline(receivedMs, offsetMinutes).getTime();
  return (honouredMs ?? nowMs) >= deadline;
}
