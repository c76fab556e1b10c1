/**
 * Emergency no-call periods (decision 181) at their edges: local days at the number, the first lawful instant after a
 * period under that day's own hours, day and holiday bans, an area-code restriction, and the operator's input checked.
 */
import { describe, expect, it } from "vitest";
import { callingClassOf, callingClassTable } from "./exchanges";
import { evaluateClass } from "./note";
import { isoSecond } from "./window";
import { parseEmergencyPeriod, periodsAround, withEmergencyPeriods, type EmergencyPeriod } from "./emergency";

const NEW_ORLEANS = 5045552345; // 504, Louisiana, Central
const SHREVEPORT = 3182225555; // 318, Louisiana, Central
const NEW_YORK = 2125552345;

const SOURCE = "https://gov.louisiana.gov/news/emergency-example";
const period = (over: Partial<EmergencyPeriod> = {}): EmergencyPeriod => ({
  id: 7,
  states: ["LA"],
  areaCodes: null,
  firstDay: "2026-09-01",
  lastDay: "2026-09-10",
  authority: "Governor of Louisiana",
  sourceUrl: SOURCE,
  ...over,
});

function verdict(n: number, at: string, periods: EmergencyPeriod[]) {
  const t = withEmergencyPeriods(callingClassTable(), periods);
  const k = callingClassOf(t.byExchange, n);
  const { answer, note } = evaluateClass(t.classes[k], Date.parse(at));
  return {
    callable: answer.callableNow,
    next: isoSecond(answer.nextCallAt),
    note,
    bucket: answer.bucket,
    periods: (answer.emergency ?? []).map((e) => e.applied.period.id),
  };
}

describe("emergency periods: local days at the number", () => {
  it("the last day at 23:59 local is held; the next day at 00:00 the normal hours apply again", () => {
    // Thursday 10 September 2026, 23:59 CDT (UTC-5)
    expect(verdict(NEW_ORLEANS, "2026-09-11T04:59:00Z", [period()])).toEqual({
      callable: false,
      next: "2026-09-11T13:00:00Z", // Friday 8:00 CDT
      note: `Louisiana emergency period to 2026-09-10 (Governor of Louisiana, ${SOURCE})`,
      bucket: "not_today",
      periods: [7],
    });
    // Friday 11 September 00:00 CDT: before 8 a.m., the period no longer named
    const after = verdict(NEW_ORLEANS, "2026-09-11T05:00:00Z", [period()]);
    expect(after).toMatchObject({ callable: false, next: "2026-09-11T13:00:00Z", periods: [] });
    expect(after.note).not.toMatch(/emergency/);
    expect(after.note).toMatch(/^Before 8 a\.m\./);
    // Friday 11 September 10:00 CDT: callable
    expect(verdict(NEW_ORLEANS, "2026-09-11T15:00:00Z", [period()])).toMatchObject({ callable: true, note: "", periods: [] });
    // the same instant in the period's middle, without the period: callable (Wednesday 9 September, 10:00 CDT)
    expect(verdict(NEW_ORLEANS, "2026-09-09T15:00:00Z", [])).toMatchObject({ callable: true });
    expect(verdict(NEW_ORLEANS, "2026-09-09T15:00:00Z", [period()])).toMatchObject({ callable: false, next: "2026-09-11T13:00:00Z" });
  });

  it("the first day at 00:00 local is held; the evening before waits past the whole period", () => {
    // Tuesday 1 September 2026, 00:00 CDT
    expect(verdict(NEW_ORLEANS, "2026-09-01T05:00:00Z", [period()])).toMatchObject({ callable: false, next: "2026-09-11T13:00:00Z", periods: [7] });
    // Monday 31 August, 19:00 CDT: callable (the period starts tomorrow)
    expect(verdict(NEW_ORLEANS, "2026-09-01T00:00:00Z", [period()])).toMatchObject({ callable: true });
    // Monday 31 August, 23:59 CDT: after 8 p.m.; tomorrow 8 a.m. is in the period, so the next call is after it
    const v = verdict(NEW_ORLEANS, "2026-09-01T04:59:00Z", [period()]);
    expect(v).toMatchObject({ callable: false, next: "2026-09-11T13:00:00Z", periods: [7] });
    expect(v.note).toBe(
      `After 9 p.m. (47 CFR 64.1200(c)(1)); After 8 p.m. in Louisiana (La. R.S. 45:811); then Louisiana emergency period 2026-09-01 to 2026-09-10 (Governor of Louisiana, ${SOURCE})`,
    );
  });

  it("the first lawful instant after a period keeps that day's own bans: a Sunday, a holiday", () => {
    // a period to Saturday 12 September: Sunday is banned in Louisiana, so Monday 14 September 8:00 CDT
    expect(verdict(NEW_ORLEANS, "2026-09-12T16:00:00Z", [period({ lastDay: "2026-09-12" })])).toMatchObject({ next: "2026-09-14T13:00:00Z" });
    // a period to Sunday 6 September: Monday 7 September is Labor Day (La. R.S. 1:55), so Tuesday 8:00 CDT
    expect(verdict(NEW_ORLEANS, "2026-09-03T16:00:00Z", [period({ lastDay: "2026-09-06" })])).toMatchObject({ next: "2026-09-08T13:00:00Z" });
  });

  it("a period longer than the rules' search horizon, and periods back to back", () => {
    expect(verdict(NEW_ORLEANS, "2026-09-02T16:00:00Z", [period({ lastDay: "2026-11-20" })])).toMatchObject({ next: "2026-11-21T14:00:00Z" }); // Saturday 21 November 8:00 CST
    const chained = [period(), period({ id: 8, firstDay: "2026-09-11", lastDay: "2026-09-15" })];
    expect(verdict(NEW_ORLEANS, "2026-09-05T16:00:00Z", chained)).toMatchObject({ next: "2026-09-16T13:00:00Z", periods: [7, 8] });
  });

  it("an area-code restriction: a period for LA with area code 504 holds 504 numbers, not 318", () => {
    const only504 = [period({ areaCodes: [504] })];
    const at = "2026-09-09T15:00:00Z"; // Wednesday 10:00 CDT
    expect(verdict(NEW_ORLEANS, at, only504)).toMatchObject({ callable: false, periods: [7] });
    expect(verdict(SHREVEPORT, at, only504)).toMatchObject({ callable: true, periods: [] });
    expect(verdict(SHREVEPORT, at, [period()])).toMatchObject({ callable: false, periods: [7] });
    // another state's numbers are never touched
    expect(verdict(NEW_YORK, at, [period()])).toMatchObject({ callable: true });
  });

  it("the table keeps the base classes and moves only covered exchanges", () => {
    const base = callingClassTable();
    const t = withEmergencyPeriods(base, [period({ areaCodes: [504] })]);
    const k504 = callingClassOf(t.byExchange, NEW_ORLEANS);
    const k318 = callingClassOf(t.byExchange, SHREVEPORT);
    expect(k504).toBeGreaterThanOrEqual(base.classes.length);
    expect(t.baseOf[k504]).toBe(callingClassOf(base.byExchange, NEW_ORLEANS));
    expect(k318).toBe(callingClassOf(base.byExchange, SHREVEPORT));
    expect(t.classes.slice(0, base.classes.length)).toEqual(base.classes);
    expect(withEmergencyPeriods(base, []).classes).toBe(base.classes);
  });

  it("periodsAround keeps periods whose last day is not over everywhere", () => {
    const ps = [period({ lastDay: "2026-09-09" }), period({ id: 8, lastDay: "2026-09-10" }), period({ id: 9, firstDay: "2027-01-01", lastDay: "2027-01-02" })];
    expect(periodsAround(ps, Date.parse("2026-09-11T04:59:00Z")).map((p) => p.id)).toEqual([8, 9]);
  });
});

describe("emergency periods: the operator's input", () => {
  const ok = { states: "LA", areaCodes: "504, 985", from: "2026-09-01", to: "2026-09-10", authority: "Governor", source: SOURCE };
  it("a valid period", () => {
    expect(parseEmergencyPeriod(ok)).toEqual({
      ok: true,
      value: { states: ["LA"], areaCodes: [504, 985], firstDay: "2026-09-01", lastDay: "2026-09-10", authority: "Governor", sourceUrl: SOURCE },
    });
    expect(parseEmergencyPeriod({ ...ok, states: "la,ny", areaCodes: "" })).toMatchObject({ ok: true, value: { states: ["LA", "NY"], areaCodes: null } });
  });
  it("refuses with precise messages", () => {
    const problems = (over: object) => {
      const r = parseEmergencyPeriod({ ...ok, ...over });
      return r.ok ? [] : r.errors.map((e) => `${e.field}: ${e.message}`);
    };
    expect(problems({ states: "XX" })).toEqual(["states: Not a US state code we know: XX."]);
    expect(problems({ states: "" })).toEqual(["states: Name at least one state (two-letter code, e.g. LA)."]);
    expect(problems({ areaCodes: "504,318" })).toEqual([]);
    expect(problems({ areaCodes: "504,212" })).toEqual(["areaCodes: Area code 212 (NY) not in LA."]);
    expect(problems({ areaCodes: "50" })).toEqual(["areaCodes: Not an area code: 50 (three digits, 200-999)."]);
    expect(problems({ from: "2026-09-11" })).toEqual(["to: The last day (2026-09-10) is before the first day (2026-09-11)."]);
    expect(problems({ to: "2026-02-30" })).toEqual(["to: The last day must be a date YYYY-MM-DD."]);
    expect(problems({ source: "ftp://x.example/a" })).toEqual(["source: The source must be a web address starting with http:// or https://."]);
    expect(problems({ source: "javascript:alert(1)" })).toHaveLength(1);
  });
});
