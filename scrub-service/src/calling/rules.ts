/**
 * Calling-hour rules as data: one entry per jurisdiction, each with its statute or regulator page. A number is
 * subject to every rule of its jurisdiction at once (the federal rule and its state's); a call is lawful only when
 * each of them allows it, in each of the number's time zones. Where sources disagree the stricter reading is
 * kept (docs/decisions/131-calling-windows.md lists every entry, its source and each such choice).
 *
 * Change an entry → add a release to CALLING_RULES_HISTORY and change CALLING_RULES_VERSION to it (it is printed in
 * certificates and summaries, and the public /rules page lists every release).
 */
import { FEDERAL_HOLIDAYS, type Holiday, type Observance } from "./holidays";

/** One published version of the rules: what changed in it, and the decision records that say why. */
export interface CallingRulesRelease {
  version: string;
  /** The day it was published (YYYY-MM-DD). */
  date: string;
  /** docs/decisions records ("131", "177"). */
  decisions: readonly string[];
  changes: readonly string[];
}

/**
 * Every version of the rules, newest first (the public /rules page prints it). A change to an entry adds a release
 * here; CALLING_RULES_VERSION is always the newest one (rules.test.ts checks it).
 */
export const CALLING_RULES_HISTORY: readonly CallingRulesRelease[] = [
  {
    version: "2026-11-28.2",
    date: "2026-11-28",
    decisions: ["178"],
    changes: [
      "Oregon added (HB 3865 of 2025, ORS 646.561 ff.): calls and texts 8 a.m.-8 p.m. from 2026-01-01, in the number's local time and also read in Pacific time (the stricter reading, which matters only for Malheur County's Mountain-time exchanges); the enacted text was not read.",
    ],
  },
  {
    version: "2026-11-28.1",
    date: "2026-11-28",
    decisions: ["177"],
    changes: [
      "Rhode Island gains May 4, even-year election day and the Monday after a Saturday New Year's, Independence, Veterans' or Christmas Day (R.I. Gen. Laws § 25-1-1).",
      "Louisiana loses Robert E. Lee Day (La. R.S. 1:55 as amended in 2022).",
      "Nevada's 8 p.m. end is marked over-strict (no source found; kept as the stricter reading).",
      "The secondary entries' notes say what was searched again; no hours were found and none changed.",
    ],
  },
  {
    version: "2026-11-26.4",
    date: "2026-11-26",
    decisions: ["131"],
    changes: [
      "South Dakota added (S.D. Codified Laws § 37-30A-3(2) and § 37-30-28, both read): weekdays 9 a.m.-9 p.m. only.",
      "Wyoming added (Wyo. Stat. § 40-12-302, secondary): calls end at 8 p.m.",
    ],
  },
  {
    version: "2026-11-26.3",
    date: "2026-11-26",
    decisions: ["131", "165"],
    changes: [
      "Pennsylvania's SB 992 entry also applies the bill's 9 a.m.-7 p.m. Monday-Saturday from 2026-10-18, not only its Sunday ban (enactment still unconfirmed: the stricter reading).",
      "Kentucky, Maryland, Michigan, Minnesota, Nevada and Texas stay secondary; their notes record the second search.",
    ],
  },
  {
    version: "2026-11-26.2",
    date: "2026-11-26",
    decisions: ["131"],
    changes: [
      "Connecticut, Massachusetts, New Mexico and Pennsylvania's hours are cited from statute or regulator text; hours unchanged.",
      "Pennsylvania bans Sunday calls from 2026-10-18 (SB 992 of 2025-26 as passed by the Senate; secondary).",
      "Kentucky, Maryland, Michigan, Minnesota, Nevada and Texas stay secondary, each with the sources found and what remains unread.",
    ],
  },
  {
    version: "2026-11-26.1",
    date: "2026-11-26",
    decisions: ["131"],
    changes: [
      "First rules: the federal TCPA and Telemarketing Sales Rule hours, Canada's CRTC hours, and Alabama, Connecticut, Florida, Kentucky, Louisiana, Maryland, Massachusetts, Michigan, Minnesota, Mississippi, New Mexico, Nevada, Oklahoma, Pennsylvania, Rhode Island, Texas, Utah and Washington.",
    ],
  },
];

/** The newest release of CALLING_RULES_HISTORY (printed in certificates, summaries, the API and lookups). */
export const CALLING_RULES_VERSION = "2026-11-28.2";

/** Minutes after local midnight. */
type Window = readonly [start: number, end: number];

export interface CallingRule {
  id: string;
  name: string;
  /** Allowed local hours per weekday, Sunday first: [first minute, end minute), the end excluded; null = no calls. */
  hours: readonly (Window | null)[];
  /** Days with no calls at all. */
  holidays?: readonly Holiday[];
  observance?: Observance;
  /** The rule's clock is this fixed offset from UTC (minutes) rather than the number's zone. */
  fixedUtcOffsetMinutes?: number;
  /** The rule's clock is this IANA zone rather than the number's own (Oregon's hours also read in Pacific time). */
  clockZone?: string;
  citation: string;
  /**
   * The short form of `citation` a calling note names (decision 180): "La. R.S. 45:811", "HB 3865". Wording only:
   * it changes no answer, so it is not a release of the rules.
   */
  cite: string;
  /** The short citation of the holiday ban, when the entry has holidays ("R.I. Gen. Laws § 25-1-1"). */
  holidayCite?: string;
  source: string;
  /** First day (YYYY-MM-DD, the number's local date) the rule applies; null: in force, start date not established. */
  effective: string | null;
  /** "statute": checked against the statute or regulator text; "secondary": a compliance vendor's table only. */
  verified: "statute" | "secondary";
  note?: string;
}

const at = (h: number, m = 0) => h * 60 + m;
const daily = (from: number, to: number): Window[] => Array.from({ length: 7 }, () => [from, to] as const);
/** Monday-Saturday [from, to), Sunday as given. */
const weekdaysAndSaturday = (from: number, to: number, sunday: Window | null): (Window | null)[] => [sunday, ...daily(from, to).slice(1)];

const ALABAMA_HOLIDAYS: Holiday[] = [
  { name: "New Year's Day", date: { fixed: [1, 1] } },
  { name: "Robert E. Lee / Martin Luther King, Jr. Birthday", date: { nth: 3, weekday: 1, month: 1 } },
  { name: "George Washington / Thomas Jefferson Birthday", date: { nth: 3, weekday: 1, month: 2 } },
  { name: "Mardi Gras (Baldwin and Mobile counties; applied statewide)", date: { easter: -47 } },
  { name: "Confederate Memorial Day", date: { nth: 4, weekday: 1, month: 4 } },
  { name: "National Memorial Day", date: { nth: -1, weekday: 1, month: 5 } },
  { name: "Jefferson Davis' Birthday", date: { nth: 1, weekday: 1, month: 6 } },
  { name: "Juneteenth", date: { fixed: [6, 19] } },
  { name: "Independence Day", date: { fixed: [7, 4] } },
  { name: "Labor Day", date: { nth: 1, weekday: 1, month: 9 } },
  { name: "Columbus Day / Fraternal Day / American Indian Heritage Day", date: { nth: 2, weekday: 1, month: 10 } },
  { name: "Veterans Day", date: { fixed: [11, 11] } },
  { name: "Thanksgiving Day", date: { nth: 4, weekday: 4, month: 11 } },
  { name: "Christmas Day", date: { fixed: [12, 25] } },
];

const LOUISIANA_HOLIDAYS: Holiday[] = [
  { name: "New Year's Day", date: { fixed: [1, 1] } },
  { name: "Battle of New Orleans", date: { fixed: [1, 8] } },
  { name: "Dr. Martin Luther King, Jr.'s Birthday", date: { nth: 3, weekday: 1, month: 1 } },
  { name: "Washington's Birthday", date: { nth: 3, weekday: 1, month: 2 } },
  { name: "Mardi Gras", date: { easter: -47 } },
  { name: "Good Friday", date: { easter: -2 } },
  { name: "National Memorial Day", date: { nth: -1, weekday: 1, month: 5 } },
  { name: "Independence Day", date: { fixed: [7, 4] } },
  { name: "Huey P. Long Day", date: { fixed: [8, 30] } },
  { name: "Labor Day", date: { nth: 1, weekday: 1, month: 9 } },
  { name: "Columbus Day", date: { nth: 2, weekday: 1, month: 10 } },
  { name: "All Saints' Day", date: { fixed: [11, 1] } },
  { name: "Veterans Day", date: { fixed: [11, 11] } },
  { name: "Thanksgiving Day", date: { nth: 4, weekday: 4, month: 11 } },
  { name: "Christmas Day", date: { fixed: [12, 25] } },
];

/** Pennsylvania's legal holidays (44 P.S. § 11) together with the federal ones. */
const PENNSYLVANIA_HOLIDAYS: Holiday[] = [
  ...FEDERAL_HOLIDAYS,
  { name: "Good Friday", date: { easter: -2 } },
  { name: "Flag Day", date: { fixed: [6, 14] } },
  { name: "Election Day (the Tuesday after the first Monday of November)", date: { nth: 1, weekday: 1, month: 11, plus: 1 } },
];

/**
 * Rhode Island's holidays, R.I. Gen. Laws § 25-1-1 (read 2026-11-28): the days it names, with New Year's Day,
 * Independence Day, Veterans' Day and Christmas Day moved to the following Monday when they fall on a Saturday or
 * Sunday, any of them on a Sunday moved to Monday, election day "in each year in which a general election of state
 * officers is held" (even years), and the days the President or Congress appoint (the federal holidays: Juneteenth,
 * Thanksgiving). § 5-61-2 names both. Rhode Island Independence Day (May 4) moves only off a Sunday (§ 25-1-1's
 * general clause; § 25-2-2 likewise): no Saturday → Monday for it.
 */
const RI_MONDAY_FOR_WEEKEND = new Set(["New Year's Day", "Independence Day", "Veterans Day", "Christmas Day"]);
const RHODE_ISLAND_HOLIDAYS: Holiday[] = [
  ...FEDERAL_HOLIDAYS.map((h) => (RI_MONDAY_FOR_WEEKEND.has(h.name) ? { ...h, saturdayToMonday: true } : h)),
  { name: "Rhode Island Independence Day", date: { fixed: [5, 4] } },
  { name: "Victory Day", date: { nth: 2, weekday: 1, month: 8 } },
  { name: "Election Day (the Tuesday after the first Monday of November, even years)", date: { nth: 1, weekday: 1, month: 11, plus: 1 }, evenYearsOnly: true },
];

/** Utah's legal holidays (Utah Code § 63G-1-301). */
const UTAH_HOLIDAYS: Holiday[] = [
  ...FEDERAL_HOLIDAYS.filter((h) => h.name !== "Juneteenth National Independence Day"),
  { name: "Juneteenth National Freedom Day", date: { fixed: [6, 19] } },
  { name: "Pioneer Day", date: { fixed: [7, 24] } },
];

export const CALLING_RULES: readonly CallingRule[] = [
  {
    id: "US",
    name: "United States (TCPA and Telemarketing Sales Rule)",
    hours: daily(at(8), at(21)),
    cite: "47 CFR 64.1200(c)(1)",
    citation: "47 CFR 64.1200(c)(1); 16 CFR 310.4(c)",
    source: "https://www.ecfr.gov/current/title-47/chapter-I/subchapter-B/part-64/subpart-L/section-64.1200",
    effective: "1992-12-20",
    verified: "statute",
    note: "Before 8 a.m. or after 9 p.m. local time at the called party's location; 21:00:00 itself is outside.",
  },
  {
    id: "CA",
    name: "Canada (CRTC Unsolicited Telecommunications Rules)",
    hours: [[at(10), at(18)], ...daily(at(9), at(21, 30)).slice(1, 6), [at(10), at(18)]],
    cite: "CRTC Unsolicited Telecommunications Rules, Part III",
    citation: "CRTC Unsolicited Telecommunications Rules, Part III (Telecom Decision CRTC 2007-48 as amended)",
    source: "https://crtc.gc.ca/eng/phone/telemarketing/tobligations/rules-regles.htm",
    effective: "2008-09-30",
    verified: "statute",
    note: "Weekdays 9:00-21:30, weekends 10:00-18:00, the called person's time. Provincial rules are not modelled.",
  },
  {
    id: "US-AL",
    name: "Alabama",
    hours: weekdaysAndSaturday(at(8), at(20), null),
    holidays: ALABAMA_HOLIDAYS,
    observance: "weekend-to-weekday",
    cite: "Ala. Admin. Code r. 770-X-5-.17(1)(b)",
    holidayCite: "Ala. Code § 1-3-8",
    citation: "Ala. Admin. Code r. 770-X-5-.17(1)(b); holidays Ala. Code § 1-3-8",
    source:
      "https://d1tvxue8o4w0fl.cloudfront.net/regulation/alabama-administrative-code/title-770-alabama-public-service-commission/chapter-770-x-5-telephone-rules/section-770-x-5-17-live-and-automated-solicitations-and-announcements",
    effective: null,
    verified: "statute",
    note: "The rule's text covers automated solicitation calls; applied to every call (stricter).",
  },
  {
    id: "US-CT",
    name: "Connecticut",
    hours: daily(at(9), at(20)),
    cite: "Conn. Gen. Stat. § 42-288a",
    citation: "Conn. Gen. Stat. § 42-288a as amended by P.A. 23-98 (SB 1058) (\"between the hours of nine o'clock a.m. and eight o'clock p.m. local time\")",
    source: "https://mondaq.co.uk/unitedstates/advertising-marketing--branding/1340464/revised-connecticut-telemarketing-law-signed-into-law",
    effective: "2023-10-01",
    verified: "statute",
    note: "The statutory words are quoted by Klein Moynihan Turco's alert (signed 2023-06-26, in force 2023-10-01); dnc.com and Wofsey Rosen say the same; the official text is chapter 743m at https://cga.ct.gov/current/pub/chap_743m.htm (the subsection letter of the hours clause inside § 42-288a was not read). ClickPoint lists 9 a.m.-9 p.m.: the stricter 9-8 kept.",
  },
  {
    id: "US-FL",
    name: "Florida",
    hours: daily(at(8), at(20)),
    cite: "Fla. Stat. § 501.616(6)(a)",
    citation: "Fla. Stat. § 501.616(6)(a) (2021 SB 1120)",
    source: "https://flsenate.gov/Session/Bill/2021/1120/BillText/er/HTML",
    effective: "2021-07-01",
    verified: "statute",
  },
  {
    id: "US-KY",
    name: "Kentucky",
    hours: daily(at(10), at(21)),
    cite: "KRS 367.46955",
    citation: "KRS 367.46955 (prohibited telephone solicitation acts; the hours clause was not read)",
    source: "https://www.dropcowboy.com/state-compliance",
    effective: null,
    verified: "secondary",
    note: "10 a.m.-9 p.m. from Drop Cowboy; the Call Desk rules service (glama.ai connector page) also says Kentucky starts at 10 a.m. KRS 367.46955 was found (self-law.org, lawserver.com) but the excerpts stop at item (7), before any hours clause. The statute text read is KRS 367.461(2)(e): automated calling equipment only between 8 a.m. and 9 p.m. (contactcentercompliance.com), looser than 10-9, so 10-9 is kept. Searched again (rules 2026-11-26.3): the same two copies of § 367.46955 (still cut at (7)), cliclaw.com's KRS 367.461-.46999 table of contents, and the words \"before 10 a.m. or after 9 p.m.\" in stored pages and public code: no hours clause found. Searched again 2026-11-28: KRS 367.46955 (lawserver.com, self-law.org: items (1)-(7), no hours), KRS 367.461(2)(e) (8 a.m.-9 p.m., automated equipment only), cliclaw.com's chapter index: still no 10 a.m. start found.",
  },
  {
    id: "US-LA",
    name: "Louisiana",
    hours: weekdaysAndSaturday(at(8), at(20), null),
    holidays: LOUISIANA_HOLIDAYS,
    observance: "none",
    cite: "La. R.S. 45:811",
    holidayCite: "La. R.S. 1:55(A)(1)",
    citation:
      "La. R.S. 45:811(2)-(3); La. PSC General Order R-29617 § V(A); holidays La. R.S. 1:55(A)(1) as amended by Acts 2022 (HB 248: Robert E. Lee Day and Confederate Memorial Day struck)",
    source: "https://lawserver.com/?p=30183792",
    effective: null,
    verified: "statute",
    note: "All R.S. 1:55(A)(1) holidays are banned, not only the PSC's shorter list (stricter); the list as read at legis.la.gov (Law.aspx?d=74097, 2026-11-28) has no Robert E. Lee Day (removed in rules 2026-11-28.1; HB 248 of 2022 per The Advocate and the House digest). Inauguration Day in Baton Rouge and holidays the governor proclaims cannot be computed; declared emergencies (R.S. 45:844.31) are not part of these hours: each is entered as an emergency no-call period with its source (decision 181).",
  },
  {
    id: "US-MA",
    name: "Massachusetts",
    hours: daily(at(8), at(20)),
    cite: "201 CMR 12.02(2)",
    citation: "201 CMR 12.02(2) (regulation under M.G.L. c. 159C)",
    source: "https://regulations.justia.com/states/massachusetts/201-cmr/title-201-cmr-12-00/section-12-02",
    effective: null,
    verified: "statute",
    note: "\"No telephone solicitor shall make or cause to be made an unsolicited telephonic sales call to a consumer between the hours of 8:00 P.M. to 8:00 A.M., local time at the consumer's location.\" M.G.L. c. 159C took effect 2003-01-01 (mass.gov); the regulation's own start date was not established.",
  },
  {
    id: "US-MD",
    name: "Maryland",
    hours: daily(at(8), at(20)),
    cite: "Md. Code, Com. Law § 14-4502",
    citation: "Md. Code, Com. Law § 14-4502 (Stop the Spam Calls Act of 2023, SB 90, Acts 2023 ch. 413; the hours clause was not read)",
    source: "https://www.dnc.com/index.php/news/maryland-governor-signs-stop-spam-calls-act-2023-law",
    effective: "2024-01-01",
    verified: "secondary",
    note: "§ 14-4502 was found (lexace.ai/us/statute/maryland/CL-14-4502), but the excerpt stops inside (a)(3), before the hours. 8 a.m.-8 p.m. in the called party's time zone per dnc.com, WMAR-2 (wmar2news.com) and WBAL-TV (via nesaus.org: no calls between 8 p.m. and 8 a.m.). Signed 2023-05-03, in force 2024-01-01 (DataGuidance; Kelley Drye); dnc.com's \"January 1, 2023\" is a slip. The legislature's bill page (mgaleg.maryland.gov/mgawebsite/Legislation/Details/SB0090?ys=2023RS) confirms \"Approved by the Governor - Chapter 413\", effective 2024-01-01, cross-filed HB 37; its enrolled text and Fiscal and Policy Note were not in the stored pages, nor was § 14-4502 on self-law.org (only § 14-4501). Searched again 2026-11-28: lexace.ai's § 14-4502 stops inside (a)(3) (automated systems need prior express written consent); § 14-4501 (self-law.org) has definitions only; Kelley Drye (JD Supra) and DataGuidance name the restricted times without the words: the hours clause is still unread.",
  },
  {
    id: "US-MI",
    name: "Michigan",
    hours: daily(at(9), at(21)),
    cite: "MCL 445.111 et seq.",
    citation: "Michigan Home Solicitation Sales Act, MCL 445.111 et seq. (as listed by the secondary source; no hours clause found)",
    source: "https://www.dropcowboy.com/state-compliance",
    effective: null,
    verified: "secondary",
    note: "No hours clause was found: the act's sections (445.111-445.111e, legislature.mi.gov) cover definitions, recorded messages and the do-not-call list, disclosures and caller ID, and unfair practices, and the AG's telemarketing alert names no hours. Michigan may have no rule stricter than the federal 8-9; SB 351 (a new Telephone Solicitation Act) had passed the Senate only (CompliancePoint). Drop Cowboy's 9 a.m.-9 p.m. is kept as the stricter reading. Searched again (rules 2026-11-26.3): cliclaw.com lists \"MCL 750.540e(f)\" among Michigan's telemarketing laws and one public rules table cites it for 9-9, but § 750.540e (malicious use of a telecommunications service; Wayne County's copy, People v. Taravella) has no hours in the text read; SB 351 of 2025 (ombudsman.legislature.mi.gov, as introduced) was read only to its definitions. Searched again 2026-11-28 (hours words with MCL 445.111 and 750.540e): nothing new.",
  },
  {
    id: "US-MN",
    name: "Minnesota",
    hours: daily(at(9), at(21)),
    cite: "Minn. Stat. § 325E.27",
    citation: "Minn. Stat. § 325E.27 (as listed by the secondary source; no hours clause found)",
    source: "https://www.dropcowboy.com/state-compliance",
    effective: null,
    verified: "secondary",
    note: "§ 325E.27 as the Attorney General quotes it (ag.state.mn.us, automatic dialing-announcing device memo) is a consent rule for automatic dialing-announcing devices with no hours; the do-not-call sections (§§ 325E.311-.316, revisor.mn.gov) have none either. The 9 a.m.-9 p.m. window may cover ADAD calls only, or nothing; kept as the stricter reading. Searched again (rules 2026-11-26.3): the AG's memo in its 2012, 2014 and 2016 versions quotes only § 325E.27 of §§ 325E.26-.31; one public rules table cites § 325E.30 for 9-9 without text; §§ 325E.28-.30 themselves were not found. Searched again 2026-11-28: revisor.mn.gov's §§ 325E.311-.314 (definitions, the list's use within 90 days) have no hours; § 325E.30 was not found.",
  },
  {
    id: "US-MS",
    name: "Mississippi",
    hours: weekdaysAndSaturday(at(8), at(20), null),
    cite: "Miss. Code Ann. § 77-3-723(1)",
    citation: "Miss. Code Ann. § 77-3-723(1); § 77-3-603(a)",
    source: "https://getpocketlaw.com/law/state_mississippi/section-77-3-723-rules-for-authorized-calls_57b73fa7ff73",
    effective: null,
    verified: "statute",
    note: "8 a.m.-8 p.m. local; no Sunday calls. The legal-holiday ban ended with the PSC's repeal of 39 Miss. Admin. Code Pt. I, R. 1:28 (2024).",
  },
  {
    id: "US-MS-CST",
    name: "Mississippi (hours in Central Standard Time as the statute states them)",
    hours: weekdaysAndSaturday(at(8), at(20), null),
    fixedUtcOffsetMinutes: -360,
    cite: "Miss. Code Ann. § 77-3-723(1)",
    citation: 'Miss. Code Ann. § 77-3-723(1) ("8:00 a.m. and 8:00 p.m. Central Standard Time")',
    source: "https://getpocketlaw.com/law/state_mississippi/section-77-3-723-rules-for-authorized-calls_57b73fa7ff73",
    effective: null,
    verified: "statute",
    note: "Read literally, 8 a.m. CST is 9 a.m. CDT in summer: both readings apply (stricter).",
  },
  {
    id: "US-NM",
    name: "New Mexico",
    hours: daily(at(9), at(21)),
    cite: "N.M. Stat. § 57-12-22(B)(5)",
    citation: "N.M. Stat. § 57-12-22(B)(5)",
    source: "https://law.justia.com/codes/new-mexico/2006/nmrc/jd_57-12-22-13117.html",
    effective: null,
    verified: "statute",
    note: 'Unlawful to make a telephone solicitation for a purchase of goods or services "that are received before 9:00 a.m. or after 9:00 p.m." (the 2006 compilation; no Sunday or holiday clause in (B)(1)-(6)).',
  },
  {
    id: "US-NV",
    name: "Nevada",
    hours: daily(at(9), at(20)),
    cite: "NRS 597.814(2)(a); the 8 p.m. end is a secondary source's",
    citation:
      "NRS 597.814(2)(a) (automatic dialing and announcing devices: not between 9 p.m. and 9 a.m.); the 8 p.m. end has no source found and is over-strict: it is Drop Cowboy's table only, kept as the stricter reading",
    source: "https://www.dropcowboy.com/state-compliance",
    effective: null,
    verified: "secondary",
    note: 'The only Nevada hours text found is NRS 597.814(2)(a) (contactcentercompliance.com): ADAD calls not received between 9 p.m. and 9 a.m. No 8 p.m. end was found in NRS ch. 228 (leg.state.nv.us) or ch. 599B; Drop Cowboy\'s 9 a.m.-8 p.m. is kept as the stricter reading. stateregstoday.com claims 8 a.m.-9 p.m. weekdays and 1-9 p.m. weekends with no citation (an unattributed, apparently generated page): not applied. Searched again (rules 2026-11-26.3): NRS 228.500-.640 (contactcentercompliance.com, courtgpt.ai, instalawyer.io) carry definitions and the registry, no hours; a lawgratis.com summary of NAC ch. 599B says 8 a.m.-9 p.m. without a citation (looser): not applied. Searched again 2026-11-28 (rules 2026-11-28.1): NRS 597.814 read again (contactcentercompliance.com: 9 p.m.-9 a.m., ADAD only), NRS 228.530-.560 (definitions, registry) and the words "8 p.m." with NRS 228 / NAC 599B: no 8 p.m. end. The 20:00 end is over-strict by one hour against every text read; kept, as the brief for issue #43 allows, and said here.',
  },
  {
    id: "US-OK",
    name: "Oklahoma",
    hours: daily(at(9), at(20)),
    cite: "15 O.S. § 775C.4; § 755.1(C)(2)",
    citation: "15 O.S. § 775C.4 (Telephone Solicitation Act of 2022: 8 a.m.-8 p.m.); 15 O.S. § 755.1(C)(2) (automatic dial announcing devices: 9 a.m.-9 p.m.)",
    source: "https://lexace.ai/us/statute/oklahoma/15-755.1",
    effective: "2022-11-01",
    verified: "statute",
    note: "The call type is unknown to a scrub, so both windows apply: 9 a.m.-8 p.m. (stricter).",
  },
  {
    id: "US-OR",
    name: "Oregon",
    hours: daily(at(8), at(20)),
    cite: "HB 3865",
    citation:
      "ORS 646.561 ff. as amended by HB 3865 of 2025 (signed 2025-07-24, in force 2026-01-01): a telephone solicitation, a call or a text message, outside 8 a.m.-8 p.m. is unlawful; the enacted text was not read",
    source: "https://production.jdsupra.com/legalnews/oregon-passes-new-telephone-8210765",
    effective: "2026-01-01",
    verified: "secondary",
    note: 'Read 2026-11-28 (decision 178): Troutman Pepper Locke\'s alert on the signed bill (JD Supra: "contacting consumers outside the hours of 8 a.m. to 8 p.m. (previously 9 p.m.) or exceeding three solicitations within a 24-hour period, unless an established business relationship exists", the relationship being a transaction "within the 18 months preceding a call"; texts included); the Senate Judiciary Committee\'s A3 amendment of 2025-05-21 (citizenportal.ai: 8 a.m.-8 p.m., reliance on the area code, effective 2026-01-01); vicifast.com quotes the area-code clause ("a person may rely on the area code of a telephone number for a mobile telephone to determine whether the telephone number is for a party located in this state"), so the rule follows the number\'s area code (458, 503, 541, 971) as every state rule here does. The bill as introduced and as passed by the House said 9 a.m.-7 p.m. (citizenportal.ai, 2025-04-10 and 04-24); the Senate\'s A3 replaced it and every account of the signed law says 8-8. Not found: the enrolled bill (olis.oregonlegislature.gov), its Oregon Laws chapter and ORS section number, an Oregon DOJ page. Not modelled: the cap of three solicitations per 24 hours without an 18-month business relationship (a frequency rule, another issue). No Sunday or holiday ban was found.',
  },
  {
    id: "US-OR-PACIFIC",
    name: "Oregon (the same hours read in Pacific time)",
    hours: daily(at(8), at(20)),
    clockZone: "America/Los_Angeles",
    cite: "HB 3865",
    citation: "ORS 646.561 ff. as amended by HB 3865 of 2025 (as US-OR); no account read names the clock",
    source: "https://vicifast.com/blog/oregon-mini-tcpa-rules",
    effective: "2026-01-01",
    verified: "secondary",
    note: "The accounts read say \"8 am through 8 pm local Oregon time\" (vicifast.com, whose flowchart says Pacific) or name no clock (Troutman Pepper Locke). Malheur County's exchanges (541-372, -473, -881, -889) are in Mountain time; a call there must be lawful on both clocks until the enacted words are read: 9 a.m.-8 p.m. Mountain (the stricter reading; over-strict by an hour in the morning if the law means the called party's local time). Elsewhere in Oregon both clocks read the same.",
  },
  {
    id: "US-PA",
    name: "Pennsylvania",
    hours: [daily(at(8), at(21))[0], ...daily(at(8), at(21)).slice(1, 6), [at(8), at(12)]],
    holidays: PENNSYLVANIA_HOLIDAYS,
    observance: "weekend-to-weekday",
    cite: "73 P.S. § 2245(a)(1); 44 P.S. § 11",
    holidayCite: "73 P.S. § 2245(a)(10); 44 P.S. § 11",
    citation:
      '73 P.S. § 2245(a)(1) ("Conducting telemarketing after 9 p.m. or before 8 a.m."); § 2245(a)(10) (Act 73 of 2019: no solicitation on legal holidays); legal holidays 44 P.S. § 11',
    source:
      "https://govt.westlaw.com/pac/Document/NE4CC77F0E9F711E9BEFE89A994168F89?viewType=FullText&originationContext=documenttoc&transitionType=CategoryPageItem&contextData=(sc.Default)",
    effective: "2019-12-03",
    verified: "statute",
    note: "Hours read in § 2245(a)(1) (Westlaw, version effective 2019-12-03); the Attorney General's advisory says 8 a.m.-9 p.m. \"Eastern Time\" (the same clock in Pennsylvania). The holiday ban is § 2245(a)(10) per Jenkins Law Library and Mac Murray & Shuster; its words and 44 P.S. § 11 were not read here (dnc.com lists Good Friday, Flag Day and Election Day among the holidays). 44 P.S. § 11 makes every Saturday afternoon a half holiday: Saturday calls end at noon (stricter; Drop Cowboy lists the same). SB 992's Sunday ban and 9 a.m.-7 p.m. window are US-PA-SUNDAY.",
  },
  {
    id: "US-PA-SUNDAY",
    name: "Pennsylvania (SB 992 of 2025-26: no Sunday calls, 9 a.m.-7 p.m. on other days)",
    hours: [null, ...daily(at(9), at(19)).slice(1)],
    cite: "SB 992 of 2025-2026",
    citation: "Telemarketer Registration Act (73 P.S. § 2241 et seq.) as amended by SB 992 of 2025-2026 (enactment, Act number and section not established)",
    source: "https://www.pasenategop.com/news/brooks-bill-to-strengthen-protections-against-telemarketers-passes-senate",
    effective: "2026-10-18",
    verified: "secondary",
    note: 'Act 47 of 2026 (SB 992) as enacted was searched for on 2026-11-28 (the Act number, "SB 992" with "Sunday", legis.state.pa.us, billtrack50.com): not found; the entry stays on the Senate\'s release, unchanged. SB 992 (Sen. Brooks), as passed by the Senate unanimously, bans telemarketing calls, robocalls included, "on Sundays and between 7 p.m. and 9 a.m. on every other day of the week" (the Senate Republicans\' release). Its enactment, Act number, section and effective date were not found: billtrack50.com\'s stored page shows it introduced and referred on 2025-09-05 only (older than the Senate vote); legis.state.pa.us, legiscan.com, pac.dog and dnc.com stored pages hold only the 2019 Act 73 and older bills. The Call Desk rules service (glama.ai connector page) says Pennsylvania bans Sundays from 2026-10-18 and names no hours. Both parts of the bill apply from that date, the stricter reading (rules 2026-11-26.3; .2 applied the Sunday ban only): with US-PA, Monday-Friday 9:00-19:00 and Saturday 9:00-12:00.',
  },
  {
    id: "US-RI",
    name: "Rhode Island",
    hours: [null, ...daily(at(9), at(18)).slice(1, 6), [at(10), at(17)]],
    holidays: RHODE_ISLAND_HOLIDAYS,
    observance: "weekend-to-weekday",
    cite: "R.I. Gen. Laws § 5-61-3.6",
    holidayCite: "R.I. Gen. Laws § 25-1-1",
    citation: "R.I. Gen. Laws § 5-61-3.6 and § 5-61-2 (hours of operation); holidays § 25-1-1",
    source: "http://webserver.rilin.state.ri.us/Statutes/TITLE5/5-61/5-61-3.6.HTM",
    effective: "1999-07-01",
    verified: "statute",
    note: "Holidays as § 25-1-1 names them (read at statutes.laws-info.com and the unicourt code mirror, 2026-11-28): May 4 and even-year election day added in rules 2026-11-28.1, and New Year's, Independence, Veterans' and Christmas Day on a Saturday also ban the following Monday (the Friday before, the federal observance, stays banned: stricter). § 25-1-1 also lists every Sunday, already closed by the hours.",
  },
  {
    id: "US-SD",
    name: "South Dakota",
    hours: weekdaysAndSaturday(at(9), at(21), null),
    cite: "S.D. Codified Laws § 37-30A-3(2)",
    citation:
      "S.D. Codified Laws § 37-30A-3(2) (a telemarketer may not place unsolicited consumer telephone communications received before 9 a.m. or after 9 p.m. at the consumer's local time, or on Sunday)",
    source: "https://law.uslawyerdatabase.com/category/us-law/2022-south-dakota-codified-laws/title-37-trade-regulation/page/8",
    effective: null,
    verified: "statute",
    note: 'Read in the 2022 compilation: "Place unsolicited consumer telephone communications to any residence which will be received before 9 a.m. or after 9 p. m. at the consumer\'s local time or place any unsolicited consumer telephone communications on Sunday". Automated dialing is US-SD-ADAD (weekdays only); a scrub does not know the call type, so both apply (as for Oklahoma).',
  },
  {
    id: "US-SD-ADAD",
    name: "South Dakota (automated telephone dialing systems: weekdays only)",
    hours: [null, ...daily(at(9), at(21)).slice(1, 6), null],
    cite: "S.D. Codified Laws § 37-30-28",
    citation: "S.D. Codified Laws § 37-30-28 (SL 1991, ch 322, § 7)",
    source: "http://legis.state.sd.us/statutes/DisplayStatute.aspx?Type=Statute&Statute=37-30-28",
    effective: null,
    verified: "statute",
    note: '"No person may use an automated telephone dialing system to make a telephone solicitation to any telephone number in the state except weekdays between 9 a.m. and 9 p.m., according to the time in this state." Applied to every call (the call type is unknown): no Saturday calls either, the stricter reading. "The time in this state" is read as the called number\'s local time (South Dakota spans Central and Mountain time).',
  },
  {
    id: "US-TX",
    name: "Texas",
    hours: weekdaysAndSaturday(at(9), at(21), [at(12), at(21)]),
    cite: "Tex. Bus. & Com. Code § 301.051",
    citation:
      'Tex. Bus. & Com. Code § 301.051 (recodified from § 37.02 "Solicitor identity; permissible hours" by HB 2278, 2007, in force 2009-04-01; the hours clause was not read)',
    source: "https://statutes.capitol.texas.gov/Docs/BC/htm/BC.301.htm",
    effective: null,
    verified: "secondary",
    note: "9 a.m.-9 p.m. Monday-Saturday, noon-9 p.m. Sunday (Drop Cowboy; the Call Desk rules service also says Texas Sundays start at noon). § 301.051 and its predecessor § 37.02 (law.justia.com, 2005 code) were found only as headings or cut-off excerpts. Searched again (rules 2026-11-26.3): instalawyer.io's chapter 301 index (cut at \"(a) This section does not\"), texas.public.law and legalfix.com (ch. 304-305 only), the enrolled HB 2278 of 2007 and 1999's SB 120/HB 537 (capitol.texas.gov, excerpts stop at the definitions), the words \"before noon or after 9 p.m.\" in stored pages. A LeadConnector article on SB 140 (2025, texts covered from 2025-09-01) and two public code comments give the same 9-9 / Sunday noon-9 for § 301.051, without its words. Searched again 2026-11-28: § 301.051 still only as a heading (instalawyer.io); §§ 304.004 and 304.051 read (findlaw, lexace.ai: exemptions and the list's quarterly publication), no hours; 2005's § 37.02 excerpt stops before its hours.",
  },
  {
    id: "US-UT",
    name: "Utah",
    hours: weekdaysAndSaturday(at(8), at(21), null),
    holidays: UTAH_HOLIDAYS,
    observance: "weekend-to-weekday",
    cite: "Utah Code § 13-25a-103(3)",
    holidayCite: "Utah Code § 63G-1-301",
    citation: "Utah Code § 13-25a-103(3); legal holidays § 63G-1-301",
    source: "https://codes.findlaw.com/ut/title-13-commerce-and-trade/ut-code-sect-13-25a-103/",
    effective: null,
    verified: "statute",
  },
  {
    id: "US-WY",
    name: "Wyoming",
    hours: daily(at(8), at(20)),
    cite: "Wyo. Stat. § 40-12-302",
    citation: "Wyo. Stat. § 40-12-302 (telephone solicitations; the 8 p.m. end as listed by secondary sources, the section's words not read)",
    source: "https://cliclaw.com/library/us-state-laws/telemarketing-sms/wyoming-telephone-solicitation-wy-stat-%C2%A7-40-12-301-et-seq",
    effective: null,
    verified: "secondary",
    note: "The Call Desk rules service (glama.ai connector page) and a public rules table give Wyoming an 8 p.m. end under § 40-12-302; the stored copies of the article (cliclaw.com, lexace.ai, law.justia.com 2016, courtgpt.ai) show §§ 40-12-301 and -303 but not -302's words, and the Attorney General's FAQ names no hours. Applied as the stricter reading until the text is read. Searched again 2026-11-28: § 40-12-301 (cliclaw.com: definitions; the business relationship has no period) and § 40-12-303 (lexace.ai, law.justia.com: automated calls) read; § 40-12-302's words still not found.",
  },
  {
    id: "US-WA",
    name: "Washington",
    hours: daily(at(8), at(20)),
    cite: "RCW 19.158.040(2)",
    citation: "RCW 19.158.040(2)",
    source: "https://app.leg.wa.gov/RCW/default.aspx?cite=19.158.040",
    effective: null,
    verified: "statute",
  },
];

export const RULES_BY_ID: ReadonlyMap<string, CallingRule> = new Map(CALLING_RULES.map((r) => [r.id, r]));

/** The rules a number is subject to, by its region and state: the federal rule and its state's, or Canada's. */
export function rulesForJurisdiction(region: string, state: string | null): CallingRule[] {
  if (region === "CA") return [RULES_BY_ID.get("CA")!];
  const out = [RULES_BY_ID.get("US")!];
  if (state) for (const r of CALLING_RULES) if (r.id === `US-${state}` || r.id.startsWith(`US-${state}-`)) out.push(r);
  return out;
}
