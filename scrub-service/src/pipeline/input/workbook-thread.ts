// A workbook's decode on a thread of its own, built to scrub-service/dist/workbook-thread.mjs: parsing millions
// of shared strings and cells never holds the event loop that serves pages and lookups, runs at the scrub
// threads' lower priority, and is held to its own heap limit (workbook-cache.ts starts it).
import { parentPort, workerData } from "node:worker_threads";
import { lowerThisThreadPriority } from "../../ops/thread-priority";
import { adoptEngineConfig } from "../../config";
import { decodeWorkbookTo, toThreadError, type DecodeJob } from "./workbook-decode";

adoptEngineConfig(workerData);
lowerThisThreadPriority();
decodeWorkbookTo(workerData as DecodeJob).then(
  () => parentPort!.postMessage({ ok: true }),
  (e) => parentPort!.postMessage({ ok: false, error: toThreadError(e) }),
);
