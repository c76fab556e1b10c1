/**
 * The public rules page's data (decision 178): every jurisdiction the engine applies, read from the engine's own
 * data (the calling rules, the list-type registry), so the page cannot say anything the scrub does not do.
 * Plain serializable values; the page formats them.
 */
import {
  CALLING_RULES,
  CALLING_RULES_HISTORY,
  CALLING_RULES_VERSION,
  type CallingRule,
  type CallingRulesRelease,
  type Holiday,
  type Observance,
} from "scrub-service";
import {
  EMERGENCY_STATUTES,
  FEDERAL_EXEMPTION_WINDOWS,
  LIST_TYPES,
  REGISTRY_VALID_DAYS,
  stateName,
  type EmergencyPeriod,
  type ExemptionWindows,
} from "scrub-service/domain";
import { EMERGENCY_EXCEPTIONS } from "scrub-service/domain";
import { CALL_CAPS, CAPS_VERSION } from "scrub-service/domain";

/** A call frequency cap as the page shows it (decision 185): not applied to purges yet, shown with its source. */
export interface CallCapView {
  id: string;
  jurisdiction: string;
  name: string;
  purpose: string;
  limit: string;
  scope: string;
  channels: string;
  lifts: string;
  citation: string;
  source: string;
  checked: "primary" | "secondary";
  note: string | null;
  effective: string;
}

const SCOPE_WORDS = {
  number: "every call to the number",
  subject: "calls on the same subject (campaign), from any number",
  debt: "calls about the same debt",
} as const;

/** The caps in the engine's data, in words. */
export function callCapsView(): { version: string; caps: CallCapView[] } {
  return {
    version: CAPS_VERSION,
    caps: CALL_CAPS.map((c) => ({
      id: c.id,
      jurisdiction: c.jurisdiction === "US" ? "Federal" : stateName(c.jurisdiction),
      name: c.name,
      purpose: c.purpose === "telemarketing" ? "Telemarketing" : "Debt collection",
      limit:
        c.counts === "afterConversation"
          ? `No call for ${c.windowHours / 24} days after a conversation`
          : `At most ${c.max} in ${c.windowHours === 24 ? "24 hours" : `${c.windowHours / 24} days`}`,
      scope: SCOPE_WORDS[c.scope],
      channels: c.channels.length === 2 ? "calls and texts" : c.channels[0] === "call" ? "calls" : "texts",
      lifts: c.lifts,
      citation: c.citation,
      source: c.sourceUrl,
      checked: c.checked,
      note: c.note ?? null,
      effective: c.effective,
    })),
  };
}

/** "HH:MM", 24-hour, local to the rule's clock. */
export interface HoursSpan {
  /** "Mon–Fri", "Every day", "Sun". */
  days: string;
  /** null: no calls on these days. */
  window: { from: string; to: string } | null;
}

export interface RuleView {
  id: string;
  name: string;
  hours: HoursSpan[];
  /** Whether Sunday has no calls at all. */
  sundayBanned: boolean;
  holidays: { name: string; when: string }[];
  /** How a weekend holiday is observed, in words; null without holidays. */
  observance: string | null;
  /** The clock the hours are read on when it is not the number's own zone. */
  clock: string | null;
  effective: string | null;
  verified: "statute" | "secondary";
  citation: string;
  source: string;
  note: string | null;
}

export interface ListView {
  name: string;
  publisher: string;
  cadence: string;
  validDays: number;
  freshness: string;
  source: string;
  exemption: ExemptionWindows;
}

export interface JurisdictionView {
  /** "US", "CA" or a postal code. */
  code: string;
  name: string;
  rules: RuleView[];
  list: ListView | null;
}

export interface RulesPageData {
  version: string;
  history: readonly CallingRulesRelease[];
  federal: JurisdictionView;
  canada: JurisdictionView;
  states: JurisdictionView[];
}

const DAY_SHORT = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const ORDINAL = ["", "1st", "2nd", "3rd", "4th", "5th"];
const WEEKDAY = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** Monday-first runs of days with the same window ("Mon–Sat 08:00–20:00", "Sun no calls"). */
export function hoursSpans(hours: CallingRule["hours"]): HoursSpan[] {
  const order = [1, 2, 3, 4, 5, 6, 0];
  const key = (d: number) => (hours[d] ? `${hours[d]![0]}-${hours[d]![1]}` : "none");
  if (order.every((d) => key(d) === key(1))) {
    const w = hours[1];
    return [{ days: "Every day", window: w ? { from: hhmm(w[0]), to: hhmm(w[1]) } : null }];
  }
  const spans: HoursSpan[] = [];
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && key(order[j + 1]) === key(order[i])) j++;
    const w = hours[order[i]];
    spans.push({
      days: i === j ? DAY_SHORT[order[i]] : `${DAY_SHORT[order[i]]}–${DAY_SHORT[order[j]]}`,
      window: w ? { from: hhmm(w[0]), to: hhmm(w[1]) } : null,
    });
    i = j + 1;
  }
  return spans;
}

function holidayWhen(h: Holiday): string {
  const d = h.date;
  let when: string;
  if ("fixed" in d) when = `${MONTHS[d.fixed[0] - 1]} ${d.fixed[1]}`;
  else if ("nth" in d) {
    const nth = d.nth === -1 ? "last" : ORDINAL[d.nth];
    when = `${nth} ${WEEKDAY[d.weekday]} of ${MONTHS[d.month - 1]}`;
    if (d.plus) when = `${d.plus === 1 ? "the day" : `${d.plus} days`} after the ${when}`;
  } else when = d.easter < 0 ? `${-d.easter} days before Easter Sunday` : `${d.easter} days after Easter Sunday`;
  if (h.evenYearsOnly) when += ", even years";
  if (h.saturdayToMonday) when += "; on a Saturday or Sunday also the Monday after";
  return when;
}

const OBSERVANCE: Record<Observance, string | null> = {
  none: "A holiday is banned on its date only.",
  "weekend-to-weekday": "A holiday on a Saturday also bans the Friday before; on a Sunday, the Monday after.",
  "sunday-to-monday": "A holiday on a Sunday also bans the Monday after.",
};

function clockOf(rule: CallingRule): string | null {
  if (rule.fixedUtcOffsetMinutes !== undefined) {
    const h = -rule.fixedUtcOffsetMinutes / 60;
    const label = rule.fixedUtcOffsetMinutes === -360 ? "Central Standard Time" : `UTC−${h}`;
    return `${label} all year (UTC−${h}), as well as the number's local time`;
  }
  if (rule.clockZone)
    return `${rule.clockZone === "America/Los_Angeles" ? "Pacific time" : rule.clockZone} (${rule.clockZone}), as well as the number's local time`;
  return null;
}

export function ruleView(rule: CallingRule): RuleView {
  return {
    id: rule.id,
    name: rule.name,
    hours: hoursSpans(rule.hours),
    sundayBanned: rule.hours[0] === null,
    holidays: (rule.holidays ?? []).map((h) => ({ name: h.name, when: holidayWhen(h) })),
    observance: rule.holidays?.length ? OBSERVANCE[rule.observance ?? "none"] : null,
    clock: clockOf(rule),
    effective: rule.effective,
    verified: rule.verified,
    citation: rule.citation,
    source: rule.source,
    note: rule.note ?? null,
  };
}

/** The federal registry (16 CFR 310.4(b)(3)(iv): a copy no older than 31 days). */
const FEDERAL_LIST: ListView = {
  name: "National Do Not Call Registry",
  publisher: "Federal Trade Commission",
  cadence: "updated daily",
  validDays: REGISTRY_VALID_DAYS,
  freshness: `A copy must have been downloaded no more than ${REGISTRY_VALID_DAYS} days before the call.`,
  source: "https://www.ecfr.gov/current/title-16/chapter-I/subchapter-C/part-310/section-310.4",
  exemption: FEDERAL_EXEMPTION_WINDOWS,
};

export function rulesPageData(): RulesPageData {
  const byState = new Map<string, JurisdictionView>();
  const stateOf = (code: string, name: string) => {
    let j = byState.get(code);
    if (!j) byState.set(code, (j = { code, name, rules: [], list: null }));
    return j;
  };
  for (const t of LIST_TYPES) {
    if (!("state" in t)) continue;
    const s = t.state;
    stateOf(s.code, s.stateName).list = {
      name: t.name,
      publisher: s.publisher,
      cadence: s.cadence,
      validDays: s.validDays,
      freshness: s.freshness,
      source: s.source,
      exemption: t.exemptionWindows,
    };
  }
  for (const r of CALLING_RULES) {
    const m = /^US-([A-Z]{2})(-|$)/.exec(r.id);
    if (!m) continue;
    // the state's name is its main entry's name ("Oregon"); a second entry ("Oregon (…)") starts with it
    stateOf(m[1], r.id === `US-${m[1]}` ? r.name : (byState.get(m[1])?.name ?? r.name.replace(/ \(.*$/, ""))).rules.push(ruleView(r));
  }
  for (const j of byState.values()) {
    const main = CALLING_RULES.find((r) => r.id === `US-${j.code}`);
    if (main) j.name = main.name;
  }
  const rule = (id: string) => ruleView(CALLING_RULES.find((r) => r.id === id)!);
  return {
    version: CALLING_RULES_VERSION,
    history: CALLING_RULES_HISTORY,
    federal: { code: "US", name: "United States (federal)", rules: [rule("US")], list: FEDERAL_LIST },
    canada: { code: "CA", name: "Canada", rules: [rule("CA")], list: null },
    states: [...byState.values()].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** An emergency no-call period as /rules shows it (decision 181). */
export interface EmergencyPeriodView {
  id: number;
  states: string[];
  /** "Louisiana, New York". */
  places: string;
  areaCodes: number[] | null;
  firstDay: string;
  lastDay: string;
  authority: string;
  sourceUrl: string;
  status: "in force" | "upcoming";
}

/** The periods not over yet (a last day from yesterday, UTC, may still be running west of Greenwich), first day first. */
export function emergencyPeriodsView(periods: readonly EmergencyPeriod[], now: Date): EmergencyPeriodView[] {
  const today = now.toISOString().slice(0, 10);
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  return periods
    .filter((p) => p.lastDay >= yesterday)
    .map((p) => ({
      id: p.id,
      states: [...p.states],
      places: p.states.map(stateName).join(", "),
      areaCodes: p.areaCodes,
      firstDay: p.firstDay,
      lastDay: p.lastDay,
      authority: p.authority,
      sourceUrl: p.sourceUrl,
      status: p.firstDay > today ? ("upcoming" as const) : ("in force" as const),
    }));
}

/** The statutes behind the periods, with the exceptions the exemption records can meet. */
export const EMERGENCY_STATUTE_VIEWS = Object.entries(EMERGENCY_STATUTES).map(([code, s]) => ({
  code,
  name: stateName(code),
  cite: s.cite,
  source: s.source,
  exceptions: EMERGENCY_EXCEPTIONS[code]?.text ?? null,
}));
