import { describe, expect, it } from "vitest";
import { seededRandom } from "../test/random";
import {
  ARRAY_MAX_LINES,
  BITMAP_BYTES,
  BlockFormatError,
  assertBlockable,
  blocksOf,
  changeBlocks,
  changeBlocksBoth,
  BlockList,
  decodeBlockAt,
  decodeBlockNumbers,
  linesIn,
  packBlocks,
  type Block,
} from "./exchange-blocks";

/** The one block of numbers of a single exchange. */
const blockOf = (nums: Float64Array) => {
  const [only, ...rest] = blocksOf(nums);
  expect(rest).toEqual([]);
  return only.lines;
};
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const sorted = (xs: Iterable<number>) => Float64Array.from([...new Set(xs)].sort((a, b) => a - b));

/** `count` distinct lines of exchange 212555, from a seed. */
function exchangeNumbers(seed: number, count: number): Float64Array {
  const r = seededRandom(seed);
  const set = new Set<number>();
  while (set.size < count) set.add(2_125_550_000 + Math.floor(r() * 10_000));
  return sorted(set);
}

describe("exchange blocks", () => {
  it("holds up to 624 lines as sorted big-endian 16-bit lines and more as a 10,000-bit bitmap (Roaring's rule)", () => {
    expect(blockOf(Float64Array.of(2_125_550_001, 2_125_559_999))).toEqual(Uint8Array.of(0x00, 0x01, 0x27, 0x0f));
    for (const n of [1, 2, 623, ARRAY_MAX_LINES, ARRAY_MAX_LINES + 1, 5_000, 10_000]) {
      const nums = n === 10_000 ? Float64Array.from({ length: 10_000 }, (_, i) => 2_125_550_000 + i) : exchangeNumbers(n, n);
      const block = blockOf(nums);
      expect(block.length).toBe(n > ARRAY_MAX_LINES ? BITMAP_BYTES : 2 * n);
      expect(block.length).toBeLessThanOrEqual(Math.min(2 * n, BITMAP_BYTES));
      expect(linesIn(block)).toBe(n);
      expect(decodeBlockNumbers(212_555, block)).toEqual(nums);
    }
  });

  it("a bitmap uses PostgreSQL's get_bit numbering: line i is byte i >> 3, bit i & 7 from the least significant", () => {
    const nums = Float64Array.from({ length: 700 }, (_, i) => 2_125_550_000 + i * 14); // 0, 14, 28, … 9786
    const block = blockOf(nums);
    expect(block.length).toBe(BITMAP_BYTES);
    expect(block[0]).toBe(0b0000_0001); // line 0
    expect(block[1]).toBe(0b0100_0000); // line 14 = byte 1, bit 6
  });

  it("refuses a malformed block rather than reading it as fewer numbers", () => {
    expect(() => linesIn(new Uint8Array(3))).toThrow(BlockFormatError);
    expect(() => linesIn(new Uint8Array(1252))).toThrow(BlockFormatError);
    expect(() => decodeBlockAt(212_555, Uint8Array.of(0, 5, 0, 4), 0, 4, new Float64Array(2), 0)).toThrow(BlockFormatError);
    expect(() => decodeBlockAt(212_555, Uint8Array.of(0x27, 0x10), 0, 2, new Float64Array(1), 0)).toThrow(BlockFormatError); // line 10000
    expect(() => assertBlockable(Float64Array.of(2_125_550_002, 2_125_550_001))).toThrow(BlockFormatError);
    expect(() => assertBlockable(Float64Array.of(1_999_999_999))).toThrow(BlockFormatError);
    // adding to or removing from a malformed array block (out of order, repeated, past line 9999, an odd length)
    // fails the same way, wherever the change's lines fall
    for (const lines of [Uint8Array.of(0, 5, 0, 4), Uint8Array.of(0, 4, 0, 4), Uint8Array.of(0, 1, 0x27, 0x10), Uint8Array.of(0, 1, 0)]) {
      for (const mode of ["add", "remove"] as const) {
        for (const line of [0, 2, 5, 9_999]) {
          const change = Float64Array.of(2_125_550_000 + line);
          expect(() => changeBlocks(packBlocks([{ exchange: 212_555, lines }]), change, mode, new BlockList())).toThrow(BlockFormatError);
        }
      }
    }
  });

  it("splits sorted numbers into one block per exchange, in order", () => {
    const nums = sorted([2_125_550_001, 2_125_550_002, 2_125_560_000, 9_999_999_999, 2_000_000_000]);
    const blocks = [...blocksOf(nums)];
    expect(blocks.map((b) => b.exchange)).toEqual([200_000, 212_555, 212_556, 999_999]);
    const back = blocks.flatMap((b) => [...decodeBlockNumbers(b.exchange, b.lines)]);
    expect(back).toEqual([...nums]);
  });

  it("applies adds and removes to the touched blocks with exact counts, across the array/bitmap boundary, against a reference set", () => {
    const r = seededRandom(162);
    const ref = new Set<number>();
    let blocks: Block[] = [];
    // three exchanges, dense enough that blocks cross 624/625 lines both ways
    const pick = () => [2_125_550_000, 3_035_550_000, 4_045_550_000][Math.floor(r() * 3)] + Math.floor(r() * 1_400);
    for (let round = 0; round < 60; round++) {
      const mode = r() < 0.6 ? "add" : "remove";
      const change = sorted(Array.from({ length: 1 + Math.floor(r() * 200) }, pick));
      let expected = 0;
      for (const x of change) {
        if (mode === "add" && !ref.has(x)) {
          expected++;
          ref.add(x);
        }
        if (mode === "remove" && ref.delete(x)) expected++;
      }
      const wholeOut = new BlockList();
      const touchedOut = new BlockList();
      const whole = changeBlocks(packBlocks(blocks), change, mode, wholeOut, true);
      const touched = changeBlocks(packBlocks(blocks), change, mode, touchedOut, false);
      expect(mode === "add" ? whole.added : whole.removed).toBe(expected);
      expect({ added: touched.added, removed: touched.removed }).toEqual({ added: whole.added, removed: whole.removed });
      // without keepUntouched the sink gets exactly the blocks that changed and are not empty
      const old = new Map(blocks.map((b) => [b.exchange, b.lines]));
      expect(touchedOut.blocks).toEqual(wholeOut.blocks.filter((b) => !old.has(b.exchange) || !sameBytes(old.get(b.exchange)!, b.lines)));
      blocks = wholeOut.blocks;
      const got = blocks.flatMap((b) => [...decodeBlockNumbers(b.exchange, b.lines)]);
      expect(got).toEqual([...ref].sort((a, b) => a - b));
      for (const b of blocks) expect(b.lines.length).toBe(linesIn(b.lines) > ARRAY_MAX_LINES ? BITMAP_BYTES : 2 * linesIn(b.lines));
    }
  });

  it("a number on both sides of a change ends listed, counted removed and added, in an array block and a bitmap alike", () => {
    for (const lines of [3, 700]) {
      const nums = Float64Array.from({ length: lines }, (_, i) => 2_125_550_000 + i * 7);
      const x = Float64Array.of(nums[1]);
      const out = new BlockList();
      expect(changeBlocksBoth(packBlocks(blocksOf(nums)), x, x, out)).toEqual({ added: 1, removed: 1 });
      expect([...decodeBlockNumbers(212_555, out.blocks[0].lines)]).toEqual([...nums]);
    }
  });

  it("applies an FTC change list's deletions and additions in one pass, as a remove then an add would", () => {
    const r = seededRandom(106);
    const ref = new Set<number>();
    let blocks: Block[] = [];
    const pick = () => [2_125_550_000, 3_035_550_000, 4_045_550_000, 5_055_550_000][Math.floor(r() * 4)] + Math.floor(r() * 1_300);
    for (let round = 0; round < 40; round++) {
      // disjoint, as the change list's reader leaves them (the last record of a number decides)
      const adds = sorted(Array.from({ length: Math.floor(r() * 300) }, pick));
      const addSet = new Set(adds);
      const removals = sorted(Array.from({ length: Math.floor(r() * 300) }, pick).filter((x) => !addSet.has(x)));
      let removed = 0;
      let added = 0;
      for (const x of removals) if (ref.delete(x)) removed++;
      for (const x of adds) {
        if (!ref.has(x)) {
          added++;
          ref.add(x);
        }
      }
      const out = new BlockList();
      const c = changeBlocksBoth(packBlocks(blocks), removals, adds, out);
      expect(c).toEqual({ added, removed });
      // without keepUntouched: exactly the blocks that changed and are not empty, same counts
      const touched = new BlockList();
      expect(changeBlocksBoth(packBlocks(blocks), removals, adds, touched, false)).toEqual(c);
      const old = new Map(blocks.map((b) => [b.exchange, b.lines]));
      expect(touched.blocks).toEqual(out.blocks.filter((b) => !old.has(b.exchange) || !sameBytes(old.get(b.exchange)!, b.lines)));
      // the same as the two changes one after the other
      const step = new BlockList();
      const twoSteps = new BlockList();
      changeBlocks(packBlocks(blocks), removals, "remove", step, true);
      changeBlocks(packBlocks(step.blocks), adds, "add", twoSteps, true);
      expect(out.blocks).toEqual(twoSteps.blocks);
      blocks = out.blocks;
      expect(blocks.flatMap((b) => [...decodeBlockNumbers(b.exchange, b.lines)])).toEqual([...ref].sort((a, b) => a - b));
      if (round === 20) {
        // an exchange emptied by deletions alone loses its block
        const gone = sorted([...ref].filter((x) => x < 3_000_000_000));
        for (const x of gone) ref.delete(x);
        const o = new BlockList();
        expect(changeBlocksBoth(packBlocks(blocks), gone, new Float64Array(0), o)).toEqual({ added: 0, removed: gone.length });
        expect(o.blocks.some((b) => b.exchange === 212_555)).toBe(false);
        blocks = o.blocks;
      }
    }
  });
});
