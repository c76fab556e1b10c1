import { describe, expect, it } from "vitest";
import { CALL_CAPS, CAPS_VERSION, countAgainstCap, type CapRecord } from "./caps";

describe("call frequency caps as rule data", () => {
  it("every cap cites an http(s) source, has a version and a sane window and scope", () => {
    expect(CAPS_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/);
    expect(new Set(CALL_CAPS.map((c) => c.id)).size).toBe(CALL_CAPS.length);
    for (const c of CALL_CAPS) {
      expect(c.sourceUrl, c.id).toMatch(/^https?:\/\/\S+$/);
      for (const u of c.alsoRead ?? []) expect(u, c.id).toMatch(/^https?:\/\/\S+$/);
      expect(c.citation.length, c.id).toBeGreaterThan(40);
      expect([24, 168]).toContain(c.windowHours);
      expect(c.channels.length).toBeGreaterThan(0);
      expect(c.effective).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // an entry read only in secondary sources says what was not found
      if (c.checked === "secondary") expect(c.note, c.id).toBeTruthy();
    }
    expect(CALL_CAPS.map((c) => c.jurisdiction).sort()).toEqual(["FL", "MA", "MA", "MD", "OK", "OR", "US", "US"]);
  });

  it("counts a number's records in the window by scope and channel", () => {
    const at = Date.parse("2026-11-28T18:00:00Z");
    const h = 3_600_000;
    const rec = (hoursAgo: number, o: Partial<CapRecord> = {}): CapRecord => ({
      atMs: at - hoursAgo * h,
      subject: "promo",
      channel: "call",
      outcome: "attempted",
      debtId: null,
      ...o,
    });
    const fl = CALL_CAPS.find((c) => c.id === "fl-501-616-6b")!;
    const three = [rec(1), rec(2, { channel: "text" }), rec(23)];
    expect(countAgainstCap(three, fl, at, { subject: "promo", debtId: null })).toEqual({ capId: fl.id, count: 3, max: 3, over: true });
    // 24 hours ago exactly is outside the window; another subject does not count
    expect(countAgainstCap([rec(1), rec(2), rec(24)], fl, at, { subject: "promo", debtId: null }).over).toBe(false);
    expect(countAgainstCap(three, fl, at, { subject: "other", debtId: null }).count).toBe(0);
    const afterTalk = CALL_CAPS.find((c) => c.id === "us-reg-f-after-conversation")!;
    expect(countAgainstCap([rec(100, { debtId: "D1" })], afterTalk, at, { subject: "x", debtId: "D1" }).over).toBe(false);
    expect(countAgainstCap([rec(100, { debtId: "D1", outcome: "conversation" })], afterTalk, at, { subject: "x", debtId: "D1" }).over).toBe(true);
    expect(countAgainstCap([rec(100, { debtId: "D2", outcome: "conversation" })], afterTalk, at, { subject: "x", debtId: "D1" }).over).toBe(false);
    const regF = CALL_CAPS.find((c) => c.id === "us-reg-f-7-in-7")!;
    const seven = Array.from({ length: 7 }, (_, i) => rec(i * 20, { debtId: "D1" }));
    expect(countAgainstCap([...seven, rec(5, { debtId: "D1", channel: "text" })], regF, at, { subject: "x", debtId: "D1" })).toMatchObject({
      count: 7,
      over: true,
    });
  });
});
