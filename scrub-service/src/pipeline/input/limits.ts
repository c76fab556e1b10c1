/**
 * What the readers accept, in one place (docs/decisions/150-hostile-input-bounds.md). Every reader bounds what it
 * allocates by these numbers, never by what a file declares: a column reference, a row number, a shared-string
 * count or a member size in the file is checked against them before anything is sized from it.
 */

import { engineConfig } from "../../config";

/**
 * The most columns a file may have: 1,000, or SCRUB_MAX_COLUMNS. The wizard shows every column to choose the
 * phone column from; 100,000 columns made that page 22 MB and ~1 GB of memory per load (docs/decisions/114).
 */
export function maxColumns(): number {
  return engineConfig().SCRUB_MAX_COLUMNS;
}

/** Excel's own grid: columns A…XFD, rows 1…1,048,576; a reference outside it is a damaged or hostile file. */
export const EXCEL_MAX_COLUMNS = 16_384;
export const EXCEL_MAX_ROWS = 1_048_576;
/** Excel's longest cell text (characters). */
export const EXCEL_MAX_CELL_CHARS = 32_767;

/** Shared strings a workbook may hold: SCRUB_MAX_SHARED_STRINGS, default 8,388,608 (4 bytes of index each). */
export function maxSharedStrings(): number {
  return engineConfig().SCRUB_MAX_SHARED_STRINGS;
}

/** UTF-8 bytes of all shared strings together: SCRUB_MAX_SHARED_STRING_BYTES, default 128 MiB. */
export function maxSharedStringBytes(): number {
  return engineConfig().SCRUB_MAX_SHARED_STRING_BYTES;
}

/** Small workbook parts read whole (workbook, relationships, styles): at most 16 MiB each. */
export const MAX_WORKBOOK_PART_BYTES = 16 * 1024 * 1024;

/** Cell formats in a workbook's styles (Excel allows about 64,000). */
export const MAX_CELL_FORMATS = 65_536;

/**
 * XML the parser may take in without reaching a tag: 1 MiB. The SAX parser keeps a text node, a tag name or an
 * attribute in memory until it ends, so a part of one endless text node would otherwise grow without bound.
 */
export const MAX_XML_SPAN_BYTES = 1024 * 1024;

/** Workbooks decoded at once per process (others wait their turn): SCRUB_MAX_WORKBOOK_DECODES, default 1. */
export function maxWorkbookDecodes(): number {
  return engineConfig().SCRUB_MAX_WORKBOOK_DECODES;
}

/**
 * Heap of a workbook's decode thread (MB): SCRUB_WORKBOOK_HEAP_MB, default 768. A decode that needs more is refused
 * and the process goes on (decision 157); the caps above keep a real workbook well under it (~200 MB at most).
 */
export function workbookHeapMb(): number {
  return engineConfig().SCRUB_WORKBOOK_HEAP_MB;
}
