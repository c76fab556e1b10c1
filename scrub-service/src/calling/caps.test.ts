import { describe, expect, it } from "vitest";
import { CALL_CAPS, CAPS_VERSION, countAgainstCap, evaluateCaps, type CapFacts, type CapRecord } from "./caps";

describe("call frequency caps as rule data", () => {
  it("every cap cites an http(s) source, has a version and a sane window and scope", () => {
    expect(CAPS_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}\.\d+$/);
    expect(new Set(CALL_CAPS.map((c) => c.id)).size).toBe(CALL_CAPS.length);
    for (const c of CALL_CAPS) {
      expect(c.sourceUrl, c.id).toMatch(/^https?:\/\/\S+$/);
      for (const u of c.alsoRead ?? []) expect(u, c.id).toMatch(/^https?:\/\/\S+$/);
      expect(c.citation.length, c.id).toBeGreaterThan(40);
      expect([24, 168, 720]).toContain(c.windowHours);
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

  describe("evaluateCaps: which caps hold a number's next call, when they lift, in words (decision 187)", () => {
    const at = Date.parse("2026-12-02T17:00:00Z");
    const h = 3_600_000;
    const rec = (hoursAgo: number, o: Partial<CapRecord> = {}): CapRecord => ({
      atMs: at - hoursAgo * h,
      subject: "default",
      channel: "call",
      outcome: "attempted",
      debtId: null,
      ...o,
    });
    const ask = (records: CapRecord[], o: Partial<CapFacts> = {}): ReturnType<typeof evaluateCaps> =>
      evaluateCaps({ state: "FL", purpose: "telemarketing", subject: "default", debtId: null, channel: "call", records, atMs: at, ...o });

    it("Florida: two calls in 24 hours leave a third; three hold the fourth until the oldest leaves the window", () => {
      expect(ask([rec(1), rec(5)]).liftAt).toBeNull();
      const v = ask([rec(1), rec(5), rec(20)]);
      expect(v.holds.map((x) => x.cap.id)).toEqual(["fl-501-616-6b"]);
      expect(v.liftAt).toBe(at - 20 * h + 24 * h);
      expect(v.note).toBe("3 calls in 24 hours to Florida (Fla. Stat. § 501.616(6)(b)): next at 2026-12-02T21:00:00Z");
      // four in the window: the second oldest must leave too
      expect(ask([rec(1), rec(5), rec(20), rec(22)]).liftAt).toBe(at - 20 * h + 24 * h);
    });

    it("a call 24 hours and a second ago does not count; one a little ahead of the instant does", () => {
      expect(ask([rec(1), rec(5), { ...rec(24), atMs: at - 24 * h - 1000 }]).liftAt).toBeNull();
      expect(ask([rec(1), rec(5), { ...rec(0), atMs: at + 60_000 }]).liftAt).not.toBeNull();
    });

    it("texts count with calls where the cap counts both; subjects apart where it is per subject", () => {
      const v = ask([rec(1), rec(2, { channel: "text" }), rec(3)]);
      expect(v.note).toMatch(/^3 calls and texts in 24 hours to Florida/);
      const spring = [rec(1, { subject: "spring" }), rec(2, { subject: "spring" }), rec(3, { subject: "spring" })];
      expect(ask(spring, { subject: "autumn" }).liftAt).toBeNull();
      expect(ask(spring, { subject: "spring" }).note).toMatch(/^3 calls in 24 hours to Florida on subject "spring" \(/);
      // Oregon counts every solicitation to the number, whatever the subject
      expect(ask(spring, { state: "OR", subject: "autumn" }).holds.map((x) => x.cap.id)).toEqual(["or-hb-3865"]);
    });

    it("Oregon's cap is lifted by a purchase within 18 months, not by an older one nor an inquiry", () => {
      const three = [rec(1), rec(2), rec(3)];
      const day = (iso: string) => Date.parse(iso) / 86_400_000;
      expect(ask(three, { state: "OR" }).liftAt).not.toBeNull();
      expect(ask(three, { state: "OR", record: { basis: "purchase", day: day("2025-06-03") } }).liftAt).toBeNull();
      expect(ask(three, { state: "OR", record: { basis: "purchase", day: day("2025-06-02") } }).liftAt).not.toBeNull();
      expect(ask(three, { state: "OR", record: { basis: "inquiry", day: day("2026-11-01") } }).liftAt).not.toBeNull();
      // Florida's is lifted by nothing in the product's records
      expect(ask(three, { record: { basis: "purchase", day: day("2026-11-01") } }).liftAt).not.toBeNull();
    });

    it("Regulation F: seven calls in seven days about a debt hold the eighth; debts apart; texts not held; telemarketing ignores it", () => {
      const seven = Array.from({ length: 7 }, (_, i) => rec(2 + i * 20, { debtId: "D1" }));
      const debt = { state: "NY", purpose: "debt-collection" as const, debtId: "D1" };
      const v = ask(seven, debt);
      expect(v.holds.map((x) => x.cap.id)).toEqual(["us-reg-f-7-in-7"]);
      expect(v.liftAt).toBe(at - 122 * h + 168 * h);
      expect(v.note).toMatch(/^7 calls in 7 days about debt "D1" \(12 CFR 1006\.14\(b\)\(2\)\(i\)\(A\)\): next at /);
      expect(ask(seven.slice(1), debt).liftAt).toBeNull();
      expect(ask(seven, { ...debt, debtId: "D2" }).liftAt).toBeNull();
      expect(ask(seven, { ...debt, channel: "text" }).liftAt).toBeNull();
      expect(ask(seven, { state: "NY" }).liftAt).toBeNull();
      // and debt-collection ignores the states' solicitation caps
      expect(ask([rec(1), rec(2), rec(3)], { purpose: "debt-collection", debtId: "D1" }).liftAt).toBeNull();
    });

    it("Regulation F: a conversation 6 days ago holds until 7 days after it; 8 days ago does not", () => {
      const debt = { state: "NY", purpose: "debt-collection" as const, debtId: "D1" };
      const v = ask([rec(6 * 24, { debtId: "D1", outcome: "conversation" })], debt);
      expect(v.holds.map((x) => x.cap.id)).toEqual(["us-reg-f-after-conversation"]);
      expect(v.liftAt).toBe(at + 24 * h);
      expect(v.note).toMatch(/^A telephone conversation about debt "D1" within 7 days \(12 CFR 1006\.14\(b\)\(2\)\(i\)\(B\)\)/);
      expect(ask([rec(8 * 24, { debtId: "D1", outcome: "conversation" })], debt).liftAt).toBeNull();
    });

    it("Massachusetts: two contacts in 30 days per debt at any number (the stricter of its two limits), under debt-collection only", () => {
      const two = [rec(30, { debtId: "D1" }), rec(50, { debtId: "D1", channel: "text" })];
      const v = ask(two, { state: "MA", purpose: "debt-collection", debtId: "D1" });
      expect(v.holds.map((x) => x.cap.id).sort()).toEqual(["ma-209-cmr-18-16", "ma-940-cmr-7-04-1f"]);
      expect(v.liftAt).toBe(at - 50 * h + 720 * h);
      expect(v.note).toContain('2 calls and texts in 30 days to Massachusetts about debt "D1"');
      expect(ask(two, { state: "MA" }).liftAt).toBeNull();
      // two ten days ago still hold a third (seven days would have let it through); 30 days and a second ago do not
      expect(ask([rec(240, { debtId: "D1" }), rec(241, { debtId: "D1" })], { state: "MA", purpose: "debt-collection", debtId: "D1" }).liftAt).toBe(
        at - 241 * h + 720 * h,
      );
      expect(ask([rec(1, { debtId: "D1" }), rec(720, { debtId: "D1" })], { state: "MA", purpose: "debt-collection", debtId: "D1" }).liftAt).toBeNull();
      // another debt is counted apart
      expect(ask(two, { state: "MA", purpose: "debt-collection", debtId: "D2" }).liftAt).toBeNull();
    });
  });
});
