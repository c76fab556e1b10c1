/**
 * Numbers of a list file (CSV with a phone column, or one number per line), streamed, normalized with the
 * product's normalizer, returned sorted and distinct (4 bytes per distinct number while collecting… as
 * Float64: 8 bytes; a 20M-number file holds ~160 MB for the sort).
 */
import { parseRows } from "../worker/csv";
import { defaultPhoneColumn } from "../worker/csv";
import { normalizeCode } from "../worker/normalize";
import { BatchReader, headersOf } from "../pipeline/read";

export interface NumbersOfFile {
  /** Sorted, distinct. */
  numbers: Float64Array;
  valid: number;
  invalid: number;
  bytes: number;
}

export function sortDistinct(a: Float64Array): Float64Array {
  a.sort();
  let w = 0;
  for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[i - 1]) a[w++] = a[i];
  return a.subarray(0, w);
}

/** Normalizes typed entries: valid numbers (sorted, distinct) and the rejected ones with their reason. */
export function numbersOfEntries(entries: readonly string[]): {
  numbers: Float64Array;
  valid: number;
  rejected: { value: string; code: number }[];
} {
  const out = new Float64Array(entries.length);
  let n = 0;
  const rejected: { value: string; code: number }[] = [];
  for (const e of entries) {
    const c = normalizeCode(e);
    if (c < 0) rejected.push({ value: e, code: c });
    else out[n++] = c;
  }
  return { numbers: sortDistinct(out.subarray(0, n)), valid: n, rejected };
}

export async function numbersOfFile(
  path: string,
  onProgress?: (bytesRead: number, total: number) => void,
  column?: string | null,
): Promise<NumbersOfFile> {
  const reader = new BatchReader(path);
  await reader.open();
  try {
    let col = 0;
    if (reader.firstRow) {
      const { headers, hasHeader } = headersOf(reader.firstRow);
      if (hasHeader) {
        const want = column ?? defaultPhoneColumn(headers);
        col = Math.max(0, headers.findIndex((h) => h.toLowerCase() === String(want).toLowerCase()));
        reader.skipFirstRow();
      } else {
        col = Math.max(0, reader.firstRow.findIndex((c) => normalizeCode(c) >= 0));
      }
    }
    let buf = new Float64Array(1 << 16);
    let n = 0;
    let invalid = 0;
    for (;;) {
      const batch = await reader.next();
      if (!batch) break;
      const rows = parseRows(batch.buf, batch.start, batch.end, reader.delim, col);
      if (n + rows.count > buf.length) {
        let cap = buf.length;
        while (cap < n + rows.count) cap *= 2;
        const bigger = new Float64Array(cap);
        bigger.set(buf.subarray(0, n));
        buf = bigger;
      }
      for (let r = 0; r < rows.count; r++) {
        const x = rows.codes[r];
        if (x < 0) invalid++;
        else buf[n++] = x;
      }
      onProgress?.(batch.fileOffset, reader.size);
    }
    const numbers = sortDistinct(buf.subarray(0, n)).slice();
    return { numbers, valid: n, invalid, bytes: reader.size };
  } finally {
    await reader.close();
  }
}
