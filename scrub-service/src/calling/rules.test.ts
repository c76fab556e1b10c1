import { describe, expect, it } from "vitest";
import { CALLING_RULES, CALLING_RULES_HISTORY, CALLING_RULES_VERSION, rulesForJurisdiction } from "./rules";

describe("the rules' version history", () => {
  it("CALLING_RULES_VERSION is the newest release", () => {
    expect(CALLING_RULES_HISTORY[0].version).toBe(CALLING_RULES_VERSION);
  });

  it("releases are newest first, dated, unique, each with its changes and decision records", () => {
    const versions = CALLING_RULES_HISTORY.map((r) => r.version);
    expect(new Set(versions).size).toBe(versions.length);
    for (let i = 0; i < CALLING_RULES_HISTORY.length; i++) {
      const r = CALLING_RULES_HISTORY[i];
      expect(r.version, r.version).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/);
      expect(r.date, r.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.version.startsWith(r.date), r.version).toBe(true);
      expect(r.changes.length, r.version).toBeGreaterThan(0);
      for (const d of r.decisions) expect(d, r.version).toMatch(/^\d{3}$/);
      const older = CALLING_RULES_HISTORY[i + 1];
      if (older) {
        const [d, n] = r.version.split(".");
        const [od, on] = older.version.split(".");
        expect(d > od || (d === od && Number(n) > Number(on)), `${r.version} after ${older.version}`).toBe(true);
      }
    }
  });
});

describe("Oregon", () => {
  it("an Oregon number is subject to the federal rule and both Oregon readings, from 2026-01-01", () => {
    expect(rulesForJurisdiction("US", "OR").map((r) => r.id)).toEqual(["US", "US-OR", "US-OR-PACIFIC"]);
    for (const r of CALLING_RULES.filter((x) => x.id.startsWith("US-OR"))) {
      expect(r.effective).toBe("2026-01-01");
      expect(r.hours.every((h) => h?.[0] === 480 && h[1] === 1200)).toBe(true);
    }
  });
});
