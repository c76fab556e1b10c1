// Duplicate-check thread entry (decision 017), built to scrub-service/dist/dedupe-thread.mjs.
// Batches arrive in input order and are answered in that order, so "first occurrence wins" holds.
import { parentPort } from "node:worker_threads";
import { NumberSet } from "../lists/number-set";

interface Batch {
  id: number;
  codes: Float64Array;
  count: number;
  /** Shared memory of `count` bytes, overwritten here. */
  out: Uint8Array;
}

const seen = new NumberSet();
parentPort!.on("message", (m: Batch) => {
  seen.addMany(m.codes, m.count, m.out);
  parentPort!.postMessage(m.id);
});
