/** Which column of the input holds the phone numbers. */
import { defaultPhoneColumn } from "../worker/csv";
import { headersOf } from "./read";

function findColumn(firstRow: string[], headers: string[], hasHeader: boolean, want: string): number {
  const trimmed = want.trim();
  let i = headers.indexOf(trimmed);
  if (i < 0) i = headers.findIndex((h) => h.toLowerCase() === trimmed.toLowerCase());
  if (i < 0 && !hasHeader) {
    // a header-less file: the wizard may name the column by its first value
    i = firstRow.findIndex((c) => c.trim() === trimmed);
  }
  return i;
}

/**
 * The phone column of a file by its first row: the named one, else the default by header name, else (no
 * header) the first cell that does not read as a header. Null when the named column is not there.
 */
export function locatePhoneColumn(firstRow: string[], columnName: string | null | undefined): { index: number; name: string; hasHeader: boolean } | null {
  const { headers, hasHeader } = headersOf(firstRow);
  let index: number;
  if (columnName) {
    index = findColumn(firstRow, headers, hasHeader, columnName);
    if (index < 0) return null;
  } else if (hasHeader) {
    index = headers.indexOf(defaultPhoneColumn(headers)!);
  } else {
    index = firstRow.findIndex((c) => headersOf([c]).hasHeader === false);
  }
  return { index, name: headers[index] ?? "", hasHeader };
}

/** The index of a column named by its header (exact, else case-insensitive), or -1; a file without a header has none. */
export function locateNamedColumn(firstRow: string[], name: string): number {
  const { headers, hasHeader } = headersOf(firstRow);
  return hasHeader ? findColumn(firstRow, headers, true, name) : -1;
}
