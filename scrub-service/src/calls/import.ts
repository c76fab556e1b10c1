/**
 * `npm run calls -- import --input FILE [--user ID] [--tz ZONE]` (decision 185): a dialer's call history file into
 * call_records, all or nothing. Streamed twice, never held whole: the first pass checks every row (each bad one named
 * by its line) and finds the months it spans; the second writes the rows in batches inside one transaction, after the
 * months' partitions exist. The file may be CSV (UTF-8, UTF-16 with BOM, Windows-1252), .gz or a .zip of one file.
 */
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { openInput } from "../pipeline/input/source";
import { CallFileError, callFileLayout, callOfRow, CsvRowSplitter, type CallFileLayout, type CallFileMapping } from "./file-rows";
import { ensureCallMonths, recordCalls, unfeedCounters } from "./store";
import { callCountersOf } from "./counters";
import { checkCallRecord, type CallRecord, type CallRecordError } from "./validate";

const CHUNK_BYTES = 1024 * 1024;
const BATCH = 5000;
/** Errors kept for the report; the count goes on past it. */
const MAX_ERRORS_KEPT = 200;

/** Every row of the file with its line number (the header is line 1). */
async function* rowsOf(path: string): AsyncGenerator<{ line: number; cells: string[] }> {
  const { source } = await openInput(path);
  try {
    const decoder = new TextDecoder("utf-8");
    const splitter = new CsvRowSplitter();
    const buf = new Uint8Array(CHUNK_BYTES);
    let line = 0;
    for (;;) {
      const n = await source.read(buf, 0, buf.length);
      const rows = n ? splitter.push(decoder.decode(buf.subarray(0, n), { stream: true })) : [...splitter.push(decoder.decode()), ...splitter.end()];
      for (const cells of rows) yield { line: ++line, cells };
      if (!n) break;
    }
  } finally {
    await source.close();
  }
}

/** The file's header row (its first row), or null for an empty file: what a screen shows to map the columns. */
export async function callFileHeader(path: string): Promise<string[] | null> {
  for await (const { cells } of rowsOf(path)) return cells;
  return null;
}

export interface CallImportResult {
  format: CallFileLayout["format"];
  rows: number;
  recorded: number;
  ignored: number;
}

/** A refused file's problems in words, the first 20 named: what `npm run calls -- import` and `scrub --calls` print. */
export function callImportProblems(file: string, errors: readonly CallRecordError[], total: number): string {
  const shown = errors.slice(0, 20).map((e) => `  line ${e.index}, ${e.field}: ${e.message}`);
  const more = total > shown.length ? `\n  … and ${total - shown.length} more` : "";
  return `Nothing was recorded: ${total} problem${total === 1 ? "" : "s"} in ${file}:\n${shown.join("\n")}${more}`;
}

/**
 * The file's records added to the owner's history, or an Error naming why not (its bad lines, an unknown zone, a
 * VICIdial export without one): the CLI's `scrub --calls FILE` through either face of the service (decision 191).
 */
export async function importCallFileOrThrow(
  db: Kysely<Database>,
  o: { path: string; userId: string; zone: string | null; name?: string },
): Promise<CallImportResult> {
  let r: Awaited<ReturnType<typeof importCallFile>>;
  try {
    r = await importCallFile(db, o);
  } catch (e) {
    if (e instanceof CallFileError) throw new Error(e.message);
    throw e;
  }
  if ("errors" in r) throw new Error(callImportProblems(o.name ?? o.path, r.errors, r.total));
  return r;
}

export type CallImportCheck = { ok: true; layout: CallFileLayout; rows: number; months: number[] } | { ok: false; errors: CallRecordError[]; total: number };

/** First pass: the layout, every row checked (errors by line), the months spanned. */
export async function checkCallFile(path: string, zone: string | null, nowMs: number, mapping?: CallFileMapping): Promise<CallImportCheck> {
  let layout: CallFileLayout | null = null;
  const errors: CallRecordError[] = [];
  let total = 0;
  let rows = 0;
  const months = new Map<string, number>();
  for await (const { line, cells } of rowsOf(path)) {
    if (!layout) {
      layout = callFileLayout(cells, zone, mapping);
      continue;
    }
    rows++;
    const kept: CallRecordError[] = [];
    const r = checkCallRecord(callOfRow(cells, layout), line, nowMs, kept);
    total += kept.length;
    for (const e of kept) if (errors.length < MAX_ERRORS_KEPT) errors.push(e);
    if (r) months.set(new Date(r.atMs).toISOString().slice(0, 7), r.atMs);
  }
  if (!layout) return { ok: false, errors: [{ index: 1, field: "file", message: "The file is empty." }], total: 1 };
  if (total) return { ok: false, errors, total };
  if (!rows) return { ok: false, errors: [{ index: 2, field: "file", message: "The file has a header and no rows." }], total: 1 };
  return { ok: true, layout, rows, months: [...months.values()] };
}

/** Both passes: nothing is written unless every row is good; then all rows in one transaction. */
export async function importCallFile(
  db: Kysely<Database>,
  o: { path: string; userId: string; zone: string | null; nowMs?: number; mapping?: CallFileMapping },
): Promise<CallImportResult | { errors: CallRecordError[]; total: number }> {
  const nowMs = o.nowMs ?? Date.now();
  const checked = await checkCallFile(o.path, o.zone, nowMs, o.mapping);
  if (!checked.ok) return { errors: checked.errors, total: checked.total };
  await ensureCallMonths(db, checked.months);
  const layout = checked.layout;
  // the live counters these records feed (decision 196), before the transaction commits; taken out again if it fails
  const counters = callCountersOf(db);
  const fed: { records: CallRecord[]; ids: string[] }[] = [];
  const unfeed = async () => {
    for (const f of fed) await unfeedCounters(counters!, o.userId, f.records, f.ids).catch(() => {});
  };
  return db
    .transaction()
    .execute(async (trx) => {
      let recorded = 0;
      let ignored = 0;
      let batch: CallRecord[] = [];
      const flush = async () => {
        const r = await recordCalls(trx, o.userId, batch, { partitionsReady: true, counters, onFed: (records, ids) => fed.push({ records, ids }) });
        recorded += r.recorded;
        ignored += r.ignored;
        batch = [];
      };
      let header = true;
      for await (const { line, cells } of rowsOf(o.path)) {
        if (header) {
          header = false;
          continue;
        }
        const errors: CallRecordError[] = [];
        const r = checkCallRecord(callOfRow(cells, layout), line, nowMs, errors);
        if (!r) throw new Error(`line ${line} changed while it was read`);
        batch.push(r);
        if (batch.length >= BATCH) await flush();
      }
      if (batch.length) await flush();
      return { format: layout.format, rows: checked.rows, recorded, ignored };
    })
    .catch(async (e: unknown) => {
      await unfeed();
      throw e;
    });
}
