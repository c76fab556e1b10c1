/**
 * The whole-list Bloom fill on side threads (bloom-thread.ts): two threads of the built dist/dedupe-thread.mjs claim
 * chunks and set bits region by region under locks, and must leave exactly the bits one thread sets alone.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultDedupeThreadPath } from "../dist-paths";
import { seededRandom } from "../test/random";
import { BloomFilter } from "../worker/bloom";
import { fillOnSideThreads } from "./bloom-thread";

describe("Bloom filter filled on side threads", () => {
  it("sets the same bits as one thread, for a partitioned fill of many chunks and for a small one", { timeout: 60_000 }, async () => {
    expect(fs.existsSync(defaultDedupeThreadPath())).toBe(true); // built by the global set-up: the threads really run
    const r = seededRandom(2711);
    for (const count of [4_500_000, 5_000]) {
      const numbers = new Float64Array(new SharedArrayBuffer(count * 8));
      for (let i = 0; i < count; i++) numbers[i] = 2_000_000_000 + Math.floor(r() * 7_999_999_999);
      const alone = BloomFilter.create(count);
      alone.addAll(numbers);
      const threads = BloomFilter.create(count);
      await fillOnSideThreads(threads, numbers);
      expect(Buffer.compare(Buffer.from(threads.shared.sab), Buffer.from(alone.shared.sab))).toBe(0);
    }
  });
});
