/**
 * What an uploaded file is, by its content (magic bytes, BOM, UTF-8 validity), never by its name:
 * plain text (UTF-8 with or without BOM, UTF-16LE/BE with BOM, otherwise Windows-1252), .xlsx, a .gz, a .zip
 * of one CSV/XLSX (or, for list loads, of several text files such as the FTC's per-area-code files).
 * Legacy .xls and password-protected workbooks (both OLE containers) get their own message.
 */
import fs from "node:fs";
import { isUtf8 } from "node:buffer";
import { createGunzip } from "node:zlib";
import type yauzl from "yauzl";
import { explainReadError, InputFormatError } from "./errors";
import { workbookInfo } from "./xlsx";
import { memberStream, openZip, type ZipArchive } from "./zip";

export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

export interface InputInfo {
  format: "csv" | "xlsx";
  container: "none" | "gzip" | "zip";
  encoding: TextEncoding;
  /** The text began with a byte order mark (results then get one too, so Excel reads them as UTF-8). */
  bom: boolean;
  /** The zip members read, in order. */
  members: string[];
  /** A workbook's sheets and the one read. */
  sheets: string[];
  sheet: string | null;
  /** UTF-8 judged from the first 1 MiB only (DetectOptions.utf8Lazy): the reader checks the rest. */
  utf8Unchecked?: true;
}

export interface DetectOptions {
  /** The workbook sheet to read (default: the first). */
  sheet?: string | null;
  /**
   * A plain text file whose first 1 MiB is valid UTF-8 is taken as UTF-8 without reading the rest first
   * (`utf8Unchecked` set in the answer): the caller checks the rest as it reads (Utf8Check) and, on an invalid
   * byte, opens the file again without this option (Windows-1252). The scrub does: one pass over the file
   * instead of two.
   */
  utf8Lazy?: boolean;
  /** Accept a zip of several text files, read one after the other (list loads: the FTC's area-code files). */
  manyMembers?: boolean;
}

const SNIFF_BYTES = 1024 * 1024;

type Magic = "gzip" | "zip" | "ole" | "text";

function magicOf(head: Uint8Array): Magic {
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5) && (head[3] === 4 || head[3] === 6)) return "zip";
  if (head.length >= 8 && Buffer.from(head.subarray(0, 8)).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return "ole";
  return "text";
}

/** The encoding of text from its first bytes; `valid` says whether the (whole) text is valid UTF-8. */
function encodingOf(head: Uint8Array, valid: boolean): { encoding: TextEncoding; bom: boolean } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: valid ? "utf-8" : "windows-1252", bom: valid };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf-16le", bom: true };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf-16be", bom: true };
  return { encoding: valid ? "utf-8" : "windows-1252", bom: false };
}

/** Valid UTF-8 up to a multi-byte sequence cut at the end of the buffer. */
export function utf8Prefix(b: Uint8Array, atEnd: boolean): { valid: boolean; used: number } {
  let end = b.length;
  if (!atEnd) {
    // back up over an incomplete last sequence (at most 3 continuation bytes)
    let i = end - 1;
    let k = 0;
    while (i >= 0 && k < 3 && (b[i] & 0xc0) === 0x80) {
      i--;
      k++;
    }
    if (i >= 0 && b[i] >= 0xc0) end = i;
  }
  return { valid: isUtf8(b.subarray(0, end)), used: end };
}

/** Whether a whole file is valid UTF-8 (~65 ms for 400 MB from the page cache). */
async function fileIsUtf8(path: string): Promise<boolean> {
  const fh = await fs.promises.open(path, "r");
  try {
    const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
    let carry = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, carry, buf.length - carry, null);
      const len = carry + bytesRead;
      const { valid, used } = utf8Prefix(buf.subarray(0, len), bytesRead === 0);
      if (!valid) return false;
      if (bytesRead === 0) return used === len;
      buf.copy(buf, 0, used, len);
      carry = len - used;
    }
  } finally {
    await fh.close();
  }
}

async function readHead(path: string, n: number): Promise<Buffer> {
  const fh = await fs.promises.open(path, "r");
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The first bytes of a stream (then the stream is destroyed). */
async function headOfStream(s: NodeJS.ReadableStream & { destroy(): void }, n = SNIFF_BYTES): Promise<{ head: Buffer; all: boolean }> {
  const chunks: Buffer[] = [];
  let got = 0;
  let all = true;
  for await (const c of s) {
    chunks.push(c as Buffer);
    got += (c as Buffer).length;
    if (got >= n) {
      all = false;
      break;
    }
  }
  s.destroy();
  return { head: Buffer.concat(chunks), all };
}

/** An OLE compound file: a password-protected .xlsx (EncryptedPackage) or a legacy .xls (Workbook). */
async function oleError(path: string): Promise<InputFormatError> {
  const head = await readHead(path, 512);
  const sectorSize = 1 << head.readUInt16LE(0x1e);
  const dirSector = head.readUInt32LE(0x30);
  const fh = await fs.promises.open(path, "r");
  const names: string[] = [];
  try {
    const dir = Buffer.alloc(sectorSize);
    await fh.read(dir, 0, sectorSize, (dirSector + 1) * sectorSize);
    for (let off = 0; off + 128 <= dir.length; off += 128) {
      const len = dir.readUInt16LE(off + 64);
      if (len >= 2 && len <= 64) names.push(dir.toString("utf16le", off, off + len - 2));
    }
  } finally {
    await fh.close();
  }
  if (names.includes("EncryptedPackage") || names.includes("EncryptionInfo")) {
    return new InputFormatError(
      "The Excel file is password-protected. Open it in Excel, remove the password (File › Info › Protect Workbook › Encrypt with Password), save it and upload it again.",
    );
  }
  if (names.includes("Workbook") || names.includes("Book")) {
    return new InputFormatError(
      "This is an Excel 97–2003 workbook (.xls), which cannot be read. Open it in Excel and save it as Excel Workbook (.xlsx) or CSV UTF-8, then upload it again.",
    );
  }
  return new InputFormatError("This is an older Microsoft Office file, not a CSV or Excel (.xlsx) file. Save it as CSV UTF-8 or .xlsx and upload it again.");
}

function isWorkbook(a: ZipArchive): boolean {
  return a.files.some((f) => f.fileName === "xl/workbook.xml");
}

function nestedError(kind: Magic, name: string): InputFormatError | null {
  if (kind === "zip")
    return new InputFormatError(`The compressed file holds another archive or an Excel workbook (${name}). Upload the .xlsx or CSV file itself.`);
  if (kind === "gzip") return new InputFormatError(`The zip file holds a gzip file (${name}). Upload the CSV file inside it.`);
  if (kind === "ole")
    return new InputFormatError(
      `The compressed file holds an Excel 97–2003 or password-protected workbook (${name}). Save it as .xlsx or CSV UTF-8 and upload that.`,
    );
  return null;
}

async function zipInfo(path: string, opts: DetectOptions): Promise<InputInfo> {
  const a = await openZip(path);
  let close = true;
  try {
    if (isWorkbook(a)) {
      a.zip.close();
      close = false;
      const wb = await workbookInfo(path, opts.sheet);
      return { format: "xlsx", container: "none", encoding: "utf-8", bom: false, members: [], sheets: wb.sheets, sheet: wb.sheet };
    }
    const files = a.files;
    if (!files.length) throw new InputFormatError("The zip file is empty: it holds no file to read.");
    if (files.length > 1 && !opts.manyMembers) {
      const names =
        files
          .slice(0, 5)
          .map((f) => f.fileName)
          .join(", ") + (files.length > 5 ? ", …" : "");
      throw new InputFormatError(`The zip file holds ${files.length} files (${names}); upload one CSV or Excel file.`);
    }
    const first: yauzl.Entry = files[0];
    const { head, all } = await headOfStream(await memberStream(a, first)).catch((e) => {
      throw explainReadError("zip file")(e);
    });
    const kind = magicOf(head);
    const nested = nestedError(kind, first.fileName);
    if (nested) throw nested;
    const valid = utf8Prefix(head, all).valid;
    return { format: "csv", container: "zip", ...encodingOf(head, valid), members: files.map((f) => f.fileName), sheets: [], sheet: null };
  } finally {
    if (close) a.zip.close();
  }
}

async function gzipInfo(path: string): Promise<InputInfo> {
  const gunzip = createGunzip();
  const raw = fs.createReadStream(path);
  raw.on("error", (e) => gunzip.destroy(e));
  let sniff: { head: Buffer; all: boolean };
  try {
    sniff = await headOfStream(raw.pipe(gunzip));
  } catch (e) {
    throw explainReadError("gzip file")(e);
  } finally {
    raw.destroy();
  }
  const inner = magicOf(sniff.head);
  if (inner === "gzip") throw new InputFormatError("The .gz file holds another compressed file. Upload the CSV file itself, compressed once at most.");
  const nested = nestedError(inner, "inside the .gz");
  if (nested) throw nested;
  return { format: "csv", container: "gzip", ...encodingOf(sniff.head, utf8Prefix(sniff.head, sniff.all).valid), members: [], sheets: [], sheet: null };
}

/** Detection reads the whole of a plain text file once (UTF-8 check); the answer is kept per file version. */
const cache = new Map<string, InputInfo>();

export async function detectInput(path: string, opts: DetectOptions = {}): Promise<InputInfo> {
  const st = await fs.promises.stat(path);
  const key = `${path}\0${st.size}\0${st.mtimeMs}\0${st.ino}\0${opts.sheet ?? ""}\0${opts.manyMembers ? 1 : 0}`;
  const known = cache.get(key) ?? (opts.utf8Lazy ? cache.get(`${key}\0lazy`) : undefined);
  if (known) return known;
  const head = await readHead(path, 8);
  const kind = magicOf(head);
  let info: InputInfo;
  if (kind === "gzip") info = await gzipInfo(path);
  else if (kind === "zip") info = await zipInfo(path, opts);
  else if (kind === "ole") throw await oleError(path);
  else {
    const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
    if (!utf16 && opts.utf8Lazy) {
      const sniff = await readHead(path, SNIFF_BYTES);
      const whole = sniff.length >= st.size;
      const valid = utf8Prefix(sniff, whole).valid;
      info = { format: "csv", container: "none", ...encodingOf(head, valid), members: [], sheets: [], sheet: null };
      if (!valid || whole)
        cache.set(key, info); // the whole answer
      else {
        info.utf8Unchecked = true;
        cache.set(`${key}\0lazy`, info);
      }
      trimCache();
      return info;
    }
    info = { format: "csv", container: "none", ...encodingOf(head, utf16 || (await fileIsUtf8(path))), members: [], sheets: [], sheet: null };
  }
  cache.set(key, info);
  trimCache();
  return info;
}

function trimCache(): void {
  while (cache.size > 64) cache.delete(cache.keys().next().value!);
}

/**
 * Checks that text arriving in pieces is valid UTF-8 (a multi-byte sequence may be cut between pieces):
 * the rest of a file DetectOptions.utf8Lazy judged from its head.
 */
export class Utf8Check {
  private carry: Uint8Array = new Uint8Array(0);

  /** Whether everything so far is valid UTF-8; `atEnd`: nothing follows (a cut sequence is then invalid). */
  push(bytes: Uint8Array, atEnd: boolean): boolean {
    let b = bytes;
    if (this.carry.length) {
      const lead = this.carry[0];
      const need = (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2) - this.carry.length;
      if (b.length < need && !atEnd) {
        this.carry = Buffer.concat([this.carry, b]);
        return true;
      }
      const seq = Buffer.concat([this.carry, b.subarray(0, Math.max(0, need))]);
      this.carry = new Uint8Array(0);
      if (!isUtf8(seq)) return false;
      b = b.subarray(Math.max(0, need));
    }
    const { valid, used } = utf8Prefix(b, atEnd);
    if (!valid) return false;
    this.carry = b.slice(used);
    return true;
  }
}

/** "CSV", "Excel workbook (.xlsx)", "gzip-compressed CSV", "zip-compressed CSV", "3 CSV files in a .zip file". */
export function formatLabel(info: InputInfo): string {
  if (info.format === "xlsx") return "Excel workbook (.xlsx)";
  if (info.container === "gzip") return "gzip-compressed CSV";
  if (info.container === "zip") return info.members.length > 1 ? `${info.members.length} CSV files in a .zip file` : "zip-compressed CSV";
  return "CSV";
}

/** "UTF-8", "UTF-8 with BOM", "UTF-16LE", "Windows-1252". */
export function encodingLabel(info: InputInfo): string {
  switch (info.encoding) {
    case "utf-8":
      return info.bom ? "UTF-8 with BOM" : "UTF-8";
    case "utf-16le":
      return "UTF-16LE";
    case "utf-16be":
      return "UTF-16BE";
    case "windows-1252":
      return "Windows-1252";
  }
}

/** The delimiter as words: "comma", "tab", "semicolon", "pipe". */
export function delimiterLabel(d: string): string {
  return ({ ",": "comma", "\t": "tab", ";": "semicolon", "|": "pipe" } as Record<string, string>)[d] ?? JSON.stringify(d);
}

/** The labels recorded on a job or load and shown in the column step. */
export function describeInput(info: InputInfo, delimiter: string): { format: string; encoding: string; delimiter: string } {
  return { format: formatLabel(info), encoding: encodingLabel(info), delimiter: delimiterLabel(delimiter) };
}
