/**
 * A list file's batch parsed on the side thread (lists/side-parser.ts is the other end): the phone field's codes of
 * every row, read by parseCodes from the batch's shared buffer while the loading thread reads and parses the next
 * one (decision 162). The codes come back in the shared results block parseCodes allocates (no copy).
 */
import { parseCodes } from "./csv";

export interface ParseFieldMessage {
  op: "parse-field";
  id: number;
  /** A view of the batch's shared buffer. */
  buf: Uint8Array;
  start: number;
  end: number;
  delim: number;
  col: number;
  /** Memory for the results (parseCodes's `mem`), when the caller has it. */
  mem?: SharedArrayBuffer;
}

export interface ParsedField {
  parsed: number;
  codes: Float64Array;
  count: number;
  /** Codes that are not numbers (< 0). */
  invalid: number;
}

export function isParseFieldMessage(m: unknown): m is ParseFieldMessage {
  return typeof m === "object" && m !== null && (m as { op?: unknown }).op === "parse-field";
}

export function parseField(m: ParseFieldMessage): ParsedField {
  const rows = parseCodes(m.buf, m.start, m.end, m.delim, m.col, m.mem);
  return { parsed: m.id, codes: rows.codes, count: rows.count, invalid: rows.invalid };
}
