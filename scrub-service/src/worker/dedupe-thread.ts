// Duplicate-check thread entry (decision 017), built to scrub-service/dist/dedupe-thread.mjs.
// Batches arrive in input order and are answered in that order, so "first occurrence wins" holds.
import { parentPort } from "node:worker_threads";
import { NumberSet } from "../lists/number-set";

interface Batch {
  id: number;
  codes: Float64Array;
  count: number;
  out: SharedArrayBuffer;
}

const seen = new NumberSet();
parentPort!.on("message", (m: Batch) => {
  const out = new Uint8Array(m.out);
  for (let r = 0; r < m.count; r++) {
    const x = m.codes[r];
    if (x >= 0 && !seen.add(x)) out[r] = 1;
  }
  parentPort!.postMessage(m.id);
});
