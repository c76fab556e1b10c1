import { describe, expect, it } from "vitest";
import { callingClassOf, callingClassTable, timeZonesOf } from "./exchanges";
import { CALLING_RULES } from "./rules";
import { evaluateCalling, isoSecond } from "./window";

/** The answer for a number at an instant, as good.csv prints it. */
function answer(n: number, at: string) {
  const t = callingClassTable();
  const c = t.classes[callingClassOf(t.byExchange, n)];
  if (!c.zones.length) return { zones: "", callable: "", next: "" };
  const a = evaluateCalling(c.zones, c.rules, Date.parse(at));
  return { zones: c.zoneSet, callable: a.callableNow ? "yes" : "no", next: isoSecond(a.nextCallAt), bucket: a.bucket };
}

const NEW_YORK = 2125552345;
const PHOENIX = 6025552345;
const HONOLULU = 8085552345;
const SAN_JUAN = 7875552345;

describe("calling window: the federal 8 a.m.-9 p.m. edge", () => {
  it("20:59:59 local is callable, 21:00:00 is not (next: 8 a.m. the next day)", () => {
    // Tuesday 24 November 2026, New York (EST, UTC-5)
    expect(answer(NEW_YORK, "2026-11-25T01:59:59Z")).toMatchObject({ zones: "America/New_York", callable: "yes", next: "2026-11-25T01:59:59Z" });
    expect(answer(NEW_YORK, "2026-11-25T02:00:00Z")).toMatchObject({ callable: "no", next: "2026-11-25T13:00:00Z", bucket: "not_today" });
    expect(answer(NEW_YORK, "2026-11-24T12:59:59Z")).toMatchObject({ callable: "no", next: "2026-11-24T13:00:00Z", bucket: "later_today" });
    expect(answer(NEW_YORK, "2026-11-24T13:00:00Z")).toMatchObject({ callable: "yes" });
  });

  it("the instant is read to the second", () => {
    expect(answer(NEW_YORK, "2026-11-24T15:00:00.750Z").next).toBe("2026-11-24T15:00:00Z");
  });
});

describe("calling window: DST changeover days", () => {
  it("2026-03-08 (spring forward): 8 a.m. EDT in New York; Arizona, Hawaii, Puerto Rico unchanged", () => {
    // 1 a.m. EST in New York, before the change
    expect(answer(NEW_YORK, "2026-03-08T06:00:00Z")).toMatchObject({ callable: "no", next: "2026-03-08T12:00:00Z", bucket: "later_today" });
    const at = "2026-03-08T10:00:00Z"; // after the change: 6 a.m. EDT, 3 a.m. MST, midnight HST, 6 a.m. AST
    expect(answer(PHOENIX, at)).toMatchObject({ zones: "America/Phoenix", next: "2026-03-08T15:00:00Z" });
    expect(answer(HONOLULU, at)).toMatchObject({ zones: "Pacific/Honolulu", next: "2026-03-08T18:00:00Z" });
    expect(answer(SAN_JUAN, at)).toMatchObject({ zones: "America/Puerto_Rico", next: "2026-03-08T12:00:00Z" });
    // the day before: 8 a.m. EST
    expect(answer(NEW_YORK, "2026-03-07T06:00:00Z").next).toBe("2026-03-07T13:00:00Z");
    expect(answer(PHOENIX, "2026-03-07T06:00:00Z").next).toBe("2026-03-07T15:00:00Z");
    // the evening of the change: 9 p.m. EDT is 01:00Z
    expect(answer(NEW_YORK, "2026-03-09T00:59:59Z").callable).toBe("yes");
    expect(answer(NEW_YORK, "2026-03-09T01:00:00Z")).toMatchObject({ callable: "no", next: "2026-03-09T12:00:00Z" });
  });

  it("2026-11-01 (fall back): 8 a.m. EST in New York; Arizona, Hawaii, Puerto Rico unchanged", () => {
    // 1:30 a.m. EDT, the hour that repeats
    expect(answer(NEW_YORK, "2026-11-01T05:30:00Z")).toMatchObject({ callable: "no", next: "2026-11-01T13:00:00Z", bucket: "later_today" });
    const at = "2026-11-01T10:00:00Z"; // after the change: 5 a.m. EST, 3 a.m. MST, midnight HST, 6 a.m. AST
    expect(answer(NEW_YORK, at).next).toBe("2026-11-01T13:00:00Z");
    expect(answer(PHOENIX, at).next).toBe("2026-11-01T15:00:00Z");
    expect(answer(HONOLULU, at).next).toBe("2026-11-01T18:00:00Z");
    expect(answer(SAN_JUAN, at).next).toBe("2026-11-01T12:00:00Z");
    // the day before: 8 a.m. EDT
    expect(answer(NEW_YORK, "2026-10-31T06:00:00Z").next).toBe("2026-10-31T12:00:00Z");
    // 9 p.m. EST on the day of the change is 02:00Z
    expect(answer(NEW_YORK, "2026-11-02T01:59:59Z").callable).toBe("yes");
    expect(answer(NEW_YORK, "2026-11-02T02:00:00Z").callable).toBe("no");
  });
});

describe("calling window: state rules", () => {
  const BIRMINGHAM = 2055552345; // Alabama: no Sunday or holiday calls, 8 a.m.-8 p.m.
  const NEW_ORLEANS = 5045552345; // Louisiana: the same, and Mardi Gras
  it("a Sunday-ban state on Sunday and on Monday", () => {
    // Sunday 29 November 2026, 9 a.m. CST
    expect(answer(BIRMINGHAM, "2026-11-29T15:00:00Z")).toMatchObject({ callable: "no", next: "2026-11-30T14:00:00Z", bucket: "not_today" });
    expect(answer(BIRMINGHAM, "2026-11-30T15:00:00Z")).toMatchObject({ callable: "yes" });
    expect(answer(NEW_ORLEANS, "2026-11-29T15:00:00Z").callable).toBe("no");
    // a state without a Sunday ban
    expect(answer(NEW_YORK, "2026-11-29T15:00:00Z").callable).toBe("yes");
  });

  it("a holiday-ban state on its holiday", () => {
    // Mardi Gras 2026 (Tuesday 17 February), 10 a.m. CST in New Orleans
    expect(answer(NEW_ORLEANS, "2026-02-17T16:00:00Z")).toMatchObject({ callable: "no", next: "2026-02-18T14:00:00Z", bucket: "not_today" });
    expect(answer(NEW_ORLEANS, "2026-02-18T16:00:00Z").callable).toBe("yes");
    // Thanksgiving 2026 in Alabama; Friday after is a working day
    expect(answer(BIRMINGHAM, "2026-11-26T16:00:00Z")).toMatchObject({ callable: "no", next: "2026-11-27T14:00:00Z" });
    // Independence Day 2026 is a Saturday: Alabama observes it on Friday 3 July as well
    expect(answer(BIRMINGHAM, "2026-07-03T15:00:00Z")).toMatchObject({ callable: "no", next: "2026-07-06T13:00:00Z" });
    // 8 p.m. end in Alabama (CST)
    expect(answer(BIRMINGHAM, "2026-11-25T01:59:59Z").callable).toBe("yes");
    expect(answer(BIRMINGHAM, "2026-11-25T02:00:00Z").callable).toBe("no");
  });

  it("Florida ends at 8 p.m.; the split area code 850 answers by exchange", () => {
    const PENSACOLA = 8504325234; // 850-432: America/Chicago
    const TALLAHASSEE = 8506445234; // 850-644: America/New_York
    expect(timeZonesOf(PENSACOLA)).toEqual(["America/Chicago"]);
    expect(timeZonesOf(TALLAHASSEE)).toEqual(["America/New_York"]);
    // Tuesday 24 November 2026, 20:30 EST / 19:30 CST
    expect(answer(TALLAHASSEE, "2026-11-25T01:30:00Z")).toMatchObject({ callable: "no", next: "2026-11-25T13:00:00Z" });
    expect(answer(PENSACOLA, "2026-11-25T01:30:00Z")).toMatchObject({ callable: "yes" });
    expect(answer(PENSACOLA, "2026-11-25T02:00:00Z")).toMatchObject({ callable: "no", next: "2026-11-25T14:00:00Z" });
  });

  it("Mississippi's hours are also read in Central Standard Time (9 a.m. CDT in summer)", () => {
    const JACKSON = 6015552345;
    expect(answer(JACKSON, "2026-07-15T13:30:00Z")).toMatchObject({ callable: "no", next: "2026-07-15T14:00:00Z" });
    expect(answer(JACKSON, "2026-07-16T00:59:59Z").callable).toBe("yes"); // 7:59:59 p.m. CDT
    expect(answer(JACKSON, "2026-07-16T01:00:00Z").callable).toBe("no");
    expect(answer(JACKSON, "2026-01-15T14:00:00Z").callable).toBe("yes"); // 8 a.m. CST in winter
  });

  it("South Dakota: weekdays 9 a.m.-9 p.m. only (telemarketers: no Sunday; automated dialing: weekdays), Wyoming ends at 8 p.m.", () => {
    const SIOUX_FALLS = 6053322345; // Central time
    // Friday 27 November 2026: 8:59:59 and 9:00 a.m. CST; 8:59:59 and 9:00 p.m.
    expect(answer(SIOUX_FALLS, "2026-11-27T14:59:59Z")).toMatchObject({ callable: "no", next: "2026-11-27T15:00:00Z" });
    expect(answer(SIOUX_FALLS, "2026-11-27T15:00:00Z").callable).toBe("yes");
    expect(answer(SIOUX_FALLS, "2026-11-28T02:59:59Z").callable).toBe("yes");
    // 9 p.m. Friday: next is Monday 9 a.m. (Saturday under the autodialer section, Sunday under both)
    expect(answer(SIOUX_FALLS, "2026-11-28T03:00:00Z")).toMatchObject({ callable: "no", next: "2026-11-30T15:00:00Z" });
    expect(answer(SIOUX_FALLS, "2026-11-28T18:00:00Z").callable).toBe("no");
    const CHEYENNE = 3076342345; // Mountain time
    // 7:59:59 p.m. and 8 p.m. MST on Friday 27 November 2026
    expect(answer(CHEYENNE, "2026-11-28T02:59:59Z").callable).toBe("yes");
    expect(answer(CHEYENNE, "2026-11-28T03:00:00Z")).toMatchObject({ callable: "no", next: "2026-11-28T15:00:00Z" });
  });

  it("Texas: noon on Sunday", () => {
    const DALLAS = 2145552345;
    expect(answer(DALLAS, "2026-11-29T16:00:00Z")).toMatchObject({ callable: "no", next: "2026-11-29T18:00:00Z", bucket: "later_today" });
  });

  it("Pennsylvania: from 2026-10-18 no Sunday calls and 9 a.m.-7 p.m. on other days (SB 992), Saturday calls end at noon", () => {
    const PHILADELPHIA = 2155552345;
    // Sunday 29 November 2026, 10 a.m. EST: banned; next Monday 9 a.m. EST
    expect(answer(PHILADELPHIA, "2026-11-29T15:00:00Z")).toMatchObject({ callable: "no", next: "2026-11-30T14:00:00Z", bucket: "not_today" });
    // Sunday 11 October 2026, 11 a.m. EDT: before SB 992's date
    expect(answer(PHILADELPHIA, "2026-10-11T15:00:00Z").callable).toBe("yes");
    // Thursday 15 October 2026, before that date: the federal 8 a.m. start and 9 p.m. end
    expect(answer(PHILADELPHIA, "2026-10-15T12:30:00Z").callable).toBe("yes"); // 8:30 a.m. EDT
    expect(answer(PHILADELPHIA, "2026-10-16T00:59:59Z").callable).toBe("yes"); // 8:59:59 p.m. EDT
    // Monday 30 November 2026: 8:30 a.m. EST waits for 9; 6:59:59 p.m. callable, 7 p.m. not (next: Tuesday 9 a.m.)
    expect(answer(PHILADELPHIA, "2026-11-30T13:30:00Z")).toMatchObject({ callable: "no", next: "2026-11-30T14:00:00Z", bucket: "later_today" });
    expect(answer(PHILADELPHIA, "2026-11-30T23:59:59Z").callable).toBe("yes");
    expect(answer(PHILADELPHIA, "2026-12-01T00:00:00Z")).toMatchObject({ callable: "no", next: "2026-12-01T14:00:00Z", bucket: "not_today" });
    // Saturday 28 November 2026: 8:30 a.m. EST waits for 9; 11:59:59 a.m. callable, noon not; Sunday skipped
    expect(answer(PHILADELPHIA, "2026-11-28T13:30:00Z")).toMatchObject({ callable: "no", next: "2026-11-28T14:00:00Z" });
    expect(answer(PHILADELPHIA, "2026-11-28T16:59:59Z").callable).toBe("yes");
    expect(answer(PHILADELPHIA, "2026-11-28T17:00:00Z")).toMatchObject({ callable: "no", next: "2026-11-30T14:00:00Z" });
  });
});

describe("calling window: Oregon (HB 3865, from 2026-01-01)", () => {
  const PORTLAND = 5032242345;
  const SALEM_971 = 9715552345;
  const BEND = 5413822345;
  const EUGENE_458 = 4585552345;
  const ONTARIO = 5418892345; // Malheur County: Mountain time

  it("every Oregon area code outside Malheur County is Pacific and ends at 8 p.m.: 7:59:59 p.m. callable, 8 p.m. not", () => {
    for (const n of [PORTLAND, SALEM_971, BEND, EUGENE_458]) {
      expect(timeZonesOf(n), String(n)).toEqual(["America/Los_Angeles"]);
      // Wednesday 2 December 2026, PST (UTC-8)
      expect(answer(n, "2026-12-03T03:59:59Z"), String(n)).toMatchObject({ callable: "yes" });
      expect(answer(n, "2026-12-03T04:00:00Z"), String(n)).toMatchObject({ callable: "no", next: "2026-12-03T16:00:00Z", bucket: "not_today" });
    }
    // in summer (PDT, UTC-7)
    expect(answer(PORTLAND, "2026-07-16T02:59:59Z").callable).toBe("yes");
    expect(answer(PORTLAND, "2026-07-16T03:00:00Z")).toMatchObject({ callable: "no", next: "2026-07-16T15:00:00Z" });
  });

  it("7:59:59 a.m. waits for 8 a.m.; Sunday is an ordinary day", () => {
    expect(answer(PORTLAND, "2026-12-02T15:59:59Z")).toMatchObject({ callable: "no", next: "2026-12-02T16:00:00Z", bucket: "later_today" });
    expect(answer(PORTLAND, "2026-12-02T16:00:00Z").callable).toBe("yes");
    expect(answer(PORTLAND, "2026-11-29T18:00:00Z").callable).toBe("yes"); // Sunday 10 a.m. PST
  });

  it("before 2026-01-01 the federal 9 p.m. end applied; the rule starts on Oregon's 1 January", () => {
    // Wednesday 31 December 2025, 8:30 p.m. PST: callable; 9 p.m. not, next 8 a.m. on 1 January
    expect(answer(PORTLAND, "2026-01-01T04:30:00Z").callable).toBe("yes");
    expect(answer(PORTLAND, "2026-01-01T05:00:00Z")).toMatchObject({ callable: "no", next: "2026-01-01T16:00:00Z" });
    // Thursday 1 January 2026, 8:30 p.m. PST: the rule is in force
    expect(answer(PORTLAND, "2026-01-02T04:30:00Z")).toMatchObject({ callable: "no", next: "2026-01-02T16:00:00Z" });
    expect(answer(ONTARIO, "2026-01-01T03:30:00Z").callable).toBe("yes"); // 8:30 p.m. MST on 31 December 2025
  });

  it("Malheur County's Mountain-time exchanges: 8 p.m. Mountain ends, and 8 a.m. Pacific (9 a.m. Mountain) starts", () => {
    for (const nxx of [372, 473, 881, 889]) expect(timeZonesOf(541 * 10_000_000 + nxx * 10_000 + 2345), String(nxx)).toEqual(["America/Denver"]);
    // Wednesday 2 December 2026, MST (UTC-7): 7:59:59 p.m. callable, 8 p.m. not; next 9 a.m. MST (8 a.m. PST)
    expect(answer(ONTARIO, "2026-12-03T02:59:59Z")).toMatchObject({ zones: "America/Denver", callable: "yes" });
    expect(answer(ONTARIO, "2026-12-03T03:00:00Z")).toMatchObject({ callable: "no", next: "2026-12-03T16:00:00Z", bucket: "not_today" });
    // 8:30 a.m. MST is 7:30 a.m. PST: waits for the Pacific reading
    expect(answer(ONTARIO, "2026-12-02T15:30:00Z")).toMatchObject({ callable: "no", next: "2026-12-02T16:00:00Z", bucket: "later_today" });
    expect(answer(ONTARIO, "2026-12-02T16:00:00Z").callable).toBe("yes");
  });
});

describe("calling window: Canada (CRTC)", () => {
  const TORONTO = 4165552345;
  it("weekdays 9:00-21:30", () => {
    // Wednesday 25 November 2026, EST
    expect(answer(TORONTO, "2026-11-26T02:29:59Z").callable).toBe("yes");
    expect(answer(TORONTO, "2026-11-26T02:30:00Z")).toMatchObject({ callable: "no", next: "2026-11-26T14:00:00Z" });
    expect(answer(TORONTO, "2026-11-25T13:30:00Z")).toMatchObject({ callable: "no", next: "2026-11-25T14:00:00Z" });
  });
  it("weekends 10:00-18:00", () => {
    expect(answer(TORONTO, "2026-11-28T22:59:59Z").callable).toBe("yes");
    expect(answer(TORONTO, "2026-11-28T23:00:00Z")).toMatchObject({ callable: "no", next: "2026-11-29T15:00:00Z" });
    expect(answer(TORONTO, "2026-11-28T14:30:00Z")).toMatchObject({ callable: "no", next: "2026-11-28T15:00:00Z" });
  });
});

describe("calling window: several zones, none", () => {
  it("a multi-zone exchange must be lawful in every zone (928-283: Denver and Phoenix)", () => {
    const NAVAJO = 9282832345;
    expect(answer(NAVAJO, "2026-07-15T14:30:00Z")).toMatchObject({ zones: "America/Denver|America/Phoenix", callable: "no", next: "2026-07-15T15:00:00Z" });
    expect(answer(NAVAJO, "2026-07-16T02:59:59Z").callable).toBe("yes");
    expect(answer(NAVAJO, "2026-07-16T03:00:00Z")).toMatchObject({ callable: "no", next: "2026-07-16T15:00:00Z" });
    // in winter both zones read the same
    expect(answer(NAVAJO, "2026-01-15T15:00:00Z").callable).toBe("yes");
  });

  it("a toll-free number has no zone of its own: class 0, read in every US time zone (note.test.ts, decision 180)", () => {
    expect(timeZonesOf(8005552345)).toEqual([]);
    const t = callingClassTable();
    const c = t.classes[callingClassOf(t.byExchange, 8005552345)];
    expect(c.zones).toEqual([]);
    expect(c.readZones.length).toBeGreaterThan(5);
  });
});

describe("the rules as data", () => {
  it("every entry has seven days of hours, a citation, a source and a verification mark", () => {
    for (const r of CALLING_RULES) {
      expect(r.hours, r.id).toHaveLength(7);
      for (const h of r.hours) if (h) expect(h[0] < h[1] && h[0] >= 0 && h[1] <= 1440, r.id).toBe(true);
      expect(r.citation.length, r.id).toBeGreaterThan(5);
      expect(r.source, r.id).toMatch(/^https?:\/\//);
      expect(["statute", "secondary"]).toContain(r.verified);
      if (r.effective) expect(r.effective).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("every class evaluates at any hour of a year (an answer always exists within the search)", () => {
    const t = callingClassTable();
    for (let h = 0; h < 24 * 7; h += 5) {
      const at = Date.parse("2026-12-20T00:00:00Z") + h * 3_600_000;
      for (const c of t.classes.slice(1)) {
        const a = evaluateCalling(c.zones, c.rules, at);
        expect(a.nextCallAt).toBeGreaterThanOrEqual(Math.floor(at / 1000) * 1000);
      }
    }
  });
});
