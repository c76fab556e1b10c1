/**
 * A customer's call history as a scrub reads it (issue #46, decision 191): every record of the owner's since the
 * longest cap window before the scrub's instant, read once per job, held in a few typed arrays keyed by the number's
 * integer (numbers ascending, each number's records in a run), like the exemption index (exemption-rules/decide.ts).
 * A row whose number has no record costs one binary search and allocates nothing; a number with records is turned
 * into the caps' records (`recordsAt`) for the one evaluation the lookup uses too. Pure.
 */
import type { CapRecord } from "../calling/caps";
import { CALL_CHANNELS, CALL_OUTCOMES, type CallChannel, type CallOutcome } from "./validate";
import { indexOfSorted } from "../sorted";

export interface CallHistoryIndex {
  /** Distinct numbers (the 10-digit integer), ascending. */
  numbers: Float64Array;
  /** Number i's records are [starts[i], starts[i + 1]). */
  starts: Uint32Array;
  atMs: Float64Array;
  /** Index into CALL_CHANNELS / CALL_OUTCOMES. */
  channel: Uint8Array;
  outcome: Uint8Array;
  /** Index into `subjects`. */
  subject: Uint32Array;
  /** Index into `debts`, or -1: no debt id. */
  debt: Int32Array;
  subjects: string[];
  debts: string[];
  /** Records held. */
  count: number;
}

/** One record as the index is built from it. */
export interface HistoryRow {
  number: number;
  atMs: number;
  subject: string;
  channel: CallChannel;
  outcome: CallOutcome;
  debtId: string | null;
}

/** An index with no record (a scrub whose owner has no history in the window). */
export function emptyHistoryIndex(): CallHistoryIndex {
  return buildHistoryIndex([]);
}

/** The index of these records, in any order. */
export function buildHistoryIndex(rows: readonly HistoryRow[]): CallHistoryIndex {
  const order = rows.map((_, i) => i).sort((a, b) => rows[a].number - rows[b].number || rows[a].atMs - rows[b].atMs);
  const n = rows.length;
  const atMs = new Float64Array(n);
  const channel = new Uint8Array(n);
  const outcome = new Uint8Array(n);
  const subject = new Uint32Array(n);
  const debt = new Int32Array(n);
  const subjects: string[] = [];
  const debts: string[] = [];
  const subjectIds = new Map<string, number>();
  const debtIds = new Map<string, number>();
  const numbers: number[] = [];
  const starts: number[] = [];
  order.forEach((k, i) => {
    const r = rows[k];
    if (numbers.length === 0 || numbers[numbers.length - 1] !== r.number) {
      numbers.push(r.number);
      starts.push(i);
    }
    atMs[i] = r.atMs;
    channel[i] = CALL_CHANNELS.indexOf(r.channel);
    outcome[i] = CALL_OUTCOMES.indexOf(r.outcome);
    let s = subjectIds.get(r.subject);
    if (s === undefined) subjectIds.set(r.subject, (s = subjects.push(r.subject) - 1));
    subject[i] = s;
    if (r.debtId === null) debt[i] = -1;
    else {
      let d = debtIds.get(r.debtId);
      if (d === undefined) debtIds.set(r.debtId, (d = debts.push(r.debtId) - 1));
      debt[i] = d;
    }
  });
  starts.push(n);
  return { numbers: Float64Array.from(numbers), starts: Uint32Array.from(starts), atMs, channel, outcome, subject, debt, subjects, debts, count: n };
}

/** Position of number `n` in the index, or -1 (no record). */
export function findHistory(index: CallHistoryIndex, n: number): number {
  return indexOfSorted(index.numbers, n);
}

/** The 24-hour and 7-day windows of good.csv's calls_24h / calls_7d (the lookup's callsLast24h / callsLast7d). */
export const CALLS_DAY_MS = 24 * 3_600_000;
export const CALLS_WEEK_MS = 7 * CALLS_DAY_MS;

/**
 * The records of number i after atMs − 24 h and after atMs − 7 days: every record, calls and texts, every outcome,
 * reservations included, one stamped a little ahead of the instant too (as the lookup counts them, decision 187).
 * Written into `out` ([day, week]).
 */
export function callCounts(index: CallHistoryIndex, i: number, atMs: number, out: [number, number]): [number, number] {
  let day = 0;
  let week = 0;
  const dayFrom = atMs - CALLS_DAY_MS;
  const weekFrom = atMs - CALLS_WEEK_MS;
  for (let k = index.starts[i], e = index.starts[i + 1]; k < e; k++) {
    const t = index.atMs[k];
    if (t > dayFrom) day++;
    if (t > weekFrom) week++;
  }
  out[0] = day;
  out[1] = week;
  return out;
}

/** Number i's records as the caps count them (calling/caps.ts): made only for a number that has some. */
export function capRecordsOf(index: CallHistoryIndex, i: number): CapRecord[] {
  const out: CapRecord[] = [];
  for (let k = index.starts[i], e = index.starts[i + 1]; k < e; k++) {
    const d = index.debt[k];
    out.push({
      atMs: index.atMs[k],
      subject: index.subjects[index.subject[k]],
      channel: CALL_CHANNELS[index.channel[k]],
      outcome: CALL_OUTCOMES[index.outcome[k]],
      debtId: d < 0 ? null : index.debts[d],
    });
  }
  return out;
}
