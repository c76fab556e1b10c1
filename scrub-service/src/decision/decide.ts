/**
 * The one decision (issue #45, decision 182): given a number, the lists holding it, its exemption record, its
 * calling answer and the instant, what is the answer and why. Every path that answers for a number asks here: the
 * batch worker (pipeline/stages.ts `classify`, per row, over integer inputs), the live lookup (app/api/lookup.server.ts,
 * per distinct combination of lists and record; it only formats the answer) and whatever asks next.
 *
 * Pure: no I/O, no process.env, no Node built-ins (exported by `scrub-service/domain`).
 *
 * The rule:
 * - an invalid number (the normalizer's negative code) is `invalid`, with the normalizer's reason and words;
 * - the checked lists are taken in the order that gives the reason: the customer's container first, then the
 *   suppression type's lists in registry order (litigation, dnc, the state lists, dnc-ca), as a scrub checks them;
 * - a hit on an exemptible list (list-types.ts `exemptionWindowsOf`: the federal and the state do-not-call lists) is
 *   cleared when the number's record applies at the instant under THAT list's windows (decision 161); a hit on
 *   litigation, the container or the internal do-not-call list is never cleared (a do-not-call request to the seller
 *   ends any exemption: an opt-out revokes consent, decision 195);
 * - the first hit left standing gives the reason (`bad`); with none, a number is `good`, and `exempt` (basis, date,
 *   until = the earliest end over the lists it cleared) when an exemption is what lets it be called;
 * - `staleLists` (the lookup's stricter reading, decision 174): while a checked list is past its freshness rule, a
 *   number nothing else suppresses is `bad` with reason `stale_list`. A scrub never passes it: with "refuse stale
 *   DNC" on it refuses the job, off it runs and names the stale lists in its certificate;
 * - the calling answer (callable now, next call, note) is the number's calling class evaluated at the instant
 *   (calling/note.ts `evaluateClass`, decision 180), passed in pre-resolved: the scrub evaluates each class
 *   once per job, the lookup once per class and second. good.csv prints it for good rows; the lookup for every
 *   valid number. With the number's call history (decision 187) a frequency cap that holds makes it not callable
 *   now, the next call when the cap lifts (at a lawful hour), the note naming the cap (`callingWithCaps`).
 *
 * Duplicates and the state filter are about a file's rows, not a number: the batch's own stages, before this.
 */
import { CONTAINER_REASON, INTERNAL_DNC_REASON, LIST_TYPES, exemptionWindowsOf, type ExemptionWindows } from "../list-types";
import { BASIS_PURCHASE, DAY_MS, EXEMPTION_BASES, exemptionApplies, exemptionEndDay, isoDateOfDay, type ExemptionBasis } from "../exemption-rules/windows";
import { invalidReasonText, reasonOfCode } from "../numbers/normalize";
import type { CapVerdict } from "../calling/caps";

/** The reason a number gets while a checked list is stale and nothing else suppresses it (decision 174). */
export const STALE_LIST_REASON = "stale_list";
export const STALE_LIST_WORDS = "A list checked is past its freshness rule: not callable on its word";

/** A decision reads at most 32 lists: one bit each in a hit mask (a scrub's MAX_LIST_CHECKS). */
export const MAX_DECISION_LISTS = 32;

/** The lists a decision checks, in the order that gives the reason, with what an exemption may clear. */
export interface DecisionLists {
  /** Each list's reason: its kind (list-types.ts) or "container". */
  readonly kinds: readonly string[];
  /** Each list's exemption windows, or null when nothing exempts a number on it. */
  readonly windows: readonly (ExemptionWindows | null)[];
  /** Bit l set: list l is exemptible. */
  readonly exemptibleMask: number;
}

/** The decision's lists of these kinds, in this order (the reason order; see decisionOrder). */
export function decisionLists(kinds: readonly string[]): DecisionLists {
  if (kinds.length > MAX_DECISION_LISTS) throw new Error(`A decision checks at most ${MAX_DECISION_LISTS} lists (got ${kinds.length}).`);
  const windows = kinds.map((k) => exemptionWindowsOf(k));
  let exemptibleMask = 0;
  windows.forEach((w, l) => {
    if (w) exemptibleMask |= 1 << l;
  });
  return { kinds: [...kinds], windows, exemptibleMask };
}

/**
 * The reason order of a scrub or a lookup: the customer's internal do-not-call list (when it has one: every scrub and
 * lookup of its owner checks it, decision 195), then the container chosen (when one is, and it is not that list), then
 * the suppression type's lists.
 */
export function decisionOrder(withContainer: boolean, checked: readonly string[], withInternalDnc = false): string[] {
  return [...(withInternalDnc ? [INTERNAL_DNC_REASON.reason] : []), ...(withContainer ? [CONTAINER_REASON.reason] : []), ...checked];
}

/** No record: the basis index a decision reads as "none". */
export const NO_RECORD = -1;
/** No end (written consent), or no exemption. */
export const NO_END = -1;

/** What decideListHits found besides its answer, written into a reused object (no allocation per row). */
export interface ListVerdict {
  /** The list giving the reason (its index), or -1: nothing left standing. */
  by: number;
  /** Bits of the lists whose hit the record cleared. */
  cleared: number;
  /** The first day the exemption no longer applies (the earliest over the cleared lists), or NO_END. */
  endDay: number;
  /** Bits of the lists whose hit stands (the record, if any, did not clear it): `by` is the first. */
  standing: number;
}

export function listVerdict(): ListVerdict {
  return { by: -1, cleared: 0, endDay: NO_END, standing: 0 };
}

/**
 * The core of the decision, over integers (the batch calls it per row that is on a list): `hits` bit l = the
 * number is on list l; the record as its basis index (EXEMPTION_BASES, NO_RECORD when none) and its day. Answers
 * the index of the list giving the reason, or -1 (no hit left standing); `out` says what the record cleared.
 */
export function decideListHits(lists: DecisionLists, hits: number, basis: number, day: number, atMs: number, out: ListVerdict): number {
  out.cleared = 0;
  out.endDay = NO_END;
  if (basis < 0 || (hits & lists.exemptibleMask) === 0) {
    // nothing to clear: the first hit gives the reason
    const by = 31 - Math.clz32(hits & -hits);
    out.by = by;
    out.standing = hits;
    return by;
  }
  let by = -1;
  let cleared = 0;
  let end = NO_END;
  const n = lists.kinds.length;
  for (let l = 0; l < n; l++) {
    const bit = 1 << l;
    if ((hits & bit) === 0) continue;
    const w = lists.windows[l];
    if (w !== null && exemptionApplies(basis, day, w, atMs)) {
      cleared |= bit;
      const e = exemptionEndDay(basis, day, w);
      // an applied window ends after the instant (after 1970): a day number, never NO_END
      if (e !== null && (end === NO_END || e < end)) end = e;
    } else if (by < 0) by = l;
  }
  out.by = by;
  out.cleared = cleared;
  out.endDay = by < 0 ? end : NO_END;
  out.standing = hits & ~cleared;
  return by;
}

/** Why a record did not clear a list's hit (decision 184): the list is never exempted, the record's date is after the instant, or its window ended. */
export type NotAppliedCause = "never" | "not_yet" | "expired";

/** The cause for list l of a record (basis index, day) that did not clear it at atMs: read from the list's windows as decideListHits read them. */
export function notAppliedCause(lists: DecisionLists, l: number, day: number, atMs: number): NotAppliedCause {
  if (lists.windows[l] === null) return "never";
  return day * DAY_MS > atMs ? "not_yet" : "expired";
}

/** Where a list's windows come from, in words: "the federal rule", "Texas", "Canada". */
function windowsPlace(kind: string): string {
  if (kind === "dnc") return "the federal rule";
  const t = LIST_TYPES.find((x) => x.kind === kind) as { name: string; state?: { stateName: string } } | undefined;
  return t?.state?.stateName ?? t?.name ?? kind;
}

/**
 * Why a listed number's exemption record did not let it be called, one part per list whose hit stands (the decision's
 * `standing` bits, in the reason order), identical parts once, joined by "; " (decision 184):
 * - a list nothing exempts: "litigation list: never exempted", "your container: never exempted";
 * - a record dated after the instant: "purchase 2026-12-01: dated after the evaluation instant";
 * - a window that ended: "purchase 2025-05-15: Texas allows 12 months, ended 2026-05-15"; a basis the list's rule
 *   does not exempt at all (0 months): "inquiry 2026-10-01: Texas allows no inquiry exemption".
 * Empty when no hit stands. bad.csv's `exemption` cell and the lookup's `exemptionNote` (both from this function).
 */
export function notAppliedWords(lists: DecisionLists, standing: number, basis: number, day: number, atMs: number): string {
  const parts: string[] = [];
  const record = `${EXEMPTION_BASES[basis]} ${isoDateOfDay(day)}`;
  for (let l = 0; l < lists.kinds.length; l++) {
    if ((standing & (1 << l)) === 0) continue;
    const cause = notAppliedCause(lists, l, day, atMs);
    let text: string;
    if (cause === "never") {
      const label = reasonWords(lists.kinds[l]);
      text = `${label.charAt(0).toLowerCase()}${label.slice(1)}: never exempted`;
    } else if (cause === "not_yet") text = `${record}: dated after the evaluation instant`;
    else {
      const w = lists.windows[l]!;
      const months = basis === BASIS_PURCHASE ? w.purchaseMonths : w.inquiryMonths;
      const place = windowsPlace(lists.kinds[l]);
      const end = exemptionEndDay(basis, day, w);
      text =
        months === 0 || end === null
          ? `${record}: ${place} allows no ${EXEMPTION_BASES[basis]} exemption`
          : `${record}: ${place} allows ${months} month${months === 1 ? "" : "s"}, ended ${isoDateOfDay(end)}`;
    }
    if (!parts.includes(text)) parts.push(text);
  }
  return parts.join("; ");
}

/** What became of the listed numbers' records a decision read: applied, expired, never applicable, not yet begun. */
export const RECORD_OUTCOMES = ["applied", "expired", "neverApplicable", "notYet"] as const;
export type RecordOutcome = (typeof RECORD_OUTCOMES)[number];

/**
 * The outcome of a record the decision read for a listed number (decision 184): `applied` when it cleared every hit
 * (the number is good by it); `neverApplicable` when a list nothing exempts holds the number (litigation, the
 * container: no record could have helped); else `notYet` when the record is dated after the instant, `expired`
 * otherwise (a window ended, or the list's rule has no window for the basis). Index into RECORD_OUTCOMES.
 */
export function recordOutcome(lists: DecisionLists, v: ListVerdict, day: number, atMs: number): number {
  if (v.by < 0) return 0;
  if ((v.standing & ~lists.exemptibleMask) !== 0) return 2;
  return day * DAY_MS > atMs ? 3 : 1;
}

/** A number's exemption record: a basis (EXEMPTION_BASES index) and the day (since 1970-01-01) it runs from. */
export interface DecisionRecord {
  basis: number;
  day: number;
}

/** A number's calling class at the instant, as evaluateClass answers it (pre-resolved by the caller). */
export interface DecisionCalling {
  /** The number's time zones (empty: none; the strictest reading across every US zone). */
  zones: readonly string[];
  callableNow: boolean;
  nextCallAt: number;
  note: string;
  /** nextCallAt on the number's clock (evaluateClass's nextCallLocal), when the caller has it. */
  nextCallLocal?: string;
}

/**
 * The calling answer with the number's frequency caps (decision 187): when a cap holds, not callable now, the next
 * call at the later of the caps' lift and the next lawful instant at or after it (`callingAt`: the same calling
 * evaluation asked at the lift), the note naming each cap first, then the hours' note when the hours hold now (or,
 * when they do not, what holds at the lift). Without a holding cap the answer is unchanged.
 */
export function callingWithCaps(calling: DecisionCalling, caps: CapVerdict, callingAt: (ms: number) => DecisionCalling): DecisionCalling {
  if (caps.liftAt === null) return calling;
  const later = callingAt(caps.liftAt);
  // the hours' note: what holds now, else what holds at the lift ("" when nothing; a number without a time zone says so always)
  const hours = calling.callableNow ? later.note : calling.note;
  return {
    zones: calling.zones,
    callableNow: false,
    nextCallAt: later.nextCallAt,
    note: hours ? `${caps.note}; ${hours}` : caps.note,
    nextCallLocal: later.nextCallLocal,
  };
}

export interface NumberFacts {
  /** The normalizer's code: the 10-digit number, or < 0 the invalid reason. */
  code: number;
  /** Bit l: the number is on list l of the decision's lists. */
  hits: number;
  record: DecisionRecord | null;
  calling?: DecisionCalling | null;
  /** The number's frequency caps at the instant (evaluateCaps) and the calling evaluation at another instant: the answer holds both (decision 187). */
  caps?: { verdict: CapVerdict; callingAt: (ms: number) => DecisionCalling } | null;
}

export interface DecisionContext {
  lists: DecisionLists;
  /** The evaluation instant (ms): the exemption windows' (and the calling answer's). */
  atMs: number;
  /** A checked list is past its freshness rule (the lookup's stricter reading; a scrub passes false). */
  staleLists?: boolean;
}

export type DecisionOutcome = "good" | "bad" | "invalid";

export interface NumberDecision {
  outcome: DecisionOutcome;
  /** invalid: the normalizer's reason; bad: the list's kind, "container" or "stale_list"; good: null. */
  reason: string | null;
  /** The reason in words (invalid.csv's sentence, a list's label), null when good. */
  words: string | null;
  /** When an exemption is what lets the number be called: its basis, the day it runs from, the first day it no longer applies (null: consent). */
  exempt: { basis: ExemptionBasis; day: number; untilDay: number | null } | null;
  /** The lists whose hit the record cleared. */
  cleared: string[];
  /** The lists whose hit stands (the first is the reason, unless the reason is stale_list). */
  standing: string[];
  /**
   * With a record that did not clear every hit: why, per standing list (notAppliedWords: bad.csv's `exemption` cell),
   * else null.
   */
  notApplied: string | null;
  /** The calling answer of a valid number, when given. */
  calling: DecisionCalling | null;
}

const LIST_WORDS = new Map<string, string>([
  ...LIST_TYPES.map((t) => [t.kind, t.reasonLabel] as [string, string]),
  [CONTAINER_REASON.reason, CONTAINER_REASON.label],
  [INTERNAL_DNC_REASON.reason, INTERNAL_DNC_REASON.label],
]);

/** The words of a reason a list gives (its label), of stale_list, or of an invalid code. */
export function reasonWords(reason: string): string {
  if (reason === STALE_LIST_REASON) return STALE_LIST_WORDS;
  return LIST_WORDS.get(reason) ?? reason;
}

const verdict = listVerdict();

/** The whole answer for one number (the lookup calls it once per distinct combination of lists and record). */
export function decideNumber(facts: NumberFacts, ctx: DecisionContext): NumberDecision {
  const { code } = facts;
  if (code < 0) {
    return {
      outcome: "invalid",
      reason: reasonOfCode(code),
      words: invalidReasonText(code),
      exempt: null,
      cleared: [],
      standing: [],
      notApplied: null,
      calling: null,
    };
  }
  const { lists, atMs } = ctx;
  const record = facts.record;
  const by = decideListHits(lists, facts.hits, record ? record.basis : NO_RECORD, record ? record.day : 0, atMs, verdict);
  const cleared: string[] = [];
  const standing: string[] = [];
  for (let l = 0; l < lists.kinds.length; l++) {
    const bit = 1 << l;
    if ((facts.hits & bit) === 0) continue;
    ((verdict.cleared & bit) !== 0 ? cleared : standing).push(lists.kinds[l]);
  }
  const reason = by >= 0 ? lists.kinds[by] : ctx.staleLists ? STALE_LIST_REASON : null;
  const exempt =
    reason === null && record && verdict.cleared !== 0
      ? { basis: EXEMPTION_BASES[record.basis], day: record.day, untilDay: verdict.endDay === NO_END ? null : verdict.endDay }
      : null;
  return {
    outcome: reason === null ? "good" : "bad",
    reason,
    words: reason === null ? null : reasonWords(reason),
    exempt,
    cleared,
    standing,
    notApplied: record && by >= 0 ? notAppliedWords(lists, verdict.standing, record.basis, record.day, atMs) : null,
    calling: facts.calling && facts.caps ? callingWithCaps(facts.calling, facts.caps.verdict, facts.caps.callingAt) : (facts.calling ?? null),
  };
}
