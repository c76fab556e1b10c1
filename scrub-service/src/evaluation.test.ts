import { describe, expect, it } from "vitest";
import {
  AT_CLOCK_SKEW_MS,
  BEYOND_VALIDITY_NOTE,
  evaluationInstantProblem,
  instantStanding,
  instantYearInRange,
  listFreshness,
  listsValidUntil,
  REPLAY_NOTE,
  staleListsMessage,
} from "./evaluation";
import { parseInstant } from "./calling/instant";

const DAY = 86_400_000;
const NOW = new Date("2026-11-28T12:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * DAY);

describe("an evaluation instant means 'for calls then' (decision 174)", () => {
  it("reads the year range in UTC, in one helper parseInstant uses", () => {
    expect(instantYearInRange(Date.parse("2099-12-31T23:59:59Z"))).toBe(true);
    expect(instantYearInRange(Date.parse("2100-01-01T00:00:00Z"))).toBe(false);
    // local 2099 and 2000, UTC 2100 and 1999
    expect(parseInstant("2099-12-31T23:00:00-05:00")).toEqual({ ok: false, message: "at must be between the years 2000 and 2099." });
    expect(parseInstant("2000-01-01T00:30:00+01:00")).toEqual({ ok: false, message: "at must be between the years 2000 and 2099." });
    expect(parseInstant("1999-12-31T23:30:00-01:00").ok).toBe(true); // UTC 2000-01-01T00:30
  });

  it("refuses an instant before now less the clock skew, naming the instant and the bound", () => {
    const ok = NOW.getTime() - AT_CLOCK_SKEW_MS;
    expect(evaluationInstantProblem(ok, { now: NOW, lists: [] })).toBeNull();
    expect(evaluationInstantProblem(ok - 1000, { now: NOW, lists: [] })).toBe(
      "2026-11-28T11:54:59Z is in the past: it must not be earlier than now (2026-11-28T12:00:00Z, less 5 minutes of clock skew: 2026-11-28T11:55:00Z); " +
        "the lists are checked as they are now, so an earlier instant would answer for calls that are no longer made",
    );
    // no list checked: only the lower bound
    expect(evaluationInstantProblem(Date.parse("2099-01-01T00:00:00Z"), { now: NOW, lists: [] })).toBeNull();
  });

  it("refuses an instant after the earliest 'valid for calls until' of the checked lists", () => {
    const dnc = listFreshness("dnc", daysAgo(10), NOW)!; // valid until +21 days
    const tx = listFreshness("dnc-tx", daysAgo(150), NOW)!; // Texas: 152 days, valid until +2 days
    expect(dnc).toMatchObject({ label: "the federal DNC list", ageDays: 10, ruleDays: 31, stale: false });
    expect(tx).toMatchObject({ label: "the Texas DNC list", ageDays: 150, ruleDays: 152, stale: false });
    expect(listsValidUntil([dnc, tx])?.toISOString()).toBe(tx.validUntil);
    expect(evaluationInstantProblem(Date.parse(tx.validUntil), { now: NOW, lists: [dnc, tx] })).toBeNull();
    expect(evaluationInstantProblem(Date.parse(tx.validUntil) + 1000, { now: NOW, lists: [dnc, tx] })).toBe(
      `2026-11-30T12:00:01Z is after the lists' validity: the Texas DNC list (release ${tx.registryDate.slice(0, 10)}, rule 152 days) is valid for calls until 2026-11-30T12:00:00Z`,
    );
    expect(listFreshness("litigation", daysAgo(400), NOW)).toBeNull();
    expect(listFreshness("dnc", null, NOW)).toBeNull();
  });

  it("says how a CLI instant stands: a replay, beyond the lists' validity", () => {
    const dnc = listFreshness("dnc", daysAgo(10), NOW)!;
    expect(instantStanding(Date.parse("2025-06-01T00:00:00Z"), { now: NOW, lists: [dnc] })).toEqual({
      replay: true,
      beyondListValidity: false,
      notes: [REPLAY_NOTE],
    });
    expect(instantStanding(NOW.getTime() + 30 * DAY, { now: NOW, lists: [dnc] })).toEqual({
      replay: false,
      beyondListValidity: true,
      notes: [BEYOND_VALIDITY_NOTE],
    });
    expect(instantStanding(NOW.getTime(), { now: NOW, lists: [dnc] })).toEqual({ replay: false, beyondListValidity: false, notes: [] });
    expect(REPLAY_NOTE).toBe("evaluated at a past instant: not valid for calls now");
  });

  it("names every stale list at once, each with its release, age and rule", () => {
    const lists = [listFreshness("dnc", daysAgo(58), NOW)!, listFreshness("dnc-tx", daysAgo(160), NOW)!, listFreshness("dnc-la", daysAgo(20), NOW)!];
    expect(staleListsMessage(lists)).toBe(
      "The federal DNC list (release 2026-10-01, 58 days old; rule 31 days) and the Texas DNC list (release 2026-06-21, 160 days old; rule 152 days) " +
        "are out of date: purges that include DNC are refused until an admin loads a newer release of each.",
    );
    expect(staleListsMessage([lists[2]])).toBeNull();
    expect(staleListsMessage([listFreshness("dnc-la", daysAgo(32), NOW)!])).toBe(
      "The Louisiana DNC list (release 2026-10-27, 32 days old; rule 31 days) is out of date: purges that include DNC are refused until an admin loads a newer release.",
    );
  });
});
