/**
 * Reading: a file streamed into row-aligned batches (each in its own SharedArrayBuffer, so workers read it
 * without a copy), with the first row, the detected delimiter and the BOM handled up front.
 * Also countRecords and previewCsv for the app.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { CR, LF, detectDelimiter, defaultPhoneColumn, lastRowBoundary, parseRows, scanRowEnd, splitCells } from "../worker/csv";
import { normalizeCode } from "../worker/normalize";

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
  const n = Number(process.env.SCRUB_MAX_RECORD_BYTES ?? 1024 * 1024);
  return Number.isInteger(n) && n > 0 ? n : 1024 * 1024;
}

/** A record longer than the limit (usually an unclosed quote). `message` is fit to show. */
export class RecordTooLargeError extends Error {
  constructor(
    readonly line: number,
    readonly limit: number,
  ) {
    super(
      `Line ${line}: a record is longer than ${limitText(limit)} (is a quote (") left open on that line?). Please check the file format.`,
    );
    this.name = "RecordTooLargeError";
  }
}

/** The file holds NUL bytes near its start: not a text file (a zip, a picture, UTF-16). `message` is fit to show. */
export class NotTextFileError extends Error {
  constructor() {
    super("The file is not a CSV text file (it contains binary data). Save it as CSV (UTF-8) and upload it again.");
    this.name = "NotTextFileError";
  }
}

function limitText(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

/** 1-based line number of a file offset (line feeds before it + 1); only on the error path. */
async function lineAt(path: string, offset: number): Promise<number> {
  const fh = await fs.promises.open(path, "r");
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let lines = 1;
    let read = 0;
    while (read < offset) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, offset - read), read);
      if (!bytesRead) break;
      let i = -1;
      const view = buf.subarray(0, bytesRead);
      while ((i = view.indexOf(LF, i + 1)) >= 0) lines++;
      read += bytesRead;
    }
    return lines;
  } finally {
    await fh.close();
  }
}

export class BatchReader {
  private fh!: fs.promises.FileHandle;
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
  /** Batch buffers given back with release(), reused instead of allocating (and collecting) new ones. */
  private free: Uint8Array[] = [];
  /** Every byte read, hashed as it arrives (the input's SHA-256 for its certificate; ~0.8 ms per MB). */
  private readonly hash = crypto.createHash("sha256");

  constructor(
    readonly path: string,
    private readonly batchBytes = DEFAULT_BATCH_BYTES,
    private readonly recordLimit = maxRecordBytes(),
  ) {}

  async open(): Promise<void> {
    this.fh = await fs.promises.open(this.path, "r");
    this.size = (await this.fh.stat()).size;
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
    if (end2 < 0) end2 = this.len;
    re = end2;
    if (re > this.pos && this.buf[re - 1] === LF) re--;
    if (re > this.pos && this.buf[re - 1] === CR) re--;
    this.firstRow = splitCells(this.buf, this.pos, re, this.delim);
    this.firstRowBytes = this.buf.slice(this.pos, re);
    this.firstRowEnd = end2;
  }

  private alloc(size: number): Uint8Array {
    if (size === this.batchBytes) {
      const reused = this.free.pop();
      if (reused) return reused;
    }
    return new Uint8Array(new SharedArrayBuffer(size));
  }

  /**
   * Gives a batch's buffer back once nothing reads it any more (its results are written); the reader fills
   * it again. Optional: a buffer never released is simply garbage collected.
   */
  release(buf: Uint8Array): void {
    if (buf.length === this.batchBytes && buf !== this.buf && this.free.length < 16) this.free.push(buf);
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
        throw new RecordTooLargeError(await lineAt(this.path, this.base + this.pos), this.recordLimit);
      }
      const bigger = new Uint8Array(new SharedArrayBuffer(this.buf.length * 2));
      bigger.set(this.buf.subarray(0, this.len));
      this.buf = bigger;
    }
    const { bytesRead } = await this.fh.read(this.buf, this.len, this.buf.length - this.len, null);
    if (bytesRead === 0) this.eof = true;
    else this.hash.update(this.buf.subarray(this.len, this.len + bytesRead));
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
          throw new RecordTooLargeError(await lineAt(this.path, this.base + lastStart), this.recordLimit);
        }
      }
      const boundary = this.eof ? this.len : lastRowBoundary(this.buf, this.pos, this.len, this.delim);
      if (boundary === this.pos) {
        // one row longer than the buffer: grow and read on
        await this.fill();
        continue;
      }
      const batch: Batch = { buf: this.buf, start: this.pos, end: boundary, fileOffset: this.base + boundary };
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

  /** SHA-256 (hex) of the whole file, once next() has returned null (every byte was read). */
  sha256(): string {
    if (!this.eof) throw new Error("The file's SHA-256 is known only after it was read to the end.");
    return this.hash.copy().digest("hex");
  }

  async close(): Promise<void> {
    await this.fh?.close().catch(() => {});
  }
}

/** A fast upper bound of the data rows: the number of line feeds (+1 for a last line without one). */
export async function countRecords(path: string): Promise<number> {
  const fh = await fs.promises.open(path, "r");
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let count = 0;
    let last = LF;
    let total = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (!bytesRead) break;
      total += bytesRead;
      let i = -1;
      const view = bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
      while ((i = view.indexOf(LF, i + 1)) >= 0) count++;
      last = view[bytesRead - 1];
    }
    if (total > 0 && last !== LF) count++;
    return count;
  } finally {
    await fh.close();
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

export async function previewCsv(path: string, maxRows = 10) {
  const reader = new BatchReader(path, 256 * 1024);
  await reader.open();
  try {
    const { headers, hasHeader } = headersOf(reader.firstRow);
    if (hasHeader) reader.skipFirstRow();
    const rows: string[][] = [];
    const batch = reader.firstRow ? await reader.next() : null;
    if (batch) {
      const parsed = parseRows(batch.buf, batch.start, batch.end, reader.delim, -1);
      for (let r = 0; r < parsed.count && rows.length < maxRows; r++) {
        rows.push(splitCells(batch.buf, parsed.rowStart[r], parsed.rowEnd[r], reader.delim));
      }
    }
    const phoneColumn = hasHeader
      ? defaultPhoneColumn(headers)
      : reader.firstRow
        ? (headers[reader.firstRow.findIndex((c) => normalizeCode(c) >= 0)] ?? null)
        : null; // an empty file (only blank lines or a BOM)
    return { headers, hasHeader, delimiter: String.fromCharCode(reader.delim), rows, phoneColumn };
  } finally {
    await reader.close();
  }
}
