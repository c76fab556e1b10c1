/**
 * The call history index a scrub reads (decision 191): numbers found by binary search, each number's records counted
 * in 24 hours and 7 days as the lookup counts them, turned back into the caps' records, and a SHA-256 of the snapshot
 * that does not depend on the order the records were read in.
 */
import { describe, expect, it } from "vitest";
import { buildHistoryIndex, callCounts, capRecordsOf, emptyHistoryIndex, findHistory, type HistoryRow } from "./history-index";
import { historySha256 } from "./store";

const AT = Date.parse("2026-12-02T17:00:00Z");
const H = 3_600_000;
const rows: HistoryRow[] = [
  { number: 3055552101, atMs: AT - 1 * H, subject: "default", channel: "call", outcome: "attempted", debtId: null },
  { number: 2125552101, atMs: AT - 30 * H, subject: "spring", channel: "text", outcome: "connected", debtId: "A-1" },
  { number: 3055552101, atMs: AT - 24 * H, subject: "default", channel: "call", outcome: "attempted", debtId: null },
  { number: 3055552101, atMs: AT - 24 * H + 1000, subject: "default", channel: "text", outcome: "conversation", debtId: "B-2" },
  { number: 3055552101, atMs: AT + 60_000, subject: "spring", channel: "call", outcome: "attempted", debtId: null },
  { number: 3055552101, atMs: AT - 7 * 24 * H, subject: "default", channel: "call", outcome: "attempted", debtId: null },
];

describe("CallHistoryIndex", () => {
  it("finds a number's records and counts them after the 24-hour and 7-day starts (one ahead of the instant too)", () => {
    const index = buildHistoryIndex(rows);
    expect(index.count).toBe(6);
    expect([...index.numbers]).toEqual([2125552101, 3055552101]);
    expect(findHistory(index, 2125552102)).toBe(-1);
    const fl = findHistory(index, 3055552101);
    // 24 h: 1 h ago, 24 h − 1 s ago and the one a minute ahead; 24 h ago exactly is out; 7 days adds it, not 7 days ago
    expect(callCounts(index, fl, AT, [0, 0])).toEqual([3, 4]);
    expect(callCounts(index, findHistory(index, 2125552101), AT, [0, 0])).toEqual([0, 1]);
    expect(capRecordsOf(index, fl).map((r) => [r.atMs - AT, r.subject, r.channel, r.outcome, r.debtId])).toEqual([
      [-7 * 24 * H, "default", "call", "attempted", null],
      [-24 * H, "default", "call", "attempted", null],
      [-24 * H + 1000, "default", "text", "conversation", "B-2"],
      [-1 * H, "default", "call", "attempted", null],
      [60_000, "spring", "call", "attempted", null],
    ]);
    expect(findHistory(emptyHistoryIndex(), 3055552101)).toBe(-1);
  });

  it("hashes the snapshot the same whatever order the records came in, and differently when one changes", () => {
    const a = historySha256(buildHistoryIndex(rows));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(historySha256(buildHistoryIndex([...rows].reverse()))).toBe(a);
    expect(historySha256(buildHistoryIndex(rows.map((r, i) => (i === 3 ? { ...r, debtId: "B-3" } : r))))).not.toBe(a);
    expect(historySha256(emptyHistoryIndex())).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});
