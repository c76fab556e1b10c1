/**
 * The calling note (decision 180): why a number may not be called at the instant, in the words a compliance
 * analyst uses, written from what the evaluation itself reported (CallingAnswer.holds) and from the rule data (the
 * entry's jurisdiction name, its short citation `cite`/`holidayCite`, its hours and holidays); no text per case.
 * Pure CPU. One note per calling class and instant: the scrub writes it into good.csv's `calling_note`, the live
 * lookup answers it as `callingNote`.
 *
 *   "Sunday: Louisiana forbids Sunday calls (La. R.S. 45:811)"
 *   "After 8 p.m. in Oregon (HB 3865)"
 *   "Before 8 a.m. (47 CFR 64.1200(c)(1))"                         (the federal rule names no place)
 *   "Holiday: Rhode Island, Rhode Island Independence Day (R.I. Gen. Laws § 25-1-1)"
 *   "Before 8 a.m. Central Standard Time in Mississippi (…)"       (a rule read on a clock of its own)
 */
import type { Clock } from "./clock";
import type { CallingClass } from "./exchanges";
import type { CallingRule } from "./rules";
import { evaluateCalling, isoLocalSecond, type CallingAnswer, type CallingHold } from "./window";
import { emergencyText } from "./emergency";

/** The note of a number without a time zone: its answer is the strictest reading across every US time zone. */
export const NO_TIME_ZONE_NOTE = "No time zone for this number: the strictest reading across every US time zone";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The rule whose hours apply to every US number: it names no place. */
const FEDERAL_RULE_ID = "US";

/** "Louisiana" from "Louisiana", "Oregon" from "Oregon (the same hours read in Pacific time)". */
const placeOf = (rule: CallingRule): string => rule.name.replace(/\s*\(.*$/, "");

/** 480 → "8 a.m.", 1290 → "9:30 p.m.", 720 → "noon", 0 → "midnight". */
export function clockWords(minute: number): string {
  const m = ((minute % 1440) + 1440) % 1440;
  if (m === 0) return "midnight";
  if (m === 720) return "noon";
  const h = Math.floor(m / 60);
  const mm = m % 60;
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}${mm ? `:${String(mm).padStart(2, "0")}` : ""} ${h < 12 ? "a.m." : "p.m."}`;
}

const zoneNames = new Map<string, Intl.DateTimeFormat>();
/**
 * A clock in words at an instant: "Pacific Standard Time", "Mountain Daylight Time" (ICU's long name of the zone
 * then: Honolulu and Adak both read "Hawaii-Aleutian Standard Time" in winter), "Central Standard Time" (UTC-6 fixed).
 */
export function clockName(clock: Clock, at: number): string {
  if (typeof clock !== "string") {
    const o = clock.fixedOffsetMinutes;
    if (o === -360) return "Central Standard Time";
    const a = Math.abs(o);
    return `UTC${o < 0 ? "-" : "+"}${Math.floor(a / 60)}${a % 60 ? `:${String(a % 60).padStart(2, "0")}` : ""}`;
  }
  let f = zoneNames.get(clock);
  if (f === undefined) zoneNames.set(clock, (f = new Intl.DateTimeFormat("en-US", { timeZone: clock, timeZoneName: "long" })));
  const part = f.formatToParts(at).find((p) => p.type === "timeZoneName")?.value;
  // ICU answers an offset ("GMT+10") when it has no name for the zone: the IANA name then
  return part && /Time$/.test(part) ? part : clock;
}

/**
 * One hold in words. `namedClock`: say which clock the hours were read on (the number has several zones, or the
 * rule a clock of its own that read differently at the instant).
 */
export function holdText(h: CallingHold, namedClock: boolean): string {
  const rule = h.rule;
  const federal = rule.id === FEDERAL_RULE_ID;
  const place = placeOf(rule);
  const on = namedClock || h.clockDiffers ? clockName(h.clock, h.at) : "";
  const day = WEEKDAYS[h.weekday];
  switch (h.kind) {
    case "day":
      return `${day}${on ? ` (${on})` : ""}: ${federal ? "federal law" : place} forbids ${day} calls (${rule.cite})`;
    case "holiday":
      return `Holiday${on ? ` (${on})` : ""}: ${federal ? "federal" : place}, ${h.holiday} (${rule.holidayCite ?? rule.cite})`;
    default: {
      // the weekday is named only when the rule's hours differ between the days it allows calls (Pennsylvania's
      // Saturday noon, Canada's weekends, Texas's Sunday noon)
      const windows = new Set<string>();
      for (const w of rule.hours) if (w) windows.add(`${w[0]}-${w[1]}`);
      const which = windows.size > 1 ? ` on ${day}` : "";
      const edge = `${h.kind === "before" ? "Before" : "After"} ${clockWords(h.minute ?? 0)}${on ? ` ${on}` : ""}${which}`;
      return `${edge}${federal ? "" : ` in ${place}`} (${rule.cite})`;
    }
  }
}

/**
 * The note for an answer: "" when callable now; else each binding hold in words (the same words once), joined by
 * "; ". A number without a time zone (`noTimeZone`) always says so first, then why, each zone named.
 */
export function callingNote(answer: CallingAnswer, zones: readonly string[], noTimeZone = false): string {
  const namedClock = noTimeZone || zones.length > 1;
  const texts = [...new Set(answer.holds.map((h) => holdText(h, namedClock)))];
  // emergency periods (decision 181): one covering the instant first, one the next opening waits past after the rules
  const periods = answer.emergency ?? [];
  texts.unshift(...periods.filter((e) => e.now).map((e) => emergencyText(e.applied, true)));
  texts.push(...periods.filter((e) => !e.now).map((e) => emergencyText(e.applied, false)));
  const reasons = texts.join("; ");
  if (noTimeZone) return reasons ? `${NO_TIME_ZONE_NOTE}. ${reasons}` : NO_TIME_ZONE_NOTE;
  return answer.callableNow ? "" : reasons;
}

/** A class's answer at an instant and its note: what good.csv and the live lookup print. */
export interface ClassVerdict {
  answer: CallingAnswer;
  note: string;
  /**
   * next_call_at as a wall time with its UTC offset, `2026-11-30T08:00:00-05:00`, in the zone the note reads first
   * (the zone of the first hold: "Before 8 a.m. Mountain Standard Time" → Phoenix's clock for a Denver|Phoenix
   * number), else (callable now, or only an emergency period held it) the number's first zone as time_zone lists
   * them; empty for a number without a time zone (decision 184).
   */
  nextCallLocal: string;
}

/**
 * Every answer of the scrub and the lookup comes from here: a class evaluated in the zones it is read in (class 0,
 * no time zone: every US time zone, the strictest reading), with its note.
 */
export function evaluateClass(cls: CallingClass, atMs: number): ClassVerdict {
  const noTimeZone = cls.zones.length === 0;
  const answer = evaluateCalling(cls.readZones, cls.rules, atMs, cls.periods);
  return {
    answer,
    note: callingNote(answer, cls.readZones, noTimeZone),
    nextCallLocal: noTimeZone ? "" : isoLocalSecond(answer.nextCallAt, answer.holds.length ? answer.holds[0].zone : cls.zones[0]),
  };
}
