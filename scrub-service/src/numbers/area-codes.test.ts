import { describe, expect, it } from "vitest";
import { AREA_CODE_STATES, US_STATES, areaCodeMask, stateOfAreaCode, stateOfNumber } from "./area-codes";
import { numberKind, numberRegion, normalizeCode } from "./normalize";
import { AREA_CODE_ROWS } from "./numbering.generated";

describe("area codes", () => {
  it.each([
    [212, "NY"],
    [213, "CA"],
    [305, "FL"],
    [512, "TX"],
    [202, "DC"],
    [907, "AK"],
    [808, "HI"],
    [787, "PR"],
    // newer than the areacodes package
    [945, "TX"],
    [350, "CA"],
    [472, "NC"],
    [826, "VA"],
    [983, "CO"],
    [835, "PA"],
    [656, "FL"],
    // 2025 overlays
    [324, "FL"],
    [728, "FL"],
    [738, "CA"],
    [748, "CO"],
    [821, "SC"],
    [686, "VA"],
    [948, "VA"],
  ])("%i is in %s", (code, state) => {
    expect(stateOfAreaCode(code)).toBe(state);
  });

  it("knows nothing of non-geographic or unassigned codes", () => {
    expect(stateOfAreaCode(800)).toBeNull();
    expect(stateOfAreaCode(555)).toBeNull();
    expect(stateOfNumber(2125552123)).toBe("NY");
  });

  it("covers every state and DC with at least one code", () => {
    const states = new Set(AREA_CODE_STATES.values());
    for (const s of US_STATES) expect(states.has(s.code), s.code).toBe(true);
    expect(AREA_CODE_STATES.size).toBeGreaterThan(360);
  });

  it("builds the hot-path mask", () => {
    const m = areaCodeMask(["fl", "TX"]);
    expect([m[305], m[512], m[212]]).toEqual([1, 1, 0]);
  });

  it("has a state for exactly the US geographic area codes of the numbering table", () => {
    const usGeographic = AREA_CODE_ROWS.filter(([, , runs]) => runs.includes("u"))
      .map(([npa]) => npa)
      .sort();
    expect([...AREA_CODE_STATES.keys()].sort()).toEqual(usGeographic);
    // territories are their own regions in the numbering data and states in the filter
    for (const [npa, region] of AREA_CODE_ROWS) {
      const state = AREA_CODE_STATES.get(npa);
      if (state && region !== "US") expect(state, String(npa)).toBe(region);
    }
  });

  it("gives Canadian, Caribbean and non-geographic numbers no state", () => {
    for (const [cell, kind] of [
      ["4162342345", "canada"],
      ["8762342345", "caribbean"],
      ["8002342345", "toll_free"],
      ["9002342345", "premium"],
      ["5002342345", "personal"],
    ] as const) {
      const n = normalizeCode(cell);
      expect(numberKind(n), cell).toBe(kind);
      expect(stateOfNumber(n), cell).toBeNull();
      expect(areaCodeMask(US_STATES.map((s) => s.code))[Math.floor(n / 1e7)], cell).toBe(0);
    }
    expect([numberKind(7872342345), numberRegion(7872342345), stateOfNumber(7872342345)]).toEqual(["us", "PR", "PR"]);
  });
});
