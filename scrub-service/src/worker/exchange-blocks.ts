/**
 * A list as exchange blocks (decision 162): one block per NPA-NXX holding that exchange's line numbers
 * (0000–9999), in the smaller of two forms (Roaring's rule, for a 10,000-line universe):
 *   - an array: the lines as sorted big-endian 16-bit integers, 2 bytes a line, while that is under 1,250 bytes
 *     (≤ 624 lines);
 *   - a bitmap: 10,000 bits, 1,250 bytes, line i at byte i >> 3, bit i & 7 (least significant first: PostgreSQL's
 *     get_bit/set_bit numbering, so SQL reads the same bytes).
 * The length tells the form: exactly 1,250 bytes is a bitmap, an even length below it an array.
 * Numbers are 10-digit NANP numbers as doubles (200 0000000 … 999 9999999); an exchange is number / 10,000.
 * Pure: no I/O.
 */

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

/** The end (exclusive) of the run of `numbers` (sorted) from `start` that shares its exchange. */
export function exchangeRunEnd(numbers: Float64Array, start: number): number {
  const hi = (exchangeOf(numbers[start]) + 1) * LINES_PER_EXCHANGE;
  let end = start + 1;
  while (end < numbers.length && numbers[end] < hi) end++;
  return end;
}

/** Every exchange of `numbers` (sorted) with the run of its numbers: [exchange, start, end). */
export function* exchangeRuns(numbers: Float64Array): Generator<[exchange: number, start: number, end: number]> {
  for (let at = 0; at < numbers.length; ) {
    const end = exchangeRunEnd(numbers, at);
    yield [exchangeOf(numbers[at]), at, end];
    at = end;
  }
}

/** How many exchanges `numbers` (sorted) touch. */
export function countExchanges(numbers: Float64Array): number {
  let n = 0;
  let last = -1;
  for (let i = 0; i < numbers.length; i++) {
    const e = exchangeOf(numbers[i]);
    if (e !== last) {
      n++;
      last = e;
    }
  }
  return n;
}

/** Throws unless `numbers` are sorted, distinct 10-digit numbers (a block cannot hold anything else). */
export function assertBlockable(numbers: Float64Array): void {
  let prev = -1;
  for (let i = 0; i < numbers.length; i++) {
    const x = numbers[i];
    if (!(x >= FIRST && x < END && Number.isInteger(x))) throw new BlockFormatError(`${x} is not a 10-digit NANP number.`);
    if (x <= prev) throw new BlockFormatError("Numbers for exchange blocks must be sorted and distinct.");
    prev = x;
  }
}

/**
 * Writes the block of numbers[start, end) (sorted, distinct, one exchange) into `out` at `at`; returns the bytes
 * written (blockBytes(end − start)).
 */
export function writeBlock(out: Uint8Array, at: number, numbers: Float64Array, start: number, end: number): number {
  const n = end - start;
  const base = exchangeOf(numbers[start]) * LINES_PER_EXCHANGE;
  if (n > ARRAY_MAX_LINES) {
    out.fill(0, at, at + BITMAP_BYTES);
    for (let i = start; i < end; i++) {
      const line = numbers[i] - base;
      out[at + (line >> 3)] |= 1 << (line & 7);
    }
    return BITMAP_BYTES;
  }
  let o = at;
  for (let i = start; i < end; i++) {
    const line = numbers[i] - base;
    out[o++] = line >> 8;
    out[o++] = line & 0xff;
  }
  return 2 * n;
}

/** The block of numbers[start, end) as a new buffer. */
export function encodeBlock(numbers: Float64Array, start = 0, end = numbers.length): Uint8Array {
  const out = new Uint8Array(blockBytes(end - start));
  writeBlock(out, 0, numbers, start, end);
  return out;
}

function checkLength(block: Uint8Array): void {
  if (block.length !== BITMAP_BYTES && (block.length % 2 !== 0 || block.length > 2 * ARRAY_MAX_LINES)) {
    throw new BlockFormatError(`A block of ${block.length} bytes is neither an array nor a bitmap.`);
  }
}

const POPCOUNT = new Uint8Array(256).map((_, i) => {
  let c = 0;
  for (let v = i; v; v >>= 1) c += v & 1;
  return c;
});

/** Lines held by a block. */
export function linesIn(block: Uint8Array): number {
  checkLength(block);
  if (block.length !== BITMAP_BYTES) return block.length / 2;
  let n = 0;
  for (let i = 0; i < BITMAP_BYTES; i++) n += POPCOUNT[block[i]];
  return n;
}

/**
 * Writes the numbers of exchange `exchange`'s block into `out` from `at`, in order; returns how many. `out` must have
 * room for linesIn(block). Throws BlockFormatError on a block that is not well formed (an array out of order or
 * past line 9999): a corrupt block never reads as fewer numbers.
 */
export function decodeBlock(exchange: number, block: Uint8Array, out: Float64Array, at: number): number {
  checkLength(block);
  const base = exchange * LINES_PER_EXCHANGE;
  let o = at;
  if (block.length === BITMAP_BYTES) {
    for (let i = 0; i < BITMAP_BYTES; i++) {
      let b = block[i];
      while (b) {
        const bit = 31 - Math.clz32(b & -b);
        out[o++] = base + i * 8 + bit;
        b &= b - 1;
      }
    }
    return o - at;
  }
  let prev = -1;
  for (let i = 0; i < block.length; i += 2) {
    const line = (block[i] << 8) | block[i + 1];
    if (line <= prev || line >= LINES_PER_EXCHANGE) throw new BlockFormatError(`The block of exchange ${exchange} is not sorted lines.`);
    out[o++] = base + line;
    prev = line;
  }
  return o - at;
}

/** The numbers of one block as a new array. */
export function decodeBlockNumbers(exchange: number, block: Uint8Array): Float64Array {
  const out = new Float64Array(linesIn(block));
  decodeBlock(exchange, block, out, 0);
  return out;
}

/** a ∪ b of two sorted distinct arrays, and how many of b were new. */
export function unionSorted(a: Float64Array, b: Float64Array, from = 0, to = b.length): { out: Float64Array; added: number } {
  const out = new Float64Array(a.length + (to - from));
  let i = 0;
  let j = from;
  let o = 0;
  while (i < a.length && j < to) {
    const x = a[i];
    const y = b[j];
    if (x < y) {
      out[o++] = x;
      i++;
    } else if (y < x) {
      out[o++] = y;
      j++;
    } else {
      out[o++] = x;
      i++;
      j++;
    }
  }
  while (i < a.length) out[o++] = a[i++];
  while (j < to) out[o++] = b[j++];
  return { out: out.subarray(0, o), added: o - a.length };
}

/** a − b of two sorted distinct arrays, and how many of b were present. */
export function differenceSorted(a: Float64Array, b: Float64Array, from = 0, to = b.length): { out: Float64Array; removed: number } {
  const out = new Float64Array(a.length);
  let i = 0;
  let j = from;
  let o = 0;
  while (i < a.length) {
    const x = a[i];
    while (j < to && b[j] < x) j++;
    if (j < to && b[j] === x) {
      j++;
    } else {
      out[o++] = x;
    }
    i++;
  }
  return { out: out.subarray(0, o), removed: a.length - o };
}

/** |a ∩ b| of two sorted distinct arrays. */
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

/** The blocks of `numbers` (sorted, distinct), one per exchange, in exchange order. */
export function* blocksOf(numbers: Float64Array): Generator<Block> {
  for (let at = 0; at < numbers.length; ) {
    const end = exchangeRunEnd(numbers, at);
    yield { exchange: exchangeOf(numbers[at]), lines: encodeBlock(numbers, at, end) };
    at = end;
  }
}

/** What a change did to the blocks it touched. */
export interface BlockChange {
  /** The blocks whose lines changed and are not empty now (to be written), in exchange order. */
  write: Block[];
  /** Exchanges whose old block changed or emptied (to be deleted before `write` goes in). */
  replaced: number[];
  added: number;
  removed: number;
}

/**
 * Applies an add or remove of `numbers` (sorted, distinct) to `old` (blocks in exchange order, holding at least every
 * exchange the numbers touch; others pass through when `keepUntouched`, so the result is the whole new list).
 */
export function changeBlocks(old: readonly Block[], numbers: Float64Array, mode: "add" | "remove", keepUntouched = false): BlockChange {
  const write: Block[] = [];
  const replaced: number[] = [];
  let added = 0;
  let removed = 0;
  let i = 0;
  const empty = new Float64Array(0);
  for (let at = 0; at < numbers.length; ) {
    const end = exchangeRunEnd(numbers, at);
    const exchange = exchangeOf(numbers[at]);
    while (i < old.length && old[i].exchange < exchange) {
      if (keepUntouched) write.push(old[i]);
      i++;
    }
    const had = i < old.length && old[i].exchange === exchange ? old[i++] : null;
    const before = had ? decodeBlockNumbers(exchange, had.lines) : empty;
    let after: Float64Array;
    if (mode === "add") {
      const u = unionSorted(before, numbers, at, end);
      after = u.out;
      added += u.added;
    } else {
      const d = differenceSorted(before, numbers, at, end);
      after = d.out;
      removed += d.removed;
    }
    if (after.length !== before.length) {
      if (had) replaced.push(exchange);
      if (after.length) write.push({ exchange, lines: encodeBlock(after) });
    } else if (had && keepUntouched) {
      write.push(had);
    }
    at = end;
  }
  if (keepUntouched) while (i < old.length) write.push(old[i++]);
  return { write, replaced, added, removed };
}
