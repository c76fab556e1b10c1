/**
 * The Bloom filter filled while a list file is read (bloom-prefill.ts): batches the side thread took and batches the
 * loading thread filled itself (the side thread behind) end in one filter with exactly the bits of a filter filled
 * with every number at once.
 */
import { afterAll, describe, expect, it } from "vitest";
import { seededRandom } from "../test/random";
import { BloomFilter } from "../worker/bloom";
import { BloomPrefill } from "./bloom-prefill";
import { SideParser } from "./side-parser";

describe("a Bloom filter filled while its file is read", () => {
  const side = SideParser.start();
  afterAll(() => side?.close());

  it("holds every batch's numbers, whichever thread filled them, bit for bit as one fill of them all", async () => {
    expect(side, "the built dedupe thread (dist/dedupe-thread.mjs)").not.toBeNull();
    const r = seededRandom(5);
    const batches: Float64Array[] = [];
    const all: number[] = [];
    for (let b = 0; b < 12; b++) {
      const codes = new Float64Array(new SharedArrayBuffer(150_000 * 8));
      for (let i = 0; i < codes.length; i++) {
        codes[i] = r() < 0.01 ? -4 : 2_000_000_000 + Math.floor(r() * 7_999_999_999); // some invalid codes
        if (codes[i] >= 0) all.push(codes[i]);
      }
      batches.push(codes);
    }
    const prefill = new BloomPrefill(BloomFilter.create(2_000_000), side!, 2);
    let released = 0;
    // posted back to back: the side thread takes the first two batches, this thread fills the ten it is behind on
    for (const codes of batches) prefill.add(codes, codes.length, () => released++);
    await prefill.finish();
    expect(released).toBe(batches.length);
    const want = BloomFilter.create(2_000_000);
    want.addAll(Float64Array.from(all));
    let differing = 0;
    for (let i = 0; i < want.bits.length; i++) if (want.bits[i] !== prefill.bloom.bits[i]) differing++;
    expect(differing).toBe(0);
  });
});
