/**
 * Time zones and calling jurisdiction per exchange (NPA-NXX), from the generated table (timezones.generated.ts,
 * Google libphonenumber's map) and the area-code → state table. Numbers of one exchange share a "calling class"
 * (zone set + jurisdiction): a scrub evaluates each class once and every good row reads its class from a table.
 */
import { stateOfAreaCode } from "../area-codes";
import { numberRegion } from "../normalize";
import { NPA_ZONE_ROWS, ZONE_SETS } from "../timezones.generated";
import { EXCHANGE_ENTRIES as EXCHANGES, exchangeIndex } from "./class-index";
import { rulesForJurisdiction, type CallingRule } from "./rules";

export { TIME_ZONE_SOURCE } from "../timezones.generated";
export { callingClassOf } from "./class-index";

let zoneTable: Int16Array | null = null;

/** Zone-set index per exchange (-1: no zone: non-geographic or not in the data). */
function zones(): Int16Array {
  if (zoneTable) return zoneTable;
  const t = new Int16Array(EXCHANGES).fill(-1);
  for (const [npa, runs] of NPA_ZONE_ROWS) {
    let nxx = 200;
    for (const run of runs.split(",")) {
      const star = run.indexOf("*");
      const set = Number(run.slice(0, star));
      const count = Number(run.slice(star + 1));
      t.fill(set, exchangeIndex(npa, nxx), exchangeIndex(npa, nxx) + count);
      nxx += count;
    }
  }
  return (zoneTable = t);
}

/** The candidate IANA zones of a valid 10-digit number, alphabetical; empty for toll-free and other non-geographic numbers. */
export function timeZonesOf(n: number): string[] {
  const npa = Math.floor(n / 10_000_000);
  const nxx = Math.floor(n / 10_000) % 1000;
  if (npa < 200 || nxx < 200) return [];
  const set = zones()[exchangeIndex(npa, nxx)];
  return set < 0 ? [] : ZONE_SETS[set].split("|");
}

export interface CallingClass {
  /** Zones joined by "|" (alphabetical); "" for none. */
  zoneSet: string;
  zones: string[];
  /** The rules the number is subject to (empty when it has no zone). */
  rules: CallingRule[];
  /** e.g. "US-FL", "CA", "US" (a NANP country outside the US and Canada: the federal hours, see decision 131). */
  jurisdiction: string;
}

export interface CallingClassTable {
  /** Class 0 is "no time zone". */
  classes: CallingClass[];
  /** Class per exchange, index (NPA-200)·800 + (NXX-200); shared with the workers. */
  byExchange: Uint16Array;
}

let classTable: CallingClassTable | null = null;

/** Built once per process (~640k entries, 1.3 MB in a SharedArrayBuffer so every worker reads the same copy). */
export function callingClassTable(): CallingClassTable {
  if (classTable) return classTable;
  const z = zones();
  const classes: CallingClass[] = [{ zoneSet: "", zones: [], rules: [], jurisdiction: "" }];
  /** Per jurisdiction: the class of each zone set (0 = not made yet). */
  const byJurisdiction = new Map<string, Uint16Array>();
  const byExchange = new Uint16Array(new SharedArrayBuffer(EXCHANGES * 2));
  for (let npa = 200; npa <= 999; npa++) {
    const region = numberRegion(npa * 10_000_000);
    if (!region) continue;
    const state = region === "CA" ? null : stateOfAreaCode(npa);
    const usLike = region !== "CA" && (state !== null || region === "US");
    const jurisdiction = region === "CA" ? "CA" : state && usLike ? `US-${state}` : "US";
    let bySet = byJurisdiction.get(jurisdiction);
    if (!bySet) byJurisdiction.set(jurisdiction, (bySet = new Uint16Array(ZONE_SETS.length)));
    for (let nxx = 200; nxx <= 999; nxx++) {
      const i = exchangeIndex(npa, nxx);
      const set = z[i];
      if (set < 0) continue;
      let c = bySet[set];
      if (c === 0) {
        c = bySet[set] = classes.length;
        const zoneSet = ZONE_SETS[set];
        classes.push({ zoneSet, zones: zoneSet.split("|"), rules: rulesForJurisdiction(region === "CA" ? "CA" : "US", usLike ? state : null), jurisdiction });
      }
      byExchange[i] = c;
    }
  }
  return (classTable = { classes, byExchange });
}
