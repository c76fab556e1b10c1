/**
 * Numbers of a list file (CSV with a phone column, or one number per line), streamed, normalized with the
 * product's normalizer, returned sorted and distinct (4 bytes per distinct number while collecting… as
 * Float64: 8 bytes; a 20M-number file holds ~160 MB for the sort).
 */
import { defaultPhoneColumn, parseCodes, parseRows, splitCells } from "../worker/csv";
import { delimiterLabel, encodingLabel, formatLabel } from "../pipeline/input/detect";
import { inService, normalizeCode } from "../numbers/normalize";
import { BatchReader, headersOf } from "../pipeline/read";
import { SideParser } from "./side-parser";
import { allAreasSorted, bucketByAreaWith, compactAreas, sortClaimedAreas, sortDistinct } from "../worker/sort-distinct";

export interface NumbersOfFile {
  /** Sorted, distinct. */
  numbers: Float64Array;
  valid: number;
  invalid: number;
  bytes: number;
  /** SHA-256 (hex) of the file's bytes, hashed as they were read. */
  sha256: string;
  /** The format as read: "CSV (comma-separated, header row)", "one number per line", … */
  format: string;
  layout: ListFileLayout;
  /** An FTC change list's deletions (sorted, distinct); null for other layouts. */
  removals: Float64Array | null;
  /** Detected text encoding and delimiter (labels). */
  encoding: string;
  delimiter: string;
}

const DELIMITER_NAMES: Record<number, string> = { 44: "comma", 59: "semicolon", 9: "tab", 124: "pipe" };

function formatOf(firstRow: string[] | null, hasHeader: boolean, delim: number): string {
  if (!firstRow) return "empty file";
  if (firstRow.length === 1 && !hasHeader) return "text, one number per line";
  const d = DELIMITER_NAMES[delim] ?? `delimiter ${JSON.stringify(String.fromCharCode(delim))}`;
  return `CSV (${d}-separated, ${hasHeader ? "header row" : "no header row"})`;
}

/** Normalizes typed entries: valid numbers (sorted, distinct) and the rejected ones with their reason. */
export function numbersOfEntries(entries: readonly string[]): {
  numbers: Float64Array;
  valid: number;
  rejected: { value: string; code: number }[];
} {
  const out = new Float64Array(entries.length);
  let n = 0;
  const rejected: { value: string; code: number }[] = [];
  for (const e of entries) {
    const c = normalizeCode(e);
    if (c < 0) rejected.push({ value: e, code: c });
    else out[n++] = c;
  }
  return { numbers: sortDistinct(out.subarray(0, n)), valid: n, rejected };
}

/** FTC full list: `NPA,NXXXXXX` (a 3-digit and a 7-digit field that together form the number, decision 106). */
function isFtcPair(cells: readonly string[], at: number): boolean {
  return /^\d{3}$/.test(cells[at]?.trim() ?? "") && /^\d{7}$/.test(cells[at + 1]?.trim() ?? "");
}

const ACTIONS: Record<string, "add" | "delete"> = { A: "add", ADD: "add", ADDED: "add", D: "delete", DEL: "delete", DELETE: "delete", DELETED: "delete" };

/** One FTC change-list record: its number (3+7-digit fields or one 10-digit field) and its add/delete indicator. */
export function ftcChange(cells: readonly string[]): { number: number; action: "add" | "delete" | null } {
  let action: "add" | "delete" | null = null;
  let number = -1;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i].trim();
    if (!action && ACTIONS[c.toUpperCase()]) action = ACTIONS[c.toUpperCase()];
    else if (number === -1 && isFtcPair(cells, i)) {
      number = normalizeCode(c + cells[i + 1].trim());
      i++;
    } else if (number === -1 && /^\d{10}$/.test(c)) number = normalizeCode(c);
  }
  return { number, action };
}

/**
 * The FTC change list's own record, read from its bytes: `NPA,NXXXXXX,A|D` (then the end of the row or a delimiter and
 * more fields) whose number's exchange is in service gives +number (A) or -number (D); any other row 0, for ftcChange to
 * read from its cells (the same answer, ~3 µs a record slower: strings and patterns per cell).
 */
function ftcChangeBytes(buf: Uint8Array, rs: number, re: number, delim: number): number {
  if (re - rs < 13 || buf[rs + 3] !== delim || buf[rs + 11] !== delim || (re - rs > 13 && buf[rs + 13] !== delim)) return 0;
  const action = buf[rs + 12];
  if (action !== 65 && action !== 68) return 0; // A, D
  let value = 0;
  for (let k = 0; k < 11; k++) {
    if (k === 3) continue;
    const d = buf[rs + k] - 48;
    if (d < 0 || d > 9) return 0;
    value = value * 10 + d;
  }
  if (!inService(value)) return 0;
  return action === 65 ? value : -value;
}

/** How a list file is laid out: a CSV/one number per line, the FTC full list or the FTC change list. */
export type ListFileLayout = "csv" | "ftc-full" | "ftc-changes";

export function layoutOf(firstRow: readonly string[] | null): ListFileLayout {
  if (!firstRow) return "csv";
  if (firstRow.length === 2 && isFtcPair(firstRow, 0)) return "ftc-full";
  const c = ftcChange(firstRow);
  if (c.action && c.number !== -1) return "ftc-changes";
  return "csv";
}

const LAYOUT_NAMES: Record<Exclude<ListFileLayout, "csv">, string> = {
  "ftc-full": "FTC full list (area code, number)",
  "ftc-changes": "FTC change list (additions and deletions)",
};

/**
 * parseCodes's results blocks, reused from batch to batch: a 20M-number file is ~50 batches, and allocating a block for
 * each (shared memory, outside the heap) cost garbage collections on the loading thread.
 */
class ResultsPool {
  private free: SharedArrayBuffer[] = [];
  get(bytes: number): SharedArrayBuffer {
    const i = this.free.findIndex((b) => b.byteLength >= bytes);
    return i >= 0 ? this.free.splice(i, 1)[0] : new SharedArrayBuffer(bytes);
  }
  put(block: SharedArrayBuffer | undefined): void {
    if (block) this.free.push(block);
  }
}

/** Growable Float64 collection of numbers, in shared memory. */
class Numbers {
  buf = sharedFloat64(1 << 16);
  n = 0;
  push(x: number): void {
    if (this.n === this.buf.length) this.reserve(this.buf.length * 2);
    this.buf[this.n++] = x;
  }
  /** Room for `length` numbers in all. */
  reserve(length: number): void {
    if (length <= this.buf.length) return;
    const bigger = sharedFloat64(length);
    bigger.set(this.buf.subarray(0, this.n));
    this.buf = bigger;
  }
  /** Appends codes[0, count) that are numbers (≥ 0), `invalid` of them not; returns how many. */
  takeValid(codes: Float64Array, count: number, invalid: number): number {
    if (this.n + count > this.buf.length) this.reserve(Math.max(this.n + count, this.buf.length * 2));
    const buf = this.buf;
    const from = this.n;
    if (invalid === 0) {
      buf.set(codes.subarray(0, count), from); // one copy (a loop with a test took ~5 ns a number)
      this.n = from + count;
      return count;
    }
    let n = from;
    for (let r = 0; r < count; r++) {
      const x = codes[r];
      if (x >= 0) buf[n++] = x;
    }
    this.n = n;
    return n - from;
  }
  /**
   * Sorted and distinct, in place: a view of the collection's buffer, not a copy (a 20M-number list's copy cost
   * ~0.1–0.2 s). Shared memory, so the Bloom filter's side thread receives it without a copy either. With `side`, that
   * thread buckets half the numbers and sorts area codes too (its share of ~0.27 s and 0.34 s for 20M numbers).
   */
  async sorted(side: SideParser | null = null): Promise<Float64Array> {
    const a = this.buf.subarray(0, this.n);
    const buckets = side && a.length >= SIDE_SORT_MIN ? await bucketByAreaWith(a, side) : null;
    if (!side || !buckets) return sortDistinct(a);
    const helped = side.sortAreas(buckets, a);
    helped.catch(() => {});
    sortClaimedAreas(buckets, a);
    // the side thread is still sorting an area code it claimed, or has not started (its last batch's parse before
    // it): its answer then says it claimed no more. A failed side thread fails the load.
    if (!allAreasSorted(buckets)) await helped;
    return compactAreas(buckets, a);
  }
}

function sharedFloat64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT));
}

/** Removes from `a` (sorted) every number in `b` (sorted); both distinct. */
function without(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length);
  let w = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    while (j < b.length && b[j] < a[i]) j++;
    if (j >= b.length || b[j] !== a[i]) out[w++] = a[i];
  }
  return out.subarray(0, w);
}

/**
 * Numbers of a list file in any supported input format (see pipeline/input), laid out as a CSV with a phone
 * column, one number per line, an FTC full list (`NPA,NXXXXXX`) or an FTC change list (its deletions in
 * `removals`). `manyMembers`: every file of a zip is read (the FTC's per-area-code files).
 */
export async function numbersOfFile(path: string, opts: NumbersOfFileOptions = {}): Promise<NumbersOfFile> {
  const { onProgress, column, sideParseMinBytes = SIDE_PARSE_MIN_BYTES } = opts;
  const reader = new BatchReader(path, undefined, undefined, { manyMembers: true });
  let side: SideParser | null = null;
  try {
    await reader.open();
    let col = 0;
    let format = formatOf(null, false, reader.delim);
    const layout = layoutOf(reader.firstRow);
    if (layout !== "csv") {
      format = LAYOUT_NAMES[layout];
    } else if (reader.firstRow) {
      const { headers, hasHeader } = headersOf(reader.firstRow);
      format = formatOf(reader.firstRow, hasHeader, reader.delim);
      if (hasHeader) {
        const want = column ?? defaultPhoneColumn(headers);
        col = Math.max(
          0,
          headers.findIndex((h) => h.toLowerCase() === String(want).toLowerCase()),
        );
        reader.skipFirstRow();
      } else {
        col = Math.max(
          0,
          reader.firstRow.findIndex((c) => normalizeCode(c) >= 0),
        );
      }
    }
    const info = reader.info!;
    const adds = new Numbers();
    const deletes = new Numbers();
    let invalid = 0;
    // the last action per number wins when a change list names a number twice
    const lastAction = layout === "ftc-changes" ? new Map<number, "add" | "delete">() : null;
    // a large plain list: every other batch is parsed on a side thread (order does not matter: the numbers are
    // sorted and counted after)
    side = layout === "csv" && reader.size >= sideParseMinBytes ? SideParser.start() : null;
    const plainFile = info.format === "csv" && info.container === "none";
    // rows per byte of the first batch read: the results of later batches are sized for their rows (a list file's
    // rows are shorter than parseCodes expects), and the numbers' buffer for the whole file (no doubling)
    let rowsPerByte = 0;
    const results = new ResultsPool();
    /** A batch's codes collected; `mem`: the pooled results block they are in (reused once nothing reads it). */
    const take = (codes: Float64Array, count: number, invalidCodes: number, batchBytes: number, mem: SharedArrayBuffer | undefined) => {
      const first = rowsPerByte === 0;
      rowsPerByte ||= count / Math.max(1, batchBytes);
      const valid = adds.takeValid(codes, count, invalidCodes);
      invalid += count - valid;
      const estimate = Math.round((valid * reader.size) / Math.max(1, batchBytes));
      if (first && plainFile) adds.reserve(Math.ceil(estimate * 1.05) + 1024);
      results.put(mem);
    };
    const resultsFor = (batchBytes: number) => (rowsPerByte ? results.get(8 * (Math.ceil(batchBytes * rowsPerByte * 1.1) + 64)) : undefined);
    // the side thread gets up to two batches ahead (one to parse, one waiting), so it never waits for this thread,
    // which also reads, hashes and collects
    const onSide = new Set<Promise<void>>();
    for (;;) {
      const batch = await reader.next();
      if (!batch) break;
      const batchBytes = batch.end - batch.start;
      if (layout === "csv" && side && onSide.size < SIDE_BATCHES) {
        const mem = resultsFor(batchBytes);
        const parsed: Promise<void> = side.parse(batch.buf, batch.start, batch.end, reader.delim, col, mem).then((p) => {
          reader.release(batch.buf);
          take(p.codes, p.count, p.invalid, batchBytes, mem);
          onSide.delete(parsed);
        });
        parsed.catch(() => {});
        onSide.add(parsed);
      } else if (layout === "csv") {
        const mem = resultsFor(batchBytes);
        const parsed = parseCodes(batch.buf, batch.start, batch.end, reader.delim, col, mem);
        reader.release(batch.buf);
        take(parsed.codes, parsed.count, parsed.invalid, batchBytes, mem);
      } else {
        const rows = parseRows(batch.buf, batch.start, batch.end, reader.delim, -1);
        for (let r = 0; r < rows.count; r++) {
          const quick = layout === "ftc-changes" ? ftcChangeBytes(batch.buf, rows.rowStart[r], rows.rowEnd[r], reader.delim) : 0;
          if (quick !== 0) {
            const number = Math.abs(quick);
            const action = quick > 0 ? "add" : "delete";
            (action === "add" ? adds : deletes).push(number);
            lastAction!.set(number, action);
            continue;
          }
          const cells = splitCells(batch.buf, rows.rowStart[r], rows.rowEnd[r], reader.delim);
          if (layout === "ftc-full") {
            const x = isFtcPair(cells, 0) ? normalizeCode(cells[0].trim() + cells[1].trim()) : cells.length === 1 ? normalizeCode(cells[0]) : -1;
            if (x < 0) invalid++;
            else adds.push(x);
          } else {
            const c = ftcChange(cells);
            if (c.number < 0 || !c.action) invalid++;
            else {
              (c.action === "add" ? adds : deletes).push(c.number);
              lastAction!.set(c.number, c.action);
            }
          }
        }
      }
      onProgress?.(batch.fileOffset, reader.size);
    }
    await Promise.all(onSide);
    let numbers = await adds.sorted(side);
    let valid = adds.n;
    let removals: Float64Array | null = null;
    if (layout === "ftc-changes") {
      removals = await deletes.sorted();
      // a number both added and deleted: its last record decides
      const finalAdds = Float64Array.from([...lastAction!].filter(([, a]) => a === "add").map(([n]) => n)).sort();
      const finalDeletes = Float64Array.from([...lastAction!].filter(([, a]) => a === "delete").map(([n]) => n)).sort();
      const distinctAdds = numbers.length;
      numbers = without(numbers, finalDeletes);
      removals = without(removals, finalAdds);
      valid -= distinctAdds - numbers.length; // additions a later deletion undid are not "already present"
    }
    return {
      numbers,
      removals,
      valid,
      invalid,
      bytes: reader.size,
      sha256: await reader.sha256(),
      format: plainFile ? format : `${format} · ${formatLabel(info)}`,
      layout,
      encoding: encodingLabel(info),
      delimiter: delimiterLabel(String.fromCharCode(reader.delim)),
    };
  } finally {
    await side?.close();
    await reader.close();
  }
}

export interface NumbersOfFileOptions {
  onProgress?: (bytesRead: number, total: number) => void;
  /** The phone column of a CSV with a header row (default: the product's guess). */
  column?: string | null;
  /** From this many bytes every other batch is parsed on a side thread (tests lower it). */
  sideParseMinBytes?: number;
}

/** Numbers from which the side thread helps sort (below, posting to it costs more than it saves). */
const SIDE_SORT_MIN = 1 << 20;

/** A list file this large has every other batch parsed on a side thread (the thread costs ~30–50 ms to start). */
const SIDE_PARSE_MIN_BYTES = 32 << 20;
/** Batches the side thread holds at once (see numbersOfFile). */
const SIDE_BATCHES = 2;
