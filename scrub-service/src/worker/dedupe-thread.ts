// The scrub's side thread, built to scrub-service/dist/dedupe-thread.mjs: the duplicate check (decision 017),
// the SHA-256s of the input and the results (decision 090), a loaded list's Bloom filter, every other batch of a
// list file's parse and a share of its sort (decision 162). Messages are handled in
// posting order: batches are answered in input order, so "first occurrence wins" holds, and each file's bytes are
// hashed in order.
import { parentPort, workerData } from "node:worker_threads";
import { adoptEngineConfig } from "../config";
import { NumberSet } from "./number-set";
import { lowerThisThreadPriority } from "../ops/thread-priority";
import { fillBloom, isBloomFillMessage, type BloomFillMessage } from "./bloom-messages";
import { isParseFieldMessage, parseField, type ParseFieldMessage } from "./parse-messages";
import { isSha256Message, sha256Handler, type Sha256Message } from "./sha256-messages";
import { answerAreas, isAreasMessage, type AreasMessage } from "./sort-distinct";

interface Batch {
  id: number;
  codes: Float64Array;
  count: number;
  /** Shared memory of `count` bytes, overwritten here. */
  out: Uint8Array;
}

adoptEngineConfig(workerData);
lowerThisThreadPriority();
const seen = new NumberSet();
const sha256 = sha256Handler((d) => parentPort!.postMessage(d));
parentPort!.on("message", (m: Batch | Sha256Message | BloomFillMessage | ParseFieldMessage | AreasMessage) => {
  if (isSha256Message(m)) return sha256(m);
  if (isBloomFillMessage(m)) return parentPort!.postMessage({ filled: fillBloom(m) });
  if (isParseFieldMessage(m)) return parentPort!.postMessage(parseField(m));
  if (isAreasMessage(m)) return parentPort!.postMessage(answerAreas(m));
  seen.addMany(m.codes, m.count, m.out);
  parentPort!.postMessage(m.id);
});
