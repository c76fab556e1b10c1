/*
 * CSV for exports (not the scrub engine's hot path, which has its own writer).
 * RFC 4180: fields containing the delimiter, a quote, CR or LF are quoted, quotes doubled; rows end in CRLF.
 * Formula injection (OWASP's rule, and ASVS 1.2.10's NUL): a text cell starting with = + - @ TAB CR or NUL gets a leading single quote, so
 * a spreadsheet shows it as text instead of running it; a signed plain number (`-12.5`) is left readable, as the
 * engine's writer does (docs/decisions/154). Numbers are written as numbers.
 */

export type CsvValue = string | number | bigint | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r\0]/;
const PLAIN_NUMBER = /^[+-](?=\.?\d)\d*\.?\d*$/;

export function escapeCsvCell(value: CsvValue, delimiter = ","): string {
  if (value == null) return "";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  let s = value;
  if (FORMULA_START.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  if (s.includes(delimiter) || s.includes('"') || s.includes("\n") || s.includes("\r")) {
    s = `"${s.replace(/"/g, '""')}"`;
  }
  return s;
}

export function csvRow(values: CsvValue[], delimiter = ","): string {
  return values.map((v) => escapeCsvCell(v, delimiter)).join(delimiter);
}

/** Header plus rows, each line ending in CRLF. */
export function toCsv(header: string[], rows: CsvValue[][], delimiter = ","): string {
  return [header, ...rows].map((r) => `${csvRow(r, delimiter)}\r\n`).join("");
}

/** A download response; the file name is sanitised for the header. */
export function csvResponse(body: string, fileName: string): Response {
  const safe = fileName.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${safe}"`,
      "Cache-Control": "no-store",
    },
  });
}
