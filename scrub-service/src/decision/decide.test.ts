import { describe, expect, it } from "vitest";
import {
  decideListHits,
  decideNumber,
  decisionLists,
  decisionOrder,
  listVerdict,
  NO_END,
  NO_RECORD,
  RECORD_OUTCOMES,
  recordOutcome,
  STALE_LIST_REASON,
  type DecisionLists,
} from "./decide";
import { BASIS_CONSENT, BASIS_INQUIRY, BASIS_PURCHASE, dayOfIsoDate, isoDateOfDay, type ExemptionWindows } from "../exemption-rules/windows";
import { normalizeCode } from "../numbers/normalize";
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
    const d = decideNumber(
      { code: 5125552107, hits: bit("dnc") | bit("dnc-tx"), record: { basis: BASIS_PURCHASE, day: day("2026-03-31") } },
      { lists, atMs: when },
    );
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

describe("why a record did not apply (decision 184: bad.csv's exemption cell, the lookup's exemptionNote)", () => {
  const lists = decisionLists(decisionOrder(true, listsOfSuppression("DNCAndLitigation")));
  const bit = (kind: string) => 1 << lists.kinds.indexOf(kind);
  // Saturday 28 November 2026, noon UTC
  const at = Date.parse("2026-11-28T12:00:00Z");
  const note = (hits: number, basis: number, date: string) => decideNumber({ code: 5125552107, hits, record: { basis, day: day(date) } }, { lists, atMs: at });

  it("a purchase past the federal 18 months, an inquiry past its 3", () => {
    expect(note(bit("dnc"), BASIS_PURCHASE, "2025-05-15").notApplied).toBe("purchase 2025-05-15: the federal rule allows 18 months, ended 2026-11-15");
    expect(note(bit("dnc"), BASIS_INQUIRY, "2026-08-01").notApplied).toBe("inquiry 2026-08-01: the federal rule allows 3 months, ended 2026-11-01");
  });

  it("a state's shorter window: cleared on the federal list, standing on Texas's (12 months), and Texas has no inquiry exemption", () => {
    const d = note(bit("dnc") | bit("dnc-tx"), BASIS_PURCHASE, "2025-08-15");
    expect([d.outcome, d.reason, d.cleared, d.standing]).toEqual(["bad", "dnc-tx", ["dnc"], ["dnc-tx"]]);
    expect(d.notApplied).toBe("purchase 2025-08-15: Texas allows 12 months, ended 2026-08-15");
    expect(note(bit("dnc-tx"), BASIS_INQUIRY, "2026-11-01").notApplied).toBe("inquiry 2026-11-01: Texas allows no inquiry exemption");
  });

  it("litigation and the container never; a record dated after the instant not yet; each standing list once, in the reason order", () => {
    expect(note(bit("litigation"), BASIS_CONSENT, "2020-01-01").notApplied).toBe("litigation list: never exempted");
    expect(note(bit("container") | bit("dnc"), BASIS_CONSENT, "2020-01-01").notApplied).toBe("your container: never exempted");
    expect(note(bit("dnc") | bit("dnc-tx"), BASIS_PURCHASE, "2026-11-29").notApplied).toBe("purchase 2026-11-29: dated after the evaluation instant");
    expect(note(bit("litigation") | bit("dnc") | bit("dnc-tx"), BASIS_PURCHASE, "2024-01-31").notApplied).toBe(
      "litigation list: never exempted; purchase 2024-01-31: the federal rule allows 18 months, ended 2025-07-31; purchase 2024-01-31: Texas allows 12 months, ended 2025-01-31",
    );
  });

  it("nothing to say when the record applied, when there is no record, or when no list holds the number", () => {
    expect(note(bit("dnc"), BASIS_PURCHASE, "2026-01-01").notApplied).toBeNull();
    expect(decideNumber({ code: 5125552107, hits: bit("dnc"), record: null }, { lists, atMs: at }).notApplied).toBeNull();
    expect(note(0, BASIS_PURCHASE, "2020-01-01").notApplied).toBeNull();
  });

  it("counts each record by outcome: applied, expired, never applicable, not yet", () => {
    const v = listVerdict();
    const outcome = (hits: number, basis: number, date: string) => {
      decideListHits(lists, hits, basis, day(date), at, v);
      return RECORD_OUTCOMES[recordOutcome(lists, v, day(date), at)];
    };
    expect(outcome(bit("dnc"), BASIS_PURCHASE, "2026-01-01")).toBe("applied");
    expect(outcome(bit("dnc") | bit("dnc-tx"), BASIS_PURCHASE, "2025-08-15")).toBe("expired");
    expect(outcome(bit("litigation") | bit("dnc"), BASIS_CONSENT, "2020-01-01")).toBe("neverApplicable");
    expect(outcome(bit("dnc"), BASIS_CONSENT, "2026-12-01")).toBe("notYet");
  });
});
