import { describe, expect, it } from "vitest";
import { instantOfLocal } from "./local-instant";

describe("a wall-clock time in the analyst's zone as an instant (#44: plan calling ahead)", () => {
  it("reads a time in New York, Los Angeles, Phoenix and UTC, either side of daylight time", () => {
    expect(instantOfLocal("2026-11-30T08:00", "America/New_York")).toBe("2026-11-30T13:00:00Z");
    expect(instantOfLocal("2026-07-01T08:00", "America/New_York")).toBe("2026-07-01T12:00:00Z");
    expect(instantOfLocal("2026-07-01T08:00", "America/Los_Angeles")).toBe("2026-07-01T15:00:00Z");
    expect(instantOfLocal("2026-07-01T08:00", "America/Phoenix")).toBe("2026-07-01T15:00:00Z");
    expect(instantOfLocal("2026-07-01T08:00:30", "UTC")).toBe("2026-07-01T08:00:30Z");
  });

  it("reads as the calling rules do: a fall-back hour's first occurrence, a spring-forward gap's end", () => {
    // 2026-11-01 01:30 happens twice in New York: first at EDT (-4)
    expect(instantOfLocal("2026-11-01T01:30", "America/New_York")).toBe("2026-11-01T05:30:00Z");
    // 2026-03-08 02:30 does not exist in New York: the gap's end, 03:00 EDT (the engine's instantOf)
    expect(instantOfLocal("2026-03-08T02:30", "America/New_York")).toBe("2026-03-08T07:00:00Z");
  });

  it("refuses what is no time or no zone", () => {
    for (const bad of ["", "2026-02-30T08:00", "2026-11-30 08:00", "2026-11-30T24:00", "tomorrow"]) expect(instantOfLocal(bad, "UTC"), bad).toBeNull();
    expect(instantOfLocal("2026-11-30T08:00", "Mars/Olympus")).toBeNull();
  });
});
