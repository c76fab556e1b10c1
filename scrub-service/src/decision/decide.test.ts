import { describe, expect, it } from "vitest";
import { decideListHits, decideNumber, decisionLists, decisionOrder, listVerdict, NO_END, NO_RECORD, STALE_LIST_REASON, type DecisionLists } from "./decide";
import { BASIS_CONSENT, BASIS_INQUIRY, BASIS_PURCHASE, dayOfIsoDate, isoDateOfDay, type ExemptionWindows } from "../worker/exemptions/windows";
import { normalizeCode } from "../worker/normalize";
import { listsOfSuppression } from "../list-types";

const FEDERAL: ExemptionWindows = { purchaseMonths: 18, inquiryMonths: 3, source: "federal" };
const STATE: ExemptionWindows = { purchaseMonths: 12, inquiryMonths: 2, source: "state" };
const day = (iso: string) => dayOfIsoDate(iso)!;
const when = Date.parse("2026-11-26T15:00:00Z");

// litigation (never exempted), dnc (federal windows), dnc-xx (a state's shorter windows), a container (never)
const LISTS: DecisionLists = { kinds: ["litigation", "dnc", "dnc-xx", "container"], windows: [null, FEDERAL, STATE, null], exemptibleMask: 0b0110 };
const LIT = 1;
const DNC = 2;
const XX = 4;
const CONTAINER = 8;

describe("decideListHits: the core, over integers", () => {
  const v = listVerdict();
  it("without a record the first hit gives the reason; no hit is good", () => {
    expect(decideListHits(LISTS, 0, NO_RECORD, 0, when, v)).toBe(-1);
    expect(decideListHits(LISTS, DNC | LIT, NO_RECORD, 0, when, v)).toBe(0);
    expect(decideListHits(LISTS, CONTAINER | XX, NO_RECORD, 0, when, v)).toBe(2);
    expect(v.cleared).toBe(0);
    const all32: DecisionLists = { kinds: Array.from({ length: 32 }, (_, i) => `l${i}`), windows: Array(32).fill(null), exemptibleMask: 0 };
    expect(decideListHits(all32, 1 << 31, NO_RECORD, 0, when, v)).toBe(31);
  });

  it("clears a registry hit only when the record applies under that list's windows", () => {
    // a purchase of 2025-08-01: on dnc cleared until 2027-02-01
    expect(decideListHits(LISTS, DNC, BASIS_PURCHASE, day("2025-08-01"), when, v)).toBe(-1);
    expect([v.cleared, isoDateOfDay(v.endDay)]).toEqual([DNC, "2027-02-01"]);
    // an expired purchase keeps its hit
    expect(decideListHits(LISTS, DNC, BASIS_PURCHASE, day("2024-01-15"), when, v)).toBe(1);
    // an inquiry of 2026-09-10 is within the federal 3 months, past the state's 2: the state list gives the reason
    expect(decideListHits(LISTS, DNC | XX, BASIS_INQUIRY, day("2026-09-10"), when, v)).toBe(2);
    expect([v.cleared, v.endDay]).toEqual([DNC, NO_END]);
    // consent clears both registry lists, no end; a record dated after the instant clears nothing
    expect(decideListHits(LISTS, DNC | XX, BASIS_CONSENT, day("2020-05-05"), when, v)).toBe(-1);
    expect([v.cleared, v.endDay]).toEqual([DNC | XX, NO_END]);
    expect(decideListHits(LISTS, DNC, BASIS_CONSENT, day("2026-11-27"), when, v)).toBe(1);
  });

  it("litigation and the container are never cleared, consent or not", () => {
    expect(decideListHits(LISTS, LIT | DNC, BASIS_CONSENT, day("2020-05-05"), when, v)).toBe(0);
    expect(decideListHits(LISTS, DNC | CONTAINER, BASIS_CONSENT, day("2020-05-05"), when, v)).toBe(3);
    expect(v.cleared).toBe(DNC);
  });

  it("the earliest end over the lists it cleared", () => {
    expect(decideListHits(LISTS, DNC | XX, BASIS_PURCHASE, day("2026-03-31"), when, v)).toBe(-1);
    expect(isoDateOfDay(v.endDay)).toBe("2027-03-31"); // the state's 12 months, not the federal 18
  });
});

describe("decideNumber: the whole answer", () => {
  const lists = decisionLists(decisionOrder(true, listsOfSuppression("DNCAndLitigation")));
  const bit = (kind: string) => 1 << lists.kinds.indexOf(kind);

  it("orders the container first, then the suppression type's lists", () => {
    expect(lists.kinds.slice(0, 3)).toEqual(["container", "litigation", "dnc"]);
    expect(decideNumber({ code: 2125552101, hits: bit("dnc") | bit("container"), record: null }, { lists, atMs: when })).toMatchObject({
      outcome: "bad",
      reason: "container",
      words: "Your container",
      standing: ["container", "dnc"],
    });
  });

  it("answers invalid numbers with the normalizer's reason and words", () => {
    const d = decideNumber({ code: normalizeCode("123"), hits: 0, record: null }, { lists, atMs: when });
    expect(d).toMatchObject({ outcome: "invalid", reason: "wrong_length", exempt: null });
    expect(d.words).toMatch(/10 digits/);
  });

  it("says what an exemption cleared and until when", () => {
    const d = decideNumber({ code: 5125552107, hits: bit("dnc") | bit("dnc-tx"), record: { basis: BASIS_PURCHASE, day: day("2026-03-31") } }, { lists, atMs: when });
    expect(d).toMatchObject({ outcome: "good", reason: null, cleared: ["dnc", "dnc-tx"], standing: [] });
    expect(d.exempt).toEqual({ basis: "purchase", day: day("2026-03-31"), untilDay: day("2027-03-31") }); // Texas: 12 months
    // not exempt when nothing needed clearing
    expect(decideNumber({ code: 5125552107, hits: 0, record: { basis: BASIS_CONSENT, day: day("2020-01-01") } }, { lists, atMs: when }).exempt).toBeNull();
  });

  it("a stale checked list suppresses what nothing else does (the lookup's stricter reading)", () => {
    const ctx = { lists, atMs: when, staleLists: true };
    expect(decideNumber({ code: 7135552104, hits: 0, record: null }, ctx)).toMatchObject({ outcome: "bad", reason: STALE_LIST_REASON });
    expect(decideNumber({ code: 7135552104, hits: bit("litigation"), record: null }, ctx).reason).toBe("litigation");
    const exempted = decideNumber({ code: 7135552104, hits: bit("dnc"), record: { basis: BASIS_CONSENT, day: day("2020-01-01") } }, ctx);
    expect([exempted.reason, exempted.exempt, exempted.cleared]).toEqual([STALE_LIST_REASON, null, ["dnc"]]);
  });
});
