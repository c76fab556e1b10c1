/**
 * Exemption rows as a customer uploads or types them: `phone,basis,date` (a header row naming the columns is
 * optional), basis purchase|inquiry|consent, date YYYY-MM-DD. Every bad row is reported with its line number;
 * a list with any bad row is refused whole (the caller loads all rows or none). Pure: no I/O.
 */
import { invalidReasonText, normalizeCode } from "../normalize";
import { dayOfIsoDate, EXEMPTION_BASES, isoDateOfDay } from "./windows";

export interface ExemptionRow {
  number: number;
  /** Index in EXEMPTION_BASES. */
  basis: number;
  /** Days since 1970-01-01. */
  day: number;
}

export type ParsedExemptions = { ok: true; rows: ExemptionRow[] } | { ok: false; errors: string[] };

/** Rows one exemption list holds at most. */
export const MAX_EXEMPTION_ROWS = 1_000_000;
/** Errors listed by line; the rest are counted. */
const MAX_LISTED_ERRORS = 20;

const PHONE_HEADER = /phone|number|mobile|cell|tel/i;

/**
 * Reads the rows; `todayDay` is today's UTC day (a record dated later is refused). Rows come back sorted by
 * number, one per number: the same number twice with one basis keeps the later date; with two bases it is an
 * error (which one holds is the customer's to say).
 */
export function parseExemptionText(text: string, todayDay: number): ParsedExemptions {
  const records = splitCsv(text.startsWith("\uFEFF") ? text.slice(1) : text);
  const errors: string[] = [];
  let extra = 0;
  const fail = (line: number, message: string) => {
    if (errors.length < MAX_LISTED_ERRORS) errors.push(`Line ${line}: ${message}`);
    else extra++;
  };
  let cols = { phone: 0, basis: 1, date: 2 };
  let start = 0;
  const first = records[0];
  if (first && first.cells.some((c) => c.trim().toLowerCase() === "basis")) {
    const names = first.cells.map((c) => c.trim().toLowerCase());
    const phone = names.findIndex((c) => PHONE_HEADER.test(c));
    const basis = names.indexOf("basis");
    const date = names.findIndex((c) => c.includes("date"));
    if (phone < 0 || date < 0) return { ok: false, errors: [`Line ${first.line}: the header must name the phone, basis and date columns (phone,basis,date).`] };
    cols = { phone, basis, date };
    start = 1;
  }
  const width = Math.max(cols.phone, cols.basis, cols.date) + 1;
  const byNumber = new Map<number, { row: ExemptionRow; line: number }>();
  for (let i = start; i < records.length; i++) {
    const { cells, line } = records[i];
    if (cells.length < width) {
      fail(line, `expected phone,basis,date, found ${cells.length === 1 ? "1 cell" : `${cells.length} cells`}.`);
      continue;
    }
    const phoneText = cells[cols.phone].trim();
    const basisText = cells[cols.basis].trim().toLowerCase();
    const dateText = cells[cols.date].trim();
    const number = normalizeCode(phoneText);
    if (number < 0) {
      fail(line, `"${clip(phoneText)}" is not a valid phone number (${invalidReasonText(number)}).`);
      continue;
    }
    const basis = (EXEMPTION_BASES as readonly string[]).indexOf(basisText);
    if (basis < 0) {
      fail(line, `basis "${clip(cells[cols.basis].trim())}" is not ${EXEMPTION_BASES.slice(0, -1).join(", ")} or ${EXEMPTION_BASES.at(-1)}.`);
      continue;
    }
    const day = dayOfIsoDate(dateText);
    if (day === null) {
      fail(line, `date "${clip(dateText)}" is not a real date in the form YYYY-MM-DD.`);
      continue;
    }
    if (day > todayDay) {
      fail(line, `date ${dateText} is in the future (today is ${isoDateOfDay(todayDay)}, UTC).`);
      continue;
    }
    const seen = byNumber.get(number);
    if (seen) {
      if (seen.row.basis !== basis) {
        fail(
          line,
          `${phoneText} is on line ${seen.line} as ${EXEMPTION_BASES[seen.row.basis]} and here as ${EXEMPTION_BASES[basis]}; give each number one basis.`,
        );
        continue;
      }
      if (day > seen.row.day) byNumber.set(number, { row: { number, basis, day }, line });
      continue;
    }
    if (byNumber.size >= MAX_EXEMPTION_ROWS) {
      return { ok: false, errors: [`Line ${line}: an exemption list holds at most ${MAX_EXEMPTION_ROWS.toLocaleString("en-US")} numbers.`] };
    }
    byNumber.set(number, { row: { number, basis, day }, line });
  }
  if (extra) errors.push(`…and ${extra.toLocaleString("en-US")} more ${extra === 1 ? "line" : "lines"} with errors.`);
  if (errors.length) return { ok: false, errors };
  if (!byNumber.size) return { ok: false, errors: ["The list has no rows: give one phone,basis,date row per number."] };
  const rows = [...byNumber.values()].map((v) => v.row).sort((a, b) => a.number - b.number);
  return { ok: true, rows };
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/**
 * CSV records with the line each starts on: quoted cells may hold the delimiter, quotes ("") and line breaks;
 * blank lines are skipped. The delimiter is the first line's most frequent of , ; tab |.
 */
export function splitCsv(text: string): { cells: string[]; line: number }[] {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delim = [",", ";", "\t", "|"].reduce((best, d) => (firstLine.split(d).length > firstLine.split(best).length ? d : best), ",");
  const out: { cells: string[]; line: number }[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const startLine = line;
    const cells: string[] = [];
    let cell = "";
    for (;;) {
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) break;
          const c = text[i];
          if (c === '"') {
            if (text[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === "\n") line++;
          cell += c;
          i++;
        }
      }
      while (i < n && text[i] !== delim && text[i] !== "\n") cell += text[i++];
      cells.push(cell.endsWith("\r") ? cell.slice(0, -1) : cell);
      cell = "";
      if (i < n && text[i] === delim) {
        i++;
        continue;
      }
      break;
    }
    i++; // the newline (or past the end)
    line++;
    if (cells.length === 1 && cells[0].trim() === "") continue;
    out.push({ cells, line: startLine });
  }
  return out;
}
