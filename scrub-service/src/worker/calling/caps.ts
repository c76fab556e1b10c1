/**
 * Call frequency caps as rule data (issue #46, decision 185), beside the calling hours (rules.ts): how many calls or
 * texts a law allows to one person in a window, what it counts together (per number, per subject, per debt), what
 * lifts it, with the text it rests on. Pure data plus one pure count (`countAgainstCap`); nothing evaluates a scrub
 * or a lookup against these yet. Where the primary text was not found, the entry says so and takes the stricter
 * reading (the smaller number, the wider scope, calls and texts both counted).
 */

export type CapPurpose = "telemarketing" | "debt-collection";
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
  citation: string;
  sourceUrl: string;
  /** Other texts read for this entry. */
  alsoRead?: readonly string[];
  /** Whether the wording was read in the statute or regulation itself, or only in secondary sources (and which reading was taken). */
  checked: "primary" | "secondary";
  note?: string;
  effective: string;
}

/** The caps' version: a change to an entry is a new version (printed on /rules). */
export const CAPS_VERSION = "2026-11-28.1";

export const CALL_CAPS: readonly CallCap[] = [
  {
    id: "fl-501-616-6b",
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
    jurisdiction: "MA",
    name: "Massachusetts creditors: two calls per seven days per debt",
    purpose: "debt-collection",
    max: 2,
    windowHours: 7 * 24,
    scope: "debt",
    channels: ["call", "text"],
    counts: "attempts",
    lifts: "Nothing in the rule for the residence limit (two in 30 days elsewhere than the residence; the stricter 7-day count is kept for every number).",
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
    jurisdiction: "MA",
    name: "Massachusetts debt collectors: two communications per seven days per debt",
    purpose: "debt-collection",
    max: 2,
    windowHours: 7 * 24,
    scope: "debt",
    channels: ["call", "text"],
    counts: "attempts",
    lifts: "The consumer's prior consent given directly to the debt collector, or a court's express permission.",
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
    if (!cap.channels.includes(r.channel)) continue;
    if (cap.scope === "subject" && r.subject !== next.subject) continue;
    if (cap.scope === "debt" && r.debtId !== null && next.debtId !== null && r.debtId !== next.debtId) continue;
    if (cap.counts === "afterConversation" && r.outcome !== "conversation") continue;
    count++;
  }
  // after a conversation: any one in the window blocks the next call; otherwise the next call must stay within max
  return { capId: cap.id, count, max: cap.max, over: cap.counts === "afterConversation" ? count > 0 : count + 1 > cap.max };
}
