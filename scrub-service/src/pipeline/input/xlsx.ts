/**
 * An .xlsx workbook as UTF-8 CSV bytes, streamed: the zip's parts are opened in the order the conversion
 * needs them (workbook, relationships, styles, shared strings, then the one sheet), so nothing is spooled to
 * disk, and the sheet's XML is parsed (saxes, SAX) as it is inflated. exceljs's streaming reader was not
 * used because it copies every sheet to a temporary file when the shared strings come after the sheets,
 * which is the order Excel writes them in (docs/decisions/105). Only the shared-string table is held in memory,
 * packed and capped; every number the file states (a column letter, a row number, a count, a length) is checked
 * against the limits in limits.ts before anything is sized from it (docs/decisions/150).
 */
import { StringDecoder } from "node:string_decoder";
import type { SaxesParser, SaxesTagPlain } from "saxes";
import { BUILTIN_FORMATS, csvField, formatExcelNumber } from "../../worker/excel-format";
import { InputFormatError, reasonText, sizeText } from "./errors";
import { memberStream, memberText, openZip, type ZipArchive } from "./zip";
import {
  EXCEL_MAX_CELL_CHARS,
  EXCEL_MAX_COLUMNS,
  EXCEL_MAX_ROWS,
  MAX_CELL_FORMATS,
  MAX_WORKBOOK_PART_BYTES,
  MAX_XML_SPAN_BYTES,
  maxColumns,
  maxSharedStringBytes,
  maxSharedStrings,
} from "./limits";
import { SharedStrings } from "./shared-strings";

/** saxes, loaded with the first workbook (not by every process that might read one): see openWorkbook. */
let saxes: typeof import("saxes") | null = null;

/** Opens a workbook's zip; every use of the XML parser below comes after it. */
async function openWorkbook(path: string): Promise<ZipArchive> {
  saxes ??= await import("saxes");
  return openZip(path);
}

const newParser = (): SaxesParser => new saxes!.SaxesParser();

export interface WorkbookInfo {
  sheets: string[];
  /** The sheet read (the first unless one was asked for). */
  sheet: string;
}

interface Workbook {
  sheets: { name: string; path: string }[];
  date1904: boolean;
  stylesPath: string | null;
  sharedStringsPath: string | null;
}

function damaged(what: string): InputFormatError {
  return new InputFormatError(`The Excel file is damaged or not a real workbook: ${what}. Open it in Excel and save it again.`);
}

/**
 * Counts the XML taken in since the parser last reached a tag: the parser holds a text node, a tag or an
 * attribute whole until it ends, so a span longer than MAX_XML_SPAN_BYTES is refused before it grows.
 */
class XmlSpan {
  private since = 0;
  constructor(private readonly part: string) {}
  tag(): void {
    this.since = 0;
  }
  add(bytes: number): void {
    this.since += bytes;
    if (this.since > MAX_XML_SPAN_BYTES) throw damaged(`${this.part} holds a text or tag longer than ${sizeText(MAX_XML_SPAN_BYTES)}`);
  }
}

/** Writes text to a parser in 64 KiB pieces, each counted by `span`. */
function writeCounted(p: SaxesParser, text: string, span: XmlSpan): void {
  for (let i = 0; i < text.length; i += 65_536) {
    const piece = text.slice(i, i + 65_536);
    span.add(piece.length);
    p.write(piece);
  }
}

function parseXml(text: string, part: string, onOpen: (tag: SaxesTagPlain) => void): void {
  const p = newParser();
  const span = new XmlSpan(part);
  p.on("opentag", (t) => {
    span.tag();
    onOpen(t);
  });
  p.on("closetag", () => span.tag());
  try {
    writeCounted(p, text, span);
    p.close();
  } catch (e) {
    if (e instanceof InputFormatError) throw e;
    throw damaged(`${part}: ${reasonText(e)}`);
  }
}

function resolvePart(target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = `xl/${target}`.split("/");
  const out: string[] = [];
  for (const s of parts) {
    if (s === "..") out.pop();
    else if (s !== ".") out.push(s);
  }
  return out.join("/");
}

function entry(a: ZipArchive, name: string) {
  return a.files.find((f) => f.fileName === name) ?? null;
}

async function readWorkbook(a: ZipArchive): Promise<Workbook> {
  const wb = entry(a, "xl/workbook.xml");
  const rels = entry(a, "xl/_rels/workbook.xml.rels");
  if (!wb || !rels) throw new InputFormatError("The Excel file is damaged: it has no workbook part. Open it in Excel and save it again.");
  const targets = new Map<string, { type: string; target: string }>();
  parseXml(await memberText(a, rels, MAX_WORKBOOK_PART_BYTES), rels.fileName, (t) => {
    if (t.name === "Relationship") targets.set(String(t.attributes.Id), { type: String(t.attributes.Type ?? ""), target: String(t.attributes.Target ?? "") });
  });
  const sheets: Workbook["sheets"] = [];
  let date1904 = false;
  parseXml(await memberText(a, wb, MAX_WORKBOOK_PART_BYTES), wb.fileName, (t) => {
    if (t.name === "workbookPr") date1904 = ["1", "true"].includes(String(t.attributes.date1904 ?? ""));
    if (t.name === "sheet") {
      const rel = targets.get(String(t.attributes["r:id"] ?? ""));
      if (rel) sheets.push({ name: String(t.attributes.name ?? ""), path: resolvePart(rel.target) });
    }
  });
  const ofType = (suffix: string) => {
    for (const r of targets.values()) if (r.type.endsWith(suffix)) return resolvePart(r.target);
    return null;
  };
  return { sheets, date1904, stylesPath: ofType("/styles"), sharedStringsPath: ofType("/sharedStrings") };
}

/** Each cell style's number format (index = the cell's `s` attribute), at most MAX_CELL_FORMATS. */
async function readStyles(a: ZipArchive, path: string | null): Promise<(string | undefined)[]> {
  const part = path ? entry(a, path) : null;
  if (!part) return [];
  const custom = new Map<number, string>();
  const xfs: (string | undefined)[] = [];
  let inCellXfs = false;
  const p = newParser();
  const span = new XmlSpan(part.fileName);
  p.on("opentag", (t) => {
    span.tag();
    if (t.name === "numFmt") {
      if (custom.size >= MAX_CELL_FORMATS) throw damaged(`its styles define more than ${MAX_CELL_FORMATS.toLocaleString("en-US")} number formats`);
      custom.set(Number(t.attributes.numFmtId), String(t.attributes.formatCode ?? "").slice(0, 255));
    } else if (t.name === "cellXfs") inCellXfs = true;
    else if (t.name === "xf" && inCellXfs) {
      if (xfs.length >= MAX_CELL_FORMATS) throw damaged(`its styles define more than ${MAX_CELL_FORMATS.toLocaleString("en-US")} cell formats`);
      const id = Number(t.attributes.numFmtId ?? 0);
      xfs.push(custom.get(id) ?? BUILTIN_FORMATS[id]);
    }
  });
  p.on("closetag", (t) => {
    span.tag();
    if (t.name === "cellXfs") inCellXfs = false;
  });
  try {
    writeCounted(p, await memberText(a, part, MAX_WORKBOOK_PART_BYTES), span);
    p.close();
  } catch (e) {
    if (e instanceof InputFormatError) throw e;
    throw damaged(`${part.fileName}: ${reasonText(e)}`);
  }
  return xfs;
}

/** Feeds a member's XML to a SAX parser chunk by chunk; `after` runs after each chunk (to hand out rows). */
async function* parseMember(
  a: ZipArchive,
  path: string,
  p: SaxesParser,
  span: XmlSpan,
  after: () => Buffer | null,
  progress?: XlsxProgress,
): AsyncGenerator<Buffer> {
  const part = entry(a, path);
  if (!part) return;
  const decoder = new StringDecoder("utf8");
  try {
    for await (const chunk of await memberStream(a, part)) {
      writeCounted(p, decoder.write(chunk as Buffer), span);
      if (progress) progress.done += (chunk as Buffer).length;
      const out = after();
      if (out) yield out;
    }
    p.write(decoder.end()).close();
  } catch (e) {
    if (e instanceof InputFormatError) throw e;
    throw new InputFormatError(`The Excel file is damaged (${path}: ${reasonText(e)}). Open it in Excel and save it again.`);
  }
  const out = after();
  if (out) yield out;
}

/**
 * The shared-string table, packed (see SharedStrings) and refused past maxSharedStrings() strings,
 * maxSharedStringBytes() bytes or a string longer than Excel's cell limit: as soon as the count the part declares
 * (`uniqueCount`) or the strings read pass a limit, before any more is kept.
 */
async function readSharedStrings(a: ZipArchive, path: string | null): Promise<SharedStrings> {
  const strings = new SharedStrings();
  if (!path) return strings;
  const maxCount = maxSharedStrings();
  const maxBytes = maxSharedStringBytes();
  const tooMany = (n: string) =>
    new InputFormatError(
      `The Excel file holds ${n} different texts; at most ${maxCount.toLocaleString("en-US")} (${sizeText(maxBytes)} in all) can be read. ` +
        "Save the sheet as CSV UTF-8 and upload that.",
    );
  let cur = "";
  let inT = false;
  let inPhonetic = false;
  const p = newParser();
  const span = new XmlSpan(path);
  p.on("opentag", (t) => {
    span.tag();
    if (t.name === "si") cur = "";
    else if (t.name === "t" && !inPhonetic) inT = true;
    else if (t.name === "rPh") inPhonetic = true;
    else if (t.name === "sst") {
      const declared = Number(t.attributes.uniqueCount ?? 0);
      if (Number.isFinite(declared) && declared > maxCount) throw tooMany(`${declared.toLocaleString("en-US")} (as it declares)`);
    }
  });
  p.on("text", (s) => {
    if (!inT) return;
    cur += s;
    if (cur.length > EXCEL_MAX_CELL_CHARS) throw damaged(`a text is longer than Excel's ${EXCEL_MAX_CELL_CHARS.toLocaleString("en-US")} characters per cell`);
  });
  p.on("closetag", (t) => {
    span.tag();
    if (t.name === "t") inT = false;
    else if (t.name === "rPh") inPhonetic = false;
    else if (t.name === "si") {
      if (strings.count >= maxCount || strings.bytes + Buffer.byteLength(cur) > maxBytes) throw tooMany(`more than ${strings.count.toLocaleString("en-US")}`);
      strings.push(cur);
      cur = "";
    }
  });
  for await (const _ of parseMember(a, path, p, span, () => null)) void _;
  return strings;
}

/** A reference from the file, shortened for a message. */
function quoteRef(r: unknown): string {
  const s = String(r);
  return JSON.stringify(s.length > 20 ? `${s.slice(0, 20)}…` : s);
}

/** A cell reference's column (A = 0), or -1 past XFD; stops at the row digits. */
export function columnIndex(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
    if (n > EXCEL_MAX_COLUMNS) return -1;
  }
  return n - 1;
}

/** A cell reference's row number (1-based), or 0 without one, or -1 past Excel's last row. */
export function rowOfRef(ref: string): number {
  let i = 0;
  while (i < ref.length && ref.charCodeAt(i) >= 65 && ref.charCodeAt(i) <= 90) i++;
  if (i === ref.length) return 0;
  const digits = ref.slice(i);
  if (!/^[0-9]{1,7}$/.test(digits)) return -1;
  const n = Number(digits);
  return n >= 1 && n <= EXCEL_MAX_ROWS ? n : -1;
}

/** The sheet names and the chosen sheet, without reading any rows (for the column step). */
export async function workbookInfo(path: string, sheet?: string | null): Promise<WorkbookInfo> {
  const a = await openWorkbook(path);
  try {
    const wb = await readWorkbook(a);
    return { sheets: wb.sheets.map((s) => s.name), sheet: chooseSheet(wb, sheet).name };
  } finally {
    a.zip.close();
  }
}

function chooseSheet(wb: Workbook, sheet?: string | null): Workbook["sheets"][number] {
  if (!wb.sheets.length) throw new InputFormatError("The Excel file has no worksheets.");
  if (!sheet) return wb.sheets[0];
  const s = wb.sheets.find((x) => x.name === sheet);
  if (!s) throw new InputFormatError(`The workbook has no sheet named "${sheet}" (its sheets: ${wb.sheets.map((x) => x.name).join(", ")}).`);
  return s;
}

/** Bytes of the sheet part inflated so far / its size (progress). */
export interface XlsxProgress {
  done: number;
  total: number;
}

/**
 * The chosen sheet as CSV rows (RFC 4180 quoting, LF line ends), in chunks of about 64 KB. Each row has at
 * least as many fields as the first row; cells show what Excel shows (formats applied, no E-notation).
 */
export async function* xlsxAsCsv(path: string, sheet?: string | null, progress?: XlsxProgress): AsyncGenerator<Buffer> {
  const a = await openWorkbook(path);
  try {
    const wb = await readWorkbook(a);
    const chosen = chooseSheet(wb, sheet);
    const formats = await readStyles(a, wb.stylesPath);
    const shared = await readSharedStrings(a, wb.sharedStringsPath);
    const part = entry(a, chosen.path);
    if (!part) throw new InputFormatError(`The Excel file is damaged: sheet "${chosen.name}" is missing. Open it in Excel and save it again.`);
    if (progress) progress.total = part.uncompressedSize;

    let out = "";
    let width = -1;
    let cells: string[] = [];
    let col = 0;
    let rows = 0;
    let type = "";
    let style = -1;
    let value = "";
    let inValue = false;
    let inInline = false;
    const columnLimit = Math.min(maxColumns(), EXCEL_MAX_COLUMNS);
    const span = new XmlSpan(chosen.path);
    const p = newParser();
    p.on("opentag", (t) => {
      span.tag();
      switch (t.name) {
        case "row": {
          cells = [];
          col = 0;
          const r = t.attributes.r;
          if (r != null && rowOfRef(String(r)) < 0)
            throw damaged(`a row is numbered ${quoteRef(r)}, past Excel's last row (${EXCEL_MAX_ROWS.toLocaleString("en-US")})`);
          if (++rows > EXCEL_MAX_ROWS) throw damaged(`the sheet has more than Excel's ${EXCEL_MAX_ROWS.toLocaleString("en-US")} rows`);
          break;
        }
        case "c": {
          const r = t.attributes.r;
          if (r != null) {
            const ref = String(r);
            col = columnIndex(ref);
            if (col < 0 || rowOfRef(ref) < 0)
              throw damaged(`a cell is at ${quoteRef(ref)}, outside Excel's sheet (columns A to XFD, rows 1 to ${EXCEL_MAX_ROWS.toLocaleString("en-US")})`);
          }
          if (col >= columnLimit)
            throw new InputFormatError(
              `This file has a cell in column ${col + 1 > EXCEL_MAX_COLUMNS ? "past XFD" : (col + 1).toLocaleString("en-US")}; at most ${columnLimit.toLocaleString("en-US")} columns are supported.`,
            );
          type = String(t.attributes.t ?? "n");
          style = t.attributes.s != null ? Number(t.attributes.s) : -1;
          value = "";
          break;
        }
        case "v":
          inValue = true;
          break;
        case "is":
          inInline = true;
          break;
        case "t":
          if (inInline) inValue = true;
          break;
      }
    });
    p.on("text", (s) => {
      if (!inValue) return;
      value += s;
      if (value.length > EXCEL_MAX_CELL_CHARS) throw damaged(`a cell is longer than Excel's ${EXCEL_MAX_CELL_CHARS.toLocaleString("en-US")} characters`);
    });
    p.on("closetag", (t) => {
      span.tag();
      switch (t.name) {
        case "v":
        case "t":
          inValue = false;
          break;
        case "is":
          inInline = false;
          break;
        case "c":
          while (cells.length < col) cells.push("");
          cells[col] = cellText(type, value, formats[style], shared, wb.date1904);
          col++;
          break;
        case "row": {
          if (width < 0) width = cells.length;
          while (cells.length < width) cells.push("");
          if (cells.some((c) => c !== "")) out += cells.map(csvField).join(",") + "\n";
          break;
        }
      }
    });
    const take = () => {
      if (out.length < 64 * 1024) return null;
      const b = Buffer.from(out, "utf8");
      out = "";
      return b;
    };
    yield* parseMember(a, chosen.path, p, span, take, progress);
    if (out) yield Buffer.from(out, "utf8");
  } finally {
    a.zip.close();
  }
}

function cellText(type: string, raw: string, format: string | undefined, shared: SharedStrings, date1904: boolean): string {
  switch (type) {
    case "s":
      return shared.get(Number(raw));
    case "inlineStr":
    case "str":
    case "d":
      return raw;
    case "b":
      return raw === "1" ? "TRUE" : raw === "0" ? "FALSE" : raw;
    case "e":
      return raw;
    default: {
      if (raw === "") return "";
      const n = Number(raw);
      return Number.isFinite(n) ? formatExcelNumber(n, format, date1904) : raw;
    }
  }
}
