import { describe, expect, it } from "vitest";
import { LIST_TYPES } from "scrub-service/domain";
import { REASON_LABEL, reasonLabel } from "./format";

describe("one vocabulary (#44): bad.csv's codes and the screens' words map one to one", () => {
  it("gives every reason code its own words, and no two codes the same words", () => {
    const words = Object.values(REASON_LABEL);
    expect(new Set(words).size).toBe(words.length);
  });

  it("names every list's code in words that say which list", () => {
    for (const t of LIST_TYPES) {
      expect(reasonLabel(t.kind), t.kind).not.toBe(t.kind);
      expect(reasonLabel(t.kind), t.kind).toMatch(/list|List/);
    }
    expect(reasonLabel("dnc-tx")).toBe("On the Texas do-not-call list");
  });
});
