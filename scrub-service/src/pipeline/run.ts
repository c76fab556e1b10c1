/**
 * One scrub, streamed: read batches → workers parse/normalize/Bloom-check (parallel) → main thread
 * dedupes and asks the list store about Bloom positives (in input order) → workers build the output
 * bytes → written in input order to temp files, renamed into place only when everything succeeded.
 * At most `maxInFlight` batches are held at once (backpressure from the writers and the pool).
 */
import { engineConfig, withEngineConfig } from "../config";
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import type { Piscina } from "piscina";
import { CodedError } from "../errors";
import { defaultDedupeThreadPath } from "../dist-paths";
import { DedupeWorker, dedupeInThread } from "./dedupe-worker";
import { areaCodeMask } from "../numbers/area-codes";
import {
  CappedRows,
  callingCells,
  callingHeaderBytes,
  evaluateClasses,
  freshCounts,
  summarizeCalling,
  type CallingEvaluation,
  type CallingSummary,
} from "../calling/columns";
import { CAPS_VERSION, type CapPurpose } from "../calling/caps";
import { cappedCalling } from "../decision/calling-caps";
import { callCounts, capRecordsOf, findHistory, type CallHistoryIndex } from "../calls/history-index";
import { stateOfAreaCode } from "../numbers/area-codes";
import { isoSecond } from "../calling/window";
import { callingClassTable } from "../calling/exchanges";
import { emergencyExemptionApplies, stateOfClass, withEmergencyPeriods, type EmergencyPeriod } from "../calling/emergency";
import { callingClassOf } from "../calling/class-index";
import { CLASS_BAD, CLASS_GOOD, splitCells, type CallCells, type ParsedRows } from "../worker/csv";
import { badExemptionNotes, exemptionNotes, findExemption, type BadExemptionNotes, type ExemptionIndex, type ExemptionNotes } from "../exemption-rules/decide";
import { RECORD_OUTCOMES, type RecordOutcome } from "../decision/decide";
import { EXEMPTION_BASES, type ExemptionBasis } from "../exemption-rules/windows";
import type { ParseResult } from "../worker/index";
import { locateNamedColumn, locatePhoneColumn } from "./columns";
import { describeInput } from "./input/detect";
import { isInputFormatError } from "./input/errors";
import { lookupLists, MAX_LIST_CHECKS, type ListCheck } from "./list-checks";
import { ResultFiles, type OutputKind } from "./output";
import { BatchReader, DEFAULT_BATCH_BYTES, NotTextFileError, NotUtf8AfterAllError } from "./read";
import { inThreadHash, Sha256Thread } from "./sha256-thread";
import { dupArray, newSlot, verdictArrays, type Slot } from "./slots";
import { badStages, classify, listDecision, REASONS } from "./stages";

export { REASONS } from "./stages";
export type { ListCheck } from "./list-checks";

/** SCRUB_DEDUPE_THREAD_MIN_BYTES: benchmarks compare with and without the duplicate-check thread. */

/** An error the user caused (wrong column, unreadable file): shown as is. */
export class ScrubInputError extends CodedError {
  constructor(message: string) {
    super("invalid_input", message);
    this.name = "ScrubInputError";
  }
}

/**
 * A piscina task's rejection, named once at the pool's boundary: piscina says a worker exited or was terminated under
 * the task only in its message (no code, no class), so those two messages become the catalogue's `worker_stopped`
 * here, and nothing downstream reads a message.
 */
function poolFailure(e: unknown): unknown {
  if (e instanceof Error && /^(worker exited with code|Terminating worker thread)/.test(e.message)) {
    return new CodedError("worker_stopped", e.message, { cause: e });
  }
  return e;
}

/** One task on the pool, its rejection named by `poolFailure`. */
function runTask(pool: Piscina, task: object): Promise<unknown> {
  return pool.run(task).catch((e: unknown) => {
    throw poolFailure(e);
  });
}

export interface ScrubProgress {
  rowsDone: number;
  bytesRead: number;
  inputBytes: number;
  good: number;
  bad: number;
  invalid: number;
  reasons: Record<string, number>;
}

export interface OutputFile {
  kind: OutputKind;
  path: string;
  records: number;
  bytes: number;
  /** SHA-256 (hex) of the file's bytes, hashed as they were written. */
  sha256: string;
}

export interface ScrubResult extends ScrubProgress {
  files: OutputFile[];
  phoneColumn: string;
  /** SHA-256 (hex) of the input file, hashed as it was read. */
  inputSha256: string;
  /** What the input was detected as (labels, as the column step shows them). */
  input: { format: string; encoding: string; delimiter: string };
  /** The calling-window columns' summary, when they were asked for. */
  calling: CallingSummary | null;
  /** With an exemption list: the good rows each basis let through (decision 161). */
  exemptions: Record<ExemptionBasis, number> | null;
  /**
   * With an exemption list: the records of listed numbers the decision read, per outcome and basis (applied: they let
   * the number be called; expired, neverApplicable, notYet: bad.csv's `exemption` cell says why; decision 184).
   */
  exemptionRecords: ExemptionRecordCounts | null;
}

export interface ScrubRunInput {
  inputPath: string;
  outDir: string;
  columnName?: string | null;
  /** The workbook sheet to read (an .xlsx; default the first). */
  sheet?: string | null;
  /** Checked in this order: the first hit gives the reason (container, litigation, dnc). */
  lists: ListCheck[];
  states?: string[] | null;
  /** Append time_zone, callable_now, next_call_at, next_call_local and calling_note to good rows, evaluated at this instant (ms). */
  calling?: { at: number; periods?: EmergencyPeriod[] } | null;
  /**
   * A customer's exemption list, applied at this instant (ms): a row on an exemptible list (list-types.ts) whose
   * record applies then is good, with an `exemption` cell appended to good.csv (decision 161).
   */
  exemptions?: { index: ExemptionIndex; at: number } | null;
  /**
   * With `calling`: the owner's call history read once for the job (decision 191). Each good row's number gets
   * calls_24h and calls_7d after calling_note, and its calling cells from the caps of `purpose` on `subject` (each
   * row's debt id read from `debtColumn`), through the one evaluation the lookup asks (decision/calling-caps.ts).
   */
  calls?: ScrubCalls | null;
  pool: Piscina;
  onProgress?: (p: ScrubProgress) => void;
  signal?: AbortSignal;
  batchBytes?: number;
  maxInFlight?: number;
  /**
   * Files at least this big check duplicates, and hash the input and the results (SHA-256), on a side thread
   * (default 1 MiB; 0 = always).
   */
  dedupeThreadMinBytes?: number;
}

/** A scrub's call history and what its calls are (decision 191). */
export interface ScrubCalls {
  index: CallHistoryIndex;
  purpose: CapPurpose;
  subject: string;
  debtColumn: string | null;
  /** What was read: the records after `sinceMs`, their count and SHA-256 (the certificate's). */
  history: { sinceMs: number; records: number; sha256: string };
}

export async function runScrub(input: ScrubRunInput): Promise<ScrubResult> {
  // A plain file is judged UTF-8 from its first 1 MiB and checked as it is read (one pass over the file, not
  // two); one with an invalid byte further on is Windows-1252: scrubbed again from the start (its partial
  // results were removed; progress starts over).
  try {
    return await scrubOnce(input, true);
  } catch (e) {
    if (!(e instanceof NotUtf8AfterAllError)) throw e;
    return await scrubOnce(input, false);
  }
}

async function scrubOnce(input: ScrubRunInput, utf8Lazy: boolean): Promise<ScrubResult> {
  fs.mkdirSync(input.outDir, { recursive: true });
  const batchBytes = input.batchBytes ?? DEFAULT_BATCH_BYTES;
  const threadMinBytes = input.dedupeThreadMinBytes ?? engineConfig().SCRUB_DEDUPE_THREAD_MIN_BYTES;
  // Large files: the duplicate check and the SHA-256s on one side thread (worker/dedupe-thread.ts), started
  // once; small ones: both here (no thread start-up). Size of the file as stored; a missing file is reported by
  // open() below.
  const sideThread = fileSize(input.inputPath) >= threadMinBytes ? new Worker(defaultDedupeThreadPath(), { workerData: withEngineConfig({}) }) : null;
  const hashThread = sideThread ? new Sha256Thread(sideThread) : null;
  const hashes = () => hashThread?.stream() ?? inThreadHash();
  const reader = new BatchReader(input.inputPath, batchBytes, undefined, { sheet: input.sheet, utf8Lazy }, undefined, hashes());
  try {
    await reader.open();
  } catch (e) {
    await reader.close();
    await hashThread?.close();
    await sideThread?.terminate();
    const { code, syscall } = e as NodeJS.ErrnoException;
    if (e instanceof NotUtf8AfterAllError) throw e;
    if (e instanceof NotTextFileError || isInputFormatError(e)) throw new ScrubInputError((e as Error).message);
    if (code === "ENOENT") throw new ScrubInputError("The uploaded file is missing.");
    // Our side (disk, permissions, too many open files): failureText words it; the file is not to blame.
    if (syscall) throw e;
    throw new ScrubInputError("Error reading CSV file. Please check the file format.");
  }
  const outs = new ResultFiles(input.outDir, hashes);
  const progress: ScrubProgress = {
    rowsDone: 0,
    bytesRead: 0,
    inputBytes: reader.size,
    good: 0,
    bad: 0,
    invalid: 0,
    reasons: Object.fromEntries(REASONS.map((r) => [r, 0])),
  };
  let phoneColumn = "";
  let dedupeWorker: DedupeWorker | null = null;
  // The calling columns: every class of number evaluated once at the instant (decision 131), while the first
  // batch is parsed (~50 ms on this thread, most of it starting ICU's time zones: see `evaluated`).
  // emergency no-call periods (decision 181): the covered exchanges get classes of their own, read by the workers
  const callingTable = input.calling ? withEmergencyPeriods(callingClassTable(), input.calling.periods ?? []) : null;
  let callingEvaluation: CallingEvaluation | null = null;
  const evaluated = (): CallingEvaluation => (callingEvaluation ??= evaluateClasses(callingTable!, input.calling!.at, reader.delim));
  const callingCounts = callingTable ? new Float64Array(callingTable.classes.length) : null;
  const exemptions = input.exemptions ?? null;
  const calls = input.calling && input.calls ? input.calls : null;
  /** Good rows a cap held back (decision 191): their cells are their own, the summary counts them here. */
  const capped = calls ? new CappedRows() : null;
  const byBasis = [0, 0, 0];
  /** The listed numbers' records per outcome (RECORD_OUTCOMES) and basis (decision 184). */
  const records = RECORD_OUTCOMES.map(() => [0, 0, 0]);
  try {
    await outs.open();
    const firstRow = reader.firstRow;
    let phoneCol = -1;
    let debtCol = -1;
    let width = 0;
    if (firstRow) {
      width = firstRow.length;
      const column = locatePhoneColumn(firstRow, input.columnName);
      if (!column) throw new ScrubInputError(`Column '${input.columnName}' not found in CSV file`);
      phoneCol = column.index;
      phoneColumn = column.name;
      if (calls?.debtColumn) {
        debtCol = locateNamedColumn(firstRow, calls.debtColumn);
        if (debtCol < 0) throw new ScrubInputError(`Debt column '${calls.debtColumn}' not found in CSV file`);
      }
      await outs.writeHead(
        reader.bom,
        column.hasHeader ? { row: reader.firstRowBytes!, delim: reader.delim } : null,
        goodHeaderExtra(callingTable ? callingHeaderBytes(reader.delim, calls !== null) : null, exemptions ? reader.delim : null),
        exemptions != null,
      );
      if (column.hasHeader) reader.skipFirstRow();
    }
    const delim = reader.delim;
    const areaMask = input.states && input.states.length ? areaCodeMask(input.states) : null;
    if (input.lists.length > MAX_LIST_CHECKS) throw new Error(`A scrub checks at most ${MAX_LIST_CHECKS} lists (got ${input.lists.length}).`);
    const blooms = input.lists.map((l) => l.bloom);
    // Duplicates: on the side thread for large files (decision 017), batches posted in input order.
    const dedupeThread = sideThread ? new DedupeWorker(sideThread) : null;
    dedupeWorker = dedupeThread;
    const dedupeHere = dedupeThread ? null : dedupeInThread();
    const maxInFlight = input.maxInFlight ?? Math.max(3, input.pool.options.maxThreads * 2 + 1);

    const stages = badStages({ stateFilter: areaMask != null });
    // the lists' part of each row's answer: the one decision over its hits and its exemption record (decision 182)
    const listsDecision = listDecision(input.lists, exemptions);

    /**
     * Good rows an emergency period covers whose exemption record meets the statute's own exceptions (decision 181):
     * 1 = read the row's calling cells from its class without the period. Null when no row can be.
     */
    const twinClasses = callingTable ? callingTable.baseOf.some((b, k) => b !== k) : false;
    const emergencyExempt = (codes: Float64Array, n: number, classes: Uint8Array): Uint8Array | null => {
      if (!exemptions || !callingTable || !twinClasses) return null;
      let out: Uint8Array | null = null;
      for (let r = 0; r < n; r++) {
        if (classes[r] !== CLASS_GOOD) continue;
        const k = callingClassOf(callingTable.byExchange, codes[r]);
        if (callingTable.baseOf[k] === k) continue;
        const state = stateOfClass(callingTable.classes[k]);
        const i = state ? findExemption(exemptions.index, codes[r]) : -1;
        if (i < 0 || !emergencyExemptionApplies(state!, exemptions.index.basis[i], exemptions.index.day[i], exemptions.at)) continue;
        (out ??= new Uint8Array(n))[r] = 1;
      }
      return out;
    };

    const d = String.fromCharCode(delim);
    const noCalls = `${d}0${d}0`;
    const pair: [number, number] = [0, 0];
    /**
     * Each good row's calls (decision 191): a number without a record costs one binary search (calls_24h and calls_7d
     * 0); one with records is counted at the instant and asked the caps through the lookup's own evaluation
     * (`cappedCalling`), with its debt id (the debt column), its exemption record (Oregon's relationship) and its
     * class (the emergency-exempt base class when rowBase says so, as the emit reads it).
     */
    const countCalls = (buf: Uint8Array, rows: ParsedRows, classes: Uint8Array, rowBase: Uint8Array | null): CallCells => {
      const n = rows.count;
      const cells: CallCells = { rowCounts: new Uint32Array(n), counts: [noCalls], rowCalling: new Uint32Array(n), calling: [""] };
      const index = calls!.index;
      if (index.count === 0) return cells;
      const at = evaluated().at;
      const table = callingTable!;
      const countsAt = new Map<string, number>();
      for (let r = 0; r < n; r++) {
        if (classes[r] !== CLASS_GOOD) continue;
        const code = rows.codes[r];
        const i = findHistory(index, code);
        if (i < 0) continue;
        callCounts(index, i, at, pair);
        capped!.withCalls++;
        const text = d + pair[0] + d + pair[1];
        let c = countsAt.get(text);
        if (c === undefined) countsAt.set(text, (c = cells.counts.push(text) - 1));
        cells.rowCounts[r] = c;
        let k = callingClassOf(table.byExchange, code);
        if (rowBase && rowBase[r]) k = table.baseOf[k];
        const cls = table.classes[k];
        const debtId = debtCol >= 0 ? (splitCells(buf, rows.rowStart[r], rows.rowEnd[r], delim)[debtCol] ?? "").trim() || null : null;
        const e = exemptions ? findExemption(exemptions.index, code) : -1;
        const held = cappedCalling(cls, at, {
          state: stateOfAreaCode(Math.floor(code / 10_000_000)),
          purpose: calls!.purpose,
          subject: calls!.subject,
          debtId,
          channel: "call",
          records: capRecordsOf(index, i),
          record: e >= 0 ? { basis: EXEMPTION_BASES[exemptions!.index.basis[e]], day: exemptions!.index.day[e] } : null,
        });
        if (held === null) continue;
        const a = held.calling;
        cells.rowCalling[r] = cells.calling.push(callingCells(cls, a.callableNow, a.nextCallAt, a.nextCallLocal ?? "", a.note, delim)) - 1;
        capped!.add(k, cls, at, a.nextCallAt, held.verdict);
      }
      return cells;
    };

    /** The ordered step: duplicates need every earlier row; then the stages in order give each row its reason. */
    const classifyBatch = (p: ParseResult, listHits: (Uint8Array | null)[], dup: Uint8Array, slot: Slot, buf: Uint8Array) => {
      const { classes, reasonIdx } = verdictArrays(slot, p.rows.count);
      const n = p.rows.count;
      const findings = { codes: p.rows.codes, count: n, dup, outOfState: p.outOfState, listHits };
      const verdicts = classify(findings, stages, classes, reasonIdx, listsDecision);
      const notes: ExemptionNotes | null = verdicts.exempt
        ? exemptionNotes(verdicts.exempt, (r) => classes[r] === CLASS_GOOD, n, exemptions!.index, String.fromCharCode(delim))
        : null;
      // bad.csv's `exemption` cells: why a listed number's record did not apply (decision 184)
      const badNotes: BadExemptionNotes | null = verdicts.exempt
        ? badExemptionNotes(
            verdicts.exempt,
            (r) => classes[r] === CLASS_GOOD,
            (r) => classes[r] === CLASS_BAD,
            n,
            exemptions!.index,
            String.fromCharCode(delim),
            listsDecision.lists,
            exemptions!.at,
          )
        : null;
      const rowBase = emergencyExempt(p.rows.codes, n, classes);
      return { classes, reasonIdx, ...verdicts, notes, badNotes, rowBase, calls: calls ? countCalls(buf, p.rows, classes, rowBase) : null };
    };

    /** Slots whose batch is written, with the SHA-256 ticket of its output bytes (see takeSlot). */
    const freeSlots: { slot: Slot; ticket: number }[] = [];
    let slots = 0;
    /**
     * A written batch's slot once the hash has read its output bytes; else a new one, up to two more than the
     * batches in flight (the hash runs behind the writes by a batch or two: waiting for it here held back the
     * next batch ~15 times per 3M rows); past that, the oldest once hashed.
     */
    const takeSlot = async (): Promise<Slot> => {
      const i = freeSlots.findIndex((f) => outs.isHashed(f.ticket));
      if (i >= 0) return freeSlots.splice(i, 1)[0].slot;
      if (!freeSlots.length || slots < maxInFlight + 2) {
        slots++;
        return newSlot(batchBytes);
      }
      const oldest = freeSlots.shift()!;
      await outs.hashed(oldest.ticket);
      return oldest.slot;
    };
    let classifyChain: Promise<unknown> = Promise.resolve();
    /** Resolves once the previous batch was posted to the duplicate check (posting follows input order). */
    let dedupeChain: Promise<unknown> = Promise.resolve();
    let writeChain: Promise<unknown> = Promise.resolve();
    const inflight: Promise<unknown>[] = [];
    let failure: unknown = null;

    for (;;) {
      if (failure) break;
      if (input.signal?.aborted) throw input.signal.reason ?? new Error("aborted");
      const batch = await reader.next();
      if (!batch) break;
      const slot = await takeSlot();
      const parsed = runTask(input.pool, {
        op: "parse",
        buf: batch.buf,
        start: batch.start,
        end: batch.end,
        delim,
        phoneCol,
        blooms,
        areaMask,
        rowsMem: slot.rowsMem,
        flagsMem: slot.flagsMem,
      }) as Promise<ParseResult>;
      const prevClassify = classifyChain;
      const prevDedupe = dedupeChain;
      // { dup } wraps the answer's promise so awaiting the posting does not wait for the answer
      const posted = (async () => {
        const p = await parsed;
        await prevDedupe;
        const dup = dedupeThread ? dedupeThread.check(p.rows.codes, p.rows.count, dupArray(slot, p.rows.count)) : null;
        dup?.catch(() => {});
        return { dup };
      })();
      posted.catch(() => {}); // a failed batch fails the scrub through `classified`
      dedupeChain = posted;
      const classified = (async () => {
        const p = await parsed;
        const hits = lookupLists(input.lists, p);
        hits.catch(() => {});
        const { dup } = await posted;
        await prevClassify;
        const c = classifyBatch(p, await hits, dup ? await dup : dedupeHere!(p.rows.codes, p.rows.count), slot, batch.buf);
        return { p, c };
      })();
      classifyChain = classified;
      // this batch's good rows per class of number (the emit adds them up)
      const callingBatchCounts = callingTable ? freshCounts(callingTable.classes.length) : null;
      const emitted = classified.then(
        ({ p, c }) =>
          runTask(input.pool, {
            op: "emit",
            buf: batch.buf,
            rows: p.rows,
            classes: c.classes,
            reasonIdx: c.reasonIdx,
            reasons: REASONS as string[],
            describeInvalid: true,
            phoneE164: true,
            delim,
            width,
            end: batch.end,
            outMem: slot.outMem,
            goodSuffixes: callingBatchCounts
              ? { ...evaluated().suffixes, counts: callingBatchCounts, ...(c.rowBase ? { rowBase: c.rowBase, baseOf: callingTable!.baseOf } : {}) }
              : undefined,
            goodNotes: c.notes ? { rowNote: c.notes.rowNote, notes: c.notes.notes } : undefined,
            badNotes: c.badNotes ? { rowNote: c.badNotes.rowNote, notes: c.badNotes.notes } : undefined,
            callCells: c.calls ?? undefined,
          }) as Promise<[Uint8Array, Uint8Array, Uint8Array]>,
      );
      const prevWrite = writeChain;
      const written = (async () => {
        const [bufs, { p, c }] = await Promise.all([emitted, classified]);
        await prevWrite;
        const counts = c.counts;
        for (let i = 0; i < REASONS.length; i++) if (c.byReason[i]) progress.reasons[REASONS[i]] += c.byReason[i];
        const ticket = await outs.writeBatch(bufs, counts);
        if (callingBatchCounts) for (let k = 0; k < callingBatchCounts.length; k++) callingCounts![k] += callingBatchCounts[k];
        if (c.notes) for (let k = 0; k < byBasis.length; k++) byBasis[k] += c.notes.byBasis[k];
        if (c.badNotes) c.badNotes.records.forEach((row, o) => row.forEach((v, b) => (records[o][b] += v)));
        progress.rowsDone += p.rows.count;
        progress.good += counts[0];
        progress.bad += counts[1];
        progress.invalid += counts[2];
        progress.bytesRead = batch.fileOffset;
        // An emit whose output outgrew the slot's memory (escaping, the calling columns) made a bigger block: the
        // slot keeps it, so the next batches reuse it instead of allocating one each.
        const block = bufs[0].buffer;
        if (block !== slot.outMem && block instanceof SharedArrayBuffer && block.byteLength > slot.outMem.byteLength) slot.outMem = block;
        // Everything this batch's memory was used for is done (parse, duplicate check, emit, write).
        freeSlots.push({ slot, ticket });
        reader.release(batch.buf);
        input.onProgress?.(progress);
      })();
      writeChain = written;
      written.catch((e) => {
        failure ??= e;
      });
      inflight.push(written);
      // the calling columns' evaluation while the first batch is parsed (its emit needs it; an error in it fails
      // the scrub here, every promise of the batch being handled by then)
      if (callingTable) evaluated();
      if (inflight.length >= maxInFlight) await inflight.shift()!.catch(() => {});
    }
    await Promise.allSettled(inflight);
    if (failure) throw failure;
    progress.bytesRead = reader.size;
    const files = await outs.finish();
    input.onProgress?.(progress);
    return {
      ...progress,
      phoneColumn,
      inputSha256: await reader.sha256(),
      files,
      input: describeInput(reader.info!, String.fromCharCode(delim)),
      calling: callingTable ? withCalls(summarizeCalling(callingTable, evaluated(), callingCounts!, capped), calls, capped) : null,
      exemptions: exemptions ? (Object.fromEntries(EXEMPTION_BASES.map((b, k) => [b, byBasis[k]])) as Record<ExemptionBasis, number>) : null,
      exemptionRecords: exemptions ? exemptionRecordCounts(records) : null,
    };
  } catch (e) {
    await outs.abort();
    if (isInputFormatError(e)) throw new ScrubInputError(e.message);
    throw e;
  } finally {
    await dedupeWorker?.close();
    await hashThread?.close();
    await sideThread?.terminate();
    await reader.close();
  }
}

/** The calling summary with the calls the scrub counted (decision 191), when it counted them. */
function withCalls(summary: CallingSummary, calls: ScrubCalls | null, capped: CappedRows | null): CallingSummary {
  if (!calls || !capped) return summary;
  return {
    ...summary,
    calls: {
      capsVersion: CAPS_VERSION,
      purpose: calls.purpose,
      subject: calls.subject,
      debtColumn: calls.debtColumn,
      history: { since: isoSecond(calls.history.sinceMs), records: calls.history.records, sha256: calls.history.sha256 },
      rowsWithCalls: capped.withCalls,
      heldByCaps: capped.held,
      byCap: [...capped.byCap].map(([cap, v]) => ({ cap, cite: v.cite, rows: v.rows })).sort((a, b) => b.rows - a.rows || a.cap.localeCompare(b.cap)),
    },
  };
}

/** The records of listed numbers per outcome, each per basis (the job summary's and certificate's `records`). */
export type ExemptionRecordCounts = Record<RecordOutcome, Record<ExemptionBasis, number>>;

function exemptionRecordCounts(records: number[][]): ExemptionRecordCounts {
  return Object.fromEntries(RECORD_OUTCOMES.map((o, i) => [o, Object.fromEntries(EXEMPTION_BASES.map((b, k) => [b, records[i][k]]))])) as ExemptionRecordCounts;
}

/** The cells good.csv's header gains: the calling columns, then `exemption`. */
function goodHeaderExtra(calling: Uint8Array | null, exemptionDelim: number | null): Uint8Array | undefined {
  const exemption = exemptionDelim === null ? null : new TextEncoder().encode(`${String.fromCharCode(exemptionDelim)}exemption`);
  if (!calling || !exemption) return calling ?? exemption ?? undefined;
  const both = new Uint8Array(calling.length + exemption.length);
  both.set(calling);
  both.set(exemption, calling.length);
  return both;
}

function fileSize(p: string): number {
  try {
    return fs.statSync(p).size;
  } catch {
    return 0;
  }
}
