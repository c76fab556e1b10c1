/**
 * The side thread's Bloom filter fill, into a filter in shared memory (decision 162): a whole list's numbers while
 * the loading thread writes the database and the list store (lists/bloom-thread.ts is the other end).
 */
import { BloomFilter, type SharedBloom } from "./bloom";

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
