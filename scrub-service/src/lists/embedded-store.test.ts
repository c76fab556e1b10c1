import { describe, expect, it } from "vitest";
import { seededRandom } from "../test/random";
import { checksum, EmbeddedListStore } from "./embedded-store";

describe("embedded list store", () => {
  it("builds a copy from chunks that split an area code, sorted or not, and serves old snapshots until swapped", async () => {
    const s = new EmbeddedListStore();
    const h1 = await s.replace(7, [new Float64Array([2125550001, 2125550002])]);
    await s.finishChange(7, 1, h1);
    const old = await s.snapshot(7, 1);
    const h2 = await s.replace(7, [
      new Float64Array([2125550003, 2125550005]), // sorted, area code 212 continues in the next chunk
      new Float64Array([2125550004, 3055550001]),
      new Float64Array([9995550009, 2125550003, 4155550000]), // unsorted, with a repeat
    ]);
    // until the swap, the old copy is served
    expect([...(await old.has(new Float64Array([2125550001, 2125550003]), 2))]).toEqual([1, 0]);
    await s.finishChange(7, 2, h2);
    await expect(s.snapshot(7, 1)).rejects.toThrow(/no current copy/);
    const now = await s.snapshot(7, 2);
    const ask = new Float64Array([2125550001, 2125550003, 2125550004, 2125550005, 3055550001, 4155550000, 9995550009, 9995550008]);
    expect([...(await now.has(ask, ask.length))]).toEqual([0, 1, 1, 1, 1, 1, 1, 0]);
    // adds and removes make a new copy too
    await s.beginChange(7);
    expect(await s.version(7)).toBeNull();
    await s.add(7, new Float64Array([2125550001]));
    await s.remove(7, new Float64Array([2125550003]));
    await s.finishChange(7, 3);
    const v3 = await s.snapshot(7, 3);
    expect([...(await v3.has(new Float64Array([2125550001, 2125550003, 2125550004]), 3))]).toEqual([1, 0, 1]);
  });

  it("answers exactly in large area codes (searched by exchange) and small ones, across copies", async () => {
    const next = seededRandom(3);
    const listed = new Set<number>();
    // 212: thousands of rests, dense exchanges and empty ones, the first and last exchange and line; 415: a few
    for (const nxx of [0, 1, 2, 234, 235, 500, 998, 999]) for (let k = 0; k < 400; k++) listed.add(2_120_000_000 + nxx * 10_000 + Math.floor(next() * 10_000));
    for (const line of [0, 9999]) listed.add(2_120_000_000 + line).add(2_129_990_000 + line);
    [4_155_550_000, 4_155_559_999, 4_150_000_000].forEach((n) => listed.add(n));
    const s = new EmbeddedListStore();
    const h = await s.replace(9, [Float64Array.from(listed)]);
    await s.finishChange(9, 1, h);
    const ask: number[] = [];
    for (const n of listed) ask.push(n, n + 1, n - 1, n + 10_000, n - 10_000);
    for (let k = 0; k < 5000; k++) ask.push(2_120_000_000 + Math.floor(next() * 10_000_000), 4_150_000_000 + Math.floor(next() * 10_000_000));
    const check = async (version: number, want: Set<number>) => {
      const snap = await s.snapshot(9, version);
      const got = await snap.has(Float64Array.from(ask), ask.length);
      const wrong = ask.flatMap((n, i) => ((got[i] === 1) === want.has(n) ? [] : [`${n} → ${got[i]}`]));
      expect(wrong.slice(0, 5)).toEqual([]);
    };
    await check(1, listed);
    // a change makes new arrays: their exchange indexes are their own
    const removed = [...listed].filter((_, i) => i % 3 === 0);
    const added = [2_120_010_000, 2_127_770_007, 4_155_551_234];
    await s.beginChange(9);
    await s.remove(9, Float64Array.from(removed));
    await s.add(9, Float64Array.from(added));
    await s.finishChange(9, 2);
    const after = new Set([...listed].filter((n) => !removed.includes(n)).concat(added));
    await check(2, after);
  });

  it("checksums cache files as Adler-32 over words, reduced every word or in runs alike", () => {
    const reference = (words: Uint32Array, from: number) => {
      let a = 1;
      let b = 0;
      for (let i = from; i < words.length; i++) {
        a = (a + words[i]) % 65521;
        b = (b + a) % 65521;
      }
      return ((b << 16) | a) >>> 0;
    };
    const next = seededRandom(8);
    for (const n of [0, 1, 1023, 1024, 1025, 5000]) {
      const words = Uint32Array.from({ length: n + 2 }, () => Math.floor(next() * 2 ** 32)); // full-width words too
      expect(checksum(words, 2)).toBe(reference(words, 2));
    }
    expect(checksum(new Uint32Array(3000).fill(0xffffffff), 0)).toBe(reference(new Uint32Array(3000).fill(0xffffffff), 0));
  });
});
