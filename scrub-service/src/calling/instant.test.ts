import { describe, expect, it } from "vitest";
import { parseInstant } from "./instant";

describe("the evaluation instant", () => {
  it.each([
    ["2026-11-26T15:00:00Z", "2026-11-26T15:00:00.000Z"],
    ["2026-11-26T10:00:00-05:00", "2026-11-26T15:00:00.000Z"],
    ["2026-11-26T10:00-0500", "2026-11-26T15:00:00.000Z"],
    ["2026-11-26T15:00:00.999Z", "2026-11-26T15:00:00.000Z"],
  ])("%s", (text, iso) => {
    const r = parseInstant(text);
    expect(r.ok && new Date(r.ms).toISOString()).toBe(iso);
  });

  it.each(["2026-11-26T15:00:00", "2026-11-26", "tomorrow", "2026-02-30T10:00:00Z", "2026-13-01T10:00:00Z", "1999-12-31T23:00:00Z", ""])(
    "refuses %j with a message",
    (text) => {
      const r = parseInstant(text);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/^at /);
    },
  );
});
