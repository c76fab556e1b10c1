/** The list stages' lookups: which of a batch's Bloom positives are really on each list. */
import type { SharedBloom } from "../worker/bloom";
import type { ListSnapshot } from "../lists/store";
import type { INTERNAL_DNC_REASON, ListKind } from "../list-types";
import type { ParseResult } from "../worker/index";

/** The lists one scrub may check: the bits of a row's Bloom `maybe` flags (a container, litigation, DNC, the states). */
export const MAX_LIST_CHECKS = 32;

export interface ListCheck {
  /** The reason a row on this list gets: the list's kind (list-types.ts), or the internal do-not-call list's (decision 195). */
  reason: ListKind | typeof INTERNAL_DNC_REASON.reason;
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

/** The rows whose `maybe` flags are set, in order (a few % of rows are Bloom positives). */
function positiveRows(maybe: Uint32Array, n: number): number[] {
  const rows: number[] = [];
  for (let r = 0; r < n; r++) if (maybe[r] !== 0) rows.push(r);
  return rows;
}
