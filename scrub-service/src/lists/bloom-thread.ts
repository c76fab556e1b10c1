/**
 * A whole list's Bloom filter filled on the side thread (worker/dedupe-thread.ts, its bloom-fill message) while this
 * thread writes the database and the list store: 20M numbers cost ~1–1.5 s of one core that a load otherwise spent
 * after its commit (decision 162). The filter's memory is shared; the numbers are copied to the thread once.
 */
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import { defaultDedupeThreadPath } from "../dist-paths";
import { BloomFilter } from "../worker/bloom";
import type { BloomFillMessage } from "../worker/bloom-messages";

/** Fills `bloom` with `numbers` on a thread of its own; in this thread when the built thread file is missing. */
export async function fillOnSideThread(bloom: BloomFilter, numbers: Float64Array): Promise<void> {
  const file = defaultDedupeThreadPath();
  if (!fs.existsSync(file)) {
    bloom.addAll(numbers);
    return;
  }
  const worker = new Worker(file);
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve());
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`The Bloom filter thread ended (exit ${code}) before it was filled.`)));
      const m: BloomFillMessage = { op: "bloom-fill", bloom: bloom.shared, numbers };
      worker.postMessage(m);
    });
  } finally {
    await worker.terminate();
  }
}
