/**
 * The exemption decision of one batch, after its list hits are known (pure, no I/O): a hit on an exemptible list
 * (the federal or a state do-not-call list) is cleared when the number's exemption record applies at the scrub's
 * instant under THAT list's windows; a hit on any other list (litigation, the customer's container) is never
 * cleared. A row whose every exemptible hit was cleared and that ends good gets the `exemption` note.
 */
import { exemptionApplies, exemptionEndDay, exemptionNote, type ExemptionWindows } from "./windows";

/** A customer's exemption list as the scrub reads it: numbers ascending, a basis index and a day each. */
export interface ExemptionIndex {
  numbers: Float64Array;
  basis: Uint8Array;
  day: Int32Array;
}

/** Position of `n` in the index, or -1. */
export function findExemption(index: ExemptionIndex, n: number): number {
  const a = index.numbers;
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[mid];
    if (v === n) return mid;
    if (v < n) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export interface ExemptionDecision {
  /** The batch's list hits with the exempted ones cleared (arrays copied before any change). */
  listHits: (Uint8Array | null)[];
  /** Per row: the index record that cleared all its exemptible hits, else -1. */
  record: Int32Array;
  /** Per row with a record: the first day the exemption no longer applies (the earliest over its lists), -1 = none. */
  endDay: Int32Array;
}

/**
 * `windows[l]`: list l's windows, or null when the list is never exempted. Rows without a hit on an exemptible
 * list are not looked up.
 */
export function decideExemptions(
  codes: Float64Array,
  count: number,
  listHits: readonly (Uint8Array | null)[],
  windows: readonly (ExemptionWindows | null)[],
  index: ExemptionIndex,
  atMs: number,
): ExemptionDecision {
  const out = listHits.slice();
  const copied = new Uint8Array(listHits.length);
  const record = new Int32Array(count).fill(-1);
  const endDay = new Int32Array(count).fill(-1);
  const exemptible: number[] = [];
  listHits.forEach((h, l) => {
    if (h && windows[l]) exemptible.push(l);
  });
  if (!exemptible.length) return { listHits: out, record, endDay };
  for (let r = 0; r < count; r++) {
    let hit = false;
    for (const l of exemptible) if (listHits[l]![r]) hit = true;
    if (!hit) continue;
    const k = findExemption(index, codes[r]);
    if (k < 0) continue;
    const basis = index.basis[k];
    const day = index.day[k];
    let all = true;
    let end = -1;
    for (const l of exemptible) {
      if (!listHits[l]![r]) continue;
      const w = windows[l]!;
      if (!exemptionApplies(basis, day, w, atMs)) {
        all = false;
        continue;
      }
      if (!copied[l]) {
        out[l] = listHits[l]!.slice();
        copied[l] = 1;
      }
      out[l]![r] = 0;
      const e = exemptionEndDay(basis, day, w);
      if (e !== null && (end < 0 || e < end)) end = e;
    }
    if (all) {
      record[r] = k;
      endDay[r] = end;
    }
  }
  return { listHits: out, record, endDay };
}

export interface ExemptionNotes {
  /** Per row: index into `notes` (0 = the empty cell). */
  rowNote: Uint32Array;
  /** The batch's distinct cells, already quoted for the file's delimiter; notes[0] = "". */
  notes: string[];
  /** Good rows let through, per basis index (purchase, inquiry, consent). */
  byBasis: [number, number, number];
}

/** The notes of the rows that ended good with an exemption (`good[r]` true), and the counts per basis. */
export function exemptionNotes(
  decision: ExemptionDecision,
  isGood: (r: number) => boolean,
  count: number,
  index: ExemptionIndex,
  delim: string,
): ExemptionNotes {
  const rowNote = new Uint32Array(count);
  const notes = [""];
  const at = new Map<string, number>();
  const byBasis: [number, number, number] = [0, 0, 0];
  for (let r = 0; r < count; r++) {
    const k = decision.record[r];
    if (k < 0 || !isGood(r)) continue;
    const basis = index.basis[k];
    byBasis[basis as 0 | 1 | 2]++;
    const end = decision.endDay[r];
    const text = csvCell(exemptionNote(basis, index.day[k], end < 0 ? null : end), delim);
    let i = at.get(text);
    if (i === undefined) {
      at.set(text, (i = notes.length));
      notes.push(text);
    }
    rowNote[r] = i;
  }
  return { rowNote, notes, byBasis };
}

function csvCell(text: string, delim: string): string {
  return text.includes(delim) || text.includes('"') ? `"${text.replaceAll('"', '""')}"` : text;
}
