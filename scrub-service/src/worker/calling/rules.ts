/**
 * Calling-hour rules as data: one entry per jurisdiction, each with its statute or regulator page. A number is
 * subject to every rule of its jurisdiction at once (the federal rule and its state's); a call is lawful only when
 * each of them allows it, in each of the number's time zones. Where sources disagree the stricter reading is
 * kept (docs/decisions/131-calling-windows.md lists every entry, its source and each such choice).
 *
 * Change an entry → change CALLING_RULES_VERSION (it is printed in certificates and summaries).
 */
import { FEDERAL_HOLIDAYS, type Holiday, type Observance } from "./holidays";

export const CALLING_RULES_VERSION = "2026-11-26.1";

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
  citation: string;
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
  { name: "Robert E. Lee Day", date: { fixed: [1, 19] } },
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

/** Rhode Island's state holidays (R.I. Gen. Laws § 25-1-1) together with the federal ones (§ 5-61-2 names both). */
const RHODE_ISLAND_HOLIDAYS: Holiday[] = [...FEDERAL_HOLIDAYS, { name: "Victory Day", date: { nth: 2, weekday: 1, month: 8 } }];

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
    citation: "Ala. Admin. Code r. 770-X-5-.17(1)(b); holidays Ala. Code § 1-3-8",
    source: "https://d1tvxue8o4w0fl.cloudfront.net/regulation/alabama-administrative-code/title-770-alabama-public-service-commission/chapter-770-x-5-telephone-rules/section-770-x-5-17-live-and-automated-solicitations-and-announcements",
    effective: null,
    verified: "statute",
    note: "The rule's text covers automated solicitation calls; applied to every call (stricter).",
  },
  {
    id: "US-CT",
    name: "Connecticut",
    hours: daily(at(9), at(20)),
    citation: "Conn. Gen. Stat. § 42-288a as amended by P.A. 23-98",
    source: "https://cga.ct.gov/current/pub/chap_743m.htm",
    effective: null,
    verified: "secondary",
    note: "Hours from the Drop Cowboy state table (9 a.m.-8 p.m.); ClickPoint lists 9 a.m.-9 p.m.: the stricter kept.",
  },
  {
    id: "US-FL",
    name: "Florida",
    hours: daily(at(8), at(20)),
    citation: "Fla. Stat. § 501.616(6)(a) (2021 SB 1120)",
    source: "https://flsenate.gov/Session/Bill/2021/1120/BillText/er/HTML",
    effective: "2021-07-01",
    verified: "statute",
  },
  {
    id: "US-KY",
    name: "Kentucky",
    hours: daily(at(10), at(21)),
    citation: "KRS 367.46955",
    source: "https://www.dropcowboy.com/state-compliance",
    effective: null,
    verified: "secondary",
  },
  {
    id: "US-LA",
    name: "Louisiana",
    hours: weekdaysAndSaturday(at(8), at(20), null),
    holidays: LOUISIANA_HOLIDAYS,
    observance: "none",
    citation: "La. R.S. 45:811(2)-(3); La. PSC General Order R-29617 § V(A); holidays La. R.S. 1:55",
    source: "https://lawserver.com/?p=30183792",
    effective: null,
    verified: "statute",
    note: "All R.S. 1:55 holidays are banned, not only the PSC's shorter list (stricter). Holidays the governor proclaims, and declared emergencies (R.S. 45:844.31), cannot be computed.",
  },
  {
    id: "US-MA",
    name: "Massachusetts",
    hours: daily(at(8), at(20)),
    citation: "Mass. Gen. Laws ch. 159C (as listed by the secondary source)",
    source: "https://www.dropcowboy.com/state-compliance",
    effective: null,
    verified: "secondary",
  },
  {
    id: "US-MD",
    name: "Maryland",
    hours: daily(at(8), at(20)),
    citation: "Md. Code, Com. Law § 14-4502 (Stop the Spam Calls Act of 2023)",
    source: "https://www.dnc.com/index.php/news/maryland-governor-signs-stop-spam-calls-act-2023-law",
    effective: "2024-01-01",
    verified: "secondary",
  },
  {
    id: "US-MI",
    name: "Michigan",
    hours: daily(at(9), at(21)),
    citation: "Michigan Home Solicitation Sales Act, MCL 445.111 et seq. (as listed by the secondary source)",
    source: "https://www.dropcowboy.com/state-compliance",
    effective: null,
    verified: "secondary",
  },
  {
    id: "US-MN",
    name: "Minnesota",
    hours: daily(at(9), at(21)),
    citation: "Minn. Stat. § 325E.27 (as listed by the secondary source)",
    source: "https://www.dropcowboy.com/state-compliance",
    effective: null,
    verified: "secondary",
  },
  {
    id: "US-MS",
    name: "Mississippi",
    hours: weekdaysAndSaturday(at(8), at(20), null),
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
    citation: "Miss. Code Ann. § 77-3-723(1) (\"8:00 a.m. and 8:00 p.m. Central Standard Time\")",
    source: "https://getpocketlaw.com/law/state_mississippi/section-77-3-723-rules-for-authorized-calls_57b73fa7ff73",
    effective: null,
    verified: "statute",
    note: "Read literally, 8 a.m. CST is 9 a.m. CDT in summer: both readings apply (stricter).",
  },
  {
    id: "US-NM",
    name: "New Mexico",
    hours: daily(at(9), at(21)),
    citation: "N.M. Stat. § 57-12-22 (as listed by the secondary source)",
    source: "https://www.dropcowboy.com/state-compliance",
    effective: null,
    verified: "secondary",
  },
  {
    id: "US-NV",
    name: "Nevada",
    hours: daily(at(9), at(20)),
    citation: "Nev. Rev. Stat. ch. 228 / 599B (as listed by the secondary source)",
    source: "https://www.dropcowboy.com/state-compliance",
    effective: null,
    verified: "secondary",
  },
  {
    id: "US-OK",
    name: "Oklahoma",
    hours: daily(at(9), at(20)),
    citation: "15 O.S. § 775C.4 (Telephone Solicitation Act of 2022: 8 a.m.-8 p.m.); 15 O.S. § 755.1(C)(2) (automatic dial announcing devices: 9 a.m.-9 p.m.)",
    source: "https://lexace.ai/us/statute/oklahoma/15-755.1",
    effective: "2022-11-01",
    verified: "statute",
    note: "The call type is unknown to a scrub, so both windows apply: 9 a.m.-8 p.m. (stricter).",
  },
  {
    id: "US-PA",
    name: "Pennsylvania",
    hours: [daily(at(8), at(21))[0], ...daily(at(8), at(21)).slice(1, 6), [at(8), at(12)]],
    holidays: PENNSYLVANIA_HOLIDAYS,
    observance: "weekend-to-weekday",
    citation: "73 P.S. § 2245(a)(10) (Act 73 of 2019: no solicitation on legal holidays); legal holidays 44 P.S. § 11",
    source: "https://www.jenkinslaw.org/blog/2019/12/03/amendments-pennsylvanias-telemarketer-registration-act-effective-today",
    effective: "2019-12-03",
    verified: "secondary",
    note: "8 a.m.-9 p.m. (Attorney General's page). 44 P.S. § 11 makes every Saturday afternoon a half holiday: Saturday calls end at noon (stricter; Drop Cowboy lists the same).",
  },
  {
    id: "US-RI",
    name: "Rhode Island",
    hours: [null, ...daily(at(9), at(18)).slice(1, 6), [at(10), at(17)]],
    holidays: RHODE_ISLAND_HOLIDAYS,
    observance: "weekend-to-weekday",
    citation: "R.I. Gen. Laws § 5-61-3.6 and § 5-61-2 (hours of operation)",
    source: "http://webserver.rilin.state.ri.us/Statutes/TITLE5/5-61/5-61-3.6.HTM",
    effective: "1999-07-01",
    verified: "statute",
  },
  {
    id: "US-TX",
    name: "Texas",
    hours: weekdaysAndSaturday(at(9), at(21), [at(12), at(21)]),
    citation: "Tex. Bus. & Com. Code § 301.051",
    source: "https://statutes.capitol.texas.gov/Docs/BC/htm/BC.301.htm",
    effective: null,
    verified: "secondary",
    note: "9 a.m.-9 p.m. Monday-Saturday, noon-9 p.m. Sunday.",
  },
  {
    id: "US-UT",
    name: "Utah",
    hours: weekdaysAndSaturday(at(8), at(21), null),
    holidays: UTAH_HOLIDAYS,
    observance: "weekend-to-weekday",
    citation: "Utah Code § 13-25a-103(3); legal holidays § 63G-1-301",
    source: "https://codes.findlaw.com/ut/title-13-commerce-and-trade/ut-code-sect-13-25a-103/",
    effective: null,
    verified: "statute",
  },
  {
    id: "US-WA",
    name: "Washington",
    hours: daily(at(8), at(20)),
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
