import { describe, expect, it } from "vitest";
import {
  DEFAULT_SUPPRESSION_TYPE,
  LIST_TYPES,
  listsOfSuppression,
  STATE_LIST_KINDS,
  SUPPRESSION_TYPE_NAMES,
  suppressionTypesChecking,
  listRegionOf,
  takesRegistryDate,
} from "./list-types";

// The registry's state lists (decision 160): data a mistake in would silently skip a state or mis-cite it.
describe("the state lists in the registry", () => {
  const states = LIST_TYPES.filter((t) => "state" in t);

  it("are twelve, each dnc- plus its lower-case postal code, with its own DNC page type and no suppression type; Canada's national list follows", () => {
    expect(states.map((t) => t.kind)).toEqual([
      "dnc-co",
      "dnc-fl",
      "dnc-in",
      "dnc-la",
      "dnc-ma",
      "dnc-mo",
      "dnc-ms",
      "dnc-ok",
      "dnc-pa",
      "dnc-tn",
      "dnc-tx",
      "dnc-wy",
      "dnc-ca",
    ]);
    for (const t of states) {
      expect(t.kind).toBe(`dnc-${t.state.code.toLowerCase()}`);
      expect(t.suppressionType).toBeNull();
      if ("country" in t.state) continue;
      expect(t.name).toBe(`${t.state.stateName} DNC List`);
      expect(t.reasonLabel).toBe(`On the ${t.state.stateName} do-not-call list`);
      expect(listRegionOf(t.kind)).toBeNull();
    }
    expect(new Set(LIST_TYPES.map((t) => t.type)).size).toBe(LIST_TYPES.length);
    expect(SUPPRESSION_TYPE_NAMES).toEqual(["LitigationOnly", "DNCAndLitigation"]);
    expect(DEFAULT_SUPPRESSION_TYPE).toBe("DNCAndLitigation");
  });

  it("are checked by DNC and Litigation after the federal list, never by Litigation Only", () => {
    expect(listsOfSuppression("DNCAndLitigation")).toEqual(["litigation", "dnc", ...STATE_LIST_KINDS]);
    expect(listsOfSuppression("LitigationOnly")).toEqual(["litigation"]);
    for (const k of STATE_LIST_KINDS) expect(suppressionTypesChecking(k).map((t) => t.suppressionType)).toEqual(["DNCAndLitigation"]);
  });

  it("state their freshness rule once (#44): a text that counts days names the rule's own number of days", () => {
    for (const t of states) {
      const counted = [...t.state.freshness.matchAll(/(\d+) days/g)].map((m) => Number(m[1]));
      if (counted.length) expect(t.state.freshness, t.kind).toMatch(new RegExp(`\\b${t.state.validDays}\\b`));
    }
  });

  it("each cites its sources over http(s), states a cadence and freshness, and has whole-month exemption windows", () => {
    for (const t of states) {
      expect(t.state.source).toMatch(/^https?:\/\/\S+$/);
      expect(t.exemptionWindows.source).toMatch(/^https?:\/\/\S+$/);
      expect(["monthly", "quarterly"]).toContain(t.state.cadence);
      // a release stays current at least until the next one is due
      expect(t.state.validDays).toBeGreaterThanOrEqual(t.state.cadence === "monthly" ? 31 : 92);
      for (const m of [t.exemptionWindows.purchaseMonths, t.exemptionWindows.inquiryMonths]) expect(Number.isInteger(m) && m >= 0).toBe(true);
      expect(t.exemptible).toBe(true);
    }
    expect(LIST_TYPES.find((t) => t.kind === "litigation")!.exemptible).toBe(false);
  });

  it("Canada's National DNCL (decision 179): Canadian numbers only, the CRTC's 31 days, the operator's exemption windows", () => {
    const ca = LIST_TYPES.find((t) => t.kind === "dnc-ca")!;
    expect(ca).toMatchObject({
      type: 14,
      suppressionType: null,
      name: "Canada National DNCL",
      reasonLabel: "On Canada's National Do Not Call List",
      exemptible: true,
      // purchase, lease or rental within 18 months; an inquiry or application within 6 (lnnte-dncl.gc.ca)
      exemptionWindows: { purchaseMonths: 18, inquiryMonths: 6, source: "https://lnnte-dncl.gc.ca/en/Organization/Exemptions" },
      state: { code: "CA", country: "CA", cadence: "monthly", validDays: 31 },
    });
    expect(listRegionOf("dnc-ca")).toBe("CA");
    expect([listRegionOf("dnc"), listRegionOf("litigation"), listRegionOf("container")]).toEqual([null, null, null]);
    expect(STATE_LIST_KINDS.at(-1)).toBe("dnc-ca");
    expect(takesRegistryDate("dnc-ca")).toBe(true);
    expect(suppressionTypesChecking("dnc-ca").map((t) => t.suppressionType)).toEqual(["DNCAndLitigation"]);
  });

  it("take a registry date like the federal list; the litigation list does not", () => {
    expect(STATE_LIST_KINDS.every(takesRegistryDate)).toBe(true);
    expect(takesRegistryDate("dnc")).toBe(true);
    expect(takesRegistryDate("litigation")).toBe(false);
    expect(takesRegistryDate("container")).toBe(false);
  });
});
