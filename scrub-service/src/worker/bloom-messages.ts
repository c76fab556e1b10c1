/**
 * The side threads' Bloom filter fill, into a filter in shared memory (decision 162): a whole list's numbers while
 * the loading thread writes the database and the list store (lists/bloom-thread.ts is the other end). Every thread
 * given the same `fill` claims chunks of the numbers from it.
 */
import { BloomFilter, type SharedBloom, type SharedFill } from "./bloom";

export interface BloomFillMessage {
  op: "bloom-fill";
  bloom: SharedBloom;
  numbers: Float64Array;
  fill: SharedFill;
}

export function isBloomFillMessage(m: unknown): m is BloomFillMessage {
  return typeof m === "object" && m !== null && (m as { op?: unknown }).op === "bloom-fill";
}

/** Fills the filter with the chunks this thread claims; the answer is the count of numbers. */
export function fillBloom(m: BloomFillMessage): number {
  new BloomFilter(m.bloom).addAll(m.numbers, m.numbers.length, m.fill);
  return m.numbers.length;
}
