/**
 * The fast CSV path (pure CPU, no I/O; Buffer only for its native byte search): row boundaries, field parsing of a batch, output rows.
 *
 * Dialect (one definition for the splitter, the parser, the preview and the loader):
 * - rows end at LF or CRLF outside quotes; empty lines are skipped; a UTF-8 BOM at the file start is skipped;
 * - a field is quoted when its first byte is `"`; inside, `""` is a quote; bytes after the closing quote up
 *   to the delimiter are kept as part of the field; a `"` inside an unquoted field is a plain character;
 * - an unterminated quoted field runs to the end of the file;
 * - the delimiter is detected from the first row: the most frequent of , ; TAB | outside quotes (default ,).
 */
import { exchangeIndex } from "../calling/class-index";
import { CODE_EMPTY, inService, invalidReasonText, normalizeBytes, normalizeCode, tenDigitsAt } from "../numbers/normalize";

export const LF = 10;
export const CR = 13;
export const QUOTE = 34;

const PHONE_HEADER = /phone|number|mobile|cell|tel/i;

/** First header matching phone, number, mobile, cell or tel (case-insensitive), else the first; null if none. */
export function defaultPhoneColumn(headers: readonly string[]): string | null {
  return headers.find((h) => PHONE_HEADER.test(h)) ?? headers[0] ?? null;
}

const CANDIDATES = [44, 59, 9, 124]; // , ; TAB |

/** Detects the delimiter byte from the first row of the file (bytes from start up to the first row end). */
export function detectDelimiter(buf: Uint8Array, start: number, end: number): number {
  const counts = [0, 0, 0, 0];
  let inQuotes = false;
  let fieldStart = true;
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (inQuotes) {
      if (c === QUOTE) {
        if (i + 1 < end && buf[i + 1] === QUOTE) i++;
        else inQuotes = false;
      }
      continue;
    }
    if (c === LF) break;
    if (c === QUOTE && fieldStart) {
      inQuotes = true;
      fieldStart = false;
      continue;
    }
    const k = CANDIDATES.indexOf(c);
    if (k >= 0) {
      counts[k]++;
    }
    fieldStart = false;
    // A candidate delimiter starts a field for the purpose of quote detection.
    if (k >= 0) fieldStart = true;
  }
  let best = 0;
  for (let k = 1; k < 4; k++) if (counts[k] > counts[best]) best = k;
  return CANDIDATES[best];
}

/**
 * Index just past the quote closing a quoted field whose content starts at `i`, or -1 when buf[, end) ends
 * first. A quote as the last byte is ambiguous (`""` or a close) unless `atEnd` says nothing follows.
 */
function pastQuoted(buf: Uint8Array, i: number, end: number, atEnd: boolean): number {
  for (;;) {
    while (i < end && buf[i] !== QUOTE) i++;
    if (i >= end) return -1;
    if (i + 1 >= end) return atEnd ? i + 1 : -1;
    if (buf[i + 1] !== QUOTE) return i + 1;
    i += 2;
  }
}

/**
 * Index just past the LF that ends the row starting at `i`, or -1 if the row does not end before `end`
 * (it continues in the next chunk). A final row without LF at end of file is handled by the caller.
 */
export function scanRowEnd(buf: Uint8Array, i: number, end: number, delim: number): number {
  let fieldStart = true;
  while (i < end) {
    const c = buf[i];
    if (fieldStart && c === QUOTE) {
      i = pastQuoted(buf, i + 1, end, false);
      if (i < 0) return -1;
      fieldStart = false;
      continue;
    }
    if (c === LF) return i + 1;
    fieldStart = c === delim;
    i++;
  }
  return -1;
}

/**
 * Whether the last record of a file, buf[start, end) (a row start to the end of the input), leaves a quoted
 * field open: a quote that is never closed would otherwise swallow every later line into one cell.
 */
export function quoteLeftOpen(buf: Uint8Array, start: number, end: number, delim: number): boolean {
  let fieldStart = true;
  let i = start;
  while (i < end) {
    const c = buf[i];
    if (fieldStart && c === QUOTE) {
      i = pastQuoted(buf, i + 1, end, true);
      if (i < 0) return true;
      fieldStart = false;
      continue;
    }
    fieldStart = c === delim || c === LF;
    i++;
  }
  return false;
}

/**
 * End (exclusive) of the last complete row in buf[start, end): the batch boundary. `start` must be a row start.
 * Returns start when not even one row is complete.
 */
export function lastRowBoundary(buf: Uint8Array, start: number, end: number, delim: number): number {
  // Fast path (native scans): no quote in the range, so every LF ends a row. Buffer's indexOf is memchr
  // (~0.07 ns/byte here); Uint8Array's is a plain loop (~1.6 ns/byte: 0.8 s of a 10M-row scrub).
  const range = Buffer.from(buf.buffer, buf.byteOffset + start, end - start);
  if (range.indexOf(QUOTE) < 0) {
    const lf = range.lastIndexOf(LF);
    return lf < 0 ? start : start + lf + 1;
  }
  let pos = start;
  let last = start;
  while (pos < end) {
    const next = scanRowEnd(buf, pos, end, delim);
    if (next < 0) break;
    last = next;
    pos = next;
  }
  return last;
}

/** Bytes a spreadsheet treats as the start of a formula: OWASP's = + - @ TAB CR, ASVS 1.2.10's NUL, and LF. */
function isDangerousStart(c: number): boolean {
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === CR || c === LF || c === 0; // = + - @ TAB CR LF NUL
}

/**
 * A plain number after its sign: digits with at most one decimal point (`-12.5`, `+15551234567`, `-.5`). Only
 * these are left as they are (a spreadsheet reads them as the number they show); anything else after + or -
 * (`-2+3`, `+1 212 555 2104`, `-`) is escaped, by OWASP's rule (docs/decisions/154).
 */
function isPlainNumber(buf: Uint8Array, s: number, e: number): boolean {
  let digits = 0;
  let points = 0;
  for (let i = s + 1; i < e; i++) {
    const c = buf[i];
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && ++points === 1) continue;
    else return false;
  }
  return digits > 0;
}

/** Whether a field's content bytes [s, e) need the formula-injection escape. */
export function needsEscape(buf: Uint8Array, s: number, e: number): boolean {
  if (s >= e) return false;
  const c = buf[s];
  if (!isDangerousStart(c)) return false;
  if ((c === 43 || c === 45) && isPlainNumber(buf, s, e)) return false;
  return true;
}

/** Per-row results of parsing a batch. */
export interface ParsedRows {
  count: number;
  /** Byte offsets of each row in the batch; end excludes the line terminator. */
  rowStart: Uint32Array;
  rowEnd: Uint32Array;
  /** Normalized number, or a negative invalid code (see normalize.ts). */
  codes: Float64Array;
  /** Fields in the row (for padding short rows). */
  fields: Uint32Array;
  /** 1 when a field needs the formula-injection escape. */
  escape: Uint8Array;
}

/**
 * Parses the rows of buf[start, end) (start is a row start, end a row end or end of file): row bounds,
 * the phone column's normalized code, field counts, escape flags.
 */
export function parseRows(
  buf: Uint8Array,
  start: number,
  end: number,
  delim: number,
  phoneCol: number,
  /** Reused memory for the results (see rowsMemBytes); a new block is allocated when it is too small. */
  mem?: SharedArrayBuffer,
): ParsedRows {
  if (end > start && buf[end - 1] === LF) {
    const range = Buffer.from(buf.buffer, buf.byteOffset + start, end - start);
    if (range.indexOf(QUOTE) < 0 && range.indexOf(CR) < 0) return parsePlainRows(buf, start, end, delim, phoneCol, mem);
  }
  return parseRowsGeneral(buf, start, end, delim, phoneCol, mem);
}

/**
 * parseRows's `codes` and `count` alone, for a list file (a list load keeps the numbers, not the rows): the same code
 * for every row. On a plain batch (see parseRows) a line of exactly ten digits with the phone in the first field —
 * how registries and most list files hold numbers — is read in one step, without finding its fields or keeping its
 * row (~1/3 of parseRows's time on a 20M-number file); any other line is read as parsePlainRows reads it. `mem`: room
 * for the codes (8 bytes a row), reused when big enough. `invalid`: how many codes are not numbers (< 0).
 */
export function parseCodes(
  buf: Uint8Array,
  start: number,
  end: number,
  delim: number,
  phoneCol: number,
  mem?: SharedArrayBuffer,
): { count: number; codes: Float64Array; invalid: number } {
  const plain = end > start && buf[end - 1] === LF && !hasByte(buf, start, end, QUOTE) && !hasByte(buf, start, end, CR);
  if (!plain) {
    const rows = parseRows(buf, start, end, delim, phoneCol, mem);
    let invalid = 0;
    for (let r = 0; r < rows.count; r++) if (rows.codes[r] < 0) invalid++;
    return { count: rows.count, codes: rows.codes, invalid };
  }
  const want = rowsCapacity(end - start);
  const block = mem && mem.byteLength >= want * 8 ? mem : new SharedArrayBuffer(want * 8);
  let codes = new Float64Array(block, 0, Math.floor(block.byteLength / 8));
  let n = 0;
  let invalid = 0;
  let i = start;
  const firstField = phoneCol === 0;
  while (i < end) {
    if (n === codes.length) {
      const grown = new Float64Array(new SharedArrayBuffer(codes.length * 16));
      grown.set(codes);
      codes = grown;
    }
    if (firstField && i + 10 < end && buf[i + 10] === LF) {
      // ten digits and LF: the number is its value when its exchange is in service (scanBytes's first test)
      const value = tenDigitsAt(buf, i);
      if (value >= 0) {
        const code = inService(value) ? value : normalizeBytes(buf, i, i + 10);
        codes[n++] = code;
        if (code < 0) invalid++;
        i += 11;
        continue;
      }
    }
    const rs = i;
    let field = 0;
    let code = CODE_EMPTY;
    let c = 0;
    for (;;) {
      const fs = i;
      while ((c = buf[i]) !== delim && c !== LF) i++;
      if (field === phoneCol) code = normalizeBytes(buf, fs, i);
      field++;
      if (c === LF) break;
      i++;
    }
    const re = i;
    i++;
    if (re === rs) continue; // an empty line is no row
    codes[n++] = code;
    if (code < 0) invalid++;
  }
  return { count: n, codes, invalid };
}

function hasByte(buf: Uint8Array, start: number, end: number, byte: number): boolean {
  return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).indexOf(byte) >= 0;
}

/** 1 for bytes a spreadsheet may read as the start of a formula (see needsEscape). */
const DANGEROUS_START = new Uint8Array(256);
for (const c of [61, 43, 45, 64, 9, CR, LF, 0]) DANGEROUS_START[c] = 1;

/**
 * parseRows for the common batch: no quote and no CR anywhere, and it ends with LF (checked natively by
 * the caller). Every field then ends at the next delimiter or LF, so one tight loop per field does; same
 * results as parseRowsGeneral (a test compares them), ~3× faster.
 */
function parsePlainRows(buf: Uint8Array, start: number, end: number, delim: number, phoneCol: number, mem?: SharedArrayBuffer): ParsedRows {
  let { codes, rowStart, rowEnd, fields, escape } = allocRows(rowsCapacity(end - start), mem);
  let cap = codes.length;
  // Fields are found four bytes at a time (see nextBreak) up to the last whole aligned word; bytewise after it.
  const words = LITTLE_ENDIAN && buf.byteOffset % 4 === 0 ? new Int32Array(buf.buffer, buf.byteOffset, buf.length >> 2) : null;
  const wordEnd = words ? Math.min(end, words.length * 4) : 0;
  const repeated = Math.imul(delim, 0x01010101);
  let n = 0;
  let i = start;
  while (i < end) {
    const rs = i;
    let field = 0;
    let code = CODE_EMPTY;
    let esc = 0;
    let c = 0;
    for (;;) {
      const fs = i;
      if (i < wordEnd) {
        i = nextBreak(words!, i, repeated, wordEnd);
        c = buf[i];
      } else {
        while ((c = buf[i]) !== delim && c !== LF) i++;
      }
      if (esc === 0 && i > fs && DANGEROUS_START[buf[fs]] === 1 && needsEscape(buf, fs, i)) esc = 1;
      if (field === phoneCol) code = normalizeBytes(buf, fs, i);
      field++;
      if (c === LF) break;
      i++;
    }
    const re = i;
    i++;
    if (re === rs) continue; // empty line
    if (n === cap) {
      ({ codes, rowStart, rowEnd, fields, escape } = growRows({ codes, rowStart, rowEnd, fields, escape }));
      cap *= 2;
    }
    rowStart[n] = rs;
    rowEnd[n] = re;
    codes[n] = code;
    fields[n] = field;
    escape[n] = esc;
    n++;
  }
  return { count: n, rowStart, rowEnd, codes, fields, escape };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const LF4 = 0x0a0a0a0a;

/** Bit 7 of each byte of `x` that is zero (exact: no borrow runs from one byte into the next). */
function zeroBytes(x: number): number {
  return ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | 0 | x | 0x7f7f7f7f);
}

/**
 * Index of the first delimiter (`repeated` is it in every byte) or LF at or after i, reading whole aligned
 * words: a field of the plain path costs a word test per four bytes instead of two per byte (the parse
 * workers' busiest loop). Bytewise from `wordEnd` on (a row's LF before it stops the scan there).
 */
function nextBreak(words: Int32Array, i: number, repeated: number, wordEnd: number): number {
  let w = i >> 2;
  let v = words[w];
  // bytes of the first word before i do not count
  let m = (zeroBytes(v ^ repeated) | zeroBytes(v ^ LF4)) & (-1 << ((i & 3) << 3));
  while (m === 0) {
    if (++w * 4 >= wordEnd) {
      // the rest of the batch is not whole words: finish bytewise
      const bytes = new Uint8Array(words.buffer, words.byteOffset);
      const d = repeated & 0xff;
      let j = w * 4;
      while (bytes[j] !== d && bytes[j] !== LF) j++;
      return j;
    }
    v = words[w];
    m = zeroBytes(v ^ repeated) | zeroBytes(v ^ LF4);
  }
  return w * 4 + ((31 - Math.clz32(m & -m)) >> 3);
}

/** parseRows for any batch: quoted fields (with delimiters, quotes and line breaks inside), CRLF. */
export function parseRowsGeneral(buf: Uint8Array, start: number, end: number, delim: number, phoneCol: number, mem?: SharedArrayBuffer): ParsedRows {
  // One shared block (no copy when posted between threads): codes | rowStart | rowEnd | fields | escape.
  // Sized for rows of ~24 bytes; grown (rarely) when rows are shorter.
  let { codes, rowStart, rowEnd, fields, escape } = allocRows(rowsCapacity(end - start), mem);
  let cap = codes.length;
  let n = 0;
  let i = start;
  while (i < end) {
    const rs = i;
    let field = 0;
    let code = CODE_EMPTY;
    let esc = 0;
    let lineEnd = end; // position of LF or end
    for (;;) {
      // at a field start
      if (i < end && buf[i] === QUOTE) {
        const cs = i + 1;
        let j = cs;
        let closed = -1;
        for (;;) {
          while (j < end && buf[j] !== QUOTE) j++;
          if (j >= end) break;
          if (j + 1 < end && buf[j + 1] === QUOTE) {
            j += 2;
            continue;
          }
          closed = j;
          j++;
          break;
        }
        const ce = closed < 0 ? end : closed;
        // bytes after the closing quote belong to the field (lenient), up to delimiter or LF
        let k = closed < 0 ? end : closed + 1;
        const trailStart = k;
        while (k < end && buf[k] !== delim && buf[k] !== LF) k++;
        let trailEnd = k;
        if (k < end && buf[k] === LF && trailEnd > trailStart && buf[trailEnd - 1] === CR) trailEnd--;
        else if (k >= end && trailEnd > trailStart && buf[trailEnd - 1] === CR) trailEnd--;
        if (!esc && needsEscape(buf, cs, ce)) esc = 1;
        if (field === phoneCol) {
          if (trailEnd > trailStart || hasQuote(buf, cs, ce)) code = normalizeCode(unquote(buf, cs, ce) + decodeUtf8(buf, trailStart, trailEnd));
          else code = normalizeBytes(buf, cs, ce);
        }
        i = k;
      } else {
        const fs = i;
        while (i < end && buf[i] !== delim && buf[i] !== LF) i++;
        let fe = i;
        if ((i >= end || buf[i] === LF) && fe > fs && buf[fe - 1] === CR) fe--;
        if (!esc && needsEscape(buf, fs, fe)) esc = 1;
        if (field === phoneCol) code = normalizeBytes(buf, fs, fe);
      }
      field++;
      if (i >= end || buf[i] === LF) {
        lineEnd = i;
        break;
      }
      i++; // delimiter
    }
    let re = lineEnd;
    if (re > rs && buf[re - 1] === CR) re--;
    i = lineEnd + 1;
    if (re === rs) continue; // empty line
    if (n === cap) {
      ({ codes, rowStart, rowEnd, fields, escape } = growRows({ codes, rowStart, rowEnd, fields, escape }));
      cap *= 2;
    }
    rowStart[n] = rs;
    rowEnd[n] = re;
    codes[n] = code;
    fields[n] = field;
    escape[n] = esc;
    n++;
  }
  return { count: n, rowStart, rowEnd, codes, fields, escape };
}

const ROW_BYTES = 21;

/** Rows a batch of `bytes` is expected to hold at most (rows of ~24 bytes; parseRows grows past it). */
export function rowsCapacity(bytes: number): number {
  return Math.ceil(bytes / 24) + 16;
}

/** Bytes of the results block parseRows needs for a batch of `bytes`. */
export function rowsMemBytes(bytes: number): number {
  return rowsCapacity(bytes) * ROW_BYTES;
}

/** Rows shorter than expected: a block twice as big, holding the rows so far. */
function growRows(rows: ReturnType<typeof allocRows>): ReturnType<typeof allocRows> {
  const grown = allocRows(rows.codes.length * 2);
  grown.codes.set(rows.codes);
  grown.rowStart.set(rows.rowStart);
  grown.rowEnd.set(rows.rowEnd);
  grown.fields.set(rows.fields);
  grown.escape.set(rows.escape);
  return grown;
}

/** The results block for at least `cap` rows: `reuse` when it holds that many (then as many rows as it holds). */
function allocRows(cap: number, reuse?: SharedArrayBuffer) {
  const mem = reuse && reuse.byteLength >= cap * ROW_BYTES ? reuse : new SharedArrayBuffer(cap * ROW_BYTES);
  cap = Math.floor(mem.byteLength / ROW_BYTES);
  return {
    codes: new Float64Array(mem, 0, cap),
    rowStart: new Uint32Array(mem, cap * 8, cap),
    rowEnd: new Uint32Array(mem, cap * 12, cap),
    fields: new Uint32Array(mem, cap * 16, cap),
    escape: new Uint8Array(mem, cap * 20, cap),
  };
}

function hasQuote(buf: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (buf[i] === QUOTE) return true;
  return false;
}

/** Content of a quoted field (between the quotes) with "" → ", as a UTF-8 string. */
function unquote(buf: Uint8Array, s: number, e: number): string {
  return decodeUtf8(buf, s, e).replace(/""/g, '"');
}

const decoder = new TextDecoder("utf-8");
export function decodeUtf8(buf: Uint8Array, s: number, e: number): string {
  return decoder.decode(buf.subarray(s, e));
}

/** The cells of one row (quotes removed, UTF-8 decoded): header, preview, reference paths. */
export function splitCells(buf: Uint8Array, rs: number, re: number, delim: number): string[] {
  const cells: string[] = [];
  let i = rs;
  for (;;) {
    if (i < re && buf[i] === QUOTE) {
      const cs = i + 1;
      let j = cs;
      let closed = -1;
      for (;;) {
        while (j < re && buf[j] !== QUOTE) j++;
        if (j >= re) break;
        if (j + 1 < re && buf[j + 1] === QUOTE) {
          j += 2;
          continue;
        }
        closed = j;
        j++;
        break;
      }
      const ce = closed < 0 ? re : closed;
      let k = closed < 0 ? re : closed + 1;
      const ts = k;
      while (k < re && buf[k] !== delim) k++;
      cells.push(unquote(buf, cs, ce) + decodeUtf8(buf, ts, k));
      i = k;
    } else {
      const fs = i;
      while (i < re && buf[i] !== delim) i++;
      cells.push(decodeUtf8(buf, fs, i));
    }
    if (i >= re) break;
    i++;
  }
  return cells;
}

/** Writes the fields of row [rs, re) escaped against formula injection into out at o; returns the new o. */
function writeEscapedRow(buf: Uint8Array, rs: number, re: number, delim: number, out: Uint8Array, o: number): number {
  let i = rs;
  for (;;) {
    const fs = i;
    let cs: number;
    let ce: number;
    let quoted = false;
    if (i < re && buf[i] === QUOTE) {
      quoted = true;
      cs = i + 1;
      let j = cs;
      let closed = -1;
      for (;;) {
        while (j < re && buf[j] !== QUOTE) j++;
        if (j >= re) break;
        if (j + 1 < re && buf[j + 1] === QUOTE) {
          j += 2;
          continue;
        }
        closed = j;
        j++;
        break;
      }
      ce = closed < 0 ? re : closed;
      let k = closed < 0 ? re : closed + 1;
      while (k < re && buf[k] !== delim) k++;
      i = k;
    } else {
      while (i < re && buf[i] !== delim) i++;
      cs = fs;
      ce = i;
    }
    if (needsEscape(buf, cs, ce)) {
      // "'<content>" with quotes doubled (a quoted field's content is already doubled)
      out[o++] = QUOTE;
      out[o++] = 39;
      if (quoted) {
        // content up to the closing quote, then any trailing bytes (doubling their quotes)
        for (let p = cs; p < ce; p++) out[o++] = buf[p];
        const trail = ce < re && buf[ce] === QUOTE ? ce + 1 : ce;
        for (let p = trail; p < i; p++) {
          out[o++] = buf[p];
          if (buf[p] === QUOTE) out[o++] = QUOTE;
        }
      } else {
        for (let p = cs; p < ce; p++) {
          out[o++] = buf[p];
          if (buf[p] === QUOTE) out[o++] = QUOTE;
        }
      }
      out[o++] = QUOTE;
    } else {
      for (let p = fs; p < i; p++) out[o++] = buf[p];
    }
    if (i >= re) break;
    out[o++] = delim;
    i++;
  }
  return o;
}

/** Row classes (phase 2): 0 good, 1 bad, 2 invalid. */
export const CLASS_GOOD = 0;
export const CLASS_BAD = 1;
export const CLASS_INVALID = 2;

export interface EmitInput {
  rows: ParsedRows;
  /** Per row: 0 good, 1 bad, 2 invalid. */
  classes: Uint8Array;
  /** Per row reason text index into `reasons` (bad and invalid only). */
  reasonIdx: Uint8Array;
  reasons: readonly string[];
  delim: number;
  /** Header width: short bad/invalid rows are padded so `reason` is the last cell. */
  width: number;
  /** End of the batch in buf (rows at or past it are never copied with their terminator). */
  end?: number;
  /** Invalid rows get the customer's sentence for their code (invalidReasonText) instead of reasons[reasonIdx]. */
  describeInvalid?: boolean;
  /** Cells appended to every good row after the file's own (the calling-window columns). */
  goodSuffixes?: GoodSuffixes;
  /** The `exemption` cell appended to every good row, after the calling columns (decision 161). */
  goodNotes?: GoodNotes;
  /**
   * The `phone_e164` cell after the file's own cells (padded to the header's width) on every row (decision 184):
   * `+1` and the ten digits of the row's code on good and bad rows, empty on invalid ones. Written from the code with
   * integer arithmetic (no string per row).
   */
  phoneE164?: boolean;
  /** The `exemption` cell appended to every bad row after `reason`: why a record did not apply (decision 184). */
  badNotes?: GoodNotes;
  /** With the calling columns, the calls counted (decision 191): see CallCells. */
  callCells?: CallCells;
}

/**
 * The calls of each good row's number (decision 191): its calls_24h and calls_7d cells after calling_note, and, for
 * a number a frequency cap holds, its own calling cells in place of its class's (such a row is not counted in its
 * class: the caller counts it). Cells are quoted for the file's delimiter and start with it.
 */
export interface CallCells {
  /** Per row an index into `counts` (0: `,0,0`, no record). */
  rowCounts: Uint32Array;
  counts: string[];
  /** Per row an index into `calling` (0: the class's cells). */
  rowCalling: Uint32Array;
  calling: string[];
}

/** Per row an index into `notes` (0: the empty cell); the cells are quoted for the file's delimiter already. */
export interface GoodNotes {
  rowNote: Uint32Array;
  notes: string[];
}

/**
 * The cells appended to good rows, one byte string per class of number (each starts with the delimiter), and
 * the class of each exchange. Shared memory: made once per scrub, read by every emit.
 */
export interface GoodSuffixes {
  /** Class per exchange, index (NPA-200)·800 + (NXX-200) (calling/class-index.ts). */
  classOf: Uint16Array;
  bytes: Uint8Array;
  /** Class i's bytes are bytes[starts[i], starts[i + 1]). */
  starts: Uint32Array;
  /** Good rows per class: the emit adds this batch's (a fresh shared array per batch). */
  counts: Uint32Array;
  /**
   * Per row, 1: read the row's cells from its class without emergency periods (`baseOf`), its exemption record
   * meeting the statute's exceptions (decision 181). Absent when no row is.
   */
  rowBase?: Uint8Array;
  baseOf?: Uint16Array;
}

const encoder = new TextEncoder();
/** Bytes of reason texts, encoded once per thread (a batch's bad and invalid rows share a few dozen). */
const reasonBytesCache = new Map<string, Uint8Array>();
/** Bytes of invalid rows' sentences by code (a code's detail names an area code, exchange or digit count). */
const sentenceBytesCache = new Map<number, Uint8Array>();

function reasonBytes(text: string): Uint8Array {
  let b = reasonBytesCache.get(text);
  if (!b) {
    if (reasonBytesCache.size >= 4096) reasonBytesCache.clear();
    reasonBytesCache.set(text, (b = encoder.encode(text)));
  }
  return b;
}

function sentenceBytes(code: number): Uint8Array {
  let b = sentenceBytesCache.get(code);
  if (!b) {
    if (sentenceBytesCache.size >= 4096) sentenceBytesCache.clear();
    sentenceBytesCache.set(code, (b = encoder.encode(invalidReasonText(code))));
  }
  return b;
}

/** "00" … "99": two digits' bytes per index (the phone_e164 cell writes a number two digits at a time). */
const DIGIT_PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  DIGIT_PAIRS[2 * i] = 48 + ((i / 10) | 0);
  DIGIT_PAIRS[2 * i + 1] = 48 + (i % 10);
}

/** Bytes of the phone_e164 cell with its delimiter: 1 + `+1` + ten digits. */
export const E164_CELL_BYTES = 13;

/** Five digits of x (0 <= x < 100000) at o; returns o + 5. */
function putFiveDigits(out: Uint8Array, o: number, x: number): number {
  const a = (x / 10_000) | 0;
  out[o] = 48 + a;
  x -= a * 10_000;
  const p = (x / 100) | 0;
  const q = x - p * 100;
  out[o + 1] = DIGIT_PAIRS[2 * p];
  out[o + 2] = DIGIT_PAIRS[2 * p + 1];
  out[o + 3] = DIGIT_PAIRS[2 * q];
  out[o + 4] = DIGIT_PAIRS[2 * q + 1];
  return o + 5;
}

/**
 * The delimiter and the phone_e164 cell of a valid code (the 10-digit number) at o, `+12127364832`, from the
 * number with integer arithmetic (two halves below 2^31); the delimiter alone for an invalid code. Returns the new o.
 */
export function writeE164Cell(out: Uint8Array, o: number, delim: number, code: number): number {
  out[o++] = delim;
  if (code < 0) return o;
  out[o] = 43; // +
  out[o + 1] = 49; // 1
  const hi = (code / 100_000) | 0; // NPA and the exchange's first two digits
  const lo = (code - hi * 100_000) | 0;
  return putFiveDigits(out, putFiveDigits(out, o + 2, hi), lo);
}

/** Builds the bytes of good, bad and invalid output for a batch (rows end with \n). */
export function emitRows(buf: Uint8Array, input: EmitInput, mem?: SharedArrayBuffer): [Uint8Array, Uint8Array, Uint8Array] {
  const { rows, classes, reasonIdx, delim, width } = input;
  const byIndex = input.reasons.map(reasonBytes);
  const describe = input.describeInvalid === true;
  const { rowStart, rowEnd, escape, fields, codes } = rows;
  const n = rows.count;
  // The reason cell of each bad or invalid row, looked up once for sizing and writing (good rows have none).
  const reasonOf: Uint8Array[] = [];
  const sizes = [0, 0, 0];
  const suffixes = input.goodSuffixes;
  const rowNote = input.goodNotes?.rowNote ?? null;
  const noteBytes = input.goodNotes ? input.goodNotes.notes.map((t) => encoder.encode(t)) : null;
  const badRowNote = input.badNotes?.rowNote ?? null;
  const badNoteBytes = input.badNotes ? input.badNotes.notes.map((t) => encoder.encode(t)) : null;
  const e164 = input.phoneE164 === true;
  const calls = input.callCells ?? null;
  const rowCounts = calls ? calls.rowCounts : null;
  const countBytes = calls ? calls.counts.map((t) => encoder.encode(t)) : null;
  const rowCalling = calls ? calls.rowCalling : null;
  const callingBytes = calls ? calls.calling.map((t) => encoder.encode(t)) : null;
  /** Good rows get cells after their own (phone_e164, calling columns, exemption): each is copied on its own. */
  const appended = suffixes != null || noteBytes != null || e164;
  // Good rows' appended cells: each row's class looked up once (integer arithmetic on the exchange), the cells
  // copied from one view per class, the counts kept here and added to the shared ones at the end.
  let rowClass: Uint16Array | null = null;
  let suffixViews: Uint8Array[] = [];
  let classCounts: Uint32Array | null = null;
  if (suffixes) {
    rowClass = new Uint16Array(n);
    const classOf = suffixes.classOf;
    const rowBase = suffixes.rowBase ?? null;
    const baseOf = suffixes.baseOf ?? null;
    const st = suffixes.starts;
    suffixViews = Array.from({ length: st.length - 1 }, (_, k) => suffixes.bytes.subarray(st[k], st[k + 1]));
    classCounts = new Uint32Array(st.length - 1);
    for (let r = 0; r < n; r++) {
      if (classes[r] !== CLASS_GOOD) continue;
      const exchange = (codes[r] / 10_000) | 0; // NPA·1000 + NXX of a valid number
      const npa = (exchange / 1000) | 0;
      const nxx = exchange - npa * 1000;
      let k = npa < 200 || nxx < 200 ? 0 : classOf[exchangeIndex(npa, nxx)];
      if (rowBase && rowBase[r]) k = baseOf![k];
      rowClass[r] = k;
      // a row a cap holds has cells of its own (sized below), counted by the caller
      if (rowCalling !== null && rowCalling[r] !== 0) continue;
      classCounts[k]++;
    }
  }
  const suffixBytes = suffixes ? suffixViews.reduce((s, v, k) => s + v.length * classCounts![k], 0) : 0;
  for (let r = 0; r < n; r++) {
    const len = rowEnd[r] - rowStart[r];
    // worst case escaping: every byte doubled + 3 per field; bounded by 3*len + 4 per field
    let s = escape[r] ? len * 2 + 3 * fields[r] + 8 : len;
    const c = classes[r];
    if (appended && c === CLASS_GOOD && width > fields[r]) s += width - fields[r];
    if (noteBytes && c === CLASS_GOOD) s += 1 + noteBytes[rowNote![r]].length;
    if (countBytes && c === CLASS_GOOD) s += countBytes[rowCounts![r]].length + callingBytes![rowCalling![r]].length;
    if (e164) s += E164_CELL_BYTES;
    if (c !== CLASS_GOOD) {
      const rb = describe && c === CLASS_INVALID ? sentenceBytes(codes[r]) : byIndex[reasonIdx[r]];
      reasonOf.push(rb);
      s += Math.max(0, width - fields[r]) + 1 + rb.length;
      if (badNoteBytes && c === CLASS_BAD) s += 1 + badNoteBytes[badRowNote![r]].length;
    }
    sizes[c] += s + 1;
  }
  sizes[0] += suffixBytes;
  /**
   * A good row's last word may run up to 3 bytes past it: the phone_e164 cell or every class's cells (at least 3
   * bytes: three delimiters) overwrite them next.
   */
  const overCopy = rowClass !== null || e164;
  // the cells' last word may run up to 3 bytes past the last good row's cells (overwritten by its LF, or spare)
  if (overCopy) sizes[0] += 3;
  // The three outputs side by side in `mem` when they fit (the usual case), else in a new block.
  const total = sizes[0] + sizes[1] + sizes[2];
  // (a new block has room to spare: the caller may keep it for the next batches, see pipeline/run.ts)
  const block = mem && mem.byteLength >= total ? mem : new SharedArrayBuffer(Math.max(1, mem ? Math.ceil(total * 1.25) : total));
  const outs = [new Uint8Array(block, 0, sizes[0]), new Uint8Array(block, sizes[0], sizes[1]), new Uint8Array(block, sizes[0] + sizes[1], sizes[2])];
  const pos = [0, 0, 0];
  const end = input.end ?? 0;
  const inWords = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const outWords = appended ? new DataView(outs[0].buffer, outs[0].byteOffset, outs[0].byteLength) : null;
  const bufBytes = buf.length;
  // the cells, with 3 bytes to spare at the end (their last word is copied whole)
  const cellBytes = new Uint8Array((suffixes ? suffixes.bytes.length : 0) + 3);
  if (suffixes) cellBytes.set(suffixes.bytes);
  const cellStarts = suffixes ? suffixes.starts : new Uint32Array(1);
  const cellWords = new DataView(cellBytes.buffer);
  let special = 0;
  for (let r = 0; r < n; r++) {
    // A row that is good, needs no escape and ends with a bare LF is copied as it is, together with its
    // neighbours of the same kind: most of a file goes out in a few large copies.
    if (!appended && classes[r] === CLASS_GOOD && escape[r] === 0 && rowEnd[r] < end && buf[rowEnd[r]] === LF) {
      let r1 = r;
      while (
        r1 + 1 < n &&
        rowStart[r1 + 1] === rowEnd[r1] + 1 &&
        classes[r1 + 1] === CLASS_GOOD &&
        escape[r1 + 1] === 0 &&
        rowEnd[r1 + 1] < end &&
        buf[rowEnd[r1 + 1]] === LF
      ) {
        r1++;
      }
      const s0 = rowStart[r];
      const e0 = rowEnd[r1] + 1;
      outs[0].set(buf.subarray(s0, e0), pos[0]);
      pos[0] += e0 - s0;
      r = r1;
      continue;
    }
    if (appended && classes[r] === CLASS_GOOD && escape[r] === 0) {
      // a good row with the appended cells: its bytes, padding to the header's width, its class's cells, its note.
      // Rows up to 256 bytes and the cells (~45 bytes) are copied four bytes at a time (unaligned words through
      // DataViews): a subarray and a `set` per copy cost more than that (rows of ~80 bytes: ~200 -> ~130 ns/row
      // with the cells; about even at ~300 bytes), and a byte loop about twice as much.
      const out = outs[0];
      let o = pos[0];
      const rs = rowStart[r];
      const re = rowEnd[r];
      if (re - rs < 256) {
        // whole words, the last one running up to 3 bytes past the row (into bytes the cells overwrite next)
        let i = rs;
        if (overCopy && re + 3 < bufBytes) {
          for (; i < re; i += 4, o += 4) outWords!.setUint32(o, inWords.getUint32(i, true), true);
          o -= i - re;
        } else {
          for (; i + 4 <= re; i += 4, o += 4) outWords!.setUint32(o, inWords.getUint32(i, true), true);
          for (; i < re; i++) out[o++] = buf[i];
        }
      } else {
        out.set(buf.subarray(rs, re), o);
        o += re - rs;
      }
      for (let f = fields[r]; f < width; f++) out[o++] = delim;
      if (e164) o = writeE164Cell(out, o, delim, codes[r]);
      if (rowClass) {
        if (rowCalling !== null && rowCalling[r] !== 0) {
          const v = callingBytes![rowCalling[r]];
          for (let i = 0; i < v.length; i++) out[o++] = v[i];
        } else {
          const k = rowClass[r];
          let i = cellStarts[k];
          const e = cellStarts[k + 1];
          for (; i < e; i += 4, o += 4) outWords!.setUint32(o, cellWords.getUint32(i, true), true);
          o -= i - e;
        }
      }
      if (countBytes) {
        const v = countBytes[rowCounts![r]];
        for (let i = 0; i < v.length; i++) out[o++] = v[i];
      }
      if (noteBytes) {
        out[o++] = delim;
        const v = noteBytes[rowNote![r]];
        for (let i = 0; i < v.length; i++) out[o++] = v[i];
      }
      out[o++] = LF;
      pos[0] = o;
      continue;
    }
    const c = classes[r];
    const out = outs[c];
    let o = pos[c];
    const rs = rowStart[r];
    const re = rowEnd[r];
    if (escape[r]) o = writeEscapedRow(buf, rs, re, delim, out, o);
    else if (re - rs < 48) {
      for (let i = rs; i < re; i++) out[o++] = buf[i];
    } else {
      out.set(buf.subarray(rs, re), o);
      o += re - rs;
    }
    if (appended && c === CLASS_GOOD) {
      for (let f = fields[r]; f < width; f++) out[o++] = delim;
      if (e164) o = writeE164Cell(out, o, delim, codes[r]);
      if (rowClass) {
        const v = rowCalling !== null && rowCalling[r] !== 0 ? callingBytes![rowCalling[r]] : suffixViews[rowClass[r]];
        out.set(v, o);
        o += v.length;
      }
      if (countBytes) {
        const v = countBytes[rowCounts![r]];
        out.set(v, o);
        o += v.length;
      }
      if (noteBytes) {
        out[o++] = delim;
        const v = noteBytes[rowNote![r]];
        out.set(v, o);
        o += v.length;
      }
    }
    if (c !== CLASS_GOOD) {
      for (let f = fields[r]; f < width; f++) out[o++] = delim;
      // invalid rows' codes are negative: an empty cell (no number was read)
      if (e164) o = writeE164Cell(out, o, delim, codes[r]);
      out[o++] = delim;
      const rb = reasonOf[special++];
      if (rb.length < 48) {
        for (let i = 0; i < rb.length; i++) out[o++] = rb[i];
      } else {
        out.set(rb, o);
        o += rb.length;
      }
      if (badNoteBytes && c === CLASS_BAD) {
        out[o++] = delim;
        const v = badNoteBytes[badRowNote![r]];
        for (let i = 0; i < v.length; i++) out[o++] = v[i];
      }
    }
    out[o++] = LF;
    pos[c] = o;
  }
  if (suffixes && classCounts) for (let k = 0; k < classCounts.length; k++) if (classCounts[k]) suffixes.counts[k] += classCounts[k];
  return [outs[0].subarray(0, pos[0]), outs[1].subarray(0, pos[1]), outs[2].subarray(0, pos[2])];
}
