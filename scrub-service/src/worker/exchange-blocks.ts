/**
 * A list as exchange blocks (decision 162): one block per NPA-NXX holding that exchange's line numbers
 * (0000–9999), in the smaller of two forms (Roaring's rule, for a 10,000-line universe):
 *   - an array: the lines as sorted big-endian 16-bit integers, 2 bytes a line, while that is under 1,250 bytes
 *     (≤ 624 lines);
 *   - a bitmap: 10,000 bits, 1,250 bytes, line i at byte i >> 3, bit i & 7 (least significant first: PostgreSQL's
 *     get_bit/set_bit numbering, so SQL reads the same bytes).
 * The length tells the form: exactly 1,250 bytes is a bitmap, an even length below it an array.
 * Numbers are 10-digit NANP numbers as doubles (200 0000000 … 999 9999999); an exchange is number / 10,000.
 *
 * Many blocks travel packed (PackedBlocks: one buffer, offsets) and are written into a BlockSink that hands out room
 * in its own buffer: a large list or change makes no object per block. Pure: no I/O.
 */
import { isBucketSorted } from "./sort-distinct";

export const LINES_PER_EXCHANGE = 10_000;
export const BITMAP_BYTES = LINES_PER_EXCHANGE / 8;
/** The most lines held as an array: 2 × 624 = 1,248 bytes < 1,250. */
export const ARRAY_MAX_LINES = BITMAP_BYTES / 2 - 1;

const FIRST = 2_000_000_000;
const END = 10_000_000_000;

/** One exchange's block: exchange = NPA × 1000 + NXX. */
export interface Block {
  exchange: number;
  lines: Uint8Array;
}

/** Blocks in exchange order, packed in one buffer: block k is `exchanges[k]`, bytes data[starts[k], ends[k]). */
export interface PackedBlocks {
  count: number;
  exchanges: Int32Array;
  starts: Uint32Array;
  ends: Uint32Array;
  data: Uint8Array;
}

/** Where blocks are written: `reserve` makes room for one block in `buf` and returns its offset there. */
export interface BlockSink {
  buf: Uint8Array;
  reserve(exchange: number, bytes: number): number;
}

export class BlockFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlockFormatError";
  }
}

export function exchangeOf(n: number): number {
  return Math.floor(n / LINES_PER_EXCHANGE);
}

/** Bytes of the block holding `lines` lines. */
export function blockBytes(lines: number): number {
  return lines > ARRAY_MAX_LINES ? BITMAP_BYTES : 2 * lines;
}

/** The end (exclusive, at most `to`) of the run of `numbers` (sorted) from `start` that shares its exchange. */
export function exchangeRunEnd(numbers: Float64Array, start: number, to = numbers.length): number {
  const hi = (exchangeOf(numbers[start]) + 1) * LINES_PER_EXCHANGE;
  let end = start + 1;
  while (end < to && numbers[end] < hi) end++;
  return end;
}

/** How many exchanges `numbers` (sorted) touch. */
export function countExchanges(numbers: Float64Array): number {
  let n = 0;
  for (let at = 0; at < numbers.length; at = exchangeRunEnd(numbers, at)) n++;
  return n;
}

/** The exchanges `numbers` (sorted) touch, in order. */
export function exchangesOf(numbers: Float64Array): number[] {
  const out: number[] = [];
  for (let at = 0; at < numbers.length; at = exchangeRunEnd(numbers, at)) out.push(exchangeOf(numbers[at]));
  return out;
}

/** Throws unless `numbers` are sorted, distinct 10-digit numbers (a block cannot hold anything else). */
export function assertBlockable(numbers: Float64Array): void {
  if (isBucketSorted(numbers)) {
    // sorted, distinct integers: within the range when its ends are
    const n = numbers.length;
    if (n && !(numbers[0] >= FIRST)) throw new BlockFormatError(`${numbers[0]} is not a 10-digit NANP number.`);
    if (n && !(numbers[n - 1] < END)) throw new BlockFormatError(`${numbers[n - 1]} is not a 10-digit NANP number.`);
    return;
  }
  let prev = -1;
  for (let i = 0; i < numbers.length; i++) {
    const x = numbers[i];
    if (!(x >= FIRST && x < END && Number.isInteger(x))) throw new BlockFormatError(`${x} is not a 10-digit NANP number.`);
    if (x <= prev) throw new BlockFormatError("Numbers for exchange blocks must be sorted and distinct.");
    prev = x;
  }
}

/** Writes the block of numbers[start, end) (sorted, distinct, one exchange) into `out` at `at`. */
function writeNumbers(out: Uint8Array, at: number, numbers: Float64Array, start: number, end: number): void {
  const base = exchangeOf(numbers[start]) * LINES_PER_EXCHANGE;
  if (end - start > ARRAY_MAX_LINES) {
    out.fill(0, at, at + BITMAP_BYTES);
    for (let i = start; i < end; i++) {
      const line = numbers[i] - base;
      out[at + (line >> 3)] |= 1 << (line & 7);
    }
    return;
  }
  for (let i = start, o = at; i < end; i++, o += 2) {
    const line = numbers[i] - base;
    out[o] = line >> 8;
    out[o + 1] = line & 0xff;
  }
}

/** Writes `n` sorted lines as a block into `out` at `at`. */
function writeLines(out: Uint8Array, at: number, lines: Uint16Array, n: number): void {
  if (n > ARRAY_MAX_LINES) {
    out.fill(0, at, at + BITMAP_BYTES);
    for (let i = 0; i < n; i++) out[at + (lines[i] >> 3)] |= 1 << (lines[i] & 7);
    return;
  }
  for (let i = 0, o = at; i < n; i++, o += 2) {
    out[o] = lines[i] >> 8;
    out[o + 1] = lines[i] & 0xff;
  }
}

/** Writes the blocks of `numbers` (sorted, distinct) into `sink`, one per exchange, in order. */
export function writeNumberBlocks(numbers: Float64Array, sink: BlockSink): void {
  for (let at = 0; at < numbers.length;) {
    const end = exchangeRunEnd(numbers, at);
    const o = sink.reserve(exchangeOf(numbers[at]), blockBytes(end - at));
    writeNumbers(sink.buf, o, numbers, at, end);
    at = end;
  }
}

/** A sink that keeps each block as a Block of its own (tests, single blocks). */
export class BlockList implements BlockSink {
  readonly blocks: Block[] = [];
  buf: Uint8Array = new Uint8Array(0);
  reserve(exchange: number, bytes: number): number {
    this.buf = new Uint8Array(bytes);
    this.blocks.push({ exchange, lines: this.buf });
    return 0;
  }
}

/** The blocks of `numbers` (sorted, distinct), one per exchange, in exchange order. */
export function blocksOf(numbers: Float64Array): Block[] {
  const list = new BlockList();
  writeNumberBlocks(numbers, list);
  return list.blocks;
}

/** Blocks packed into one buffer. */
export function packBlocks(blocks: readonly Block[]): PackedBlocks {
  const exchanges = new Int32Array(blocks.length);
  const starts = new Uint32Array(blocks.length);
  const ends = new Uint32Array(blocks.length);
  let bytes = 0;
  for (let k = 0; k < blocks.length; k++) {
    exchanges[k] = blocks[k].exchange;
    starts[k] = bytes;
    bytes += blocks[k].lines.length;
    ends[k] = bytes;
  }
  const data = new Uint8Array(bytes);
  for (let k = 0; k < blocks.length; k++) data.set(blocks[k].lines, starts[k]);
  return { count: blocks.length, exchanges, starts, ends, data };
}

function checkLength(bytes: number): void {
  if (bytes !== BITMAP_BYTES && (bytes % 2 !== 0 || bytes > 2 * ARRAY_MAX_LINES)) {
    throw new BlockFormatError(`A block of ${bytes} bytes is neither an array nor a bitmap.`);
  }
}

const POPCOUNT = new Uint8Array(256).map((_, i) => {
  let c = 0;
  for (let v = i; v; v >>= 1) c += v & 1;
  return c;
});

function linesAt(data: Uint8Array, from: number, to: number): number {
  checkLength(to - from);
  if (to - from !== BITMAP_BYTES) return (to - from) / 2;
  let n = 0;
  for (let i = from; i < to; i++) n += POPCOUNT[data[i]];
  return n;
}

/** Lines held by a block. */
export function linesIn(block: Uint8Array): number {
  return linesAt(block, 0, block.length);
}

/** The lines of the block at data[from, to) into `out` (sorted); returns how many. Throws on a malformed block. */
function readLines(exchange: number, data: Uint8Array, from: number, to: number, out: Uint16Array): number {
  checkLength(to - from);
  let n = 0;
  if (to - from === BITMAP_BYTES) {
    for (let i = from; i < to; i++) {
      let b = data[i];
      while (b) {
        out[n++] = (i - from) * 8 + (31 - Math.clz32(b & -b));
        b &= b - 1;
      }
    }
    return n;
  }
  let prev = -1;
  for (let i = from; i < to; i += 2) {
    const line = (data[i] << 8) | data[i + 1];
    if (line <= prev || line >= LINES_PER_EXCHANGE) throw new BlockFormatError(`The block of exchange ${exchange} is not sorted lines.`);
    out[n++] = line;
    prev = line;
  }
  return n;
}

const linesA = new Uint16Array(LINES_PER_EXCHANGE);
const linesB = new Uint16Array(LINES_PER_EXCHANGE);

/**
 * Writes the numbers of the block at data[from, to) into `out` from `at`, in order; returns how many. `out` must have
 * room. Throws BlockFormatError on a block that is not well formed (an array out of order or past line 9999): a
 * corrupt block never reads as fewer numbers.
 */
export function decodeBlockAt(exchange: number, data: Uint8Array, from: number, to: number, out: Float64Array, at: number): number {
  const n = readLines(exchange, data, from, to, linesA);
  const base = exchange * LINES_PER_EXCHANGE;
  for (let i = 0; i < n; i++) out[at + i] = base + linesA[i];
  return n;
}

/** The numbers of one block as a new array. */
export function decodeBlockNumbers(exchange: number, block: Uint8Array): Float64Array {
  const out = new Float64Array(linesIn(block));
  decodeBlockAt(exchange, block, 0, block.length, out, 0);
  return out;
}

/** Every number of packed blocks, as one sorted array. */
export function numbersOfPacked(p: PackedBlocks): Float64Array {
  let n = 0;
  for (let k = 0; k < p.count; k++) n += linesAt(p.data, p.starts[k], p.ends[k]);
  const out = new Float64Array(n);
  let at = 0;
  for (let k = 0; k < p.count; k++) at += decodeBlockAt(p.exchanges[k], p.data, p.starts[k], p.ends[k], out, at);
  return out;
}

/** |a ∩ b| of two sorted distinct arrays, b taken from `from` to `to`. */
export function overlapSorted(a: Float64Array, b: Float64Array, from = 0, to = b.length): number {
  let i = 0;
  let j = from;
  let n = 0;
  while (i < a.length && j < to) {
    if (a[i] < b[j]) i++;
    else if (b[j] < a[i]) j++;
    else {
      n++;
      i++;
      j++;
    }
  }
  return n;
}

/** What a change did (the blocks themselves went to the sink). */
export interface BlockChange {
  added: number;
  removed: number;
}

const scratchBitmap = new Uint8Array(BITMAP_BYTES);

/**
 * One exchange's block with removals[rs, re) taken out and additions[as, ae) put in (each sorted; a line on both
 * sides ends present), written to `sink` when it changed and is not empty; the lines that changed are added to
 * `tally`. Works on lines, not numbers: a bitmap gets bits cleared and set, an array is merged in one pass over its
 * bytes, each line checked as it is read (a malformed block throws: it never reads as fewer numbers); the form
 * follows the count.
 */
function changeBlock(
  exchange: number,
  data: Uint8Array | null,
  from: number,
  to: number,
  additions: Float64Array,
  as: number,
  ae: number,
  removals: Float64Array,
  rs: number,
  re: number,
  sink: BlockSink,
  tally: BlockChange,
): boolean {
  const base = exchange * LINES_PER_EXCHANGE;
  if (data && to - from === BITMAP_BYTES) {
    const bits = scratchBitmap;
    bits.set(data.subarray(from, to));
    let removed = 0;
    let added = 0;
    for (let i = rs; i < re; i++) {
      const line = removals[i] - base;
      const bit = 1 << (line & 7);
      if (bits[line >> 3] & bit) {
        bits[line >> 3] ^= bit;
        removed++;
      }
    }
    for (let i = as; i < ae; i++) {
      const line = additions[i] - base;
      const bit = 1 << (line & 7);
      if (!(bits[line >> 3] & bit)) {
        bits[line >> 3] |= bit;
        added++;
      }
    }
    if (!added && !removed) return false;
    tally.added += added;
    tally.removed += removed;
    if (!removed || linesAt(bits, 0, BITMAP_BYTES) > ARRAY_MAX_LINES) {
      const o = sink.reserve(exchange, BITMAP_BYTES);
      sink.buf.set(bits, o);
    } else {
      const n = readLines(exchange, bits, 0, BITMAP_BYTES, linesA);
      if (n) {
        const o = sink.reserve(exchange, blockBytes(n));
        writeLines(sink.buf, o, linesA, n);
      }
    }
    return true;
  }
  let had = 0;
  let n = 0;
  let removed = 0;
  let j = as;
  let y = j < ae ? additions[j] - base : LINES_PER_EXCHANGE; // the next line to add
  if (data) {
    checkLength(to - from);
    had = (to - from) >> 1;
    let q = rs;
    let z = q < re ? removals[q] - base : LINES_PER_EXCHANGE; // the next line to remove
    let prev = -1;
    for (let i = from; i < to; i += 2) {
      const x = (data[i] << 8) | data[i + 1];
      if (x <= prev || x >= LINES_PER_EXCHANGE) throw new BlockFormatError(`The block of exchange ${exchange} is not sorted lines.`);
      prev = x;
      if (z <= x) {
        while (z < x) z = ++q < re ? removals[q] - base : LINES_PER_EXCHANGE; // not there
        if (z === x) {
          z = ++q < re ? removals[q] - base : LINES_PER_EXCHANGE;
          removed++;
          // (additions below x are written before the next line; a line both sides name is added again, as a
          // remove then an add, and a bitmap, would have it)
          if (y !== x) continue;
        }
      }
      if (y <= x) {
        while (y < x) {
          linesB[n++] = y;
          y = ++j < ae ? additions[j] - base : LINES_PER_EXCHANGE;
        }
        if (y === x) y = ++j < ae ? additions[j] - base : LINES_PER_EXCHANGE; // already there
      }
      linesB[n++] = x;
    }
  }
  for (; y < LINES_PER_EXCHANGE; y = ++j < ae ? additions[j] - base : LINES_PER_EXCHANGE) linesB[n++] = y;
  const added = n - had + removed;
  if (!added && !removed) return false;
  tally.added += added;
  tally.removed += removed;
  if (n) {
    const o = sink.reserve(exchange, blockBytes(n)); // first: reserving may move the sink to a new buffer
    writeLines(sink.buf, o, linesB, n);
  }
  return true;
}

/**
 * Applies a change to `old` (blocks in exchange order, holding at least every exchange the change touches): its
 * `removals` taken out and its `additions` put in (each sorted and distinct: an FTC change list's two sides, which
 * its reader leaves disjoint, or one of them empty), in one pass; a number on both sides ends listed, as if removed
 * and then added. Writes to `sink` the blocks that changed and are not empty — and, with
 * `keepUntouched`, every other block of `old` as it was, so the sink gets all of `old` changed, in exchange order.
 */
export function changeBlocksBoth(old: PackedBlocks, removals: Float64Array, additions: Float64Array, sink: BlockSink, keepUntouched = true): BlockChange {
  const tally: BlockChange = { added: 0, removed: 0 };
  const keep = (k: number) => {
    const from = old.starts[k];
    const to = old.ends[k];
    checkLength(to - from);
    const o = sink.reserve(old.exchanges[k], to - from);
    sink.buf.set(old.data.subarray(from, to), o);
  };
  const none = 1 << 30; // past every exchange
  let k = 0;
  let a = 0;
  let r = 0;
  while (a < additions.length || r < removals.length) {
    const ea = a < additions.length ? exchangeOf(additions[a]) : none;
    const er = r < removals.length ? exchangeOf(removals[r]) : none;
    const exchange = Math.min(ea, er);
    const aEnd = ea === exchange ? exchangeRunEnd(additions, a) : a;
    const rEnd = er === exchange ? exchangeRunEnd(removals, r) : r;
    for (; k < old.count && old.exchanges[k] < exchange; k++) if (keepUntouched) keep(k);
    const had = k < old.count && old.exchanges[k] === exchange;
    const changed = had
      ? changeBlock(exchange, old.data, old.starts[k], old.ends[k], additions, a, aEnd, removals, r, rEnd, sink, tally)
      : changeBlock(exchange, null, 0, 0, additions, a, aEnd, removals, r, rEnd, sink, tally);
    if (had) {
      if (!changed && keepUntouched) keep(k);
      k++;
    }
    a = aEnd;
    r = rEnd;
  }
  if (keepUntouched) for (; k < old.count; k++) keep(k);
  return tally;
}

const NO_NUMBERS = new Float64Array(0);

/** An add or a remove of `numbers` (sorted, distinct): changeBlocksBoth with one side. */
export function changeBlocks(old: PackedBlocks, numbers: Float64Array, mode: "add" | "remove", sink: BlockSink, keepUntouched = false): BlockChange {
  return mode === "add" ? changeBlocksBoth(old, NO_NUMBERS, numbers, sink, keepUntouched) : changeBlocksBoth(old, numbers, NO_NUMBERS, sink, keepUntouched);
}
