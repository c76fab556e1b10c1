/**
 * An opt-out file (the containers screen's CSV import, decision 195): a header naming its columns (number, received_at,
 * channel, words and optionally subject, in any order, any case; "phone" for number, "email" for e-mail) and up to
 * 10,000 rows, all or nothing: every bad row is named by its line (the header is line 1). CSV in UTF-8, UTF-16 with
 * BOM or Windows-1252, .gz or a .zip of one file, as every other file the product reads.
 */
import { openInput } from "../pipeline/input/source";
import { CsvRowSplitter } from "../calls/file-rows";
import { MAX_OPT_OUTS_PER_REQUEST, checkOptOut, type OptOut, type OptOutError, type OptOutInput } from "./validate";

const CHUNK_BYTES = 256 * 1024;
/** Errors kept for the report; the count goes on past it. */
const MAX_ERRORS_KEPT = 200;

const COLUMN_NAMES: Record<string, keyof OptOutInput> = {
  number: "number",
  phone: "number",
  phone_number: "number",
  received_at: "received_at",
  received: "received_at",
  channel: "channel",
  words: "words",
  subject: "subject",
};
export const OPT_OUT_FILE_COLUMNS = ["number", "received_at", "channel", "words"] as const;

export type OptOutFileCheck = { ok: true; records: OptOut[] } | { ok: false; errors: OptOutError[]; total: number };

/** Reads and checks the whole file (at most 10,000 rows are held). `index` of an error is the row's line. */
export async function readOptOutFile(path: string, nowMs: number): Promise<OptOutFileCheck> {
  const { source } = await openInput(path);
  const errors: OptOutError[] = [];
  let total = 0;
  const records: OptOut[] = [];
  let columns: (keyof OptOutInput | null)[] | null = null;
  const bad = (line: number, field: string, message: string) => {
    total++;
    if (errors.length < MAX_ERRORS_KEPT) errors.push({ index: line, field, message });
  };
  try {
    const decoder = new TextDecoder("utf-8");
    const splitter = new CsvRowSplitter();
    const buf = new Uint8Array(CHUNK_BYTES);
    let line = 0;
    let rows = 0;
    for (;;) {
      const n = await source.read(buf, 0, buf.length);
      const chunk = n ? splitter.push(decoder.decode(buf.subarray(0, n), { stream: true })) : [...splitter.push(decoder.decode()), ...splitter.end()];
      for (const cells of chunk) {
        line++;
        if (columns === null) {
          columns = cells.map(
            (c) =>
              COLUMN_NAMES[
                c
                  .replace(/^\uFEFF/, "")
                  .trim()
                  .toLowerCase()
                  .replace(/[\s-]+/g, "_")
              ] ?? null,
          );
          const missing = OPT_OUT_FILE_COLUMNS.filter((k) => !columns!.includes(k));
          if (missing.length) {
            return {
              ok: false,
              errors: [
                {
                  index: 1,
                  field: "header",
                  message: `The first row must name the columns ${OPT_OUT_FILE_COLUMNS.join(", ")}; missing: ${missing.join(", ")}`,
                },
              ],
              total: 1,
            };
          }
          continue;
        }
        if (cells.every((c) => c.trim() === "")) continue;
        if (++rows > MAX_OPT_OUTS_PER_REQUEST) {
          return { ok: false, errors: [{ index: line, field: "file", message: `A file may hold at most ${MAX_OPT_OUTS_PER_REQUEST} opt-outs` }], total: 1 };
        }
        const input: OptOutInput = {};
        columns.forEach((k, i) => {
          if (k && cells[i] !== undefined && input[k] === undefined) input[k] = cells[i];
        });
        const found: OptOutError[] = [];
        const r = checkOptOut(input, line, nowMs, found);
        if (r) records.push(r);
        for (const e of found) bad(line, e.field, e.message);
      }
      if (!n) break;
    }
  } finally {
    await source.close();
  }
  if (columns === null || records.length + total === 0)
    return { ok: false, errors: [{ index: 1, field: "file", message: "The file holds no opt-outs" }], total: 1 };
  return total ? { ok: false, errors, total } : { ok: true, records };
}
