/**
 * An exemption file read to its rows (decision 176): any input the scrub reads (UTF-8 ± BOM, UTF-16 with a BOM,
 * Windows-1252, gzip, a zip of one file, an .xlsx sheet) through the scrub's own decoders, pulled one chunk at a
 * time into the incremental ExemptionReader, which stops at the first record or row count past its limits. Memory
 * is the reader's typed arrays (at most 1,000,000 rows) and one chunk, whatever the file. Runs on the exemption
 * thread (thread.ts); callable in any thread (tests).
 */
import { openInput } from "../pipeline/input/source";
import { ExemptionReader, type ParsedExemptions } from "../exemption-rules/parse";

const CHUNK_BYTES = 1024 * 1024;

export type ExemptionInput = { path: string } | { text: string };

export const NOT_TEXT_MESSAGE = "The file is not a CSV text file (phone,basis,date rows).";

export async function readExemptionInput(input: ExemptionInput, todayDay: number): Promise<ParsedExemptions> {
  const reader = new ExemptionReader(todayDay);
  if ("text" in input) {
    if (input.text.includes("\u0000")) return { ok: false, errors: [NOT_TEXT_MESSAGE] };
    reader.push(input.text);
    return reader.end();
  }
  const { source } = await openInput(input.path);
  try {
    const decoder = new TextDecoder("utf-8");
    const buf = new Uint8Array(CHUNK_BYTES);
    for (;;) {
      const n = await source.read(buf, 0, buf.length);
      const text = n ? decoder.decode(buf.subarray(0, n), { stream: true }) : decoder.decode();
      if (text.includes("\u0000")) return { ok: false, errors: [NOT_TEXT_MESSAGE] };
      reader.push(text);
      if (!n || reader.stopped) break;
    }
  } finally {
    await source.close();
  }
  return reader.end();
}
