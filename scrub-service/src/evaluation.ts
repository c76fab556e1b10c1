/**
 * What an evaluation instant and a list's release may be (issue #49, decision 174). Pure: the app's intake, the
 * live lookup, the CLI and the engine all read these rules from here (`scrub-service/domain`).
 *
 * - An instant means "for calls then": on the web, the API and the lookup it may not be earlier than now (less
 *   AT_CLOCK_SKEW_MS) nor later than the checked lists' "valid for calls until" (each list's registry date + its
 *   freshness rule). The CLI may evaluate any instant; the engine then marks the scrub a replay or beyond the
 *   lists' validity (`instantStanding`) in its summary and certificate.
 * - A list with a freshness rule (the federal DNC list, 31 days; each state list, its own `validDays`) is stale
 *   past it; a refusal names every stale list at once (`staleListsMessage`).
 */
import { isStateListKind, LIST_TYPES } from "./list-types";
import { ageInDays, REGISTRY_VALID_DAYS, REGISTRY_WARN_DAYS } from "./certificate/document";

const DAY_MS = 86_400_000;

/** The clock skew an evaluation instant may lag behind now on the web, the API and the lookup. */
export const AT_CLOCK_SKEW_MS = 5 * 60_000;

export { INSTANT_FIRST_YEAR, INSTANT_LAST_YEAR, instantYearInRange } from "./calling/instant";

/** The freshness facts of one loaded list with a freshness rule, as of `now`. */
export interface ListFreshness {
  /** dnc or a state list (dnc-tx …). */
  kind: string;
  /** How a sentence names it: "the federal DNC list", "the Texas DNC list". */
  label: string;
  /** The stated registry date (the release), ISO. */
  registryDate: string;
  ageDays: number;
  /** The list's rule: a release stays current this many days. */
  ruleDays: number;
  /** registry date + rule: the last instant calls may rely on this release. */
  validUntil: string;
  stale: boolean;
}

/** The list's freshness rule in days, or null for a list without one (litigation, a container). */
export function freshnessRuleDays(kind: string): number | null {
  if (kind === "dnc") return REGISTRY_VALID_DAYS;
  if (!isStateListKind(kind)) return null;
  const type = LIST_TYPES.find((t) => t.kind === kind);
  return type && "state" in type && type.state ? type.state.validDays : null;
}

/** How a sentence names a list with a freshness rule. */
export function freshnessLabel(kind: string): string {
  if (kind === "dnc") return "the federal DNC list";
  const type = LIST_TYPES.find((t) => t.kind === kind);
  if (!type || !("state" in type) || !type.state) return `the ${kind} list`;
  // a country's national list is named as its own (decision 179): "the Canada National DNCL"
  return "country" in type.state ? `the ${type.name}` : `the ${type.state.stateName} DNC list`;
}

/**
 * A list's freshness as of `now` (null: no rule, or no registry date: a list never loaded is not checked).
 * Stale when older than its rule in whole days (day 31 of the federal list is its last current day, decision 110).
 */
export function listFreshness(kind: string, registryDate: Date | string | null, now: Date): ListFreshness | null {
  const ruleDays = freshnessRuleDays(kind);
  if (ruleDays === null || registryDate == null) return null;
  const date = new Date(registryDate);
  const ageDays = ageInDays(date, now);
  return {
    kind,
    label: freshnessLabel(kind),
    registryDate: date.toISOString(),
    ageDays,
    ruleDays,
    validUntil: new Date(date.getTime() + ruleDays * DAY_MS).toISOString(),
    stale: ageDays > ruleDays,
  };
}

/** A state list (or Canada's) turns amber this many days before its rule ends; the federal list at day 25 of 31. */
export const FRESHNESS_WARN_DAYS = 7;

/** How a list's age reads at a glance: amber near the end of its rule, red past it (cards, the dashboard). */
export function freshnessTone(f: Pick<ListFreshness, "kind" | "ageDays" | "ruleDays" | "stale">): "fresh" | "warning" | "stale" {
  if (f.stale) return "stale";
  const warnAt = f.kind === "dnc" ? REGISTRY_WARN_DAYS : f.ruleDays - FRESHNESS_WARN_DAYS;
  return f.ageDays >= warnAt ? "warning" : "fresh";
}

/** The earliest "valid for calls until" of the lists (null when none has a rule and a release). */
export function listsValidUntil(lists: readonly ListFreshness[]): Date | null {
  let until: number | null = null;
  for (const l of lists) {
    const t = Date.parse(l.validUntil);
    if (until === null || t < until) until = t;
  }
  return until === null ? null : new Date(until);
}

/** The list that bounds the validity (the one whose "valid until" comes first). */
function boundingList(lists: readonly ListFreshness[]): ListFreshness | null {
  return [...lists].sort((a, b) => Date.parse(a.validUntil) - Date.parse(b.validUntil))[0] ?? null;
}

function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/**
 * The web's, the API's and the lookup's rule for an evaluation instant: null when `atMs` may be used, else the
 * message (naming the instant and the bound). `lists`: the freshness of the lists the work checks (empty: only
 * the lower bound holds). The message is said under the field: it starts with the instant, not the field's name.
 */
export function evaluationInstantProblem(atMs: number, o: { now: Date; lists: readonly ListFreshness[] }): string | null {
  const earliest = o.now.getTime() - AT_CLOCK_SKEW_MS;
  if (atMs < earliest) {
    return (
      `${iso(atMs)} is in the past: it must not be earlier than now (${iso(o.now.getTime())}, less ${AT_CLOCK_SKEW_MS / 60_000} minutes of clock skew: ` +
      `${iso(earliest)}); the lists are checked as they are now, so an earlier instant would answer for calls that are no longer made`
    );
  }
  const until = listsValidUntil(o.lists);
  if (until && atMs > until.getTime()) {
    const b = boundingList(o.lists)!;
    return (
      `${iso(atMs)} is after the lists' validity: ${b.label} (release ${b.registryDate.slice(0, 10)}, rule ${b.ruleDays} days) ` +
      `is valid for calls until ${iso(until.getTime())}`
    );
  }
  return null;
}

/** The notes the CLI's summary and the certificate carry for an instant the web would refuse. */
export const REPLAY_NOTE = "evaluated at a past instant: not valid for calls now";
export const BEYOND_VALIDITY_NOTE = "beyond the lists' validity";

/** How an evaluation instant stands against the run's start and the lists' validity (the CLI may ask for any). */
export interface InstantStanding {
  /** The instant lies before the run (less the clock skew): the answers are a replay, not for calls now. */
  replay: boolean;
  /** The instant lies after the checked lists' "valid for calls until". */
  beyondListValidity: boolean;
  /** The notes, in words (empty when neither holds). */
  notes: string[];
}

export function instantStanding(atMs: number, o: { now: Date; lists: readonly ListFreshness[] }): InstantStanding {
  const replay = atMs < o.now.getTime() - AT_CLOCK_SKEW_MS;
  const until = listsValidUntil(o.lists);
  const beyondListValidity = until !== null && atMs > until.getTime();
  return { replay, beyondListValidity, notes: [...(replay ? [REPLAY_NOTE] : []), ...(beyondListValidity ? [BEYOND_VALIDITY_NOTE] : [])] };
}

/** A stale list as an answer or a certificate names it. */
export interface StaleList {
  kind: string;
  registryDate: string;
  ageDays: number;
  ruleDays: number;
}

export function staleListsOf(lists: readonly ListFreshness[]): StaleList[] {
  return lists.filter((l) => l.stale).map((l) => ({ kind: l.kind, registryDate: l.registryDate, ageDays: l.ageDays, ruleDays: l.ruleDays }));
}

function sentenceList(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/**
 * The refusal of a DNC scrub naming every stale list at once, oldest past its rule first:
 * "The federal DNC list (release 2026-10-01, 58 days old; rule 31 days) and the Texas DNC list (…) are out of
 * date: purges that include DNC are refused until an admin loads a newer release of each." Null when none is stale.
 */
export function staleListsMessage(lists: readonly ListFreshness[]): string | null {
  const stale = lists.filter((l) => l.stale).sort((a, b) => b.ageDays - b.ruleDays - (a.ageDays - a.ruleDays) || a.kind.localeCompare(b.kind));
  if (!stale.length) return null;
  const named = stale.map((l) => `${l.label} (release ${l.registryDate.slice(0, 10)}, ${l.ageDays} days old; rule ${l.ruleDays} days)`);
  const text = sentenceList(named);
  const verb = stale.length === 1 ? "is" : "are";
  return (
    `${text[0].toUpperCase()}${text.slice(1)} ${verb} out of date: purges that include DNC are refused until an admin loads a newer release` +
    (stale.length === 1 ? "." : " of each.")
  );
}
