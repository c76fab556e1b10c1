/**
 * A whole list's Bloom filter filled on side threads (worker/dedupe-thread.ts, its bloom-fill message) while this
 * thread writes the database and the list store (decision 162). Two threads claim chunks of the numbers: once the
 * writes are done the fill is all that is left, and one thread would leave the other core idle for it (20M numbers:
 * the last 0.3–0.45 s of a load). The filter's memory is shared; so are the numbers when they lie in shared memory
 * (the load's sort leaves them there), else they are copied to each thread once.
 */
import { withEngineConfig } from "../config";
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import { defaultDedupeThreadPath } from "../dist-paths";
import { sharedFill, type BloomFilter } from "../worker/bloom";
import type { BloomFillMessage } from "../worker/bloom-messages";

const FILL_THREADS = 2;

/** Fills `bloom` with `numbers` on threads of their own; in this thread when the built thread file is missing. */
export async function fillOnSideThreads(bloom: BloomFilter, numbers: Float64Array): Promise<void> {
  const file = defaultDedupeThreadPath();
  if (!fs.existsSync(file)) {
    bloom.addAll(numbers);
    return;
  }
  const m: BloomFillMessage = { op: "bloom-fill", bloom: bloom.shared, numbers, fill: sharedFill(bloom) };
  const workers = Array.from({ length: FILL_THREADS }, () => new Worker(file, { workerData: withEngineConfig({}) }));
  try {
    await Promise.all(workers.map((w) => fillOnThread(w, m)));
  } finally {
    // all of them, also when one failed: the other may wait forever for a region lock the failed one held
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

function fillOnThread(worker: Worker, m: BloomFillMessage): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`The Bloom filter thread ended (exit ${code}) before it was filled.`)));
    worker.postMessage(m);
  });
}
