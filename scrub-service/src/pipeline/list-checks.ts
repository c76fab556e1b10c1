/** The list stages' lookups: which of a batch's Bloom positives are really on each list. */
import type { SharedBloom } from "../lists/bloom";
import type { ListSnapshot } from "../lists/store";
import type { ListKind } from "../list-types";
import type { ParseResult } from "../worker/index";

export interface ListCheck {
  /** The reason a row on this list gets: the list's kind (list-types.ts). */
  reason: ListKind;
  /** null when the list is empty (nothing to suppress). */
  bloom: SharedBloom | null;
  snapshot: ListSnapshot | null;
}

/**
 * Store lookups of a batch's Bloom positives (bit l of `maybe` = list l), started as soon as the batch is
 * parsed (membership does not depend on row order), so the store's latency overlaps other batches instead of
 * stalling the ordered step. hits[l][r] = 1 when row r's number is on list l.
 */
export function lookupLists(lists: readonly ListCheck[], p: ParseResult): Promise<(Uint8Array | null)[]> {
  const { rows, maybe } = p;
  const positive = positiveRows(maybe, rows.count);
  return Promise.all(
    lists.map(async (list, l) => {
      if (!list.snapshot) return null;
      const bit = 1 << l;
      let asked = 0;
      for (let i = 0; i < positive.length; i++) if (maybe[positive[i]] & bit) asked++;
      if (!asked) return null;
      const ask = new Uint32Array(asked);
      const nums = new Float64Array(asked);
      for (let i = 0, k = 0; i < positive.length; i++) {
        const r = positive[i];
        if (maybe[r] & bit) {
          ask[k] = r;
          nums[k++] = rows.codes[r];
        }
      }
      const answers = await list.snapshot.has(nums, asked);
      const hits = new Uint8Array(rows.count);
      for (let i = 0; i < asked; i++) if (answers[i]) hits[ask[i]] = 1;
      return hits;
    }),
  );
}

/**
 * The rows whose `maybe` byte is set, in order. A few % of rows are Bloom positives: four rows are skipped at
 * a time where the flags' memory is aligned (it is, in a batch slot).
 */
function positiveRows(maybe: Uint8Array, n: number): number[] {
  const rows: number[] = [];
  let r = 0;
  if (maybe.byteOffset % 4 === 0) {
    const words = new Int32Array(maybe.buffer, maybe.byteOffset, n >> 2);
    for (let w = 0; w < words.length; w++) {
      if (words[w] === 0) continue;
      for (let k = w * 4; k < w * 4 + 4; k++) if (maybe[k] !== 0) rows.push(k);
    }
    r = words.length * 4;
  }
  for (; r < n; r++) if (maybe[r] !== 0) rows.push(r);
  return rows;
}
