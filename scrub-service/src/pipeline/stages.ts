/**
 * The scrub's stages, named, in the order that decides a row's fate: normalize (invalid rows), then the
 * stages that mark rows bad — dedupe, the state filter, and one check per list in the job's order. A row's
 * first mark wins and gives its reason. The stages' work runs where it is fastest (normalize, the state
 * filter and the Bloom filters in the parse workers, duplicates on their own thread, list lookups against
 * the store); here each stage names its reason and the per-row flags it reads from a batch, and the ordered
 * step applies them in one tight pass per stage over typed arrays (no per-row objects or calls).
 *
 * The lists are not stages of their own: a row that no row stage marks is decided by the one decision
 * (decision/decide.ts `decideListHits`, decision 182), the function the live lookup asks too, over the row's hit
 * bits and its exemption record.
 *
 * A new stage: its flags in BatchFindings (computed where its work runs), a BadStage here, and its reason in
 * REASONS. A new list: an entry in list-types.ts (its reason is its kind).
 */
import { CONTAINER_REASON, INTERNAL_DNC_REASON, LIST_TYPES } from "../list-types";
import { CLASS_BAD, CLASS_GOOD, CLASS_INVALID } from "../worker/csv";
import { INVALID_REASONS, reasonIndexOfCode } from "../numbers/normalize";
import { decideListHits, decisionLists, listVerdict, NO_RECORD, recordOutcome, type DecisionLists } from "../decision/decide";
import { findExemption, type ExemptionIndex } from "../exemption-rules/decide";
import type { ListCheck } from "./list-checks";

/** Every reason a row can get; the emit step writes REASONS[reasonIdx]. */
export const REASONS: readonly string[] = [
  ...LIST_TYPES.map((t) => t.kind),
  CONTAINER_REASON.reason,
  INTERNAL_DNC_REASON.reason,
  "duplicate",
  "state",
  ...INVALID_REASONS,
];

const INVALID0 = REASONS.indexOf(INVALID_REASONS[0]);

/** What the stages found in one batch: per row, typed arrays. */
export interface BatchFindings {
  /** Normalized numbers; negative = invalid (reasonIndexOfCode gives its reason in INVALID_REASONS). */
  codes: Float64Array;
  count: number;
  /** 1: an earlier row of the file has the same number. */
  dup: Uint8Array;
  /** 1: the area code is outside the chosen states. */
  outOfState: Uint8Array;
  /** Per list check (in order), 1: the number is on that list; null when no row of the batch is. */
  listHits: (Uint8Array | null)[];
}

/** A stage that marks rows bad. */
export interface BadStage {
  readonly name: string;
  readonly reason: string;
  /** The rows it marks in this batch (1), or null when it marks none. Called once per batch. */
  marks(b: BatchFindings): Uint8Array | null;
}

export const dedupeStage: BadStage = { name: "dedupe", reason: "duplicate", marks: (b) => b.dup };

export const stateFilterStage: BadStage = { name: "state filter", reason: "state", marks: (b) => b.outOfState };

/** The row stages of one scrub (about a file's rows, not a number), in the order that gives the reason. */
export function badStages(o: { stateFilter: boolean }): BadStage[] {
  return [dedupeStage, ...(o.stateFilter ? [stateFilterStage] : [])];
}

/** The lists' part of a scrub's decision: its checks in order (bit l of a row's hits = check l) and its exemptions. */
export interface ListDecision {
  lists: DecisionLists;
  /** Per check: its reason's index in REASONS. */
  reasonIdx: number[];
  /** The customer's exemption list and the instant it is applied at, when the scrub has one (decision 161). */
  exemptions: { index: ExemptionIndex; at: number } | null;
}

export function listDecision(lists: readonly ListCheck[], exemptions: { index: ExemptionIndex; at: number } | null): ListDecision {
  return { lists: decisionLists(lists.map((l) => l.reason)), reasonIdx: lists.map((l) => reasonIndex(l.reason)), exemptions };
}

export interface Verdicts {
  /** Rows per class (good, bad, invalid). */
  counts: number[];
  /** Bad and invalid rows per reason (index in REASONS). */
  byReason: number[];
  /**
   * With exemptions, per row on a list: the exemption index record the decision read (-1: none; a good row's lets it
   * be called), the first day it no longer applies (good rows; -1: no end), the lists whose hit stands (bad rows) and
   * the record's outcome (RECORD_OUTCOMES index; decision 184).
   */
  exempt: { record: Int32Array; endDay: Int32Array; standing: Int32Array; outcome: Uint8Array } | null;
}

/**
 * The ordered step (duplicates need every earlier row): fills each row's class and reason index. An invalid
 * row keeps its invalid reason; a valid one gets the reason of the first row stage that marks it, else the one
 * decision's over its list hits (the first hit no exemption cleared), or stays good.
 * One pass over the rows with the stages' marks and the lists' hits side by side (a pass per stage cost ~2× on
 * 3M rows); no object per row.
 */
export function classify(b: BatchFindings, stages: readonly BadStage[], classes: Uint8Array, reasonIdx: Uint8Array, decision: ListDecision): Verdicts {
  const n = b.count;
  const codes = b.codes;
  const marks: Uint8Array[] = [];
  const reasons: number[] = [];
  for (const stage of stages) {
    const m = stage.marks(b);
    if (!m) continue;
    marks.push(m);
    reasons.push(reasonIndex(stage.reason));
  }
  const k = marks.length;
  // the lists that hold a number of this batch, and their bits in the decision's order
  const hitRows: Uint8Array[] = [];
  const hitBits: number[] = [];
  b.listHits.forEach((h, l) => {
    if (!h) return;
    hitRows.push(h);
    hitBits.push(1 << l);
  });
  const h = hitRows.length;
  const { lists, exemptions } = decision;
  const listReason = decision.reasonIdx;
  const exempt = exemptions
    ? { record: new Int32Array(n).fill(-1), endDay: new Int32Array(n).fill(-1), standing: new Int32Array(n), outcome: new Uint8Array(n) }
    : null;
  const verdict = listVerdict();
  const byReason = new Array<number>(REASONS.length).fill(0);
  let good = 0;
  let bad = 0;
  for (let r = 0; r < n; r++) {
    const x = codes[r];
    if (x < 0) {
      const reason = INVALID0 + reasonIndexOfCode(x);
      classes[r] = CLASS_INVALID;
      reasonIdx[r] = reason;
      byReason[reason]++;
      continue;
    }
    let s = 0;
    while (s < k && marks[s][r] === 0) s++;
    let reason = -1;
    if (s < k) reason = reasons[s];
    else if (h !== 0) {
      let hits = 0;
      for (let j = 0; j < h; j++) if (hitRows[j][r] !== 0) hits |= hitBits[j];
      if (hits !== 0) {
        // a row on a list (a few %): the one decision, with the row's exemption record (read for every listed row:
        // a record that does not apply is said in bad.csv's `exemption` cell, decision 184)
        let record = -1;
        if (exemptions !== null) record = findExemption(exemptions.index, x);
        const by =
          record < 0
            ? decideListHits(lists, hits, NO_RECORD, 0, 0, verdict)
            : decideListHits(lists, hits, exemptions!.index.basis[record], exemptions!.index.day[record], exemptions!.at, verdict);
        if (by >= 0) reason = listReason[by];
        if (record >= 0) {
          exempt!.record[r] = record;
          exempt!.endDay[r] = verdict.endDay;
          exempt!.standing[r] = verdict.standing;
          exempt!.outcome[r] = recordOutcome(lists, verdict, exemptions!.index.day[record], exemptions!.at);
        }
      }
    }
    if (reason < 0) {
      classes[r] = CLASS_GOOD;
      reasonIdx[r] = 0;
      good++;
    } else {
      classes[r] = CLASS_BAD;
      reasonIdx[r] = reason;
      byReason[reason]++;
      bad++;
    }
  }
  return { counts: [good, bad, n - good - bad], byReason, exempt };
}

function reasonIndex(reason: string): number {
  const i = REASONS.indexOf(reason);
  if (i < 0) throw new Error(`Unknown scrub reason '${reason}'.`);
  return i;
}
