/**
 * The calling note (decision 180) at the edges: what held the call back, in words, from the evaluation's own holds
 * and the rule data; and a number without a time zone read strictly across every US time zone.
 */
import { describe, expect, it } from "vitest";
import { callingClassOf, callingClassTable } from "./exchanges";
import { clockWords, evaluateClass, NO_TIME_ZONE_NOTE } from "./note";
import { CALLING_RULES } from "./rules";
import { evaluateCalling, isoSecond } from "./window";

/** A number's answer and note at an instant, as good.csv and the lookup print them. */
function verdict(n: number, at: string) {
  const t = callingClassTable();
  const cls = t.classes[callingClassOf(t.byExchange, n)];
  const { answer, note } = evaluateClass(cls, Date.parse(at));
  return { callable: answer.callableNow, next: isoSecond(answer.nextCallAt), note, held: answer.holds.map((h) => h.rule.id) };
}

const NEW_YORK = 2125552345;
const NEW_ORLEANS = 5045552345;
const PORTLAND = 5035552345;
const PROVIDENCE = 4015552345;
const JACKSON = 6015552345;
const TOLL_FREE = 8005552345;

describe("calling note: the binding rule in words", () => {
  it("empty when callable now", () => {
    // Tuesday 24 November 2026, 10 a.m. EST
    expect(verdict(NEW_YORK, "2026-11-24T15:00:00Z")).toMatchObject({ callable: true, note: "", held: [] });
  });

  it("a Louisiana Sunday: the day ban, not the federal rule (which allows Sunday)", () => {
    // Sunday 29 November 2026, 10 a.m. CST
    expect(verdict(NEW_ORLEANS, "2026-11-29T16:00:00Z")).toEqual({
      callable: false,
      next: "2026-11-30T14:00:00Z",
      note: "Sunday: Louisiana forbids Sunday calls (La. R.S. 45:811)",
      held: ["US-LA"],
    });
  });

  it("20:00 in Oregon: Oregon's 8 p.m. end (its two readings say the same in Portland: one note)", () => {
    // Tuesday 24 November 2026, 8 p.m. PST; the federal rule allows until 9
    expect(verdict(PORTLAND, "2026-11-25T04:00:00Z")).toEqual({
      callable: false,
      next: "2026-11-25T16:00:00Z",
      note: "After 8 p.m. in Oregon (HB 3865)",
      held: ["US-OR", "US-OR-PACIFIC"],
    });
    // 7:59:59 p.m.: callable, no note
    expect(verdict(PORTLAND, "2026-11-25T03:59:59Z")).toMatchObject({ callable: true, note: "" });
  });

  it("07:59:59 in New York: the federal 8 a.m. start, the federal rule names no place", () => {
    expect(verdict(NEW_YORK, "2026-11-24T12:59:59Z")).toEqual({
      callable: false,
      next: "2026-11-24T13:00:00Z",
      note: "Before 8 a.m. (47 CFR 64.1200(c)(1))",
      held: ["US"],
    });
  });

  it("a Rhode Island May 4: the holiday by its name, with the holiday statute", () => {
    // Tuesday 4 May 2027, 10 a.m. EDT (inside Rhode Island's 9-6)
    expect(verdict(PROVIDENCE, "2027-05-04T14:00:00Z")).toEqual({
      callable: false,
      next: "2027-05-05T13:00:00Z",
      note: "Holiday: Rhode Island, Rhode Island Independence Day (R.I. Gen. Laws § 25-1-1)",
      held: ["US-RI"],
    });
  });

  it("a holiday's observed day says so (Independence Day 2026 is a Saturday: Alabama also bans Friday 3 July)", () => {
    const BIRMINGHAM = 2055552345;
    expect(verdict(BIRMINGHAM, "2026-07-03T15:00:00Z").note).toBe("Holiday: Alabama, Independence Day observed (Ala. Code § 1-3-8)");
  });

  it("a rule read on its own clock names it when it reads differently (Mississippi's CST in summer, Malheur's Pacific)", () => {
    // Wednesday 15 July 2026, 8:30 a.m. CDT = 7:30 a.m. CST
    expect(verdict(JACKSON, "2026-07-15T13:30:00Z")).toMatchObject({
      callable: false,
      note: "Before 8 a.m. Central Standard Time in Mississippi (Miss. Code Ann. § 77-3-723(1))",
      held: ["US-MS-CST"],
    });
    // 8:30 p.m. CDT: the local reading holds (the CST one would allow until 9 p.m. CDT)
    expect(verdict(JACKSON, "2026-07-16T01:30:00Z")).toMatchObject({ note: "After 8 p.m. in Mississippi (Miss. Code Ann. § 77-3-723(1))", held: ["US-MS"] });
    // in winter both readings are the same clock: one note
    expect(verdict(JACKSON, "2026-11-25T02:30:00Z").note).toBe("After 8 p.m. in Mississippi (Miss. Code Ann. § 77-3-723(1))");
    // Malheur County (541-372, Mountain time) at 8:30 a.m. MST = 7:30 a.m. PST
    expect(verdict(5413722345, "2026-11-24T15:30:00Z")).toMatchObject({
      callable: false,
      note: "Before 8 a.m. Pacific Standard Time in Oregon (HB 3865)",
      held: ["US-OR-PACIFIC"],
    });
  });

  it("the weekday is named where a rule's hours differ by day (Pennsylvania's Saturday noon)", () => {
    const PHILADELPHIA = 2155552345;
    // Saturday 28 November 2026, 1 p.m. EST
    expect(verdict(PHILADELPHIA, "2026-11-28T18:00:00Z").note).toBe("After noon on Saturday in Pennsylvania (73 P.S. § 2245(a)(1); 44 P.S. § 11)");
  });

  it("clock words", () => {
    expect([480, 720, 1200, 1290, 0, 30].map(clockWords)).toEqual(["8 a.m.", "noon", "8 p.m.", "9:30 p.m.", "midnight", "12:30 a.m."]);
  });
});

describe("a number without a time zone: the strictest reading across every US time zone", () => {
  const t = callingClassTable();
  const noZone = t.classes[callingClassOf(t.byExchange, TOLL_FREE)];

  it("is read in every zone of a US number (the 50 states and DC), under the federal rule", () => {
    expect(callingClassOf(t.byExchange, TOLL_FREE)).toBe(0);
    expect(noZone.zones).toEqual([]);
    for (const z of [
      "America/New_York",
      "America/Chicago",
      "America/Denver",
      "America/Phoenix",
      "America/Los_Angeles",
      "America/Anchorage",
      "America/Adak",
      "Pacific/Honolulu",
    ]) {
      expect(noZone.readZones).toContain(z);
    }
    // every zone of a class of a state or DC, and no other (the territories, US-PR, US-VI, US-GU, US-MP, US-AS, are
    // regions of their own and not read: decision 180)
    const TERRITORIES = ["US-PR", "US-VI", "US-GU", "US-MP", "US-AS"];
    const stateZones = new Set(t.classes.filter((c) => c.jurisdiction.startsWith("US-") && !TERRITORIES.includes(c.jurisdiction)).flatMap((c) => c.zones));
    expect(new Set(noZone.readZones)).toEqual(stateZones);
    expect(noZone.rules.map((r) => r.id)).toEqual(["US"]);
  });

  it("an instant callable in Eastern but not in Pacific is not callable; the next call waits for every zone", () => {
    // Wednesday 25 November 2026 15:30Z: 10:30 a.m. EST (callable), 7:30 a.m. PST (not)
    const at = "2026-11-25T15:30:00Z";
    expect(verdict(NEW_YORK, at).callable).toBe(true);
    expect(verdict(PORTLAND, at)).toMatchObject({ callable: false, next: "2026-11-25T16:00:00Z" });
    const v = verdict(TOLL_FREE, at);
    expect(v.callable).toBe(false);
    // Pacific opens at 16:00Z, Alaska at 17:00Z; every US zone allows only once Hawaii (and Adak, the same clock in
    // winter) opens at 18:00Z
    expect(Date.parse(v.next)).toBeGreaterThanOrEqual(Date.parse("2026-11-25T16:00:00Z"));
    expect(v.next).toBe("2026-11-25T18:00:00Z");
    // the same as evaluating every zone directly
    expect(isoSecond(evaluateCalling(noZone.readZones, noZone.rules, Date.parse(at)).nextCallAt)).toBe(v.next);
    expect(v.note).toBe(`${NO_TIME_ZONE_NOTE}. Before 8 a.m. Hawaii-Aleutian Standard Time (47 CFR 64.1200(c)(1))`);
    // at 18:00Z it is callable everywhere: the note still says how the answer was read
    expect(verdict(TOLL_FREE, "2026-11-25T18:00:00Z")).toMatchObject({ callable: true, next: "2026-11-25T18:00:00Z", note: NO_TIME_ZONE_NOTE });
    // 9 p.m. Eastern (02:00Z) ends it: the note names the zone whose window the instant falls outside
    expect(verdict(TOLL_FREE, "2026-11-26T02:00:00Z")).toMatchObject({
      callable: false,
      next: "2026-11-26T18:00:00Z",
      note: `${NO_TIME_ZONE_NOTE}. After 9 p.m. Eastern Standard Time (47 CFR 64.1200(c)(1))`,
    });
  });
});

describe("the rule data the notes read", () => {
  it("every entry has a short citation taken from its citation; entries with holidays, one for the ban", () => {
    for (const r of CALLING_RULES) {
      expect(r.cite.length, r.id).toBeGreaterThan(2);
      // every section number the short form names appears in the full citation
      for (const token of [...(r.cite + " " + (r.holidayCite ?? "")).matchAll(/[0-9][0-9A-Za-z.:()\-]*/g)].map((m) => m[0].replace(/[.;]$/, ""))) {
        if (token === "8") continue; // Nevada's "the 8 p.m. end", words of the note
        expect(r.citation, `${r.id}: ${token}`).toContain(token.replace(/\(.*$/, ""));
      }
      if (r.holidays?.length) expect(r.holidayCite, r.id).toBeTruthy();
    }
  });
});
