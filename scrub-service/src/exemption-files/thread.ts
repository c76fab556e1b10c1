// An exemption file's read on a thread of its own, built to scrub-service/dist/exemption-thread.mjs: parsing a
// million rows never holds the event loop that serves pages and lookups, runs at the scrub threads' lower priority,
// and is held to its own heap limit (file.ts starts it). The rows come back as transferred typed arrays.
import { parentPort, workerData } from "node:worker_threads";
import { lowerThisThreadPriority } from "../ops/thread-priority";
import { adoptEngineConfig } from "../config";
import { toThreadError } from "../pipeline/input/workbook-decode";
import { readExemptionInput, type ExemptionInput } from "./read";

adoptEngineConfig(workerData);
lowerThisThreadPriority();
const { input, todayDay } = workerData as { input: ExemptionInput; todayDay: number };
readExemptionInput(input, todayDay).then(
  (parsed) => {
    const transfer = parsed.ok ? [parsed.rows.numbers.buffer, parsed.rows.basis.buffer, parsed.rows.day.buffer] : [];
    parentPort!.postMessage({ ok: true, parsed }, transfer as ArrayBuffer[]);
  },
  (e) => parentPort!.postMessage({ ok: false, error: toThreadError(e) }),
);
