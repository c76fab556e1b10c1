/**
 * Reading: a file streamed into row-aligned batches (each in its own SharedArrayBuffer, so workers read it
 * without a copy), with the first row, the detected delimiter and the BOM handled up front.
 * Also countRecords and previewCsv for the app.
 */
import { CodedError } from "../errors";
import { engineConfig } from "../config";
import crypto from "node:crypto";
import fs from "node:fs";
import { describeInput, Utf8Check, type DetectOptions, type InputInfo } from "./input/detect";
import { InputFormatError, sizeText } from "./input/errors";
import { openInput, type ByteSource } from "./input/source";
import { RowCounter } from "./input/row-counter";
import { maxColumns } from "./input/limits";
import { CR, LF, detectDelimiter, defaultPhoneColumn, lastRowBoundary, parseRows, quoteLeftOpen, scanRowEnd, splitCells } from "../worker/csv";
import { normalizeCode } from "../numbers/normalize";
import { inThreadHash, type StreamHash } from "./sha256-thread";

export interface Batch {
  buf: Uint8Array;
  start: number;
  end: number;
  /** File offset just past this batch (for progress). */
  fileOffset: number;
}

export const DEFAULT_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * The longest record (row) accepted: 1 MB, or SCRUB_MAX_RECORD_BYTES. A quote that is never closed would
 * otherwise make the rest of the file one record, read into one ever-growing buffer (a 500 MB upload: 1 GB).
 * With the limit the read fails as soon as one record passes it, memory stays at about twice the limit plus a
 * batch, and the error names the line the record starts on (docs/decisions/082).
 */
export function maxRecordBytes(): number {
  return engineConfig().SCRUB_MAX_RECORD_BYTES;
}

export { maxColumns };

/** The longest cell the preview shows: 64 KiB (the scrub itself keeps to the record limit). */
export const PREVIEW_MAX_CELL_BYTES = 64 * 1024;

/** A first row with more cells than maxColumns(). `message` is fit to show (an InputFormatError). */
export class TooManyColumnsError extends InputFormatError {
  constructor(
    readonly columns: number,
    readonly limit: number,
  ) {
    super(`This file has ${columns.toLocaleString("en-US")} columns; at most ${limit.toLocaleString("en-US")} are supported.`);
  }
}

/** A previewed cell longer than PREVIEW_MAX_CELL_BYTES. `message` is fit to show (an InputFormatError). */
export class CellTooLargeError extends InputFormatError {
  constructor(
    readonly column: number,
    readonly limit: number,
  ) {
    super(`Column ${column} has a cell longer than ${sizeText(limit)}; at most ${sizeText(limit)} per cell are supported.`);
  }
}

/** Refuses a previewed row with too many cells or too long a cell. */
function checkPreviewRow(cells: readonly string[], columnLimit: number): void {
  if (cells.length > columnLimit) throw new TooManyColumnsError(cells.length, columnLimit);
  const i = cells.findIndex((c) => c.length > PREVIEW_MAX_CELL_BYTES / 4 && Buffer.byteLength(c) > PREVIEW_MAX_CELL_BYTES);
  if (i >= 0) throw new CellTooLargeError(i + 1, PREVIEW_MAX_CELL_BYTES);
}

/** A record longer than the limit (usually an unclosed quote). `message` is fit to show (an InputFormatError). */
export class RecordTooLargeError extends InputFormatError {
  constructor(
    readonly line: number,
    readonly limit: number,
  ) {
    super(`Line ${line}: a record is longer than ${sizeText(limit)} (is a quote (") left open on that line?). Please check the file format.`);
  }
}

/** A quoted field opened on `line` and never closed before the end of the file. `message` is fit to show. */
export class UnclosedQuoteError extends InputFormatError {
  constructor(readonly line: number) {
    super(`Line ${line}: a quote (") opens a field that is never closed. Please check the file format.`);
  }
}

/** The file holds NUL bytes near its start: not a text file (a zip, a picture, UTF-16). `message` is fit to show. */
export class NotTextFileError extends CodedError {
  constructor() {
    super("invalid_input", "The file is not a CSV text file (it contains binary data). Save it as CSV (UTF-8) and upload it again.");
    this.name = "NotTextFileError";
  }
}

/**
 * A file opened with DetectOptions.utf8Lazy (judged UTF-8 from its first 1 MiB) holds an invalid UTF-8 byte
 * further on: it is Windows-1252 text, to be read again from the start without the option.
 */
export class NotUtf8AfterAllError extends Error {
  constructor() {
    super("The file is not UTF-8 after its first 1 MiB; it is read again as Windows-1252.");
    this.name = "NotUtf8AfterAllError";
  }
}

/** 1-based line number of an offset in the (decoded) input (line feeds before it + 1); only on the error path. */
async function lineAt(path: string, opts: DetectOptions, offset: number): Promise<number> {
  const { source } = await openInput(path, opts);
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let lines = 1;
    let read = 0;
    while (read < offset) {
      const bytesRead = await source.read(buf, 0, Math.min(buf.length, offset - read));
      if (!bytesRead) break;
      let i = -1;
      const view = buf.subarray(0, bytesRead);
      while ((i = view.indexOf(LF, i + 1)) >= 0) lines++;
      read += bytesRead;
    }
    return lines;
  } finally {
    await source.close();
  }
}

/**
 * Reads any supported input (input/source.ts turns .xlsx, .gz, .zip, UTF-16 and Windows-1252 into UTF-8 CSV
 * bytes; a plain UTF-8 file is read straight from disk) in row-aligned batches.
 */
export class BatchReader {
  private src: ByteSource | null = null;
  /** What the input is (format, container, encoding), once open. */
  info: InputInfo | null = null;
  private buf: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private len = 0;
  /** File offset of buf[0]. */
  private base = 0;
  private eof = false;
  size = 0;
  bom = false;
  delim = 44;
  /** The first non-empty row, or null for an empty file. */
  firstRow: string[] | null = null;
  /** Bytes of the first row in the first batch buffer (to emit it escaped as the header). */
  firstRowBytes: Uint8Array | null = null;
  private firstRowEnd = 0;
  /**
   * Batch buffers given back with release(), reused instead of allocating (and collecting) new ones once the
   * SHA-256 has taken in every byte read before the release (`ticket`).
   */
  private free: { buf: Uint8Array; ticket: number }[] = [];
  /** The ticket of the last bytes given to the hash. */
  private hashed = 0;
  private digest: Promise<string> | null = null;
  /** Checks the bytes past the first 1 MiB when detection judged UTF-8 from the head only. */
  private utf8: Utf8Check | null = null;

  constructor(
    readonly path: string,
    private readonly batchBytes = DEFAULT_BATCH_BYTES,
    private readonly recordLimit = maxRecordBytes(),
    private readonly inputOptions: DetectOptions = {},
    private readonly columnLimit = maxColumns(),
    /**
     * Every byte read, hashed as it arrives (the input's SHA-256 for its certificate; ~0.8 ms per MB): here, or
     * on a Sha256Thread (a scrub), which reads the batch buffers themselves.
     */
    private readonly hash: StreamHash = inThreadHash(),
  ) {}

  async open(): Promise<void> {
    const { info, source } = await openInput(this.path, this.inputOptions);
    this.src = source;
    this.info = info;
    if (info.utf8Unchecked && source.direct) this.utf8 = new Utf8Check();
    this.size = source.size;
    this.bom = info.bom && info.encoding !== "utf-8";
    this.buf = this.alloc(this.batchBytes);
    await this.fill();
    // A CSV never holds a NUL byte; a zip, an image or UTF-16 text does, within its first bytes.
    if (this.buf.subarray(0, Math.min(this.len, 64 * 1024)).includes(0)) throw new NotTextFileError();
    if (this.len >= 3 && this.buf[0] === 0xef && this.buf[1] === 0xbb && this.buf[2] === 0xbf) {
      this.bom = true;
      this.pos = 3;
    }
    // skip empty lines before the first row
    for (;;) {
      while (this.pos < this.len && (this.buf[this.pos] === LF || (this.buf[this.pos] === CR && this.buf[this.pos + 1] === LF))) {
        this.pos += this.buf[this.pos] === CR ? 2 : 1;
      }
      if (this.pos < this.len || this.eof) break;
      await this.fill();
    }
    if (this.pos >= this.len) return;
    // the first row, however long
    let end = -1;
    for (;;) {
      end = scanRowEnd(this.buf, this.pos, this.len, 44);
      if (end >= 0 || this.eof) break;
      await this.fill();
    }
    if (end < 0) end = this.len;
    let re = end;
    if (re > this.pos && this.buf[re - 1] === LF) re--;
    if (re > this.pos && this.buf[re - 1] === CR) re--;
    this.delim = detectDelimiter(this.buf, this.pos, re);
    // re-find the row end with the real delimiter (quotes only count at field starts)
    let end2 = -1;
    for (;;) {
      end2 = scanRowEnd(this.buf, this.pos, this.len, this.delim);
      if (end2 >= 0 || this.eof) break;
      await this.fill();
    }
    if (end2 < 0) {
      if (quoteLeftOpen(this.buf, this.pos, this.len, this.delim))
        throw new UnclosedQuoteError(await lineAt(this.path, this.inputOptions, this.base + this.pos));
      end2 = this.len;
    }
    re = end2;
    if (re > this.pos && this.buf[re - 1] === LF) re--;
    if (re > this.pos && this.buf[re - 1] === CR) re--;
    this.firstRow = splitCells(this.buf, this.pos, re, this.delim);
    if (this.firstRow.length > this.columnLimit) throw new TooManyColumnsError(this.firstRow.length, this.columnLimit);
    this.firstRowBytes = this.buf.slice(this.pos, re);
    this.firstRowEnd = end2;
  }

  private alloc(size: number): Uint8Array {
    if (size === this.batchBytes) {
      const i = this.free.findIndex((f) => this.hash.isDone(f.ticket));
      if (i >= 0) return this.free.splice(i, 1)[0].buf;
    }
    return new Uint8Array(new SharedArrayBuffer(size));
  }

  /**
   * Gives a batch's buffer back once nothing reads it any more (its results are written); the reader fills
   * it again. Optional: a buffer never released is simply garbage collected.
   */
  release(buf: Uint8Array): void {
    if (buf.length === this.batchBytes && buf !== this.buf && this.free.length < 16) this.free.push({ buf, ticket: this.hashed });
  }

  /** Leaves the first row out of the batches (it is the header). */
  skipFirstRow(): void {
    if (this.firstRow) this.pos = this.firstRowEnd;
  }

  /** Bytes consumed so far (file offset of the next unread row). */
  get offset(): number {
    return this.base + this.pos;
  }

  /** Reads more of the file into buf after len (growing buf when full). */
  private async fill(): Promise<void> {
    if (this.eof) return;
    if (this.len === this.buf.length) {
      // Growing means the record at pos did not end within the buffer: refuse it once past the limit.
      if (this.len - this.pos > this.recordLimit) {
        throw new RecordTooLargeError(await lineAt(this.path, this.inputOptions, this.base + this.pos), this.recordLimit);
      }
      const bigger = new Uint8Array(new SharedArrayBuffer(this.buf.length * 2));
      bigger.set(this.buf.subarray(0, this.len));
      this.buf = bigger;
    }
    const bytesRead = await this.src!.read(this.buf, this.len, this.buf.length - this.len);
    if (this.utf8 && !this.utf8.push(this.buf.subarray(this.len, this.len + bytesRead), bytesRead === 0)) throw new NotUtf8AfterAllError();
    if (bytesRead === 0) this.eof = true;
    else if (this.src!.direct) this.hashed = this.hash.update(this.buf.subarray(this.len, this.len + bytesRead));
    this.len += bytesRead;
  }

  /** The next batch of whole rows, or null at the end. */
  async next(): Promise<Batch | null> {
    for (;;) {
      if (this.pos >= this.len) {
        if (this.eof) return null;
        // everything consumed: start a fresh buffer
        this.base += this.len;
        this.pos = 0;
        this.len = 0;
        this.buf = this.alloc(this.batchBytes);
        await this.fill();
        continue;
      }
      if (!this.eof && this.len < this.buf.length) {
        await this.fill();
        continue;
      }
      if (this.eof && this.len - this.pos > this.recordLimit) {
        // The last record runs to the end of the file (an unclosed quote): it too must keep to the limit.
        const lastStart = lastRowBoundary(this.buf, this.pos, this.len, this.delim);
        if (this.len - lastStart > this.recordLimit) {
          throw new RecordTooLargeError(await lineAt(this.path, this.inputOptions, this.base + lastStart), this.recordLimit);
        }
      }
      if (this.eof) {
        const lastStart = lastRowBoundary(this.buf, this.pos, this.len, this.delim);
        if (quoteLeftOpen(this.buf, lastStart, this.len, this.delim)) {
          throw new UnclosedQuoteError(await lineAt(this.path, this.inputOptions, this.base + lastStart));
        }
      }
      const boundary = this.eof ? this.len : lastRowBoundary(this.buf, this.pos, this.len, this.delim);
      if (boundary === this.pos) {
        // one row longer than the buffer: grow and read on
        await this.fill();
        continue;
      }
      const fileOffset = this.src!.direct ? this.base + boundary : this.src!.consumed;
      const batch: Batch = { buf: this.buf, start: this.pos, end: boundary, fileOffset };
      // the rest of this buffer moves to a new one; the batch keeps its buffer
      const rest = this.buf.subarray(boundary, this.len);
      const next = this.alloc(Math.max(this.batchBytes, rest.length * 2));
      next.set(rest);
      this.base += boundary;
      this.buf = next;
      this.pos = 0;
      this.len = rest.length;
      return batch;
    }
  }

  /**
   * SHA-256 (hex) of the whole file as uploaded, once next() has returned null (every byte was read). A plain
   * file was hashed as it was read; a decoded one (compressed, a workbook, UTF-16) is hashed from disk now, since
   * the reader saw its decoded bytes (a zip's members are not even read in file order).
   */
  async sha256(): Promise<string> {
    if (!this.eof) throw new Error("The file's SHA-256 is known only after it was read to the end.");
    if (this.src?.direct) return (this.digest ??= this.hash.digest());
    const h = crypto.createHash("sha256");
    for await (const chunk of fs.createReadStream(this.path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
    return h.digest("hex");
  }

  async close(): Promise<void> {
    await this.src?.close();
  }
}

export interface CountOptions extends DetectOptions {
  /** Non-empty lines, less one when the first holds no digit (a header such as `Phone`): list loads reserve numbers. */
  skipHeader?: boolean;
  /**
   * The rows a scrub reads, for its plan usage: non-empty lines, less the first row when the scrub reads it as a
   * header (headersOf, the rule the preview and the pipeline use), so the header row is never counted as usage.
   */
  dataRows?: boolean;
}

/**
 * The rows of a file, counted on the decoded text (a .gz inflated, a zip's member(s) unpacked, a workbook's sheet
 * converted, UTF-16 transcoded) as the scrub will read it; a plain UTF-8 file straight from disk. Without an
 * option: the line feeds (+1 for a last line without one). A file the readers refuse (a bomb, a damaged
 * workbook) throws their InputFormatError: the count is the plan check, so it is never made on anything else
 * (docs/decisions/151).
 */
export async function countRecords(path: string, opts: CountOptions = {}): Promise<number> {
  const opened = await openInput(path, opts);
  const counted = await countLines(opened.source, opts.skipHeader ? "header-rule" : opts.dataRows ? "non-empty" : "lines");
  if (!opts.dataRows || counted === 0) return counted;
  return counted - ((await firstRowIsHeader(path, opts)) ? 1 : 0);
}

/** Whether the scrub takes the file's first row as its header (reads only the first batch). */
async function firstRowIsHeader(path: string, opts: DetectOptions): Promise<boolean> {
  const reader = new BatchReader(path, 256 * 1024, undefined, opts);
  try {
    await reader.open();
    return reader.firstRow ? headersOf(reader.firstRow).hasHeader : false;
  } finally {
    await reader.close();
  }
}

async function countLines(source: ByteSource, mode: "lines" | "non-empty" | "header-rule"): Promise<number> {
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    const rows = mode === "header-rule" ? new RowCounter() : mode === "non-empty" ? new RowCounter({ headerRule: false }) : null;
    let count = 0;
    let last = LF;
    let total = 0;
    for (;;) {
      const bytesRead = await source.read(buf, 0, buf.length);
      if (!bytesRead) break;
      total += bytesRead;
      const view = bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
      if (rows) {
        rows.push(view);
        continue;
      }
      let i = -1;
      while ((i = view.indexOf(LF, i + 1)) >= 0) count++;
      last = view[bytesRead - 1];
    }
    if (rows) return rows.count();
    if (total > 0 && last !== LF) count++;
    return count;
  } finally {
    await source.close();
  }
}

/** Whether the first row is data (holds a valid phone number) rather than a header. */
export function looksLikeData(cells: readonly string[]): boolean {
  return cells.some((c) => normalizeCode(c) >= 0);
}

export function headersOf(firstRow: readonly string[] | null): { headers: string[]; hasHeader: boolean } {
  if (!firstRow) return { headers: [], hasHeader: false };
  if (looksLikeData(firstRow)) return { headers: firstRow.map((_, i) => `Column ${i + 1}`), hasHeader: false };
  return { headers: firstRow.map((h) => h.trim()), hasHeader: true };
}

/**
 * The header and first rows of a file, at a bounded cost: the first row and one 256 KB batch (a row longer than
 * that: up to the record limit), never the whole file. Refuses more than maxColumns() columns and cells longer
 * than PREVIEW_MAX_CELL_BYTES.
 */
export async function previewCsv(path: string, maxRows = 10, opts: DetectOptions = {}) {
  const columnLimit = maxColumns();
  const reader = new BatchReader(path, 256 * 1024, undefined, opts, columnLimit);
  try {
    await reader.open();
    if (reader.firstRow) checkPreviewRow(reader.firstRow, columnLimit);
    const { headers, hasHeader } = headersOf(reader.firstRow);
    if (hasHeader) reader.skipFirstRow();
    const rows: string[][] = [];
    const batch = reader.firstRow ? await reader.next() : null;
    if (batch) {
      const parsed = parseRows(batch.buf, batch.start, batch.end, reader.delim, -1);
      for (let r = 0; r < parsed.count && rows.length < maxRows; r++) {
        const cells = splitCells(batch.buf, parsed.rowStart[r], parsed.rowEnd[r], reader.delim);
        checkPreviewRow(cells, columnLimit);
        rows.push(cells);
      }
    }
    const phoneColumn = hasHeader
      ? defaultPhoneColumn(headers)
      : reader.firstRow
        ? (headers[reader.firstRow.findIndex((c) => normalizeCode(c) >= 0)] ?? null)
        : null; // an empty file (only blank lines or a BOM)
    const delimiter = String.fromCharCode(reader.delim);
    const info = reader.info!;
    const input = { ...describeInput(info, delimiter), sheets: info.sheets, sheet: info.sheet };
    return { headers, hasHeader, delimiter, rows, phoneColumn, input };
  } finally {
    await reader.close();
  }
}
