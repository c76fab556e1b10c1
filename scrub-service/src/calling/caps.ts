/**
 * Call frequency caps as rule data (issue #46, decision 185), beside the calling hours (rules.ts): how many calls or
 * texts a law allows to one person in a window, what it counts together (per number, per subject, per debt), what
 * lifts it, with the text it rests on. Pure data, one pure count (`countAgainstCap`) and the evaluation of a number's
 * caps (`evaluateCaps`, decision 187: the live lookup's answer and its reservations; decision 191: the batch scrub's calling columns, through decision/calling-caps.ts). Where the primary text was not found, the entry says so and takes the stricter
 * reading (the smaller number, the wider scope, calls and texts both counted).
 */

import { US_STATES } from "../numbers/area-codes";

/** Why the calls are made: the states' solicitation caps apply to telemarketing, the debt caps to debt collection. */
export const CALL_PURPOSES = ["telemarketing", "debt-collection"] as const;
export type CapPurpose = (typeof CALL_PURPOSES)[number];
/** What the cap counts together: every call to the number, those on one subject (campaign), or those about one debt. */
export type CapScope = "number" | "subject" | "debt";
export type CapChannel = "call" | "text";

export interface CallCap {
  id: string;
  /** "FL", "MD", "OK", "OR", "MA", or "US" for a federal rule. */
  jurisdiction: string;
  name: string;
  purpose: CapPurpose;
  /** Most records the window may hold; one more is over the cap. */
  max: number;
  /** The window's length, counted back from the instant of the next call. */
  windowHours: number;
  scope: CapScope;
  /** Channels the cap counts. */
  channels: readonly CapChannel[];
  /**
   * Records that count: every attempt, or (a cap that starts from a conversation) only those. `afterConversation`:
   * one conversation in the window blocks every further call in it (Regulation F's second prong).
   */
  counts: "attempts" | "afterConversation";
  /** What lifts the cap, in words; `liftedBy` names the product's records that do it (exemption bases). */
  lifts: string;
  liftedBy: readonly ("purchase" | "inquiry" | "consent")[];
  /** How long a `liftedBy` record lifts the cap, in calendar months from its date (Oregon: 18); absent: a record lifts it only with this set. */
  liftMonths?: number;
  citation: string;
  /** The short citation the calling note names ("Fla. Stat. § 501.616(6)(b)"). */
  cite: string;
  sourceUrl: string;
  /** Other texts read for this entry. */
  alsoRead?: readonly string[];
  /** Whether the wording was read in the statute or regulation itself, or only in secondary sources (and which reading was taken). */
  checked: "primary" | "secondary";
  note?: string;
  effective: string;
}

const US_STATE_NAMES = new Map(US_STATES.map((s) => [s.code, s.name]));

/** The caps' version: a change to an entry is a new version (printed on /rules). */
export const CAPS_VERSION = "2026-11-28.3";

export const CALL_CAPS: readonly CallCap[] = [
  {
    id: "fl-501-616-6b",
    cite: "Fla. Stat. § 501.616(6)(b)",
    jurisdiction: "FL",
    name: "Florida: three commercial solicitation calls per 24 hours on one subject",
    purpose: "telemarketing",
    max: 3,
    windowHours: 24,
    scope: "subject",
    channels: ["call", "text"],
    counts: "attempts",
    lifts: "Nothing in § 501.616(6)(b) itself; the Act's exemptions (§ 501.604) take some sellers out of the part.",
    liftedBy: [],
    citation:
      'Fla. Stat. § 501.616(6)(b) (2021, SB 1120): a commercial telephone seller or salesperson may not make "more than three commercial telephone ' +
      'solicitation phone calls from any number to a person over a 24-hour period on the same subject matter or issue, regardless of the phone number used to make the call".',
    sourceUrl: "https://flsenate.gov/Session/Bill/2021/1120/BillText/er/HTML",
    alsoRead: ["http://www.lawserver.com/law/state/florida/statutes/florida_statutes_501-616"],
    checked: "primary",
    note: "The statute says phone calls; texts are counted too (the stricter reading: Florida's § 501.059 treats a text message as a telephonic sales call).",
    effective: "2021-07-01",
  },
  {
    id: "md-14-4503",
    cite: "Md. Code, Com. Law § 14-4503",
    jurisdiction: "MD",
    name: "Maryland: three telephone solicitations per 24 hours on one subject",
    purpose: "telemarketing",
    max: 3,
    windowHours: 24,
    scope: "subject",
    channels: ["call", "text"],
    counts: "attempts",
    lifts:
      "The subtitle's exemptions (Com. Law § 14-4502(a)(1)), e.g. an existing business relationship for informational calls that become a solicitation at the customer's request.",
    liftedBy: [],
    citation:
      "Md. Code, Com. Law § 14-4501 ff. (Stop the Spam Calls Act of 2023, SB 90, in force 2024-01-01): no more than three telephone solicitations to a person in 24 hours on the same subject, regardless of the number used.",
    sourceUrl: "https://lexace.ai/us/statute/maryland/CL-14-4502",
    alsoRead: ["https://lexace.ai/us/statute/maryland/CL-14-4501", "http://www.jdsupra.com/legalnews/maryland-s-new-telemarketing-law-now-in-7567525/"],
    checked: "secondary",
    note:
      "The section with the frequency limit (§ 14-4503) was not found in the stored texts; §§ 14-4501 and 14-4502 were read (a solicitation by telephone call, text message or voicemail). " +
      "Taken as Florida's wording: three in 24 hours, per subject, calls and texts.",
    effective: "2024-01-01",
  },
  {
    id: "ok-775c-4",
    cite: "15 O.S. § 775C.4",
    jurisdiction: "OK",
    name: "Oklahoma: three commercial solicitation calls per 24 hours on one subject",
    purpose: "telemarketing",
    max: 3,
    windowHours: 24,
    scope: "subject",
    channels: ["call", "text"],
    counts: "attempts",
    lifts: "The Act's exemptions (an established business relationship among them, per the commentary read).",
    liftedBy: [],
    citation:
      "15 O.S. § 775C.1 ff. (Telephone Solicitation Act of 2022, HB 3168, in force 2022-11-01): no more than three commercial telephone solicitation calls per 24 hours on the same subject matter or issue, from any number.",
    sourceUrl: "https://app.legiplex.com/ok/legislature/2022/2022-r/bills/hb3168/drafts-latest",
    alsoRead: [
      "https://24kyc.com/oklahoma-passes-new-telephone-solicitation-act-similar-to-the-federal-tcpa-lerman-senter-pllc/",
      "https://lexace.ai/us/statute/oklahoma/15-775C.2",
    ],
    checked: "secondary",
    note:
      "The enrolled bill's title (read) prohibits 'a specified number of commercial telephone solicitation phone calls to a person over a specified time frame'; the number and window " +
      "(three per 24 hours, same subject) are from Lerman Senter's summary. § 775C.2 covers calls and texts in its consent definition: both are counted.",
    effective: "2022-11-01",
  },
  {
    id: "or-hb-3865",
    cite: "Oregon HB 3865",
    jurisdiction: "OR",
    name: "Oregon: three telephone solicitations per 24 hours",
    purpose: "telemarketing",
    max: 3,
    windowHours: 24,
    scope: "number",
    channels: ["call", "text"],
    counts: "attempts",
    lifts: "An established business relationship: a transaction between the caller and the party within the 18 months before the call.",
    liftedBy: ["purchase"],
    liftMonths: 18,
    citation:
      "Oregon HB 3865 (2025, signed 2025-07-24, in force 2026-01-01), amending ORS 646.561 ff.: a telephone solicitation (a call or a text message) more than three times within a 24-hour period is unlawful unless the caller has an established business relationship (a transaction within the preceding 18 months).",
    sourceUrl: "https://production.jdsupra.com/legalnews/oregon-passes-new-telephone-8210765",
    alsoRead: ["https://citizenportal.ai/articles/6229846/Oregon/Senate-Judiciary-approves-texting-time-limits-for-telephone-solicitation-sends-bill-to-floor"],
    checked: "secondary",
    note: "The enrolled text was not found; the summaries read name no subject limit, so every solicitation to the number counts (the wider scope).",
    effective: "2026-01-01",
  },
  {
    id: "us-reg-f-7-in-7",
    cite: "12 CFR 1006.14(b)(2)(i)(A)",
    jurisdiction: "US",
    name: "Regulation F: seven calls in seven days about one debt",
    purpose: "debt-collection",
    max: 7,
    windowHours: 7 * 24,
    scope: "debt",
    channels: ["call"],
    counts: "attempts",
    lifts: "The person's direct prior consent (for up to seven days), or calls the rule excludes (12 CFR 1006.14(b)(3)).",
    liftedBy: [],
    citation:
      "12 CFR 1006.14(b)(2)(i)(A): a debt collector is presumed to violate § 1006.14(b)(1) by placing a telephone call to a person about a debt more than seven times within seven consecutive days.",
    sourceUrl: "https://www.consumerfinance.gov/rules-policy/regulations/1006/14/",
    alsoRead: ["https://nafcu.org/compliance-blog/debt-collection-rule-and-call-limits-second-look"],
    checked: "primary",
    note: "Telephone calls only (texts are not telephone calls under the rule, though § 1006.14(a) still forbids harassing texts).",
    effective: "2021-11-30",
  },
  {
    id: "us-reg-f-after-conversation",
    cite: "12 CFR 1006.14(b)(2)(i)(B)",
    jurisdiction: "US",
    name: "Regulation F: no call within seven days after a telephone conversation about the debt",
    purpose: "debt-collection",
    max: 0,
    windowHours: 7 * 24,
    scope: "debt",
    channels: ["call"],
    counts: "afterConversation",
    lifts: "The person's direct prior consent (for up to seven days).",
    liftedBy: [],
    citation:
      "12 CFR 1006.14(b)(2)(i)(B): a debt collector is presumed to violate § 1006.14(b)(1) by placing a telephone call to a person about a debt within seven consecutive days after having had a telephone conversation with the person about that debt (the day of the conversation is the first of the seven).",
    sourceUrl: "https://www.consumerfinance.gov/rules-policy/regulations/1006/14/",
    alsoRead: ["https://support.smslp.com/kb/a2764/fdcpa-telephone-call-freq_-presumptions-faq-6-how-does-telephone-conversation-about.aspx"],
    checked: "primary",
    effective: "2021-11-30",
  },
  {
    id: "ma-940-cmr-7-04-1f",
    cite: "940 CMR 7.04(1)(f)",
    jurisdiction: "MA",
    name: "Massachusetts creditors: two calls per 30 days per debt (seven days at the debtor's own numbers)",
    purpose: "debt-collection",
    max: 2,
    windowHours: 30 * 24,
    scope: "debt",
    channels: ["call", "text"],
    counts: "attempts",
    lifts:
      "Nothing in the rule. Counted over 30 days at every number: the rule allows two in seven days at the debtor's residence, cellular or other personal number and two in 30 days at any other, and the product is not told which a number is, so the stricter limit is kept (until 2026-11-28.3 the 7-day one was, which let a third call through at a number that is not the debtor's own).",
    liftedBy: [],
    citation:
      "940 CMR 7.04(1)(f) (Attorney General's debt collection regulations): a creditor may not initiate communication with a debtor by telephone in excess of two communications in each seven-day period at the debtor's residence (and two in each 30-day period elsewhere), for each debt.",
    sourceUrl: "https://regulations.justia.com/states/massachusetts/940-cmr/title-940-cmr-7-00/section-7-04",
    alsoRead: [
      "https://regulations.justia.com/states/massachusetts/940-cmr/title-940-cmr-7-00/section-7-05",
      "http://resources.lawinfo.com/banking-and-finance/creditors-rights/massachusetts/what-is-considered-prohibited-activity-under.html",
    ],
    checked: "secondary",
    note:
      "The stored copy of § 7.04(1)(f) breaks off after 'Initiating a communication with any debtor via'; the numbers are from § 7.05(3)(d)'s parallel wording and LawInfo's summary. " +
      "Texts are counted too (the collectors' rule, 209 CMR 18.16(1)(d), names text messaging).",
    effective: "2012-03-01",
  },
  {
    id: "ma-209-cmr-18-16",
    cite: "209 CMR 18.16(1)(d)",
    jurisdiction: "MA",
    name: "Massachusetts debt collectors: two communications per 30 days per debt (seven days at the consumer's residence or cell phone)",
    purpose: "debt-collection",
    max: 2,
    windowHours: 30 * 24,
    scope: "debt",
    channels: ["call", "text"],
    counts: "attempts",
    lifts:
      "The consumer's prior consent given directly to the debt collector, or a court's express permission (neither is a record the product holds). Counted over 30 days at every number: two in seven days is allowed at the consumer's residence or cellular telephone, two in 30 days elsewhere, and the product is not told which a number is, so the stricter limit is kept.",
    liftedBy: [],
    citation:
      "209 CMR 18.16(1)(d): without the consumer's prior consent a debt collector may not engage a consumer in communication via telephone or text messaging, initiated by the debt collector, in excess of two such communications in each seven-day period to a consumer's residence or cellular telephone (and two in each 30-day period elsewhere), for each debt.",
    sourceUrl: "https://law.cornell.edu/regulations/massachusetts/209-CMR-18-16",
    checked: "primary",
    effective: "2012-03-01",
  },
];

/** A record as the count needs it. */
export interface CapRecord {
  atMs: number;
  subject: string;
  channel: CapChannel;
  outcome: "attempted" | "connected" | "conversation";
  debtId: string | null;
}

export interface CapCount {
  capId: string;
  /** Records in the window that count against the cap for a next call like `next`. */
  count: number;
  max: number;
  /** Whether one more call now would be over the cap. */
  over: boolean;
}

/** Whether record `r` counts against `cap` for a next call like `next` (window aside). A record without a debt id counts against every debt. */
function countsAgainst(r: CapRecord, cap: CallCap, next: { subject: string; debtId: string | null }): boolean {
  if (!cap.channels.includes(r.channel)) return false;
  if (cap.scope === "subject" && r.subject !== next.subject) return false;
  if (cap.scope === "debt" && r.debtId !== null && next.debtId !== null && r.debtId !== next.debtId) return false;
  if (cap.counts === "afterConversation" && r.outcome !== "conversation") return false;
  return true;
}

/**
 * How many of one number's records count against `cap` for a next call at `atMs` on `next`'s subject or debt, and
 * whether that call would be over it. The window is (atMs − windowHours, atMs]. A record without a debt id counts
 * against every debt (the stricter reading). Pure.
 */
export function countAgainstCap(records: readonly CapRecord[], cap: CallCap, atMs: number, next: { subject: string; debtId: string | null }): CapCount {
  const from = atMs - cap.windowHours * 3_600_000;
  let count = 0;
  for (const r of records) {
    if (r.atMs <= from || r.atMs > atMs) continue;
    if (countsAgainst(r, cap, next)) count++;
  }
  // after a conversation: any one in the window blocks the next call; otherwise the next call must stay within max
  return { capId: cap.id, count, max: cap.max, over: cap.counts === "afterConversation" ? count > 0 : count + 1 > cap.max };
}

/** The longest window of any cap: a number's records older than this never count (what a lookup reads). */
export const LONGEST_CAP_WINDOW_MS = Math.max(...CALL_CAPS.map((c) => c.windowHours)) * 3_600_000;

/** The history a scrub for `purpose` reads: its caps' longest window, and never less than the 7 days of calls_7d. */
export function historyWindowMs(purpose: CapPurpose): number {
  return Math.max(7 * 24, ...CALL_CAPS.filter((c) => c.purpose === purpose).map((c) => c.windowHours)) * 3_600_000;
}

/** What the evaluation of a number's caps needs (decision 187). */
export interface CapFacts {
  /** The number's state from its area code ("FL"), null for none (toll-free, Canada): only the federal caps then. */
  state: string | null;
  purpose: CapPurpose;
  /** The next call's subject (per-subject caps) and debt (per-debt caps; null: every record counts, the stricter reading). */
  subject: string;
  debtId: string | null;
  /** The channel of the next contact: a cap that does not count it does not hold it. */
  channel: CapChannel;
  /** The number's records (any order); those before the longest window are ignored. */
  records: readonly CapRecord[];
  atMs: number;
  /** The number's exemption record (basis, day since 1970), for a cap a business relationship lifts (Oregon's 18 months). */
  record?: { basis: "purchase" | "inquiry" | "consent"; day: number } | null;
}

/** One cap holding the next call. */
export interface CapHold {
  cap: CallCap;
  /** Records counted in the window. */
  count: number;
  /** The instant the cap no longer holds (ms): the counted record that must leave the window, plus the window. */
  liftAt: number;
  /** The cap in words, with its citation and that instant. */
  note: string;
}

export interface CapVerdict {
  /** The caps holding the next call at the instant (empty: none). */
  holds: CapHold[];
  /** The latest of their lifts, or null when none holds. */
  liftAt: number | null;
  /** Each hold's words, joined by "; " ("" when none). */
  note: string;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** 24 → "24 hours", 168 → "7 days". */
const windowWords = (hours: number) => (hours % 24 === 0 && hours > 24 ? `${hours / 24} days` : `${hours} hours`);

/** "2026-11-29T14:00:00Z" */
const isoSecondOf = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19) + "Z";

/** The same day `months` calendar months later (clamped to a shorter month's last day), days since 1970. */
function dayPlusMonths(day: number, months: number): number {
  const d = new Date(day * DAY_MS);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const y = Math.floor(total / 12);
  const m0 = total - y * 12;
  const last = new Date(Date.UTC(y, m0 + 1, 0)).getUTCDate();
  return Date.UTC(y, m0, Math.min(d.getUTCDate(), last)) / DAY_MS;
}

/** Each cap's first day in force, in days since 1970 (UTC). */
const EFFECTIVE_DAY = new Map(CALL_CAPS.map((c) => [c, Date.parse(`${c.effective}T00:00:00Z`) / DAY_MS]));
/** capsFor's answers by state, purpose, channel and UTC day: a scrub asks it once per number with a history (decision 191). */
const capsMemo = new Map<string, CallCap[]>();

/** The caps of a number's state (and the federal ones) for a purpose and channel, in force at the instant. */
export function capsFor(state: string | null, purpose: CapPurpose, channel: CapChannel, atMs: number): readonly CallCap[] {
  const day = Math.floor(atMs / DAY_MS);
  const key = `${state ?? ""}|${purpose}|${channel}|${day}`;
  let caps = capsMemo.get(key);
  if (caps === undefined) {
    caps = CALL_CAPS.filter(
      (c) => c.purpose === purpose && (c.jurisdiction === "US" || c.jurisdiction === state) && c.channels.includes(channel) && EFFECTIVE_DAY.get(c)! <= day,
    );
    if (capsMemo.size >= 10_000) capsMemo.clear();
    capsMemo.set(key, caps);
  }
  return caps;
}

/** Whether the number's record lifts the cap at the instant: a basis the cap names, dated on or before the day, within its months. */
function liftedByRecord(cap: CallCap, record: CapFacts["record"], atMs: number): boolean {
  if (!record || !cap.liftMonths || !cap.liftedBy.includes(record.basis)) return false;
  const day = Math.floor(atMs / DAY_MS);
  return record.day <= day && day < dayPlusMonths(record.day, cap.liftMonths);
}

/** `3 calls`, `1 text`, `3 calls and texts`. */
function countWords(n: number, channels: Set<CapChannel>): string {
  const what = channels.size > 1 ? "calls and texts" : channels.has("text") ? (n === 1 ? "text" : "texts") : n === 1 ? "call" : "calls";
  return `${n} ${what}`;
}

/**
 * Which caps hold a number's next call at `atMs` (decision 187), when each lifts, and why in words. Every record
 * after the window's start counts, a record stamped a little ahead of the instant too (a dialer's clock; the
 * stricter reading). A cap of `max` holds while the window holds `max` counted records; it lifts when the oldest
 * one that must leave has left: the (count − max + 1)-th oldest plus the window (the oldest when the window holds
 * exactly max). Regulation F's conversation prong holds for the window after the latest conversation. The state's
 * caps apply to the purpose they are for only (telemarketing ignores the debt caps and the reverse). Pure.
 *
 *   "3 calls in 24 hours to Florida (Fla. Stat. § 501.616(6)(b)): next at 2026-11-29T14:00:00Z"
 *   "7 calls in 7 days about debt "A-17" (12 CFR 1006.14(b)(2)(i)(A)): next at …"
 *   "A telephone conversation about debt "A-17" within 7 days (12 CFR 1006.14(b)(2)(i)(B)): next at …"
 */
export function evaluateCaps(f: CapFacts): CapVerdict {
  const holds: CapHold[] = [];
  const next = { subject: f.subject, debtId: f.debtId };
  for (const cap of capsFor(f.state, f.purpose, f.channel, f.atMs)) {
    if (liftedByRecord(cap, f.record, f.atMs)) continue;
    const from = f.atMs - cap.windowHours * HOUR_MS;
    const times: number[] = [];
    const channels = new Set<CapChannel>();
    for (const r of f.records) {
      if (r.atMs <= from || !countsAgainst(r, cap, next)) continue;
      times.push(r.atMs);
      channels.add(r.channel);
    }
    const window = cap.windowHours * HOUR_MS;
    let liftAt: number;
    let words: string;
    const debt = f.debtId === null ? "the debt" : `debt ${JSON.stringify(f.debtId)}`;
    if (cap.counts === "afterConversation") {
      if (times.length === 0) continue;
      liftAt = Math.max(...times) + window;
      words = `A telephone conversation about ${debt} within ${windowWords(cap.windowHours)}`;
    } else {
      if (times.length < cap.max) continue;
      times.sort((a, b) => a - b);
      liftAt = times[times.length - cap.max] + window;
      const place = cap.jurisdiction === "US" ? "" : ` to ${US_STATE_NAMES.get(cap.jurisdiction) ?? cap.jurisdiction}`;
      const scope =
        cap.scope === "debt" ? ` about ${debt}` : cap.scope === "subject" && f.subject !== "default" ? ` on subject ${JSON.stringify(f.subject)}` : "";
      words = `${countWords(times.length, channels)} in ${windowWords(cap.windowHours)}${place}${scope}`;
    }
    holds.push({ cap, count: times.length, liftAt, note: `${words} (${cap.cite}): next at ${isoSecondOf(liftAt)}` });
  }
  if (holds.length === 0) return { holds, liftAt: null, note: "" };
  return { holds, liftAt: Math.max(...holds.map((h) => h.liftAt)), note: holds.map((h) => h.note).join("; ") };
}
