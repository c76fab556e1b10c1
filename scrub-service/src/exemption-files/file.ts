/**
 * An exemption file or typed text read to its rows on the exemption thread (thread.ts), never on the caller's
 * event loop (decision 176): at most one read at a time per process (SCRUB_MAX_EXEMPTION_READS), the others wait
 * their turn; each thread's heap is capped (the rows themselves are typed arrays outside it). A refusal is an
 * ExemptionInputError whose messages name the line and the limit.
 */
import { engineConfig, withEngineConfig } from "../config";
import { Worker } from "node:worker_threads";
import { defaultExemptionThreadPath } from "../dist-paths";
import { Turns } from "../ops/turns";
import { isInputFormatError } from "../pipeline/input/errors";
import { fromThreadError, type ThreadError } from "../pipeline/input/workbook-decode";
import type { ExemptionIndex } from "../exemption-rules/decide";
import type { ParsedExemptions } from "../exemption-rules/parse";
import { DAY_MS } from "../exemption-rules/windows";
import type { ExemptionInput } from "./read";

/** The rows were refused: each message names its line. Nothing was written. */
export class ExemptionInputError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join("\n"));
    this.name = "ExemptionInputError";
  }
}

/** Heap of one exemption thread (MB): the reader's strings for one chunk and a few rows; the rows are off-heap. */
const THREAD_HEAP_MB = 96;

function maxReads(): number {
  return engineConfig().SCRUB_MAX_EXEMPTION_READS;
}

const turns = new Turns(maxReads);

/** Reads started and the most running at once in this process (tests read them). */
export const exemptionReadStats = { started: 0, peakActive: 0 };

/** Today's UTC day number (a record dated later is refused). */
export function todayDay(now = new Date()): number {
  return Math.floor(now.getTime() / DAY_MS);
}

/** The rows of a file (any format the scrub reads) or of typed text, checked; throws ExemptionInputError. */
export async function readExemptionRows(input: ExemptionInput, now = new Date()): Promise<ExemptionIndex> {
  const release = await turns.take();
  exemptionReadStats.started++;
  exemptionReadStats.peakActive = Math.max(exemptionReadStats.peakActive, turns.active);
  try {
    const parsed = await readOnThread(input, todayDay(now));
    if (!parsed.ok) throw new ExemptionInputError(parsed.errors);
    return parsed.rows;
  } catch (e) {
    if (isInputFormatError(e)) throw new ExemptionInputError([(e as Error).message]);
    throw e;
  } finally {
    release();
  }
}

function readOnThread(input: ExemptionInput, todayDay: number): Promise<ParsedExemptions> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(defaultExemptionThreadPath(), {
      workerData: withEngineConfig({ input, todayDay }),
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (e: Error | null, parsed?: ParsedExemptions) => {
      if (settled) return;
      settled = true;
      if (e) reject(e);
      else resolve(parsed!);
    };
    thread.once("message", (m: { ok: true; parsed: ParsedExemptions } | { ok: false; error: ThreadError }) =>
      m.ok ? settle(null, m.parsed) : settle(fromThreadError(m.error)),
    );
    thread.once("error", (e: NodeJS.ErrnoException) =>
      settle(
        e.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? new ExemptionInputError([`The file needs more than ${THREAD_HEAP_MB} MB of memory to read; save it as a CSV of phone,basis,date rows.`])
          : e,
      ),
    );
    thread.once("exit", (code) => settle(new Error(`the exemption thread stopped (exit ${code}) without an answer`)));
  });
}
