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
  return Promise.all(
    lists.map(async (list, l) => {
      if (!list.snapshot) return null;
      const bit = 1 << l;
      const ask: number[] = [];
      for (let r = 0; r < rows.count; r++) if (maybe[r] & bit) ask.push(r);
      if (!ask.length) return null;
      const nums = new Float64Array(ask.length);
      for (let i = 0; i < ask.length; i++) nums[i] = rows.codes[ask[i]];
      const answers = await list.snapshot.has(nums, ask.length);
      const hits = new Uint8Array(rows.count);
      for (let i = 0; i < ask.length; i++) if (answers[i]) hits[ask[i]] = 1;
      return hits;
    }),
  );
}
