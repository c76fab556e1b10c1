/**
 * Reading blocks back (parsePackedCopy): PostgreSQL's binary COPY rows of (exchange, lines), as the server sends them
 * for a range of a list or a DELETE … RETURNING. The database tests read real ones; these build the bytes by hand for
 * the edges: rows of one line (the smallest), rows out of order, no rows, and data cut short.
 */
import { describe, expect, it } from "vitest";
import { parsePackedCopy } from "./pg-bulk";

function copyData(rows: { exchange: number; lines: number[] }[], trailer = true): Buffer {
  const parts: Buffer[] = [Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]; // flags, no extension
  for (const r of rows) {
    const head = Buffer.alloc(14);
    head.writeInt16BE(2, 0);
    head.writeInt32BE(4, 2);
    head.writeInt32BE(r.exchange, 6);
    head.writeInt32BE(2 * r.lines.length, 10);
    const lines = Buffer.alloc(2 * r.lines.length);
    r.lines.forEach((l, i) => lines.writeUInt16BE(l, 2 * i));
    parts.push(head, lines);
  }
  if (trailer) parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

describe("parsePackedCopy", () => {
  it("reads every row, one-line rows included, in exchange order whatever order they came in", () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ exchange: 200_000 + ((i * 7919) % 5000), lines: i % 3 ? [i % 10_000] : [1, 2, 9999] }));
    const p = parsePackedCopy(copyData(rows));
    expect(p.count).toBe(5000);
    const want = [...rows].sort((a, b) => a.exchange - b.exchange);
    for (let k = 0; k < p.count; k++) {
      expect(p.exchanges[k]).toBe(want[k].exchange);
      const bytes = p.data.subarray(p.starts[k], p.ends[k]);
      expect(Array.from({ length: bytes.length / 2 }, (_, i) => (bytes[2 * i] << 8) | bytes[2 * i + 1])).toEqual(want[k].lines);
    }
  });

  it("reads no rows as no blocks, and refuses data cut short or not from COPY", () => {
    expect(parsePackedCopy(copyData([])).count).toBe(0);
    const whole = copyData([{ exchange: 212_555, lines: [1, 2, 3] }]);
    expect(() => parsePackedCopy(copyData([{ exchange: 212_555, lines: [1, 2, 3] }], false))).toThrow(/ended before its trailer/);
    expect(() => parsePackedCopy(whole.subarray(0, whole.length - 5))).toThrow();
    expect(() => parsePackedCopy(Buffer.from("exchange,lines\n"))).toThrow(/Not PostgreSQL binary COPY/);
  });
});
