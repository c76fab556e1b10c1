/**
 * May this number be called at this instant, and if not, when first? A call is lawful at an instant when every
 * rule of the number's jurisdiction allows it in every one of the number's candidate time zones (a rule with a
 * fixed clock, such as Mississippi's Central Standard Time or Oregon's second reading in Pacific time, is read on
 * that clock). Pure CPU, no I/O.
 *
 * The earliest lawful instant at or after t is t itself or the start of some rule's window on some day in some
 * zone (callability only switches on there), so those are the only candidates examined, in time order.
 */
import { instantOf, wallTime, type Clock, type Wall } from "./clock";
import { dayKey, holidayDays, holidayOn, type DayKey } from "./holidays";
import type { CallingRule } from "./rules";
import { periodsCovering, type AppliedPeriod } from "./emergency";

/** How far ahead the next lawful instant is looked for (the longest run of banned days is far shorter). */
const SEARCH_DAYS = 21;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export type CallingBucket = "now" | "later_today" | "not_today";

export interface CallingAnswer {
  callableNow: boolean;
  /** The earliest lawful instant at or after the evaluation instant (ms, whole seconds). */
  nextCallAt: number;
  /** Callable now; else callable later on the same local day in every zone; else not today. */
  bucket: CallingBucket;
  /**
   * What held the call back at the instant (empty when callable): the binding rule, i.e. of the rules that forbid
   * the call then (in some zone), the one whose own next opening is latest; several when they reopen together.
   * The calling note (note.ts, decision 180) is written from these.
   */
  holds: CallingHold[];
  /**
   * Emergency no-call periods (decision 181) that held the call back: `now` when one covers the instant, else one
   * the next opening had to wait past. Absent when none did.
   */
  emergency?: { applied: AppliedPeriod; now: boolean }[];
}

/** Why one rule forbids a call at an instant in one zone. */
export interface CallingHold {
  rule: CallingRule;
  /** The number's zone it was read in (the rule's own clock may differ: see `clock`). */
  zone: string;
  /** The clock the rule was read on: the zone, the rule's clockZone, or its fixed offset. */
  clock: Clock;
  /** Whether that clock showed another wall time than the zone at the instant (Mississippi's CST in summer). */
  clockDiffers: boolean;
  /** "day": no calls that weekday; "holiday": a holiday ban; "before"/"after": outside the day's window. */
  kind: "day" | "holiday" | "before" | "after";
  /** The instant (ms). */
  at: number;
  /** The weekday on the rule's clock, 0 = Sunday. */
  weekday: number;
  /** The window's start ("before") or end ("after"), minutes after local midnight. */
  minute?: number;
  /** The holiday's name ("holiday"), " observed" added on an observed day. */
  holiday?: string;
}

const holidayCache = new Map<CallingRule, Map<number, Set<DayKey>>>();

function isHoliday(rule: CallingRule, w: Wall): boolean {
  if (!rule.holidays?.length) return false;
  let years = holidayCache.get(rule);
  if (!years) holidayCache.set(rule, (years = new Map()));
  let days = years.get(w.year);
  if (!days) years.set(w.year, (days = holidayDays(rule.holidays, rule.observance ?? "none", w.year)));
  return days.has(dayKey(w.year, w.month, w.day));
}

const effectiveKey = new Map<CallingRule, DayKey>();
function inForce(rule: CallingRule, w: Wall): boolean {
  if (!rule.effective) return true;
  let k = effectiveKey.get(rule);
  if (k === undefined) {
    const [y, m, d] = rule.effective.split("-").map(Number);
    effectiveKey.set(rule, (k = dayKey(y, m, d)));
  }
  return dayKey(w.year, w.month, w.day) >= k;
}

const clockOf = (rule: CallingRule, zone: string): Clock =>
  rule.fixedUtcOffsetMinutes !== undefined ? { fixedOffsetMinutes: rule.fixedUtcOffsetMinutes } : (rule.clockZone ?? zone);

/** Whether `rule` allows a call at `ms` in `zone`. */
function allows(rule: CallingRule, zone: string, ms: number): boolean {
  const w = wallTime(clockOf(rule, zone), ms);
  if (!inForce(rule, w)) return true;
  const window = rule.hours[w.weekday];
  if (!window) return false;
  if (isHoliday(rule, w)) return false;
  return w.second >= window[0] * 60 && w.second < window[1] * 60;
}

/** Why `rule` forbids a call at `ms` in `zone`, or null when it allows it (the same reading as `allows`). */
function holdOf(rule: CallingRule, zone: string, ms: number): CallingHold | null {
  const clock = clockOf(rule, zone);
  const w = wallTime(clock, ms);
  if (!inForce(rule, w)) return null;
  const local = clock === zone ? w : wallTime(zone, ms);
  const clockDiffers = local.second !== w.second || local.day !== w.day;
  const base = { rule, zone, clock, clockDiffers, at: ms, weekday: w.weekday };
  const window = rule.hours[w.weekday];
  if (!window) return { ...base, kind: "day" };
  if (isHoliday(rule, w)) {
    const name = holidayOn(rule.holidays ?? [], rule.observance ?? "none", w.year, w.month, w.day) ?? "a legal holiday";
    return { ...base, kind: "holiday", holiday: name };
  }
  if (w.second < window[0] * 60) return { ...base, kind: "before", minute: window[0] };
  if (w.second >= window[1] * 60) return { ...base, kind: "after", minute: window[1] };
  return null;
}

/** The binding holds at `t` (callable at t: none). See CallingAnswer.holds. */
function holdsAt(zones: readonly string[], rules: readonly CallingRule[], t: number): CallingHold[] {
  let latest = -Infinity;
  let out: CallingHold[] = [];
  for (const z of zones) {
    for (const r of rules) {
      const h = holdOf(r, z, t);
      if (!h) continue;
      const reopens = search([z], [r], t).nextCallAt;
      if (reopens > latest) {
        latest = reopens;
        out = [h];
      } else if (reopens === latest) out.push(h);
    }
  }
  return out;
}

export function callableAt(zones: readonly string[], rules: readonly CallingRule[], ms: number): boolean {
  for (const z of zones) for (const r of rules) if (!allows(r, z, ms)) return false;
  return true;
}

/** Window starts after `from` on the k-th local day (of each rule's clock) after the day of `from`. */
function windowStarts(zones: readonly string[], rules: readonly CallingRule[], from: number, k: number): number[] {
  const out: number[] = [];
  for (const z of zones) {
    for (const r of rules) {
      const clock = clockOf(r, z);
      const w = wallTime(clock, from);
      const day = new Date(Date.UTC(w.year, w.month - 1, w.day + k));
      const window = r.hours[day.getUTCDay()];
      if (!window) continue;
      const t = instantOf(clock, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), window[0]);
      if (t > from) out.push(t);
    }
  }
  return out;
}

/** Whether instants a and b fall on the same local day in every one of the zones (a "later today" answer). */
export const sameLocalDay = (zones: readonly string[], a: number, b: number) =>
  zones.every((z) => {
    const x = wallTime(z, a);
    const y = wallTime(z, b);
    return x.year === y.year && x.month === y.month && x.day === y.day;
  });

/**
 * The answer for a number with these candidate zones (at least one) under these rules at instant `atMs`
 * (floored to whole seconds).
 */
export function evaluateCalling(zones: readonly string[], rules: readonly CallingRule[], atMs: number, periods: readonly AppliedPeriod[] = []): CallingAnswer {
  const t = Math.floor(atMs / 1000) * 1000;
  if (!periods.length) {
    const found = search(zones, rules, t);
    return { ...found, holds: found.callableNow ? [] : holdsAt(zones, rules, t) };
  }
  // Emergency periods (decision 181) only take instants away: the first instant the rules allow that no period
  // covers. From inside a period, jump to its end (local midnight after its last day, the latest over the zones)
  // and search the rules from there; an opening inside a later period jumps again.
  const emergency: { applied: AppliedPeriod; now: boolean }[] = [];
  const note = (which: AppliedPeriod[], now: boolean) => {
    for (const a of which) if (!emergency.some((e) => e.applied === a)) emergency.push({ applied: a, now });
  };
  let from = t;
  for (let guard = 0; guard < 1000; guard++) {
    const cover = periodsCovering(zones, periods, from);
    if (cover) {
      note(cover.which, from === t);
      from = cover.until;
      continue;
    }
    const found = search(zones, rules, from);
    const later = periodsCovering(zones, periods, found.nextCallAt);
    if (later) {
      note(later.which, false);
      from = later.until;
      continue;
    }
    const next = found.nextCallAt;
    if (next === t) return { callableNow: true, nextCallAt: t, bucket: "now", holds: [] };
    const heldNow = emergency.some((e) => e.now);
    return {
      callableNow: false,
      nextCallAt: next,
      bucket: sameLocalDay(zones, t, next) ? "later_today" : "not_today",
      // while a period covers the instant it is what binds; otherwise the rules' own holds, then the periods
      holds: heldNow || callableAt(zones, rules, t) ? [] : holdsAt(zones, rules, t),
      emergency,
    };
  }
  throw new Error(`No lawful calling time after the emergency periods for ${zones.join("|")}`);
}

/** evaluateCalling without the holds (t in whole seconds). */
function search(zones: readonly string[], rules: readonly CallingRule[], t: number): Omit<CallingAnswer, "holds"> {
  if (callableAt(zones, rules, t)) return { callableNow: true, nextCallAt: t, bucket: "now" };
  // Window starts are generated day by day (day k of each rule's clock after the day of t). A start on a later
  // day than K in any clock is at least K·24 h - 1 h after t (a day's start can shift by an hour at DST), so the
  // starts found so far that lie before t + (K - 1)·24 h are final and are tried in time order.
  const pending: number[] = [];
  const tried = new Set<number>();
  for (let k = 0; k <= SEARCH_DAYS; k++) {
    for (const c of windowStarts(zones, rules, t, k)) if (!tried.has(c)) pending.push(c);
    pending.sort((a, b) => a - b);
    const bound = k === SEARCH_DAYS ? Infinity : t + (k - 1) * DAY - 2 * HOUR;
    while (pending.length && pending[0] < bound) {
      const c = pending.shift()!;
      if (tried.has(c)) continue;
      tried.add(c);
      if (callableAt(zones, rules, c)) {
        return { callableNow: false, nextCallAt: c, bucket: sameLocalDay(zones, t, c) ? "later_today" : "not_today" };
      }
    }
  }
  throw new Error(`No lawful calling time within ${SEARCH_DAYS} days for ${zones.join("|")} under ${rules.map((r) => r.id).join(", ")}`);
}

/** ISO-8601 UTC to the second: YYYY-MM-DDTHH:MM:SSZ. */
export function isoSecond(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + "Z";
}

/**
 * The instant as the wall time of an IANA zone with its UTC offset at that instant, to the second:
 * `2026-11-30T08:00:00-05:00` (good.csv's next_call_local, the lookup's nextCallLocal; decision 184).
 */
export function isoLocalSecond(ms: number, zone: string): string {
  const w = wallTime(zone, ms);
  const localMs = Date.UTC(w.year, w.month - 1, w.day) + w.second * 1000;
  const offset = Math.round((localMs - Math.floor(ms / 1000) * 1000) / 60_000);
  const two = (n: number) => String(n).padStart(2, "0");
  const abs = Math.abs(offset);
  const date = `${String(w.year).padStart(4, "0")}-${two(w.month)}-${two(w.day)}`;
  const time = `${two(Math.floor(w.second / 3600))}:${two(Math.floor(w.second / 60) % 60)}:${two(w.second % 60)}`;
  return `${date}T${time}${offset < 0 ? "-" : "+"}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}
