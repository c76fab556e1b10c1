/**
 * The calling-window columns of good.csv (time_zone, callable_now, next_call_at, next_call_local, calling_note) for one scrub: each class of
 * number evaluated once at the scrub's instant, its cells encoded once, and the per-class counts summed into the
 * summary the results screen, the certificate and the CLI show. Pure CPU.
 */
import type { GoodSuffixes } from "../worker/csv";
import type { CallingClassTable } from "./exchanges";
import { TIME_ZONE_SOURCE } from "./exchanges";
import { CALLING_RULES_VERSION } from "./rules";
import { evaluateClass } from "./note";
import { isoSecond, sameLocalDay, type CallingAnswer } from "./window";
import type { EmergencyPeriod } from "./emergency";
import type { CallingClass } from "./exchanges";
import type { CapPurpose, CapVerdict } from "./caps";

export const CALLING_COLUMNS = ["time_zone", "callable_now", "next_call_at", "next_call_local", "calling_note"] as const;
/** After the calling columns when the scrub counts calls (decision 191): the number's records in 24 hours and 7 days. */
export const CALLS_COLUMNS = ["calls_24h", "calls_7d"] as const;

/** What a scrub that counted calls says of them (decision 191): the summary's and the certificate's `calls`. */
export interface CallsSummary {
  capsVersion: string;
  purpose: CapPurpose;
  subject: string;
  /** The column each row's debt id was read from (debt collection), else null. */
  debtColumn: string | null;
  /** The owner's call history the scrub read once: the records after `since`, and their SHA-256. */
  history: { since: string; records: number; sha256: string };
  /** Good rows whose number had a record in the 7 days before the instant. */
  rowsWithCalls: number;
  /** Good rows a frequency cap held back (not callable now for it). */
  heldByCaps: number;
  /** Per cap, the good rows it held (a row held by two caps counts under each). */
  byCap: { cap: string; cite: string; rows: number }[];
}

export interface CallingSummary {
  /** The evaluation instant, YYYY-MM-DDTHH:MM:SSZ. */
  at: string;
  rulesVersion: string;
  timeZoneSource: string;
  /** Good rows callable at the instant / later the same local day / not that day (after hours, Sunday or holiday). */
  callableNow: number;
  laterToday: number;
  notToday: number;
  /**
   * Good rows with no time zone (toll-free and other non-geographic numbers), counted here only (not in the three
   * counts above): their cells are the strictest reading across every US time zone (decision 180).
   */
  noTimeZone: number;
  /** Good rows per zone set ("America/Chicago|America/New_York"), largest first. */
  byTimeZone: { zones: string; count: number }[];
  /**
   * Why good rows were not callable at the instant: each calling note (the rule that held them back, with its
   * citation) and its rows, largest first (#44). Rows without a time zone are counted under their own note.
   */
  heldBack: { note: string; count: number }[];
  /**
   * The emergency no-call periods the evaluation took into account (in force or upcoming at the instant; decision
   * 181), each with the good rows it held back. Absent when there was none.
   */
  emergencyPeriods?: EmergencyPeriodProof[];
  /** With calls counted (decision 191): the history read and the rows the caps held back. */
  calls?: CallsSummary;
}

/** An emergency no-call period as the summary and the certificate record it. */
export interface EmergencyPeriodProof {
  id: number;
  states: string[];
  areaCodes: number[] | null;
  firstDay: string;
  lastDay: string;
  authority: string;
  sourceUrl: string;
  /** Good rows whose answer the period held back (not callable now, or next_call_at after it). */
  heldRows: number;
}

const encoder = new TextEncoder();

function cell(text: string, delim: number): string {
  const d = String.fromCharCode(delim);
  return text.includes(d) || text.includes('"') ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header cells to append to good.csv's header row (each preceded by the delimiter); `calls`: calls_24h and calls_7d too. */
export function callingHeaderBytes(delim: number, calls = false): Uint8Array {
  const d = String.fromCharCode(delim);
  return encoder.encode([...CALLING_COLUMNS, ...(calls ? CALLS_COLUMNS : [])].map((c) => d + c).join(""));
}

/** The five calling cells of one answer, each after the delimiter (a row a cap holds: its own, not its class's). */
export function callingCells(cls: CallingClass, callableNow: boolean, nextCallAt: number, nextCallLocal: string, note: string, delim: number): string {
  const d = String.fromCharCode(delim);
  return d + cell(cls.zoneSet, delim) + d + (callableNow ? "yes" : "no") + d + isoSecond(nextCallAt) + d + nextCallLocal + d + cell(note, delim);
}

/**
 * The good rows a frequency cap held back, tallied on the main thread as each batch is classified (decision 191):
 * they are not counted in their class (the emit skips them), so the summary adds them here.
 */
export class CappedRows {
  held = 0;
  withCalls = 0;
  laterToday = 0;
  notToday = 0;
  noTimeZone = 0;
  readonly byNote = new Map<string, number>();
  readonly byZone = new Map<string, number>();
  readonly byCap = new Map<string, { cite: string; rows: number }>();
  /** Held rows per calling class (the emergency periods' held rows count them too). */
  readonly byClass = new Map<number, number>();

  /**
   * A row of class `k` that a cap holds, with its answer. The held-back table groups it under the caps that hold it
   * ("Call limit: Florida: three … (Fla. Stat. § 501.616(6)(b))"), not under its own note: each row's note names its
   * own lift instant, which would give the table a line per row.
   */
  add(k: number, cls: CallingClass, atMs: number, nextCallAt: number, verdict: CapVerdict): void {
    this.held++;
    this.byClass.set(k, (this.byClass.get(k) ?? 0) + 1);
    const note = verdict.holds.map((h) => `Call limit: ${h.cap.name} (${h.cap.cite})`).join("; ");
    this.byNote.set(note, (this.byNote.get(note) ?? 0) + 1);
    for (const h of verdict.holds) {
      const c = this.byCap.get(h.cap.id);
      if (c) c.rows++;
      else this.byCap.set(h.cap.id, { cite: h.cap.cite, rows: 1 });
    }
    if (k === 0) {
      this.noTimeZone++;
      return;
    }
    if (sameLocalDay(cls.readZones, atMs, nextCallAt)) this.laterToday++;
    else this.notToday++;
    this.byZone.set(cls.zoneSet, (this.byZone.get(cls.zoneSet) ?? 0) + 1);
  }
}

export interface CallingEvaluation {
  at: number;
  /** Per class (class 0: the strictest reading of a number without a time zone). */
  answers: CallingAnswer[];
  /** Per class, the calling note (empty when callable now; class 0 always says it has no time zone). */
  notes: string[];
  /** Per class, next_call_at in the class's first zone with its offset (empty for class 0; decision 184). */
  locals: string[];
  /** Shared memory for the emit (counts: give each batch its own, see freshCounts). */
  suffixes: Omit<GoodSuffixes, "counts">;
}

/**
 * Every class evaluated at `atMs` and its five cells encoded, the note included (class 0, no time zone: an empty
 * zone cell and the strictest reading across every US time zone).
 */
export function evaluateClasses(table: CallingClassTable, atMs: number, delim: number): CallingEvaluation {
  const at = Math.floor(atMs / 1000) * 1000;
  const verdicts = table.classes.map((c) => evaluateClass(c, at));
  const answers = verdicts.map((v) => v.answer);
  const notes = verdicts.map((v) => v.note);
  const locals = verdicts.map((v) => v.nextCallLocal);
  const texts = table.classes.map((c, i) => callingCells(c, answers[i].callableNow, answers[i].nextCallAt, locals[i], notes[i], delim));
  const encoded = texts.map((t) => encoder.encode(t));
  const total = encoded.reduce((s, e) => s + e.length, 0);
  const bytes = new Uint8Array(new SharedArrayBuffer(Math.max(1, total)));
  const starts = new Uint32Array(new SharedArrayBuffer(4 * (encoded.length + 1)));
  let o = 0;
  encoded.forEach((e, i) => {
    starts[i] = o;
    bytes.set(e, o);
    o += e.length;
  });
  starts[encoded.length] = o;
  return { at, answers, notes, locals, suffixes: { classOf: table.byExchange, bytes, starts } };
}

export function freshCounts(classes: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(4 * classes));
}

export function summarizeCalling(
  table: CallingClassTable,
  evaluation: CallingEvaluation,
  counts: ArrayLike<number>,
  capped?: CappedRows | null,
): CallingSummary {
  const s: CallingSummary = {
    at: isoSecond(evaluation.at),
    rulesVersion: CALLING_RULES_VERSION,
    timeZoneSource: TIME_ZONE_SOURCE,
    callableNow: 0,
    laterToday: 0,
    notToday: 0,
    noTimeZone: 0,
    byTimeZone: [],
    heldBack: [],
  };
  const byZone = new Map<string, number>();
  const byNote = new Map<string, number>();
  table.classes.forEach((c, i) => {
    const n = counts[i] ?? 0;
    if (!n) return;
    const a = evaluation.answers[i];
    if (!a.callableNow) byNote.set(evaluation.notes[i], (byNote.get(evaluation.notes[i]) ?? 0) + n);
    if (i === 0) {
      s.noTimeZone += n;
      return;
    }
    if (a.bucket === "now") s.callableNow += n;
    else if (a.bucket === "later_today") s.laterToday += n;
    else s.notToday += n;
    byZone.set(c.zoneSet, (byZone.get(c.zoneSet) ?? 0) + n);
  });
  if (capped) {
    s.laterToday += capped.laterToday;
    s.notToday += capped.notToday;
    s.noTimeZone += capped.noTimeZone;
    for (const [z, n] of capped.byZone) byZone.set(z, (byZone.get(z) ?? 0) + n);
    for (const [note, n] of capped.byNote) byNote.set(note, (byNote.get(note) ?? 0) + n);
  }
  const periods: readonly EmergencyPeriod[] = (table as { emergencyPeriods?: EmergencyPeriod[] }).emergencyPeriods ?? [];
  if (periods.length) {
    const held = new Map<number, number>();
    table.classes.forEach((_, i) => {
      const n = (counts[i] ?? 0) + (capped?.byClass.get(i) ?? 0);
      for (const e of evaluation.answers[i].emergency ?? []) held.set(e.applied.period.id, (held.get(e.applied.period.id) ?? 0) + n);
    });
    s.emergencyPeriods = periods.map((p) => ({
      id: p.id,
      states: [...p.states],
      areaCodes: p.areaCodes ? [...p.areaCodes] : null,
      firstDay: p.firstDay,
      lastDay: p.lastDay,
      authority: p.authority,
      sourceUrl: p.sourceUrl,
      heldRows: held.get(p.id) ?? 0,
    }));
  }
  s.byTimeZone = [...byZone].map(([zones, count]) => ({ zones, count })).sort((a, b) => b.count - a.count || a.zones.localeCompare(b.zones));
  s.heldBack = [...byNote].map(([note, count]) => ({ note, count })).sort((a, b) => b.count - a.count || a.note.localeCompare(b.note));
  return s;
}
