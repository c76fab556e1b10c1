/**
 * A customer's exemption list as a scrub reads it, and the `exemption` notes of the rows an exemption let through.
 * Whether a record clears a hit is the one decision's (decision/decide.ts, decision 182): a hit on an exemptible
 * list (the federal or a state do-not-call list) is cleared when the record applies at the scrub's instant under
 * THAT list's windows; a hit on any other list (litigation, the customer's container) is never cleared. A row
 * whose every hit was cleared ends good with the `exemption` note.
 */
import { notAppliedWords, RECORD_OUTCOMES, type DecisionLists } from "../decision/decide";
import { exemptionNote } from "./windows";
import { indexOfSorted } from "../sorted";

/** A customer's exemption list as the scrub reads it: numbers ascending, a basis index and a day each. */
export interface ExemptionIndex {
  numbers: Float64Array;
  basis: Uint8Array;
  day: Int32Array;
}

/** Position of `n` in the index, or -1. */
export function findExemption(index: ExemptionIndex, n: number): number {
  return indexOfSorted(index.numbers, n);
}

/**
 * A batch's exemptions as the one decision left them (pipeline/stages.ts `classify`, decision 182): per row, the
 * index record that lets a good row be called (-1 otherwise) and the first day it no longer applies (-1: no end).
 */
export interface ExemptionDecision {
  record: Int32Array;
  endDay: Int32Array;
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

/** A batch's decision with what the bad rows need: per row the lists whose hit stands and the record's outcome. */
export interface ExemptionDecisionFull extends ExemptionDecision {
  standing: Int32Array;
  /** RECORD_OUTCOMES index. */
  outcome: Uint8Array;
}

export interface BadExemptionNotes {
  /** Per row: index into `notes` (0 = the empty cell). */
  rowNote: Uint32Array;
  /** The batch's distinct cells, already quoted for the file's delimiter; notes[0] = "". */
  notes: string[];
  /** The listed numbers' records per outcome (RECORD_OUTCOMES order), per basis index (decision 184). */
  records: number[][];
}

/**
 * bad.csv's `exemption` cells (decision 184): for a bad row on a list whose number has a record, why the record did
 * not apply, in the one decision's words (decision/decide.ts notAppliedWords, from its standing lists); and the
 * records the decision read per outcome and basis (good rows' `applied`, bad rows' expired / never applicable / not
 * yet). `isBad(r)` / `isGood(r)`: the row's class.
 */
export function badExemptionNotes(
  decision: ExemptionDecisionFull,
  isGood: (r: number) => boolean,
  isBad: (r: number) => boolean,
  count: number,
  index: ExemptionIndex,
  delim: string,
  lists: DecisionLists,
  atMs: number,
): BadExemptionNotes {
  const rowNote = new Uint32Array(count);
  const notes = [""];
  const at = new Map<string, number>();
  const records = RECORD_OUTCOMES.map(() => [0, 0, 0]);
  for (let r = 0; r < count; r++) {
    const k = decision.record[r];
    if (k < 0) continue;
    const basis = index.basis[k];
    if (isGood(r)) {
      records[0][basis]++;
      continue;
    }
    if (!isBad(r)) continue;
    records[decision.outcome[r]][basis]++;
    const text = csvCell(notAppliedWords(lists, decision.standing[r], basis, index.day[k], atMs), delim);
    let i = at.get(text);
    if (i === undefined) {
      at.set(text, (i = notes.length));
      notes.push(text);
    }
    rowNote[r] = i;
  }
  return { rowNote, notes, records };
}

function csvCell(text: string, delim: string): string {
  return text.includes(delim) || text.includes('"') ? `"${text.replaceAll('"', '""')}"` : text;
}
