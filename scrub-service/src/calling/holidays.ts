/**
 * Holidays as rules, computed per year: a fixed date, the nth (or last) weekday of a month, or a day counted
 * from Easter Sunday (Mardi Gras, Good Friday). Pure; dates are calendar days (no time zone).
 */

/** A calendar day as YYYYMMDD (a number: cheap to compare and to keep in a Set). */
export type DayKey = number;

export const dayKey = (y: number, m: number, d: number): DayKey => y * 10_000 + m * 100 + d;

export type HolidayDate =
  | { fixed: [month: number, day: number] }
  /** n = 1…4, or -1 for the last; weekday 0 = Sunday; `plus` days after it (election day: first Monday + 1). */
  | { nth: number; weekday: number; month: number; plus?: number }
  /** Days after Easter Sunday (negative: before). */
  | { easter: number };

export interface Holiday {
  name: string;
  date: HolidayDate;
  /** Only in even years (Rhode Island's general election day: "each year in which a general election of state officers is held"). */
  evenYearsOnly?: boolean;
  /**
   * Also observed on the following Monday when it falls on a Saturday (Rhode Island's § 25-1-1: "in the event that
   * day is a Saturday or Sunday, then state employees will celebrate the holiday on the following Monday"); added
   * to the rule's own observance, which still bans the date itself.
   */
  saturdayToMonday?: boolean;
}

/**
 * How a holiday on a weekend is observed. "weekend-to-weekday": Saturday → the Friday before, Sunday → the
 * Monday after (5 U.S.C. 6103 and most state codes); "sunday-to-monday": only Sunday moves. The ban covers the
 * date itself and the observed day (a call must be lawful under either reading).
 */
export type Observance = "none" | "weekend-to-weekday" | "sunday-to-monday";

/** Easter Sunday (Gregorian), the anonymous algorithm (Meeus/Jones/Butcher): [month, day]. */
export function easterSunday(year: number): [number, number] {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return [month, day];
}

const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));
const keyOf = (t: Date): DayKey => dayKey(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());

/** The holiday's date in `year` (a UTC midnight standing for the calendar day). */
export function holidayDate(h: HolidayDate, year: number): Date {
  if ("fixed" in h) return utc(year, h.fixed[0], h.fixed[1]);
  if ("easter" in h) {
    const [m, d] = easterSunday(year);
    return utc(year, m, d + h.easter);
  }
  const plus = h.plus ?? 0;
  if (h.nth > 0) {
    const first = utc(year, h.month, 1).getUTCDay();
    return utc(year, h.month, 1 + ((h.weekday - first + 7) % 7) + 7 * (h.nth - 1) + plus);
  }
  const lastDay = utc(year, h.month + 1, 0);
  return utc(year, h.month, lastDay.getUTCDate() - ((lastDay.getUTCDay() - h.weekday + 7) % 7) + plus);
}

/** Every banned day of `year` for these holidays: each date and, when it falls on a weekend, its observed day. */
export function holidayDays(holidays: readonly Holiday[], observance: Observance, year: number): Set<DayKey> {
  const out = new Set<DayKey>();
  // a holiday of the next year observed on 31 December (1 January on a Saturday) counts too
  for (const y of [year, year + 1]) {
    for (const h of holidays) {
      if (h.evenYearsOnly && y % 2 !== 0) continue;
      const t = holidayDate(h.date, y);
      if (y === year) out.add(keyOf(t));
      const wd = t.getUTCDay();
      const observed: Date[] = [];
      if (observance !== "none" && wd === 0) observed.push(new Date(t.getTime() + 86_400_000));
      if (observance === "weekend-to-weekday" && wd === 6) observed.push(new Date(t.getTime() - 86_400_000));
      if (h.saturdayToMonday && wd === 6) observed.push(new Date(t.getTime() + 2 * 86_400_000));
      for (const o of observed) if (o.getUTCFullYear() === year) out.add(keyOf(o));
    }
  }
  return out;
}

/**
 * The holiday that bans `year-month-day` under the same reading as holidayDays (its date, or its observed day:
 * then " observed" is added to its name), or null. For the calling note (decision 180).
 */
export function holidayOn(holidays: readonly Holiday[], observance: Observance, year: number, month: number, day: number): string | null {
  const key = dayKey(year, month, day);
  let observedName: string | null = null;
  for (const y of [year, year + 1]) {
    for (const h of holidays) {
      if (h.evenYearsOnly && y % 2 !== 0) continue;
      const t = holidayDate(h.date, y);
      if (keyOf(t) === key) return h.name;
      const wd = t.getUTCDay();
      const observed: Date[] = [];
      if (observance !== "none" && wd === 0) observed.push(new Date(t.getTime() + 86_400_000));
      if (observance === "weekend-to-weekday" && wd === 6) observed.push(new Date(t.getTime() - 86_400_000));
      if (h.saturdayToMonday && wd === 6) observed.push(new Date(t.getTime() + 2 * 86_400_000));
      if (observedName === null && observed.some((o) => keyOf(o) === key)) observedName = `${h.name} observed`;
    }
  }
  return observedName;
}

/** The federal legal public holidays, 5 U.S.C. 6103(a). */
export const FEDERAL_HOLIDAYS: readonly Holiday[] = [
  { name: "New Year's Day", date: { fixed: [1, 1] } },
  { name: "Birthday of Martin Luther King, Jr.", date: { nth: 3, weekday: 1, month: 1 } },
  { name: "Washington's Birthday", date: { nth: 3, weekday: 1, month: 2 } },
  { name: "Memorial Day", date: { nth: -1, weekday: 1, month: 5 } },
  { name: "Juneteenth National Independence Day", date: { fixed: [6, 19] } },
  { name: "Independence Day", date: { fixed: [7, 4] } },
  { name: "Labor Day", date: { nth: 1, weekday: 1, month: 9 } },
  { name: "Columbus Day", date: { nth: 2, weekday: 1, month: 10 } },
  { name: "Veterans Day", date: { fixed: [11, 11] } },
  { name: "Thanksgiving Day", date: { nth: 4, weekday: 4, month: 11 } },
  { name: "Christmas Day", date: { fixed: [12, 25] } },
];
