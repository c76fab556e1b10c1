import { describe, expect, it } from "vitest";
import { checkCallRecords, DEFAULT_SUBJECT, MAX_CALLS_PER_REQUEST, retentionCutoff } from "./validate";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const ok = { number: "(212) 555-2345", at: "2026-11-28T06:00:00-05:00", outcome: "attempted" };

describe("call records: checked whole, every bad one named", () => {
  it("takes a good record with its defaults", () => {
    const r = checkCallRecords([ok], NOW);
    expect(r).toEqual({
      ok: true,
      records: [
        {
          number: 2125552345,
          atMs: Date.parse("2026-11-28T11:00:00Z"),
          subject: DEFAULT_SUBJECT,
          channel: "call",
          outcome: "attempted",
          debtId: null,
          dialerCallId: null,
          reserved: false,
        },
      ],
    });
  });

  it("refuses an instant without an offset, in the future past 5 minutes of skew, and older than five years", () => {
    const r = checkCallRecords(
      [
        { ...ok, at: "2026-11-28T06:00:00" },
        { ...ok, at: "2026-11-28T12:05:00Z" }, // exactly 5 minutes ahead: taken
        { ...ok, at: "2026-11-28T12:05:01Z" },
        { ...ok, at: "2021-11-27T12:00:00Z" }, // five years and one day ago
        { ...ok, at: "2021-11-29T12:00:00Z" }, // five years less one day: taken
      ],
      NOW,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => [e.index, e.field])).toEqual([
      [0, "at"],
      [2, "at"],
      [3, "at"],
    ]);
    expect(r.errors[0].message).toMatch(/UTC offset/);
    expect(r.errors[1].message).toMatch(/future/);
    expect(r.errors[2].message).toMatch(/more than 5 years ago/);
  });

  it("names bad enums, a bad number and over-long texts, each by index and field", () => {
    const long = "x".repeat(201);
    const r = checkCallRecords(
      [
        ok,
        { ...ok, channel: "fax", outcome: "sale" },
        { ...ok, number: "555-1234" },
        { ...ok, subject: long, debt_id: long, dialer_call_id: long },
        { ...ok, reserved: "yes" },
        "nope",
      ],
      NOW,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => `${e.index}.${e.field}`)).toEqual([
      "1.channel",
      "1.outcome",
      "2.number",
      "3.subject",
      "3.debt_id",
      "3.dialer_call_id",
      "4.reserved",
      "5.record",
    ]);
  });

  it("takes 10,000 records and refuses 10,001, and an empty list", () => {
    expect(
      checkCallRecords(
        Array.from({ length: MAX_CALLS_PER_REQUEST }, () => ok),
        NOW,
      ).ok,
    ).toBe(true);
    const over = checkCallRecords(
      Array.from({ length: MAX_CALLS_PER_REQUEST + 1 }, () => ok),
      NOW,
    );
    expect(over).toEqual({ ok: false, errors: [{ index: -1, field: "calls", message: "Send at most 10000 call records per request" }] });
    expect(checkCallRecords([], NOW).ok).toBe(false);
    expect(checkCallRecords(undefined, NOW).ok).toBe(false);
  });

  it("the retention cutoff is the same instant five calendar years before", () => {
    expect(retentionCutoff(NOW).toISOString()).toBe("2021-11-28T12:00:00.000Z");
    expect(retentionCutoff(Date.parse("2028-02-29T00:00:00Z")).toISOString()).toBe("2023-03-01T00:00:00.000Z");
  });
});
