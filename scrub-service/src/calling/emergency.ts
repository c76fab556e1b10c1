/**
 * Emergency no-call periods (issue #43, decision 181): a state forbids telephone solicitations into an area under a
 * declared emergency (La. R.S. 45:844.31; N.Y. Gen. Bus. Law § 399-z(5-a)). An operator enters each period as data
 * (states, optionally area codes, first and last day, the declaring authority, a source URL); the scrub and the live
 * lookup load the periods in force or upcoming once and hand them to this pure code.
 *
 * A period covers a number while the number's local day (in any of its candidate zones: the stricter reading) lies
 * between the first and the last day, both included. Its calling class then gets a hold that lasts until local
 * midnight after the last day (in the zone where that midnight comes last); from there the normal hours apply.
 * Pure CPU, no I/O.
 */
import { AREA_CODE_STATES, AREA_CODES_BY_STATE, US_STATES } from "../numbers/area-codes";
import { instantOf, wallTime } from "./clock";
import { exchangeIndex } from "./class-index";
import { dayKey, type DayKey } from "./holidays";
import type { CallingClass, CallingClassTable } from "./exchanges";
import { addCalendarMonths } from "../exemption-rules/windows";
import type { AppliedPeriod, EmergencyPeriod } from "./periods";

export type { AppliedPeriod, EmergencyPeriod } from "./periods";

/** The statutes found for emergency no-call periods (decision 181): named on /rules and in the decision record. */
export const EMERGENCY_STATUTES: Record<string, { cite: string; source: string }> = {
  LA: { cite: "La. R.S. 45:844.31", source: "https://lpsc.louisiana.gov/DNC_Emergency" },
  NY: { cite: "N.Y. Gen. Bus. Law § 399-z(5-a)", source: "https://www.nysenate.gov/legislation/laws/GBS/399-Z" },
};

const STATE_NAMES = new Map(US_STATES.map((s) => [s.code, s.name]));
export const stateName = (code: string): string => STATE_NAMES.get(code) ?? code;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day YYYY-MM-DD, or null. */
export function parseDay(s: string): [number, number, number] | null {
  const m = DATE.exec(s.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return null;
  return [y, mo, d];
}

const keyOf = (day: string): DayKey => {
  const p = parseDay(day);
  if (!p) throw new Error(`Not a day: ${day}`);
  return dayKey(...p);
};

/** What an operator typed (CLI flags or the admin form), before it is checked. */
export interface EmergencyPeriodInput {
  states: string;
  areaCodes?: string | null;
  from: string;
  to: string;
  authority?: string | null;
  source: string;
}

export type EmergencyPeriodField = "states" | "areaCodes" | "from" | "to" | "authority" | "source";
export type NewEmergencyPeriod = Omit<EmergencyPeriod, "id">;

/**
 * The period an operator typed, checked: known US state codes, area codes of those states only, real days with
 * from ≤ to, an http(s) source URL. Each problem names its field in words the CLI and the form both print.
 */
export function parseEmergencyPeriod(
  input: EmergencyPeriodInput,
): { ok: true; value: NewEmergencyPeriod } | { ok: false; errors: { field: EmergencyPeriodField; message: string }[] } {
  const errors: { field: EmergencyPeriodField; message: string }[] = [];
  const states = [
    ...new Set(
      input.states
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((s) => s.toUpperCase()),
    ),
  ];
  if (!states.length) errors.push({ field: "states", message: "Name at least one state (two-letter code, e.g. LA)." });
  const unknown = states.filter((s) => !AREA_CODES_BY_STATE[s]);
  if (unknown.length) errors.push({ field: "states", message: `Not a US state code we know: ${unknown.join(", ")}.` });
  let areaCodes: number[] | null = null;
  const rawCodes = (input.areaCodes ?? "").split(/[\s,]+/).filter(Boolean);
  if (rawCodes.length) {
    const bad = rawCodes.filter((c) => !/^[2-9]\d\d$/.test(c));
    if (bad.length) errors.push({ field: "areaCodes", message: `Not an area code: ${bad.join(", ")} (three digits, 200-999).` });
    else {
      areaCodes = [...new Set(rawCodes.map(Number))].sort((a, b) => a - b);
      if (!unknown.length && states.length) {
        const outside = areaCodes.filter((c) => !states.includes(AREA_CODE_STATES.get(c) ?? ""));
        if (outside.length) {
          errors.push({
            field: "areaCodes",
            message: `Area code${outside.length > 1 ? "s" : ""} ${outside.map((c) => `${c} (${AREA_CODE_STATES.get(c) ?? "no state"})`).join(", ")} not in ${states.join(", ")}.`,
          });
        }
      }
    }
  }
  const from = parseDay(input.from ?? "");
  const to = parseDay(input.to ?? "");
  if (!from) errors.push({ field: "from", message: "The first day must be a date YYYY-MM-DD." });
  if (!to) errors.push({ field: "to", message: "The last day must be a date YYYY-MM-DD." });
  if (from && to && dayKey(...from) > dayKey(...to))
    errors.push({ field: "to", message: `The last day (${input.to.trim()}) is before the first day (${input.from.trim()}).` });
  const authority = (input.authority ?? "").trim();
  if (authority.length > 200) errors.push({ field: "authority", message: "The authority is at most 200 characters." });
  const source = (input.source ?? "").trim();
  let url: URL | null = null;
  try {
    url = new URL(source);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol) || !/^https?:\/\//i.test(source)) {
    errors.push({ field: "source", message: "The source must be a web address starting with http:// or https://." });
  } else if (source.length > 2000) errors.push({ field: "source", message: "The source URL is at most 2,000 characters." });
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: { states, areaCodes, firstDay: input.from.trim(), lastDay: input.to.trim(), authority, sourceUrl: source } };
}

/** The periods a scrub or lookup at `atMs` must know: every one whose last day is not over everywhere yet. */
export function periodsAround<T extends { lastDay: string }>(periods: readonly T[], atMs: number): T[] {
  // a day ends at the latest at 24:00 UTC-12 = 12:00 UTC the next day: keep periods whose last day is ≥ yesterday (UTC)
  const cutoff = new Date(atMs - 86_400_000).toISOString().slice(0, 10);
  return periods.filter((p) => p.lastDay >= cutoff);
}

/** The hold of the periods covering `t`: until when (the latest local midnight after a last day) and which. */
export function periodsCovering(zones: readonly string[], periods: readonly AppliedPeriod[], t: number): { until: number; which: AppliedPeriod[] } | null {
  let until = -Infinity;
  const which: AppliedPeriod[] = [];
  for (const z of zones) {
    const w = wallTime(z, t);
    const k = dayKey(w.year, w.month, w.day);
    for (const a of periods) {
      if (k < keyOf(a.period.firstDay) || k > keyOf(a.period.lastDay)) continue;
      const [y, m, d] = parseDay(a.period.lastDay)!;
      const next = new Date(Date.UTC(y, m - 1, d + 1));
      const end = instantOf(z, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0);
      if (end > until) until = end;
      if (!which.includes(a)) which.push(a);
    }
  }
  return which.length ? { until, which } : null;
}

/** Which periods apply to a number of this state and area code. */
export function periodsFor(periods: readonly EmergencyPeriod[], state: string, areaCode: number): EmergencyPeriod[] {
  return periods.filter((p) => p.states.includes(state) && (!p.areaCodes || p.areaCodes.includes(areaCode)));
}

/** A calling class table with the emergency periods applied, and which base class each class came from. */
export interface EmergencyClassTable extends CallingClassTable {
  /** The periods the table was built with (all of them, applying or not). */
  emergencyPeriods: EmergencyPeriod[];
  /** Per class, the class without periods (itself for a class no period touches). */
  baseOf: Uint16Array;
}

/**
 * The base table with each exchange a period covers moved to a class of its own: the base class's zones and rules
 * plus the periods (AppliedPeriod) of its state and area code. Base classes keep their numbers (they are the
 * classes without periods); the new ones follow. With no period the base table itself.
 */
export function withEmergencyPeriods(base: CallingClassTable, periods: readonly EmergencyPeriod[]): EmergencyClassTable {
  const baseOf = new Uint16Array(new SharedArrayBuffer(2 * Math.max(1, base.classes.length)));
  baseOf.forEach((_, i) => (baseOf[i] = i));
  if (!periods.length) return { ...base, emergencyPeriods: [], baseOf };
  const classes: CallingClass[] = [...base.classes];
  const byExchange = new Uint16Array(new SharedArrayBuffer(base.byExchange.length * 2));
  byExchange.set(base.byExchange);
  const twins = new Map<string, number>();
  const bases: number[] = classes.map((_, i) => i);
  for (let npa = 200; npa <= 999; npa++) {
    const state = AREA_CODE_STATES.get(npa);
    if (!state) continue;
    const applying = periodsFor(periods, state, npa);
    if (!applying.length) continue;
    const ids = applying.map((p) => p.id).join(",");
    for (let nxx = 200; nxx <= 999; nxx++) {
      const i = exchangeIndex(npa, nxx);
      const k = base.byExchange[i];
      if (k === 0 || base.classes[k].jurisdiction !== `US-${state}`) continue;
      const key = `${k}|${ids}`;
      let twin = twins.get(key);
      if (twin === undefined) {
        twin = classes.length;
        twins.set(key, twin);
        classes.push({ ...base.classes[k], periods: applying.map((period) => ({ period, place: stateName(state) })) });
        bases.push(k);
      }
      byExchange[i] = twin;
    }
  }
  if (classes.length > 65_535) throw new Error("Too many calling classes with these emergency periods.");
  const baseOfAll = new Uint16Array(new SharedArrayBuffer(2 * classes.length));
  baseOfAll.set(bases);
  return { classes, byExchange, emergencyPeriods: [...periods], baseOf: baseOfAll };
}

const tables = new Map<string, EmergencyClassTable>();
/** withEmergencyPeriods, kept for the last few sets of periods (the live lookup asks every request). */
export function cachedWithEmergencyPeriods(base: CallingClassTable, periods: readonly EmergencyPeriod[]): EmergencyClassTable {
  const key = JSON.stringify(periods);
  let t = tables.get(key);
  if (!t) {
    if (tables.size >= 4) tables.clear();
    tables.set(key, (t = withEmergencyPeriods(base, periods)));
  }
  return t;
}

/** "Louisiana emergency period to 2026-09-10 (Governor of Louisiana, https://…)": the calling note's words. */
export function emergencyText(a: AppliedPeriod, now: boolean): string {
  const p = a.period;
  const span = now ? `to ${p.lastDay}` : `${p.firstDay} to ${p.lastDay}`;
  const src = p.authority ? `${p.authority}, ${p.sourceUrl}` : p.sourceUrl;
  return `${now ? "" : "then "}${a.place} emergency period ${span} (${src})`;
}

/**
 * The statute's own exceptions to an emergency period, applied through the customer's exemption records (decision
 * 181): which bases let a call through, and for how long after the record's date (months; null: no end). A state
 * not named has none the product models: its periods hold every number.
 * - Louisiana, R.S. 45:844.31: a call in response to an express request of the person called (valid six months
 *   after the request), or to a person with a prior business relationship terminated or lapsed within six months;
 *   an existing customer's purchase is read as that relationship. Inquiries: not named, not exempt (stricter).
 * - New York, GBL § 399-z(1) ("unsolicited telemarketing sales call"): an express written or verbal request (no
 *   end), or an established business relationship not terminated; the statute gives it no period, so the federal
 *   18 months after a purchase bound it (as for Wyoming, decision 177). Inquiries: not exempt (stricter).
 */
export const EMERGENCY_EXCEPTIONS: Record<string, { purchaseMonths: number; consentMonths: number | null; text: string }> = {
  LA: {
    purchaseMonths: 6,
    consentMonths: 6,
    text: "an express request of the person called (six months), a prior business relationship terminated or lapsed within six months (La. R.S. 45:844.31)",
  },
  NY: {
    purchaseMonths: 18,
    consentMonths: null,
    text: "an express written or verbal request; an established business relationship not terminated, bounded by the federal 18 months (N.Y. Gen. Bus. Law § 399-z(1))",
  },
};

const BASIS_PURCHASE = 0;
const BASIS_CONSENT = 2;
const DAY_MS = 86_400_000;

/**
 * Whether an exemption record (basis index 0 purchase / 1 inquiry / 2 consent, its day) lets a call into `state`
 * through its emergency periods at `atMs` (EMERGENCY_EXCEPTIONS).
 */
export function emergencyExemptionApplies(state: string, basis: number, day: number, atMs: number): boolean {
  const x = EMERGENCY_EXCEPTIONS[state];
  if (!x || day * DAY_MS > atMs) return false;
  if (basis === BASIS_PURCHASE) return atMs < addCalendarMonths(day, x.purchaseMonths) * DAY_MS;
  if (basis === BASIS_CONSENT) return x.consentMonths === null || atMs < addCalendarMonths(day, x.consentMonths) * DAY_MS;
  return false;
}

/** The state of a class's periods (a class is one state's), or null when no period covers it. */
export const stateOfClass = (cls: CallingClass): string | null =>
  cls.periods?.length && cls.jurisdiction.startsWith("US-") ? cls.jurisdiction.slice(3) : null;
