/**
 * The list-type registry: every admin suppression list, the suppression type a scrub is started with, which
 * lists each type checks, and the reasons and labels the screens, the API, the CLI and the engine show.
 * Pure data without runtime imports, so the browser bundle may import it as well as the engine (docs/decisions/095).
 *
 * Adding a list type (a state DNC list, say) = one entry below + its data: a migration that inserts its
 * `lists` row (kind, suppression_type = `type`, name = `name`). The database admits any short lower-case kind
 * (migrations 0017, 0020) and the DNC page draws one card per entry, titled `name`, in the colours of `tone`.
 * The state do-not-call lists (decision 160) are such entries without a suppression type of their own.
 */
import type { SuppressionTypeName as StoredSuppressionTypeName } from "db/schema";

/** Card colours a list type may take on the DNC page (app/components/lists/list-tones.ts has one palette each). */
export const LIST_TONES = ["blue", "red", "amber", "green", "violet", "slate"] as const;
export type ListTone = (typeof LIST_TONES)[number];

/**
 * A state's own do-not-call list (decision 160): who publishes it, how often, and how long after its release
 * (the registry date an admin states when loading it) a copy may still be used for calls.
 */
export interface StateListRule {
  /** Postal code, upper case ("TX"). */
  code: string;
  stateName: string;
  publisher: string;
  cadence: "monthly" | "quarterly";
  /** Days after the stated registry date that the copy is current (the state's freshness rule). */
  validDays: number;
  /** The freshness rule in words, for the DNC card. */
  freshness: string;
  /** The state's page or statute naming the list, its cadence and its freshness rule. */
  source: string;
  /**
   * Only a country's national list (Canada's National DNCL, decision 179): the numbering region (ISO 3166, as
   * `numberRegion` answers) whose numbers alone the list holds. A load ignores every other number (counted
   * invalid) and refuses a file holding none of that region's numbers; `code` is then the country's ISO code.
   */
  country?: string;
}

/** A state list whose statute exempts no past customer or inquiry (Indiana). */
const NO_EXEMPTION: ExemptionWindows = { purchaseMonths: 0, inquiryMonths: 0, source: "" };

/** The fields every state list shares; its kind is `dnc-` + the lower-case postal code. */
function stateList(rule: StateListRule, windows: ExemptionWindows) {
  return {
    suppressionType: null,
    name: `${rule.stateName} DNC List`,
    tone: "violet",
    label: "",
    description: `Numbers on the ${rule.stateName} do-not-call list (${rule.publisher}).`,
    includes: [],
    reasonLabel: `On the ${rule.stateName} do-not-call list`,
    exemptible: true,
    exemptionWindows: windows,
    state: rule,
  } as const;
}

/**
 * The states that keep a do-not-call list of their own (decision 160 cites each source). Windows: the state's
 * where its statute differs from the federal ones; where the sources disagree or name no period, the stricter.
 * The DNC page types 2… follow the postal codes' order.
 */
const STATE_LISTS = [
  {
    kind: "dnc-co",
    type: 2,
    ...stateList(
      {
        code: "CO",
        stateName: "Colorado",
        publisher: "Colorado Public Utilities Commission",
        cadence: "quarterly",
        validDays: 112,
        freshness:
          "Quarterly (Jan, Apr, Jul, Oct 10); each list must be in use within 20 days of its release, so a release stays current 112 days (its quarter of 92, then the next release's 20).",
        source: "http://coloradonocall.com/Public/Telemarketers.aspx",
      },
      // 18 months; an inquiry only 30 days, which no whole number of calendar months stays within: 0
      { purchaseMonths: 18, inquiryMonths: 0, source: "https://stopfraudcolorado.gov/fraud-center/telemarketing-fraud/colorado-no-call.html" },
    ),
  },
  {
    kind: "dnc-fl",
    type: 3,
    ...stateList(
      {
        code: "FL",
        stateName: "Florida",
        publisher: "Florida Department of Agriculture and Consumer Services",
        cadence: "quarterly",
        validDays: 92,
        freshness: "Quarterly; only the currently available quarter's list may be used.",
        source: "https://www.freshfromflorida.com/Business-Services/Florida-Do-Not-Call",
      },
      // "prior or existing business relationship" with no period: the federal windows bound it
      { purchaseMonths: 18, inquiryMonths: 3, source: "https://flsenate.gov/laws/statutes/2012/501.059" },
    ),
  },
  {
    kind: "dnc-in",
    type: 4,
    ...stateList(
      {
        code: "IN",
        stateName: "Indiana",
        publisher: "Indiana Attorney General",
        cadence: "quarterly",
        validDays: 92,
        freshness: "Quarterly, effective Jan 1, Apr 1, Jul 1 and Oct 1; a new complete list each quarter.",
        source: "https://www.in.gov/attorneygeneral/2444.htm",
      },
      // no exemption for past customers or inquiries (only an unfinished debt or contract)
      { ...NO_EXEMPTION, source: "https://www.in.gov/attorneygeneral/2444.htm" },
    ),
  },
  {
    kind: "dnc-la",
    type: 5,
    ...stateList(
      {
        code: "LA",
        stateName: "Louisiana",
        publisher: "Louisiana Public Service Commission",
        cadence: "monthly",
        validDays: 31,
        freshness: "Monthly by statute (R.S. 45:844.14; the Commission's FAQ says quarterly: the stricter is kept).",
        source: "http://legis.la.gov/Legis/Law.aspx?d=100148",
      },
      // Louisiana's own exclusions (R.S. 45:844.12(6), the "telephonic solicitation" definition of the list's
      // chapter) were not readable (decision 177: lawserver.com's § 45:844.12 shows the definition cut before its exclusions;
      // legis.la.gov's § 844.12 page and the LPSC's telemarketer rules were not among the stored pages). The only
      // Louisiana period found is six months in R.S. 45:844.31(A)(3) (the source below), which governs declared
      // emergencies only: applied as the stricter reading (against the federal 18), with no inquiry window.
      {
        purchaseMonths: 6,
        inquiryMonths: 0,
        source:
          "https://casetext.com/statute/louisiana-revised-statutes/revised-statutes/title-45-public-utilities-and-carriers/chapter-8-j-telephonic-solicitation-prohibited-during-state-of-emergency/section-4584431-telemarketing-activities-prohibitions-exceptions",
      },
    ),
  },
  {
    kind: "dnc-ma",
    type: 6,
    ...stateList(
      {
        code: "MA",
        stateName: "Massachusetts",
        publisher: "Office of Consumer Affairs and Business Regulation",
        cadence: "quarterly",
        validDays: 152,
        freshness:
          "Quarterly (Jan 1, Apr 1, Jul 1, Oct 1); an enrollment binds 60 days after its first quarterly list, so a release stays current 152 days (its quarter of 92, then the next release's 60).",
        source: "https://regulations.justia.com/states/massachusetts/201-cmr/title-201-cmr-12-00/section-12-05",
      },
      // "an existing customer" (bounded by the federal 18 months); no inquiry exemption
      { purchaseMonths: 18, inquiryMonths: 0, source: "https://www.mass.gov/how-to/file-a-complaint-against-a-business-that-is-violating-the-do-not-call-law" },
    ),
  },
  {
    kind: "dnc-mo",
    type: 7,
    ...stateList(
      {
        code: "MO",
        stateName: "Missouri",
        publisher: "Missouri Attorney General",
        cadence: "quarterly",
        validDays: 92,
        freshness: "Quarterly, in an electronic format.",
        source: "https://ago.mo.gov/civil-division/consumer/no-call/faqs-for-telemarketers",
      },
      // a business contact within 180 days: 5 calendar months never exceed it, 6 can
      { purchaseMonths: 5, inquiryMonths: 5, source: "http://statutes.laws-info.com/missouri/t26/c407/407_1095" },
    ),
  },
  {
    kind: "dnc-ms",
    type: 8,
    ...stateList(
      {
        code: "MS",
        stateName: "Mississippi",
        publisher: "Mississippi Attorney General (Consumer Protection Division)",
        cadence: "monthly",
        validDays: 31,
        freshness:
          "Run by the Attorney General since 2023-07-01 (HB 1225; the Public Service Commission before). No update schedule was found on the Attorney General's pages; registrations took effect on a month's first day: a monthly copy (stricter).",
        source: "https://attorneygenerallynnfitch.com/divisions/consumer-protection/",
      },
      // "companies people have done business with in the past six months" (a 2003 press report; § 77-3-705's
      // definitions, as amended in 2023, were not read)
      { purchaseMonths: 6, inquiryMonths: 0, source: "https://www.vicksburgpost.com/2003/05/07/no-call-signup-begins-july-1/" },
    ),
  },
  {
    kind: "dnc-ok",
    type: 9,
    ...stateList(
      {
        code: "OK",
        stateName: "Oklahoma",
        publisher: "Oklahoma Attorney General",
        cadence: "quarterly",
        validDays: 122,
        freshness:
          "Quarterly; a listing binds 30 days after it appears on the registry, so a release stays current 122 days (its quarter of 92, then the next release's 30).",
        source: "https://domino.oag.ok.gov/oagweb.nsf/Telemarketer!OpenPage",
      },
      // a relationship formed in the preceding 24 months; an inquiry or application suffices
      { purchaseMonths: 24, inquiryMonths: 24, source: "https://oag.ok.gov/attorney-generals-telemarketer-restriction-act-consumer-registry" },
    ),
  },
  {
    kind: "dnc-pa",
    type: 10,
    ...stateList(
      {
        code: "PA",
        stateName: "Pennsylvania",
        publisher: "Pennsylvania Office of Attorney General",
        cadence: "quarterly",
        validDays: 122,
        freshness:
          "Quarterly; numbers must be removed within 30 days of a list's issue, so a release stays current 122 days (its quarter of 92, then the next release's 30).",
        source: "https://www.attorneygeneral.gov/Consumers/Do_Not_Call_List/DO_NOT_CALL_FREQUENTLY_ASKED_QUESTIONS/",
      },
      // The Attorney General's telemarketer FAQ quotes Act 24 of 2002: a call is no telephone solicitation call when
      // made to a consumer "with whom the telemarketer has an established business relationship within the past 12
      // months preceding the call" (the source below). 73 P.S. § 2242's definition of the relationship (Westlaw,
      // N74C963A0E9F711E9AF2CE45E2DE3A839) states no period; the
      // regulator's 12 months is the stricter reading (decision 177). An inquiry needs the subscriber's consent to
      // go on (§ 2242): no inquiry window.
      {
        purchaseMonths: 12,
        inquiryMonths: 0,
        source: "https://www.attorneygeneral.gov/Registrations/Telemarketing_in_Pennsylvania_Registration/Telemarketer_Frequently_Asked_Questions/",
      },
    ),
  },
  {
    kind: "dnc-tn",
    type: 11,
    ...stateList(
      {
        code: "TN",
        stateName: "Tennessee",
        publisher: "Tennessee Public Utility Commission",
        cadence: "monthly",
        validDays: 61,
        freshness:
          "Monthly, updated at the beginning of each month (Rule 1220-04-11-.03(4)). A registration binds 60 days after the first of the next month by Rule 1220-04-11-.05(1)(a), 30 days after the end of its month by the Commission's FAQ: the stricter 30 is kept (a copy current 31 + 30 = 61 days).",
        source: "https://www.tn.gov/tpuc/tennessee-do-not-call-program/csd-tn-do-not-call-consumer-faqs.html",
      },
      { purchaseMonths: 12, inquiryMonths: 0, source: "https://homebuilding.tn.gov/tpuc/tennessee-do-not-call-program.html" },
    ),
  },
  {
    kind: "dnc-tx",
    type: 12,
    ...stateList(
      {
        code: "TX",
        stateName: "Texas",
        publisher: "Public Utility Commission of Texas",
        cadence: "quarterly",
        validDays: 152,
        freshness:
          "Quarterly (Jan 1, Apr 1, Jul 1, Oct 1); each list must be in use within 60 days of its release, so a release stays current 152 days (its quarter of 92, then the next release's 60).",
        source: "https://www.puc.texas.gov/consumer/complaint/nocallform.aspx",
      },
      // an established business relationship within the last 12 months; no inquiry window
      { purchaseMonths: 12, inquiryMonths: 0, source: "https://puc.texas.gov/consumer/phone/Nocall.aspx" },
    ),
  },
  {
    kind: "dnc-wy",
    type: 13,
    ...stateList(
      {
        code: "WY",
        stateName: "Wyoming",
        publisher: "Direct Marketing Association Telephone Preference Service, under Wyoming law",
        cadence: "monthly",
        validDays: 91,
        freshness: "A number binds 60 days after it is enrolled (no cadence is published: a monthly copy), so a copy stays current 91 days (31, then 60).",
        source: "https://attorneygeneral.wyo.gov/law-office-division/consumer-protection-and-antitrust-unit/telephone-solicitation",
      },
      // an established business relationship with no period: the federal windows bound it
      {
        purchaseMonths: 18,
        inquiryMonths: 3,
        source: "https://attorneygeneral.wyo.gov/law-office-division/consumer-protection-and-antitrust-unit/telephone-solicitation-for-businesses",
      },
    ),
  },
] as const;

/**
 * Canada's National Do Not Call List (decision 179, issue #43): the CRTC's Unsolicited Telecommunications Rules
 * forbid telemarketing calls to a number registered on it for more than 31 days, and subscribers download it by
 * Canadian area code. It rides with the state lists (its own release date and freshness rule, checked by DNC and
 * Litigation when loaded, skipped when empty) and holds Canadian numbers only (`country`).
 */
const CANADA_LIST = {
  kind: "dnc-ca",
  type: 14,
  suppressionType: null,
  name: "Canada National DNCL",
  tone: "amber",
  label: "",
  description: "Numbers on Canada's National Do Not Call List (CRTC); Canadian numbers only.",
  includes: [],
  reasonLabel: "On Canada's National Do Not Call List",
  // The National DNCL operator's telemarketer page: an existing business relationship exempts a purchase, lease or
  // rental in the last 18 months (or a written contract in effect or expired within 18 months) and an inquiry or
  // application within the last 6 months; express consent (written, electronic, or a recorded or third-party
  // verified verbal one) also lets a number be called. The Telecommunications Act's own text (s. 41.7) was not read.
  exemptible: true,
  exemptionWindows: { purchaseMonths: 18, inquiryMonths: 6, source: "https://lnnte-dncl.gc.ca/en/Organization/Exemptions" },
  state: {
    code: "CA",
    stateName: "Canada",
    publisher: "Canadian Radio-television and Telecommunications Commission (National DNCL operator)",
    cadence: "monthly",
    validDays: 31,
    freshness:
      "Downloaded by area code from the National DNCL operator; the CRTC's rules forbid calls to a number registered for more than 31 days, so each download is current 31 days. Canadian area codes only: other numbers in a file are ignored.",
    source: "https://lnnte-dncl.gc.ca/en/Organization/Frequently-Asked-Questions",
    country: "CA",
  },
} as const;

/**
 * The lists with a jurisdiction's own release date and freshness rule: the state lists (dnc-co … dnc-wy) and
 * Canada's national list (dnc-ca). DNC and Litigation checks every one that is loaded.
 */
export const STATE_LIST_KINDS = [...STATE_LISTS.map((t) => t.kind), CANADA_LIST.kind];

interface ListTypeShape {
  kind: string;
  type: number;
  /** null: the list has no suppression type of its own (a state list: DNC and Litigation checks it). */
  suppressionType: string | null;
  /** Only the state lists (decision 160): their publisher, cadence and freshness rule. */
  state?: StateListRule;
  name: string;
  tone: ListTone;
  label: string;
  description: string;
  includes: readonly string[];
  reasonLabel: string;
  /** Whether a customer's exemption (business relationship, written consent) lets a number on it be called (decision 161). */
  exemptible: boolean;
  /** How long each basis of an exemption lasts for this list (a state may set its own; cite it in `source`). */
  exemptionWindows: ExemptionWindows;
}

/**
 * The federal windows: a purchase, transaction or payment within the 18 months before the call, an inquiry or
 * application within the 3 months before it (47 CFR 64.1200(f)(5); 16 CFR 310.2(q)). Written consent has no window.
 */
export const FEDERAL_EXEMPTION_WINDOWS = {
  purchaseMonths: 18,
  inquiryMonths: 3,
  source:
    "https://www.ecfr.gov/current/title-47/chapter-I/subchapter-B/part-64/subpart-L/section-64.1200 (f)(5); https://www.ecfr.gov/current/title-16/chapter-I/subchapter-C/part-310/section-310.2 (q)",
} as const;

/** The shape of `exemptionWindows` (exemption-rules/windows.ts reads it; kept here so this file imports nothing). */
export interface ExemptionWindows {
  /** Calendar months after a purchase, transaction or payment. */
  purchaseMonths: number;
  /** Calendar months after an inquiry or application. */
  inquiryMonths: number;
  source: string;
}

export const LIST_TYPES = [
  {
    /** lists.kind of the admin list; also the reason a row on it gets in bad.csv. */
    kind: "litigation",
    /** The DNC page's type (`?type=0`) and lists.suppression_type. */
    type: 0,
    /** The suppression type named after this list (scrub_jobs.suppression_type, the API's suppression_type). */
    suppressionType: "LitigationOnly",
    /** The list's own name (DNC page card title, lists.name); `label` names the suppression type. */
    name: "Litigation List",
    tone: "blue",
    label: "Litigation Only",
    description: "Removes numbers on the litigation list (known TCPA litigators).",
    /** The lists a scrub of this suppression type checks, in the order that gives the reason. */
    includes: ["litigation"],
    reasonLabel: "Litigation list",
    /** Known litigators: no business relationship or consent makes calling them safe. */
    exemptible: false,
    exemptionWindows: FEDERAL_EXEMPTION_WINDOWS,
  },
  {
    kind: "dnc",
    type: 1,
    suppressionType: "DNCAndLitigation",
    name: "DNC List",
    tone: "red",
    label: "DNC and Litigation",
    description: "Removes numbers on the do-not-call list and on the litigation list.",
    /** The federal list, then every state list (decision 160): a state list never loaded is empty. */
    includes: ["litigation", "dnc", ...STATE_LIST_KINDS],
    reasonLabel: "DNC list",
    exemptible: true,
    exemptionWindows: FEDERAL_EXEMPTION_WINDOWS,
  },
  ...STATE_LISTS,
  CANADA_LIST,
] as const satisfies readonly ListTypeShape[];

export type ListType = (typeof LIST_TYPES)[number];
/** An admin list's kind. */
export type AdminListKind = ListType["kind"];
/** Every kind of `lists` row: the admin lists and the customers' containers. */
export type ListKind = AdminListKind | "container";
/** The list types that carry a suppression type of their own (a state list does not). */
export type SuppressionListType = Extract<ListType, { suppressionType: string }>;
export type SuppressionTypeName = SuppressionListType["suppressionType"];
// The schema's CHECK constraints allow exactly these suppression types: a registry change needs a migration.
type SameAs<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _suppressionTypesMatchTheSchema: SameAs<SuppressionTypeName, StoredSuppressionTypeName> = true;
void _suppressionTypesMatchTheSchema;
export type DncType = ListType["type"];

/** The reason for a number on the customer's own container. */
export const CONTAINER_REASON = { reason: "container", label: "Your container" } as const;
/**
 * The reason a number on the customer's internal do-not-call list gets (decision 195): the container flagged
 * `internal_dnc`, checked by every scrub and lookup of its owner whatever container is chosen; never exempted.
 */
export const INTERNAL_DNC_REASON = { reason: "internal_dnc", label: "Your internal do-not-call list (opt-out)" } as const;
/** The internal do-not-call list's name, given when the first opt-out creates it. */
export const INTERNAL_DNC_LIST_NAME = "Internal do-not-call list";

export const ADMIN_LIST_KINDS = LIST_TYPES.map((t) => t.kind) as AdminListKind[];
/** The suppression types, in registry order (LitigationOnly, DNCAndLitigation). */
export const SUPPRESSION_LIST_TYPES: SuppressionListType[] = LIST_TYPES.filter((t): t is SuppressionListType => t.suppressionType !== null);
export const SUPPRESSION_TYPE_NAMES = SUPPRESSION_LIST_TYPES.map((t) => t.suppressionType) as [SuppressionTypeName, ...SuppressionTypeName[]];
/**
 * The suppression type a purge starts with: the one that checks the most lists (today DNC and Litigation), so a
 * customer who does not change it gets every check, never fewer (decision 124).
 */
export const DEFAULT_SUPPRESSION_TYPE: SuppressionTypeName = SUPPRESSION_LIST_TYPES.reduce(
  (widest, t) => (t.includes.length > widest.includes.length ? t : widest),
  SUPPRESSION_LIST_TYPES[0],
).suppressionType;

/** The suppression types whose scrubs check this admin list ("Litigation Only, DNC and Litigation"). */
export function suppressionTypesChecking(kind: AdminListKind): SuppressionListType[] {
  return SUPPRESSION_LIST_TYPES.filter((t) => (t.includes as readonly string[]).includes(kind));
}

export function isAdminListKind(value: unknown): value is AdminListKind {
  return LIST_TYPES.some((t) => t.kind === value);
}

/** A `lists.kind` read from the database, as the registry names it; a kind this engine does not know is refused. */
export function listKindOf(stored: string): ListKind {
  if (stored === "container" || isAdminListKind(stored)) return stored;
  throw new Error(`lists.kind "${stored}" is no list type this engine knows (a newer release wrote it?)`);
}

export function isStateListKind(kind: string): boolean {
  return (STATE_LIST_KINDS as readonly string[]).includes(kind);
}

/**
 * A list whose loads carry a registry date (the day of the download it comes from): the federal registry and
 * every state list. A state list absent from a scrub's certificate was empty (never loaded) when it started.
 */
export function takesRegistryDate(kind: string): boolean {
  return kind === "dnc" || isStateListKind(kind);
}

/**
 * The numbering region (ISO 3166, as `numberRegion` answers) whose numbers alone this list may hold, or null for
 * a list that takes any valid number. Only Canada's National DNCL has one ("CA", decision 179).
 */
export function listRegionOf(kind: string): string | null {
  const t = LIST_TYPES.find((x) => x.kind === kind) as ListTypeShape | undefined;
  return t?.state?.country ?? null;
}

export function isSuppressionType(value: unknown): value is SuppressionTypeName {
  return SUPPRESSION_LIST_TYPES.some((t) => t.suppressionType === value);
}

export function listTypeOfKind(kind: AdminListKind): ListType {
  return LIST_TYPES.find((t) => t.kind === kind)!;
}

export function listTypeOfSuppression(name: SuppressionTypeName): SuppressionListType {
  return SUPPRESSION_LIST_TYPES.find((t) => t.suppressionType === name)!;
}

/** The list type of a DNC page type ("0", 1, …), or null. */
export function listTypeOfDncType(value: unknown): ListType | null {
  return LIST_TYPES.find((t) => String(t.type) === String(value)) ?? null;
}

/** The admin lists a scrub of this suppression type checks, in order. */
export function listsOfSuppression(name: SuppressionTypeName): readonly AdminListKind[] {
  return listTypeOfSuppression(name).includes as readonly AdminListKind[];
}

/**
 * The windows a customer's exemption has for a number on this list, or null when nothing exempts it (the
 * litigation list, a customer's own container: a do-not-call request to the seller ends any exemption).
 */
export function exemptionWindowsOf(kind: string): ExemptionWindows | null {
  const t = LIST_TYPES.find((x) => x.kind === kind) as ListTypeShape | undefined;
  return t && t.exemptible ? t.exemptionWindows : null;
}

/** "LitigationOnly or DNCAndLitigation" (error messages). */
export function suppressionTypeChoices(): string {
  return orList(SUPPRESSION_TYPE_NAMES);
}

/** "litigation, dnc" … as "a, b or c". */
export function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
