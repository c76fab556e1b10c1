/**
 * Input files of every supported kind, generated for tests and benchmarks (no binaries in the repository):
 * zip (a small writer: stored or deflated members, optionally lying about sizes), gzip, xlsx (exceljs's
 * streaming writer, shared strings after the sheet as Excel writes them), UTF-16 and Windows-1252 text, and
 * the OLE shells of a password-protected workbook and of a legacy .xls.
 */
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import ExcelJS from "exceljs";
import iconv from "iconv-lite";

export interface ZipMember {
  name: string;
  data: Buffer;
  /** Store without compression (default: deflate). */
  store?: boolean;
  /** Declare this uncompressed size instead of the real one (a lying header). */
  declaredSize?: number;
}

/** A zip archive of the members (local headers, data, central directory). */
export function zipBytes(members: ZipMember[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const name = Buffer.from(m.name, "utf8");
    const body = m.store ? m.data : zlib.deflateRawSync(m.data);
    const crc = zlib.crc32(m.data);
    const size = m.declaredSize ?? m.data.length;
    const method = m.store ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(0x0800, 8);
    cd.writeUInt16LE(method, 10);
    cd.writeUInt32LE(crc >>> 0, 16);
    cd.writeUInt32LE(body.length, 20);
    cd.writeUInt32LE(size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    parts.push(local, name, body);
    offset += local.length + name.length + body.length;
  }
  const cdBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cdBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cdBytes, end]);
}

export function writeZip(path: string, members: ZipMember[]): string {
  fs.writeFileSync(path, zipBytes(members));
  return path;
}

/** Gzips lines (or chunks of text) to a file, streamed. */
export async function writeGzip(path: string, chunks: Iterable<string> | AsyncIterable<string>): Promise<string> {
  await pipeline(Readable.from(chunks), zlib.createGzip({ level: 6 }), fs.createWriteStream(path));
  return path;
}

export function writeUtf16(path: string, text: string, endian: "le" | "be" = "le"): string {
  const body = Buffer.from(text, "utf16le");
  if (endian === "be") body.swap16();
  fs.writeFileSync(path, Buffer.concat([Buffer.from(endian === "le" ? [0xff, 0xfe] : [0xfe, 0xff]), body]));
  return path;
}

export function writeWindows1252(path: string, text: string): string {
  fs.writeFileSync(path, iconv.encode(text, "win1252"));
  return path;
}

export type XlsxCell = string | number | Date | boolean | null | { formula: string; result: string | number };

export interface XlsxSheet {
  name: string;
  rows: Iterable<XlsxCell[]>;
  /** Number formats by column (0-based), e.g. { 2: "(###) ###-####", 3: "m/d/yyyy" }. */
  formats?: Record<number, string>;
}

/** An .xlsx workbook written with exceljs's streaming writer (shared strings, styles). */
export async function writeXlsx(path: string, sheets: XlsxSheet[]): Promise<string> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: true });
  for (const s of sheets) {
    const ws = wb.addWorksheet(s.name);
    for (const cells of s.rows) {
      const row = ws.addRow(cells as ExcelJS.CellValue[]);
      for (const [col, fmt] of Object.entries(s.formats ?? {})) row.getCell(Number(col) + 1).numFmt = fmt;
      row.commit();
    }
    ws.commit();
  }
  await wb.commit();
  return path;
}

/** The start of an OLE compound file whose directory names the given streams (enough for detection). */
export function writeOle(path: string, streams: string[]): string {
  const sector = 512;
  const buf = Buffer.alloc(sector * 3);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(buf, 0);
  buf.writeUInt16LE(0x003e, 0x18);
  buf.writeUInt16LE(3, 0x1a);
  buf.writeUInt16LE(0xfffe, 0x1c);
  buf.writeUInt16LE(9, 0x1e);
  buf.writeUInt32LE(0, 0x30); // directory in sector 0 (file offset 512)
  ["Root Entry", ...streams].slice(0, 4).forEach((name, i) => {
    const off = sector + i * 128;
    const n = Buffer.from(name + "\0", "utf16le");
    n.copy(buf, off);
    buf.writeUInt16LE(n.length, off + 64);
  });
  fs.writeFileSync(path, buf);
  return path;
}

/** Parts of a hand-written workbook (hostile cases: any XML at all in the sheet, shared strings or styles). */
export interface RawXlsxParts {
  sheet: string | Buffer;
  sharedStrings?: string | Buffer;
  styles?: string;
  /** Store the parts without compression (default: deflate). */
  store?: boolean;
}

/** A minimal .xlsx around the given XML parts (workbook, relationships and content types written here). */
export function rawXlsxBytes(parts: RawXlsxParts): Buffer {
  const rels = [
    `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`,
    parts.sharedStrings !== undefined
      ? `<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`
      : "",
    parts.styles !== undefined
      ? `<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>`
      : "",
  ].join("");
  const members: ZipMember[] = [
    { name: "[Content_Types].xml", data: Buffer.from(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`) },
    {
      name: "xl/workbook.xml",
      data: Buffer.from(
        `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: Buffer.from(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`),
    },
    { name: "xl/worksheets/sheet1.xml", data: Buffer.from(parts.sheet) },
  ];
  if (parts.sharedStrings !== undefined) members.push({ name: "xl/sharedStrings.xml", data: Buffer.from(parts.sharedStrings) });
  if (parts.styles !== undefined) members.push({ name: "xl/styles.xml", data: Buffer.from(parts.styles) });
  return zipBytes(members.map((m) => ({ ...m, store: parts.store })));
}

export function writeRawXlsx(path: string, parts: RawXlsxParts): string {
  fs.writeFileSync(path, rawXlsxBytes(parts));
  return path;
}

/** A sheet's XML around rows of cells given as [ref, inner XML, type]. */
export function sheetXml(rows: string[]): string {
  return `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join("")}</sheetData></worksheet>`;
}

/**
 * A gzip bomb without the time to compress it: one gzip member of `member` bytes of `line` repeated, written
 * `copies` times (gzip readers read concatenated members as one stream).
 */
export function writeGzipBomb(path: string, line: string, memberBytes: number, copies: number, head = "phone\n"): string {
  const text = Buffer.from(line.repeat(Math.ceil(memberBytes / line.length)));
  const member = zlib.gzipSync(text, { level: 9 });
  const fd = fs.openSync(path, "w");
  try {
    fs.writeSync(fd, zlib.gzipSync(Buffer.from(head)));
    for (let i = 0; i < copies; i++) fs.writeSync(fd, member);
  } finally {
    fs.closeSync(fd);
  }
  return path;
}
