/**
 * The list load's sort (sort-distinct.ts): sorted and distinct like a Set sorted, on one thread or with the side
 * thread sorting area codes it claims (the built dist/dedupe-thread.mjs, as a load runs it).
 */
import { afterAll, describe, expect, it } from "vitest";
import { SideParser } from "../lists/side-parser";
import { seededRandom } from "../test/random";
import { allAreasSorted, bucketByArea, bucketByAreaWith, compactAreas, isBucketSorted, sortClaimedAreas, sortDistinct } from "./sort-distinct";
import { assertBlockable } from "./exchange-blocks";

/** Numbers over many area codes with repeats (a quarter of them), in shared memory. */
function numbers(count: number, seed: number): Float64Array {
  const r = seededRandom(seed);
  const a = new Float64Array(new SharedArrayBuffer(count * 8));
  for (let i = 0; i < count; i++) {
    a[i] = i > 0 && r() < 0.25 ? a[Math.floor(r() * i)] : 2_000_000_000 + Math.floor(r() * 7_999_999_999);
  }
  // one dense exchange (a bucket sorted by radix, not by the small-bucket sort) and area codes with no numbers
  for (let i = 0; i < 5000; i++) a[i] = 2_125_550_000 + (i % 4000);
  return a;
}

const reference = (a: Float64Array) => Float64Array.from(new Set(a)).sort();

/** Where two arrays first differ ("same" when they do not): a deep equal of a million elements takes seconds. */
function firstDifference(a: Float64Array, b: Float64Array): string {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return `at ${i}: ${a[i]} vs ${b[i]} (lengths ${a.length}, ${b.length})`;
  return "same";
}

describe("sorting a list's numbers", () => {
  const side = SideParser.start();
  afterAll(() => side?.close());

  it("sorts and drops repeats like a sorted Set, bucketed or plain", () => {
    for (const a of [numbers(300_000, 1), numbers(3000, 2), Float64Array.from([5.5, 3, 3, 1e12, 2])]) {
      const want = reference(a);
      expect(firstDifference(sortDistinct(a.slice()), want)).toBe("same");
    }
    expect(
      bucketByArea(
        Float64Array.from({ length: 5000 }, (_, i) => (i === 7 ? 1.5 : 2e9 + i)),
        false,
      ),
    ).toBeNull();
  });

  it("sorts with the side thread: its area codes alone, and both threads claiming at once", async () => {
    expect(side, "the built dedupe thread (dist/dedupe-thread.mjs)").not.toBeNull();
    const a = numbers(1_200_000, 3);
    const want = reference(a);

    const alone = a.slice();
    const shared = new Float64Array(new SharedArrayBuffer(alone.byteLength));
    shared.set(alone);
    const b1 = bucketByArea(shared, true)!;
    await side!.sortAreas(b1, shared); // the side thread claims every area code
    expect(allAreasSorted(b1)).toBe(true);
    expect(firstDifference(compactAreas(b1, shared), want)).toBe("same");

    const both = new Float64Array(new SharedArrayBuffer(a.byteLength));
    both.set(a);
    const b2 = bucketByArea(both, true)!;
    const helped = side!.sortAreas(b2, both);
    sortClaimedAreas(b2, both);
    await helped;
    expect(allAreasSorted(b2)).toBe(true);
    expect(firstDifference(compactAreas(b2, both), want)).toBe("same");
  });

  it("buckets on two threads (the side thread counting and placing the second half): the same buckets, the same sort", async () => {
    const a = numbers(1_200_000, 6);
    const one = bucketByArea(a.slice(), true)!;
    const two = await bucketByAreaWith(a, side!);
    expect(two).not.toBeNull();
    expect(Array.from(two!.starts)).toEqual(Array.from(one.starts));
    // within each area code the same rests (in another order: each half's placed where it was counted)
    for (const npa of [200, 212, 480, 999]) {
      const [from, to] = [one.starts[npa], one.starts[npa + 1]];
      expect(Array.from(two!.rests.subarray(from, to)).sort()).toEqual(Array.from(one.rests.subarray(from, to)).sort());
    }
    sortClaimedAreas(two!, a);
    expect(firstDifference(compactAreas(two!, a), reference(numbers(1_200_000, 6)))).toBe("same");
    // a number that is not an integer in either half sends the caller to the plain sort
    for (const at of [10, 1_199_990]) {
      const bad = numbers(1_200_000, 7);
      bad[at] = 2_125_550_000.5;
      expect(await bucketByAreaWith(bad, side!)).toBeNull();
    }
  });

  it("marks what the bucketed sort returned, so the blocks' check trusts its order and checks only its ends", () => {
    const sorted = sortDistinct(numbers(10_000, 4).slice());
    expect(isBucketSorted(sorted)).toBe(true);
    expect(() => assertBlockable(sorted)).not.toThrow();
    expect(isBucketSorted(sortDistinct(Float64Array.from([3, 1, 2])))).toBe(false); // the plain sort: checked in full
    const low = numbers(10_000, 5).slice();
    low[17] = 1_999_999_999; // sorted first: below the first NANP number
    expect(() => assertBlockable(sortDistinct(low))).toThrow(/not a 10-digit NANP number/);
    expect(() => assertBlockable(Float64Array.from([2_125_550_001, 2_125_550_000]))).toThrow(/sorted and distinct/);
  });
});
