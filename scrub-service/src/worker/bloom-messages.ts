/**
 * The side thread's Bloom filter fills, into a filter in shared memory (decision 162): a whole list's numbers while
 * the loading thread writes the database and the list store (bloom-fill, lists/bloom-thread.ts is the other end), or
 * a list file's parsed codes batch by batch while the file is still being read (bloom-add, lists/side-parser.ts).
 */
import { BloomFilter, PARTITION_CHUNK, type SharedBloom } from "./bloom";

export interface BloomFillMessage {
  op: "bloom-fill";
  bloom: SharedBloom;
  numbers: Float64Array;
}

export function isBloomFillMessage(m: unknown): m is BloomFillMessage {
  return typeof m === "object" && m !== null && (m as { op?: unknown }).op === "bloom-fill";
}

/** Fills the filter; the answer is the count added. */
export function fillBloom(m: BloomFillMessage): number {
  new BloomFilter(m.bloom).addAll(m.numbers);
  return m.numbers.length;
}

export interface BloomAddMessage {
  op: "bloom-add";
  id: number;
  /** Names the filter: a SharedArrayBuffer arrives as a new object with every message, so it cannot. */
  filter: number;
  bloom: SharedBloom;
  /** A batch's codes (shared memory): the numbers (≥ 0) are added, the invalid codes (< 0) skipped. */
  codes: Float64Array;
  count: number;
  /** The file's last message: what is gathered goes into the filter before the answer. */
  last: boolean;
}

export interface BloomAdded {
  bloomed: number;
}

export function isBloomAddMessage(m: unknown): m is BloomAddMessage {
  return typeof m === "object" && m !== null && (m as { op?: unknown }).op === "bloom-add";
}

/**
 * Numbers gathered for one filter on this thread and added PARTITION_CHUNK at a time: the partitioned fill sets each
 * region's bits in one pass per chunk, so a batch's few hundred thousand numbers at a time would miss the cache on
 * most writes (20M numbers in ~370k batches took 2.0 s against ~1.4 s in 2M chunks).
 */
let gathered: { bloom: BloomFilter; filter: number; buf: Float64Array; n: number } | null = null;

/** Adds the batch's numbers to the filter (gathered first, see above); the answer names the message. */
export function addCodesToBloom(m: BloomAddMessage): BloomAdded {
  if (gathered?.filter !== m.filter) {
    gathered = { bloom: new BloomFilter(m.bloom), filter: m.filter, buf: new Float64Array(PARTITION_CHUNK), n: 0 };
  }
  const g = gathered;
  for (let i = 0; i < m.count; i++) {
    const x = m.codes[i];
    if (x < 0) continue;
    g.buf[g.n++] = x;
    if (g.n === g.buf.length) {
      g.bloom.addAll(g.buf, g.n);
      g.n = 0;
    }
  }
  if (m.last) {
    g.bloom.addAll(g.buf, g.n);
    gathered = null;
  }
  return { bloomed: m.id };
}
