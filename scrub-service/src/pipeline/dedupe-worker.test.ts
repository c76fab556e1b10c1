import { describe, expect, it } from "vitest";
import { DedupeWorker, dedupeInThread } from "./dedupe-worker";

describe("duplicate check on its own thread", () => {
  it("flags exactly what the in-thread set flags, across batches, in posting order", async () => {
    let s = 12345;
    const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
    const w = new DedupeWorker();
    const local = dedupeInThread();
    try {
      const pending: { got: Promise<Uint8Array>; want: Uint8Array }[] = [];
      for (let b = 0; b < 40; b++) {
        const count = 1 + Math.floor(rnd() * 5000);
        const sab = new SharedArrayBuffer(count * 8);
        const codes = new Float64Array(sab);
        for (let i = 0; i < count; i++) {
          const u = rnd();
          // invalid rows, a few area codes (table growth), many repeats
          codes[i] = u < 0.05 ? -1 - Math.floor(rnd() * 3) : (200 + Math.floor(rnd() * 4)) * 1e7 + Math.floor(rnd() * 60_000);
        }
        pending.push({ got: w.check(codes, count), want: local(codes, count) });
      }
      let dups = 0;
      for (const p of pending) {
        const got = await p.got;
        expect([...got]).toEqual([...p.want]);
        dups += p.want.reduce((a, x) => a + x, 0);
      }
      expect(dups).toBeGreaterThan(1000);
    } finally {
      await w.close();
    }
  });
});
