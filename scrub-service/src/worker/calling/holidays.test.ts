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
});
