import { E164_CELL_BYTES, rowsCapacity, rowsMemBytes } from "../worker/csv";

/**
 * A batch's working memory, reused from batch to batch: parse results, per-row flags and output bytes.
 * With the reader's reused input buffers, a scrub allocates its memory once instead of per batch, so
 * nothing piles up for the garbage collector (docs/decisions/019).
 */
export interface Slot {
  rowsMem: SharedArrayBuffer;
  /** Rows the flags hold: maybe (4 bytes a row) | outOfState | dup | classes | reasonIdx (1 byte a row each). */
  cap: number;
  flagsMem: SharedArrayBuffer;
  outMem: SharedArrayBuffer;
}

export function newSlot(batchBytes: number): Slot {
  const cap = rowsCapacity(batchBytes);
  return {
    rowsMem: new SharedArrayBuffer(rowsMemBytes(batchBytes)),
    cap,
    flagsMem: new SharedArrayBuffer(cap * 8),
    // every row gains its phone_e164 cell (13 bytes, decision 184); bad and invalid get `,reason` (a few % of rows
    // in practice); the calling columns grow good rows further (the emit then makes a bigger block, kept here)
    outMem: new SharedArrayBuffer(Math.ceil(batchBytes * 1.25) + E164_CELL_BYTES * cap + 4096),
  };
}

/** The ordered step's per-row verdicts of a batch of n rows, in the slot's memory when it fits. */
export function verdictArrays(slot: Slot, n: number): { classes: Uint8Array; reasonIdx: Uint8Array } {
  const fits = n <= slot.cap;
  const shared = fits ? slot.flagsMem : new SharedArrayBuffer(n * 2);
  return {
    classes: new Uint8Array(shared, fits ? slot.cap * 6 : 0, n),
    reasonIdx: new Uint8Array(shared, fits ? slot.cap * 7 : n, n),
  };
}

/** Where the duplicate check writes a batch's flags (the slot's memory when it fits). */
export function dupArray(slot: Slot, n: number): Uint8Array | undefined {
  return n <= slot.cap ? new Uint8Array(slot.flagsMem, slot.cap * 5, n) : undefined;
}
