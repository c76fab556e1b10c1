/**
 * Exemption rows as a customer uploads or types them: `phone,basis,date` (a header row naming the columns is
 * optional), basis purchase|inquiry|consent, date YYYY-MM-DD. Every bad row is reported with its line number;
 * a list with any bad row is refused whole (the caller loads all rows or none). Pure: no I/O.
 *
 * The reader is incremental (`push` text as it arrives, then `end`) and its memory is bounded whatever the input
 * (decision 176): a record longer than MAX_EXEMPTION_RECORD_CHARS is refused at once, the rows are held in typed
 * arrays of at most MAX_EXEMPTION_ROWS entries, and only the first MAX_LISTED_ERRORS errors are kept as text.
 */
import { invalidReasonText, normalizeCode } from "../numbers/normalize";
import type { ExemptionIndex } from "./decide";
import { dayOfIsoDate, EXEMPTION_BASES, FIRST_EXEMPTION_DAY, isoDateOfDay } from "./windows";

export interface ExemptionRow {
  number: number;
  /** Index in EXEMPTION_BASES. */
  basis: number;
  /** Days since 1970-01-01. */
  day: number;
}

export type ParsedExemptions = { ok: true; rows: ExemptionIndex } | { ok: false; errors: string[] };

/** Rows (lines with data, valid or not) one exemption file holds at most; one list holds at most as many numbers. */
export const MAX_EXEMPTION_ROWS = 1_000_000;
/** Characters of one record (one row with its quoted line breaks): a phone,basis,date row is about 30. */
export const MAX_EXEMPTION_RECORD_CHARS = 64 * 1024;
/** Errors listed by line; the rest are counted. */
const MAX_LISTED_ERRORS = 20;

const PHONE_HEADER = /phone|number|mobile|cell|tel/i;
const DELIMITERS = [",", ";", "\t", "|"];

const enum State {
  CellStart,
  Unquoted,
  Quoted,
  QuoteInQuoted,
}

interface LineError {
  line: number;
  message: string;
}

/**
 * Reads exemption rows from text pushed in pieces. `todayDay` is today's UTC day (a record dated later is refused).
 * `end()` answers the rows sorted by number, one per number (the same number twice with one basis keeps the later
 * date; with two bases it is an error: which one holds is the customer's to say), or every error by line.
 */
export class ExemptionReader {
  private delim: string | null = null;
  private head = "";
  private state = State.CellStart;
  private cell = "";
  private cells: string[] = [];
  private line = 1;
  private recordLine = 1;
  private recordChars = 0;
  /** The previous piece ended on a CR: an LF first in the next one belongs to it. */
  private afterCr = false;
  private header: { phone: number; basis: number; date: number } | null = null;
  private sawFirst = false;
  private fatal: string | null = null;

  private errors: LineError[] = [];
  private extraErrors = 0;
  private records = 0;

  private n = 0;
  private numbers = new Float64Array(1024);
  private basis = new Uint8Array(1024);
  private day = new Int32Array(1024);
  private lines = new Int32Array(1024);

  constructor(private readonly todayDay: number) {}

  /** Whether reading can stop: the input was refused whole (a record too long, too many rows). */
  get stopped(): boolean {
    return this.fatal !== null;
  }

  push(text: string): void {
    if (this.fatal) return;
    if (this.delim === null) {
      this.head += text;
      const nl = this.head.search(/[\r\n]/);
      if (nl < 0 && this.head.length <= MAX_EXEMPTION_RECORD_CHARS) return;
      this.startWith(nl < 0 ? this.head : this.head.slice(0, nl));
      text = this.head;
      this.head = "";
    }
    this.scan(text);
  }

  end(): ParsedExemptions {
    if (this.delim === null) {
      this.startWith(this.head);
      const text = this.head;
      this.head = "";
      this.scan(text);
    }
    if (!this.fatal && (this.cells.length > 0 || this.cell !== "" || this.state !== State.CellStart)) this.endRecord();
    if (this.fatal) return { ok: false, errors: [...this.listedErrors(), this.fatal] };
    const rows = this.distinctRows();
    if (this.errors.length || this.extraErrors) return { ok: false, errors: this.listedErrors() };
    if (!rows.numbers.length) return { ok: false, errors: ["The list has no rows: give one phone,basis,date row per number."] };
    return { ok: true, rows };
  }

  private startWith(firstLine: string): void {
    const body = firstLine.startsWith("\uFEFF") ? firstLine.slice(1) : firstLine;
    this.delim = DELIMITERS.reduce((best, d) => (body.split(d).length > body.split(best).length ? d : best), ",");
    if (this.head.startsWith("\uFEFF")) this.head = this.head.slice(1);
  }

  private scan(text: string): void {
    const delim = this.delim!.charCodeAt(0);
    const len = text.length;
    let i = 0;
    if (this.afterCr && len && text.charCodeAt(0) === 10) i = 1;
    this.afterCr = false;
    while (i < len && !this.fatal) {
      if (this.state === State.CellStart) {
        if (text.charCodeAt(i) === 34) {
          this.state = State.Quoted;
          this.count(1);
          i++;
          continue;
        }
        this.state = State.Unquoted;
      }
      if (this.state === State.Unquoted) {
        const start = i;
        let c = 0;
        while (i < len) {
          c = text.charCodeAt(i);
          if (c === delim || c === 10 || c === 13) break;
          i++;
        }
        this.cell += text.slice(start, i);
        this.count(i - start);
        if (i >= len || this.fatal) break;
        i++;
        if (c === delim) {
          this.cells.push(this.cell);
          this.cell = "";
          this.state = State.CellStart;
          this.count(1);
          continue;
        }
        if (c === 13) {
          if (i < len) {
            if (text.charCodeAt(i) === 10) i++;
          } else this.afterCr = true;
        }
        this.line++;
        this.endRecord();
        continue;
      }
      if (this.state === State.Quoted) {
        const start = i;
        while (i < len) {
          const c = text.charCodeAt(i);
          if (c === 34) break;
          if (c === 10 && (i === 0 ? !this.afterCrQuoted : text.charCodeAt(i - 1) !== 13)) this.line++;
          else if (c === 13) this.line++;
          i++;
        }
        this.afterCrQuoted = i > start && text.charCodeAt(i - 1) === 13;
        this.cell += text.slice(start, i);
        this.count(i - start);
        if (i < len) {
          this.state = State.QuoteInQuoted;
          this.count(1);
          i++;
        }
        continue;
      }
      // QuoteInQuoted: "" is a quote; anything else closes the quoted part
      if (text.charCodeAt(i) === 34) {
        this.cell += '"';
        this.state = State.Quoted;
        this.afterCrQuoted = false;
        i++;
      } else this.state = State.Unquoted;
    }
  }

  private afterCrQuoted = false;

  private count(chars: number): void {
    this.recordChars += chars;
    if (this.recordChars > MAX_EXEMPTION_RECORD_CHARS) {
      this.fatal = `Line ${this.recordLine}: the row is longer than ${MAX_EXEMPTION_RECORD_CHARS.toLocaleString("en-US")} characters; nothing was loaded (an exemption row is phone,basis,date).`;
    }
  }

  private endRecord(): void {
    this.cells.push(this.cell);
    const cells = this.cells;
    const line = this.recordLine;
    this.cells = [];
    this.cell = "";
    this.state = State.CellStart;
    this.recordChars = 0;
    this.recordLine = this.line;
    if (cells.length === 0 || (cells.length === 1 && cells[0].trim() === "")) return;
    this.row(cells, line);
  }

  private fail(line: number, message: string): void {
    if (this.errors.length < MAX_LISTED_ERRORS) this.errors.push({ line, message });
    else this.extraErrors++;
  }

  private row(cells: string[], line: number): void {
    if (!this.sawFirst) {
      this.sawFirst = true;
      if (cells.some((c) => c.trim().toLowerCase() === "basis")) {
        const names = cells.map((c) => c.trim().toLowerCase());
        const phone = names.findIndex((c) => PHONE_HEADER.test(c));
        const basis = names.indexOf("basis");
        const date = names.findIndex((c) => c.includes("date"));
        if (phone < 0 || date < 0) {
          this.fatal = `Line ${line}: the header must name the phone, basis and date columns (phone,basis,date).`;
          return;
        }
        this.header = { phone, basis, date };
        return;
      }
    }
    if (++this.records > MAX_EXEMPTION_ROWS) {
      this.fatal = `Line ${line}: an exemption list holds at most ${MAX_EXEMPTION_ROWS.toLocaleString("en-US")} rows; nothing was loaded.`;
      return;
    }
    const cols = this.header ?? { phone: 0, basis: 1, date: 2 };
    const width = Math.max(cols.phone, cols.basis, cols.date) + 1;
    if (cells.length < width) {
      this.fail(line, `expected phone,basis,date, found ${cells.length === 1 ? "1 cell" : `${cells.length} cells`}.`);
      return;
    }
    const phoneText = cells[cols.phone].trim();
    const basisText = cells[cols.basis].trim().toLowerCase();
    const dateText = cells[cols.date].trim();
    const number = normalizeCode(phoneText);
    if (number < 0) {
      this.fail(line, `"${clip(phoneText)}" is not a valid phone number (${invalidReasonText(number)}).`);
      return;
    }
    const basis = (EXEMPTION_BASES as readonly string[]).indexOf(basisText);
    if (basis < 0) {
      this.fail(line, `basis "${clip(cells[cols.basis].trim())}" is not ${EXEMPTION_BASES.slice(0, -1).join(", ")} or ${EXEMPTION_BASES.at(-1)}.`);
      return;
    }
    const day = dayOfIsoDate(dateText);
    if (day === null) {
      this.fail(line, `date "${clip(dateText)}" is not a real date in the form YYYY-MM-DD.`);
      return;
    }
    if (day < FIRST_EXEMPTION_DAY) {
      this.fail(line, `date ${dateText} is before ${isoDateOfDay(FIRST_EXEMPTION_DAY)}; give the date of the purchase, inquiry or consent.`);
      return;
    }
    if (day > this.todayDay) {
      this.fail(line, `date ${dateText} is in the future (today is ${isoDateOfDay(this.todayDay)}, UTC).`);
      return;
    }
    this.add(number, basis, day, line);
  }

  private add(number: number, basis: number, day: number, line: number): void {
    if (this.n === this.numbers.length) {
      const cap = Math.min(this.n * 2, MAX_EXEMPTION_ROWS);
      this.numbers = grow(this.numbers, new Float64Array(cap));
      this.basis = grow(this.basis, new Uint8Array(cap));
      this.day = grow(this.day, new Int32Array(cap));
      this.lines = grow(this.lines, new Int32Array(cap));
    }
    const i = this.n++;
    this.numbers[i] = number;
    this.basis[i] = basis;
    this.day[i] = day;
    this.lines[i] = line;
  }

  /** One row per number, ascending; a number with two bases adds an error at each later line. */
  private distinctRows(): ExemptionIndex {
    const n = this.n;
    const { numbers, basis, day } = this;
    // rows were added in line order: a stable sort by number keeps each number's rows in line order
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => numbers[a] - numbers[b] || a - b);
    const out = { numbers: new Float64Array(n), basis: new Uint8Array(n), day: new Int32Array(n) };
    const conflicts: number[] = [];
    let m = 0;
    let first = -1;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      if (m > 0 && out.numbers[m - 1] === numbers[i]) {
        if (basis[i] !== basis[first]) {
          conflicts.push(first, i);
          continue;
        }
        if (day[i] > out.day[m - 1]) out.day[m - 1] = day[i];
        continue;
      }
      first = i;
      out.numbers[m] = numbers[i];
      out.basis[m] = basis[i];
      out.day[m] = day[i];
      m++;
    }
    if (conflicts.length) this.addConflicts(conflicts);
    return { numbers: out.numbers.slice(0, m), basis: out.basis.slice(0, m), day: out.day.slice(0, m) };
  }

  private addConflicts(pairs: number[]): void {
    const { lines, basis } = this;
    const idx: number[] = [];
    for (let k = 0; k < pairs.length; k += 2) idx.push(k);
    idx.sort((a, b) => lines[pairs[a + 1]] - lines[pairs[b + 1]]);
    for (const k of idx.slice(0, MAX_LISTED_ERRORS)) {
      const [first, later] = [pairs[k], pairs[k + 1]];
      this.errors.push({
        line: lines[later],
        message: `${this.numbers[later]} is on line ${lines[first]} as ${EXEMPTION_BASES[basis[first]]} and here as ${EXEMPTION_BASES[basis[later]]}; give each number one basis.`,
      });
    }
    this.extraErrors += Math.max(0, idx.length - MAX_LISTED_ERRORS);
  }

  /** The kept errors in line order (a conflict found after the scan may precede a kept error), then the count of the rest. */
  private listedErrors(): string[] {
    const sorted = [...this.errors].sort((a, b) => a.line - b.line);
    const listed = sorted.slice(0, MAX_LISTED_ERRORS).map((e) => `Line ${e.line}: ${e.message}`);
    const extra = this.extraErrors + Math.max(0, sorted.length - MAX_LISTED_ERRORS);
    if (extra) listed.push(`…and ${extra.toLocaleString("en-US")} more ${extra === 1 ? "line" : "lines"} with errors.`);
    return listed;
  }
}

function grow<T extends Float64Array | Uint8Array | Int32Array>(old: T, next: T): T {
  (next as Float64Array).set(old as unknown as Float64Array);
  return next;
}

/** Reads a whole text at once (typed rows, tests): the incremental reader over one piece. */
export function parseExemptionText(text: string, todayDay: number): ParsedExemptions {
  const reader = new ExemptionReader(todayDay);
  reader.push(text);
  return reader.end();
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
