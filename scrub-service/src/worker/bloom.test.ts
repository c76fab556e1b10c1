import { describe, expect, it } from "vitest";
import { BloomFilter } from "./bloom";
import { NumberSet } from "./number-set";
import { seededRandom } from "../test/random";

const randNumber = (r: () => number) => 2_000_000_000 + Math.floor(r() * 7_999_999_999);

describe("Bloom filter", () => {
  it("has no false negatives and a false-positive rate near its target", () => {
    const r = seededRandom(42);
    const n = 200_000;
    const b = BloomFilter.create(n, 0.01);
    const members = new Set<number>();
    while (members.size < n) members.add(randNumber(r));
    for (const x of members) b.add(x);
    for (const x of members) if (!b.has(x)) throw new Error(`false negative ${x}`);
    let fp = 0;
    let tries = 0;
    while (tries < 200_000) {
      const x = randNumber(r);
      if (members.has(x)) continue;
      tries++;
      if (b.has(x)) fp++;
    }
    const rate = fp / tries;
    // m is rounded up to a power of two, so the rate is at most the target and not far below it
    expect(rate).toBeLessThanOrEqual(0.012);
    expect(rate).toBeGreaterThan(0.0005);
  });

  it("answers a batch (hasMany) exactly as one number at a time, skipping invalid codes", () => {
    const r = seededRandom(9);
    const b = BloomFilter.create(50_000, 0.01);
    for (let i = 0; i < 50_000; i++) b.add(randNumber(r));
    const codes = new Float64Array(20_000);
    const r2 = seededRandom(9);
    for (let i = 0; i < codes.length; i++) codes[i] = i % 7 === 0 ? -4 : i % 2 ? randNumber(r2) : randNumber(r);
    const out = new Uint8Array(codes.length);
    out[3] = 1; // bits of another list stay as they are
    b.hasMany(codes, codes.length, out, 2);
    let positives = 0;
    for (let i = 0; i < codes.length; i++) {
      const want = codes[i] >= 0 && b.has(codes[i]);
      expect(((out[i] & 2) !== 0) === want).toBe(true);
      if (want) positives++;
    }
    expect(out[3] & 1).toBe(1);
    expect(positives).toBeGreaterThan(5_000); // the members drawn again from the same sequence
  });

  it("sets the same bits adding a batch (addAll) as adding one number at a time", () => {
    const r = seededRandom(3);
    const xs = Float64Array.from({ length: 30_000 }, () => randNumber(r));
    const one = BloomFilter.create(20_000);
    const many = BloomFilter.create(20_000);
    for (const x of xs) one.add(x);
    many.addAll(xs);
    expect(Array.from(many.bits)).toEqual(Array.from(one.bits));
  });

  it("sets the same bits when a large batch is filled region by region, across chunks, with a count", () => {
    const r = seededRandom(11);
    // 2.2M numbers: past one partition chunk (2^21) into a 4 MB filter (32 regions of 128 KB)
    const xs = Float64Array.from({ length: 2_200_000 }, () => randNumber(r));
    const one = BloomFilter.create(xs.length);
    const many = BloomFilter.create(xs.length);
    expect(many.sizeBits / 8).toBeGreaterThanOrEqual(2 * 128 * 1024);
    const count = xs.length - 7; // the count bounds the batch: the last numbers are not added
    for (let i = 0; i < count; i++) one.add(xs[i]);
    many.addAll(xs, count);
    expect(Buffer.compare(Buffer.from(many.shared.sab), Buffer.from(one.shared.sab))).toBe(0);
    let missing = 0;
    for (let i = count; i < xs.length; i++) if (!one.has(xs[i])) missing++;
    expect(missing).toBeGreaterThan(0); // so the comparison above would see them had they been added
  });

  it("is shared memory: a second view over the same buffer sees the bits", () => {
    const b = BloomFilter.create(1000);
    b.add(2125552123);
    const view = new BloomFilter(b.shared);
    expect(view.has(2125552123)).toBe(true);
    expect(b.shared.sab).toBeInstanceOf(SharedArrayBuffer);
  });
});

describe("NumberSet (duplicate detection)", () => {
  it("agrees with a Set", () => {
    const r = seededRandom(7);
    const s = new NumberSet();
    const ref = new Set<number>();
    for (let i = 0; i < 100_000; i++) {
      const x = 2_000_000_000 + Math.floor(r() * 3_000_000) * 1000 + (i % 3); // many repeats and clusters
      expect(s.add(x)).toBe(!ref.has(x));
      ref.add(x);
    }
    expect(s.size).toBe(ref.size);
    expect(s.has(9999999999)).toBe(ref.has(9999999999));
    expect(s.bytes / s.size).toBeLessThan(20);
  });

  it("addMany flags exactly the later occurrences, in order, across batches and area codes", () => {
    const r = seededRandom(11);
    const s = new NumberSet();
    const ref = new Set<number>();
    for (let batch = 0; batch < 40; batch++) {
      const n = 1 + Math.floor(r() * 3000); // groups of 32 end anywhere in a batch
      const codes = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const pick = r();
        codes[i] =
          pick < 0.05
            ? -1 // not a number: never flagged, never added
            : pick < 0.3 && i > 0
              ? codes[Math.floor(r() * i)] // a repeat inside the batch
              : Math.floor(r() * 1000) * 10_000_000 + Math.floor(r() * (pick < 0.6 ? 50 : 10_000_000)); // every area code, and clusters
      }
      const out = new Uint8Array(n).fill(7);
      s.addMany(codes, n, out);
      for (let i = 0; i < n; i++) {
        const x = codes[i];
        expect(out[i], `batch ${batch} row ${i} (${x})`).toBe(x >= 0 && ref.has(x) ? 1 : 0);
        if (x >= 0) ref.add(x);
      }
    }
    expect(s.size).toBe(ref.size);
    for (const x of ref) expect(s.has(x)).toBe(true);
    expect(s.has(9_999_999_999)).toBe(ref.has(9_999_999_999));
  });
});
