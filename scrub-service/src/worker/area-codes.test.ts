import { describe, expect, it } from "vitest";
import { AREA_CODE_STATES, US_STATES, areaCodeMask, stateOfAreaCode, stateOfNumber } from "./area-codes";

describe("area codes", () => {
  it.each([
    [212, "NY"], [213, "CA"], [305, "FL"], [512, "TX"], [202, "DC"], [907, "AK"], [808, "HI"], [787, "PR"],
    // newer than the areacodes package
    [945, "TX"], [350, "CA"], [472, "NC"], [826, "VA"], [624, "NY"], [983, "CO"], [835, "PA"], [656, "FL"],
  ])("%i is in %s", (code, state) => {
    expect(stateOfAreaCode(code)).toBe(state);
  });

  it("knows nothing of non-geographic or unassigned codes", () => {
    expect(stateOfAreaCode(800)).toBeNull();
    expect(stateOfAreaCode(555)).toBeNull();
    expect(stateOfNumber(2125550123)).toBe("NY");
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
});
