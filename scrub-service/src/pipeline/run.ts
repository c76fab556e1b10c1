/**
 * One scrub, streamed: read batches → workers parse/normalize/Bloom-check (parallel) → main thread
 * dedupes and asks the list store about Bloom positives (in input order) → workers build the output
 * bytes → written in input order to temp files, renamed into place only when everything succeeded.
 * At most `maxInFlight` batches are held at once (backpressure from the writers and the pool).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Piscina } from "piscina";
import type { SharedBloom } from "../lists/bloom";
import { DedupeWorker, dedupeInThread } from "./dedupe-worker";
import type { ListSnapshot } from "../lists/store";
import { areaCodeMask } from "../worker/area-codes";
import { CLASS_BAD, CLASS_GOOD, CLASS_INVALID, defaultPhoneColumn, emitRows, parseRows, rowsCapacity, rowsMemBytes, LF } from "../worker/csv";
import type { ParseResult } from "../worker/index";
import { INVALID_REASONS, reasonIndexOfCode } from "../worker/normalize";
import { BatchReader, DEFAULT_BATCH_BYTES, headersOf, NotTextFileError, RecordTooLargeError } from "./read";
import { isInputFormatError } from "./input/errors";
import { describeInput } from "./input/detect";

export const REASONS = ["litigation", "dnc", "container", "duplicate", "state", ...INVALID_REASONS] as const;
/** SCRUB_DEDUPE_THREAD_MIN_BYTES: benchmarks compare with and without the duplicate-check thread. */
const DEDUPE_THREAD_MIN_BYTES = Number(process.env.SCRUB_DEDUPE_THREAD_MIN_BYTES ?? 1 << 20);
const R_DUP = 3;
const R_STATE = 4;
const R_INVALID0 = 5;

/** An error the user caused (wrong column, unreadable file): shown as is. */
export class ScrubInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScrubInputError";
  }
}

export interface ListCheck {
  reason: "container" | "litigation" | "dnc";
  /** null when the list is empty (nothing to suppress). */
  bloom: SharedBloom | null;
  snapshot: ListSnapshot | null;
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
  kind: "good" | "bad" | "invalid";
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
  pool: Piscina;
  onProgress?: (p: ScrubProgress) => void;
  signal?: AbortSignal;
  batchBytes?: number;
  maxInFlight?: number;
  /** Files at least this big check duplicates on a thread of their own (default 1 MiB; 0 = always). */
  dedupeThreadMinBytes?: number;
}

function findColumn(firstRow: string[], headers: string[], hasHeader: boolean, want: string): number {
  const trimmed = want.trim();
  let i = headers.indexOf(trimmed);
  if (i < 0) i = headers.findIndex((h) => h.toLowerCase() === trimmed.toLowerCase());
  if (i < 0 && !hasHeader) {
    // a header-less file: the wizard may name the column by its first value
    i = firstRow.findIndex((c) => c.trim() === trimmed);
  }
  return i;
}

/**
 * One result file, written to a temp name and renamed by the caller when the scrub succeeded. Each write is
 * awaited until the bytes are in the file, so the batch memory they come from can be reused right after.
 */
class Output {
  readonly tmp: string;
  readonly final: string;
  private fh: fs.promises.FileHandle | null = null;
  private readonly hash = crypto.createHash("sha256");
  records = 0;
  bytes = 0;

  constructor(
    dir: string,
    readonly kind: "good" | "bad" | "invalid",
  ) {
    this.final = path.join(dir, `${kind}.csv`);
    // Unique per attempt: replicas share DATA_DIR and may share a pid (pid 1 in containers).
    this.tmp = path.join(dir, `.${kind}.csv.${process.pid}.${crypto.randomBytes(4).toString("hex")}.part`);
  }

  async open(): Promise<void> {
    this.fh = await fs.promises.open(this.tmp, "w");
  }

  async write(buf: Uint8Array, records: number): Promise<void> {
    this.records += records;
    this.bytes += buf.length;
    this.hash.update(buf);
    let done = 0;
    while (done < buf.length) {
      const { bytesWritten } = await this.fh!.write(buf, done, buf.length - done);
      done += bytesWritten;
    }
  }

  async finish(): Promise<void> {
    await this.fh!.close();
    this.fh = null;
  }

  sha256(): string {
    return this.hash.digest("hex");
  }

  async abort(): Promise<void> {
    await this.fh?.close().catch(() => {});
    fs.rmSync(this.tmp, { force: true });
  }
}

/**
 * A batch's working memory, reused from batch to batch: parse results, per-row flags and output bytes.
 * With the reader's reused input buffers, a scrub allocates its memory once instead of per batch, so
 * nothing piles up for the garbage collector (docs/decisions/019).
 */
interface Slot {
  rowsMem: SharedArrayBuffer;
  /** Rows the flags hold: maybe | outOfState | dup | classes | reasonIdx, `cap` bytes each. */
  cap: number;
  flagsMem: SharedArrayBuffer;
  outMem: SharedArrayBuffer;
}

function newSlot(batchBytes: number): Slot {
  const cap = rowsCapacity(batchBytes);
  return {
    rowsMem: new SharedArrayBuffer(rowsMemBytes(batchBytes)),
    cap,
    flagsMem: new SharedArrayBuffer(cap * 5),
    // good rows are copied as they are; bad and invalid get `,reason` (a few % of rows in practice)
    outMem: new SharedArrayBuffer(Math.ceil(batchBytes * 1.25) + 4096),
  };
}

/** The escaped bytes of a header row for the good file and for bad/invalid (with `reason`). */
function headerBytes(row: Uint8Array, delim: number): { good: Uint8Array; withReason: Uint8Array } {
  const rows = parseRows(row, 0, row.length, delim, -1);
  const [good] = emitRows(row, {
    rows,
    classes: new Uint8Array(rows.count),
    reasonIdx: new Uint8Array(rows.count),
    reasons: [""],
    delim,
    width: 0,
  });
  const body = good.subarray(0, good.length - 1);
  const withReason = new Uint8Array(body.length + 8);
  withReason.set(body);
  withReason[body.length] = delim;
  withReason.set(new TextEncoder().encode("reason"), body.length + 1);
  withReason[body.length + 7] = LF;
  return { good, withReason };
}

export async function runScrub(input: ScrubRunInput): Promise<ScrubResult> {
  fs.mkdirSync(input.outDir, { recursive: true });
  const batchBytes = input.batchBytes ?? DEFAULT_BATCH_BYTES;
  const reader = new BatchReader(input.inputPath, batchBytes, undefined, { sheet: input.sheet });
  try {
    await reader.open();
  } catch (e) {
    await reader.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof RecordTooLargeError || e instanceof NotTextFileError || isInputFormatError(e)) throw new ScrubInputError(e.message);
    throw new ScrubInputError(code === "ENOENT" ? "The uploaded file is missing." : "Error reading CSV file. Please check the file format.");
  }
  const outs = {
    good: new Output(input.outDir, "good"),
    bad: new Output(input.outDir, "bad"),
    invalid: new Output(input.outDir, "invalid"),
  };
  const all = [outs.good, outs.bad, outs.invalid];
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
  try {
    for (const o of all) await o.open();
    const firstRow = reader.firstRow;
    let phoneCol = -1;
    let width = 0;
    if (firstRow) {
      const { headers, hasHeader } = headersOf(firstRow);
      width = firstRow.length;
      if (input.columnName) {
        phoneCol = findColumn(firstRow, headers, hasHeader, input.columnName);
        if (phoneCol < 0) throw new ScrubInputError(`Column '${input.columnName}' not found in CSV file`);
      } else if (hasHeader) {
        phoneCol = headers.indexOf(defaultPhoneColumn(headers)!);
      } else {
        phoneCol = firstRow.findIndex((c) => headersOf([c]).hasHeader === false);
      }
      phoneColumn = headers[phoneCol] ?? "";
      const bom = reader.bom ? new Uint8Array([0xef, 0xbb, 0xbf]) : new Uint8Array(0);
      for (const o of all) await o.write(bom, 0);
      if (hasHeader) {
        const h = headerBytes(reader.firstRowBytes!, reader.delim);
        await outs.good.write(h.good, 0);
        await outs.bad.write(h.withReason, 0);
        await outs.invalid.write(h.withReason, 0);
        reader.skipFirstRow();
      }
    }
    const delim = reader.delim;
    const areaMask = input.states && input.states.length ? areaCodeMask(input.states) : null;
    const blooms = input.lists.map((l) => l.bloom);
    // Duplicates: on a thread of its own for large files (decision 017), batches posted in input order.
    const dedupeThread = reader.size >= (input.dedupeThreadMinBytes ?? DEDUPE_THREAD_MIN_BYTES) ? new DedupeWorker() : null;
    dedupeWorker = dedupeThread;
    const dedupeHere = dedupeThread ? null : dedupeInThread();
    const maxInFlight = input.maxInFlight ?? Math.max(3, input.pool.options.maxThreads * 2 + 1);

    /**
     * Store lookups of a batch's Bloom positives, started as soon as the batch is parsed (membership does
     * not depend on row order), so the store's latency overlaps other batches instead of stalling the
     * ordered step. hits[l][r] = 1 when row r's number is on list l.
     */
    const lookup = async (p: ParseResult): Promise<(Uint8Array | null)[]> => {
      const { rows, maybe } = p;
      return Promise.all(
        input.lists.map(async (list, l) => {
          if (!list.snapshot) return null;
          const bit = 1 << l;
          const ask: number[] = [];
          for (let r = 0; r < rows.count; r++) if (maybe[r] & bit) ask.push(r);
          if (!ask.length) return null;
          const nums = new Float64Array(ask.length);
          for (let i = 0; i < ask.length; i++) nums[i] = rows.codes[ask[i]];
          const answers = await list.snapshot.has(nums, ask.length);
          const hits = new Uint8Array(rows.count);
          for (let i = 0; i < ask.length; i++) if (answers[i]) hits[ask[i]] = 1;
          return hits;
        }),
      );
    };
    const listReasons = input.lists.map((l) => REASONS.indexOf(l.reason));

    /** The ordered step: duplicates need every earlier row; then state, then lists in priority order. */
    const classify = (p: ParseResult, hits: (Uint8Array | null)[], dup: Uint8Array, slot: Slot) => {
      const { rows, outOfState } = p;
      const n = rows.count;
      const fits = n <= slot.cap;
      const shared = fits ? slot.flagsMem : new SharedArrayBuffer(n * 2);
      const classes = new Uint8Array(shared, fits ? slot.cap * 3 : 0, n);
      const reasonIdx = new Uint8Array(shared, fits ? slot.cap * 4 : n, n);
      classes.fill(CLASS_GOOD); // reused memory
      reasonIdx.fill(0);
      for (let r = 0; r < n; r++) {
        const x = rows.codes[r];
        if (x < 0) {
          classes[r] = CLASS_INVALID;
          reasonIdx[r] = R_INVALID0 + reasonIndexOfCode(x);
        } else if (dup[r]) {
          classes[r] = CLASS_BAD;
          reasonIdx[r] = R_DUP;
        } else if (outOfState[r]) {
          classes[r] = CLASS_BAD;
          reasonIdx[r] = R_STATE;
        } else {
          for (let l = 0; l < hits.length; l++) {
            const h = hits[l];
            if (h && h[r]) {
              classes[r] = CLASS_BAD;
              reasonIdx[r] = listReasons[l];
              break;
            }
          }
        } // else good (0)
      }
      const counts = [0, 0, 0];
      const byReason = new Array<number>(REASONS.length).fill(0);
      for (let r = 0; r < n; r++) {
        const k = classes[r];
        counts[k]++;
        if (k !== CLASS_GOOD) byReason[reasonIdx[r]]++;
      }
      return { classes, reasonIdx, counts, byReason };
    };

    const freeSlots: Slot[] = [];
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
      const slot = freeSlots.pop() ?? newSlot(batchBytes);
      const parsed = input.pool.run({
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
        const dup = dedupeThread
          ? dedupeThread.check(p.rows.codes, p.rows.count, p.rows.count <= slot.cap ? new Uint8Array(slot.flagsMem, slot.cap * 2, p.rows.count) : undefined)
          : null;
        dup?.catch(() => {});
        return { dup };
      })();
      posted.catch(() => {}); // a failed batch fails the scrub through `classified`
      dedupeChain = posted;
      const classified = (async () => {
        const p = await parsed;
        const hits = lookup(p);
        hits.catch(() => {});
        const { dup } = await posted;
        await prevClassify;
        const c = classify(p, await hits, dup ? await dup : dedupeHere!(p.rows.codes, p.rows.count), slot);
        return { p, c };
      })();
      classifyChain = classified;
      const emitted = classified.then(
        ({ p, c }) =>
          input.pool.run({
            op: "emit",
            buf: batch.buf,
            rows: p.rows,
            classes: c.classes,
            reasonIdx: c.reasonIdx,
            reasons: REASONS as unknown as string[],
            describeInvalid: true,
            delim,
            width,
            end: batch.end,
            outMem: slot.outMem,
          }) as Promise<[Uint8Array, Uint8Array, Uint8Array]>,
      );
      const prevWrite = writeChain;
      const written = (async () => {
        const [bufs, { p, c }] = await Promise.all([emitted, classified]);
        await prevWrite;
        const counts = c.counts;
        for (let i = 0; i < REASONS.length; i++) if (c.byReason[i]) progress.reasons[REASONS[i]] += c.byReason[i];
        await outs.good.write(bufs[0], counts[0]);
        await outs.bad.write(bufs[1], counts[1]);
        await outs.invalid.write(bufs[2], counts[2]);
        progress.rowsDone += p.rows.count;
        progress.good += counts[0];
        progress.bad += counts[1];
        progress.invalid += counts[2];
        progress.bytesRead = batch.fileOffset;
        // Everything this batch's memory was used for is done (parse, duplicate check, emit, write).
        freeSlots.push(slot);
        reader.release(batch.buf);
        input.onProgress?.(progress);
      })();
      writeChain = written;
      written.catch((e) => {
        failure ??= e;
      });
      inflight.push(written);
      if (inflight.length >= maxInFlight) await inflight.shift()!.catch(() => {});
    }
    await Promise.allSettled(inflight);
    if (failure) throw failure;
    progress.bytesRead = reader.size;
    for (const o of all) await o.finish();
    for (const o of all) fs.renameSync(o.tmp, o.final);
    input.onProgress?.(progress);
    return {
      ...progress,
      phoneColumn,
      inputSha256: await reader.sha256(),
      files: all.map((o) => ({ kind: o.kind, path: o.final, records: o.records, bytes: o.bytes, sha256: o.sha256() })),
      input: describeInput(reader.info!, String.fromCharCode(delim)),
    };
  } catch (e) {
    for (const o of all) await o.abort();
    if (e instanceof RecordTooLargeError || isInputFormatError(e)) throw new ScrubInputError(e.message);
    throw e;
  } finally {
    await dedupeWorker?.close();
    await reader.close();
  }
}
