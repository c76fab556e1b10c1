import { describe, expect, it } from "vitest";
import { dayKey, easterSunday, FEDERAL_HOLIDAYS, holidayDate, holidayDays } from "./holidays";
import { RULES_BY_ID } from "./rules";

const iso = (d: Date) => d.toISOString().slice(0, 10);

describe("holidays computed per year", () => {
  it.each([
    [2024, [3, 31]],
    [2026, [4, 5]],
    [2027, [3, 28]],
    [2038, [4, 25]],
  ])("Easter %i", (year, md) => {
    expect(easterSunday(year)).toEqual(md);
  });

  it("Easter-based, nth-weekday, last-weekday and fixed dates", () => {
    expect(iso(holidayDate({ easter: -47 }, 2026))).toBe("2026-02-17"); // Mardi Gras
    expect(iso(holidayDate({ easter: -2 }, 2026))).toBe("2026-04-03"); // Good Friday
    expect(iso(holidayDate({ nth: 4, weekday: 4, month: 11 }, 2026))).toBe("2026-11-26"); // Thanksgiving
    expect(iso(holidayDate({ nth: -1, weekday: 1, month: 5 }, 2026))).toBe("2026-05-25"); // Memorial Day
    expect(iso(holidayDate({ nth: 1, weekday: 1, month: 11, plus: 1 }, 2026))).toBe("2026-11-03"); // election day
    expect(iso(holidayDate({ nth: 1, weekday: 1, month: 11, plus: 1 }, 2027))).toBe("2027-11-02");
    expect(iso(holidayDate({ fixed: [7, 24] }, 2026))).toBe("2026-07-24");
  });

  it("a weekend holiday bans its date and its observed weekday", () => {
    const days = holidayDays(FEDERAL_HOLIDAYS, "weekend-to-weekday", 2026);
    expect(days.has(dayKey(2026, 7, 4))).toBe(true); // Saturday
    expect(days.has(dayKey(2026, 7, 3))).toBe(true); // observed Friday
    expect(days.has(dayKey(2026, 7, 6))).toBe(false);
    // New Year's Day 2028 is a Saturday: observed on 31 December 2027
    expect(holidayDays(FEDERAL_HOLIDAYS, "weekend-to-weekday", 2027).has(dayKey(2027, 12, 31))).toBe(true);
    expect(holidayDays(FEDERAL_HOLIDAYS, "none", 2026).has(dayKey(2026, 7, 3))).toBe(false);
  });

  it("the state lists carry their own days", () => {
    const la = RULES_BY_ID.get("US-LA")!;
    const days = holidayDays(la.holidays!, la.observance!, 2026);
    expect(days.has(dayKey(2026, 2, 17))).toBe(true); // Mardi Gras
    expect(days.has(dayKey(2026, 8, 30))).toBe(true); // Huey P. Long Day
    const ut = RULES_BY_ID.get("US-UT")!;
    expect(holidayDays(ut.holidays!, ut.observance!, 2026).has(dayKey(2026, 7, 24))).toBe(true); // Pioneer Day
  });

  it("Louisiana: Robert E. Lee Day is no longer a holiday (R.S. 1:55(A)(1) as amended by Acts 2022, HB 248)", () => {
    const la = RULES_BY_ID.get("US-LA")!;
    expect(la.holidays!.map((h) => h.name)).not.toContain("Robert E. Lee Day");
    // 19 January 2027 is a Tuesday (Dr. Martin Luther King, Jr.'s Birthday is Monday the 18th)
    const days = holidayDays(la.holidays!, la.observance!, 2027);
    expect(days.has(dayKey(2027, 1, 19))).toBe(false);
    expect(days.has(dayKey(2027, 1, 18))).toBe(true);
    expect(days.has(dayKey(2027, 1, 8))).toBe(true); // Battle of New Orleans
  });

  describe("Rhode Island (R.I. Gen. Laws § 25-1-1)", () => {
    const ri = RULES_BY_ID.get("US-RI")!;
    const banned = (y: number, m: number, d: number) => holidayDays(ri.holidays!, ri.observance!, y).has(dayKey(y, m, d));

    it("May 4, Rhode Island Independence Day; on a Sunday also the Monday after, on a Saturday no Monday (the statute moves it off Sundays only)", () => {
      expect(banned(2026, 5, 4)).toBe(true); // Monday
      expect(banned(2027, 5, 4)).toBe(true); // Tuesday
      expect(banned(2025, 5, 4)).toBe(true); // Sunday …
      expect(banned(2025, 5, 5)).toBe(true); // … and the Monday after
      expect(banned(2030, 5, 4)).toBe(true); // Saturday
      expect(banned(2030, 5, 6)).toBe(false); // not the Monday after
      expect(banned(2026, 5, 5)).toBe(false);
    });

    it("general election day: the Tuesday after the first Monday of November, in even years only", () => {
      expect(banned(2026, 11, 3)).toBe(true);
      expect(banned(2028, 11, 7)).toBe(true);
      expect(banned(2027, 11, 2)).toBe(false);
      expect(banned(2026, 11, 2)).toBe(false);
    });

    it("New Year's Day, Independence Day, Veterans' Day and Christmas on a Saturday: also the following Monday (and the Friday before, the federal observance, kept as the stricter reading)", () => {
      expect([banned(2026, 7, 3), banned(2026, 7, 4), banned(2026, 7, 6)]).toEqual([true, true, true]); // 4 July 2026 is a Saturday
      expect([banned(2027, 12, 24), banned(2027, 12, 25), banned(2027, 12, 27)]).toEqual([true, true, true]); // Christmas 2027
      expect(banned(2026, 7, 7)).toBe(false);
      // a holiday the statute does not move keeps Saturday → Friday only: Juneteenth 2027 is a Saturday
      expect([banned(2027, 6, 18), banned(2027, 6, 19), banned(2027, 6, 21)]).toEqual([true, true, false]);
      expect(banned(2026, 8, 10)).toBe(true); // Victory Day
    });
  });
});
