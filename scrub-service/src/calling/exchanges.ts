/**
 * Time zones and calling jurisdiction per exchange (NPA-NXX), from the generated table (timezones.generated.ts,
 * Google libphonenumber's map) and the area-code → state table. Numbers of one exchange share a "calling class"
 * (zone set + jurisdiction): a scrub evaluates each class once and every good row reads its class from a table.
 */
import { stateOfAreaCode } from "../numbers/area-codes";
import { numberRegion } from "../numbers/normalize";
import { NPA_ZONE_ROWS, ZONE_SETS } from "../numbers/timezones.generated";
import { EXCHANGE_ENTRIES as EXCHANGES, exchangeIndex } from "./class-index";
import { rulesForJurisdiction, type CallingRule } from "./rules";
import type { AppliedPeriod } from "./periods";

export { TIME_ZONE_SOURCE } from "../numbers/timezones.generated";
export { callingClassOf } from "./class-index";

let zoneTable: Int16Array | null = null;
let runTable: Map<number, Int32Array> | null = null;

/** Per area code, its exchanges from NXX 200 up as runs: zone-set index, count, zone-set index, count, … */
function zoneRuns(): Map<number, Int32Array> {
  if (runTable) return runTable;
  const t = new Map<number, Int32Array>();
  for (const [npa, runs] of NPA_ZONE_ROWS) {
    const parts = runs.split(",");
    const flat = new Int32Array(parts.length * 2);
    parts.forEach((run, k) => {
      const star = run.indexOf("*");
      flat[2 * k] = Number(run.slice(0, star));
      flat[2 * k + 1] = Number(run.slice(star + 1));
    });
    t.set(npa, flat);
  }
  return (runTable = t);
}

/** Zone-set index per exchange (-1: no zone: non-geographic or not in the data). */
function zones(): Int16Array {
  if (zoneTable) return zoneTable;
  const t = new Int16Array(EXCHANGES).fill(-1);
  for (const [npa, runs] of zoneRuns()) {
    let i = exchangeIndex(npa, 200);
    for (let k = 0; k < runs.length; k += 2) {
      t.fill(runs[k], i, i + runs[k + 1]);
      i += runs[k + 1];
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
  /**
   * The zones its answer is read in: its own, or for class 0 (no time zone: toll-free, 5XX, 600, exchanges the
   * map does not know) every time zone of the 50 states and DC, the strictest reading (decision 180).
   */
  readZones: string[];
  /** The rules the number is subject to (class 0: the federal rule, read in every US time zone). */
  rules: CallingRule[];
  /** e.g. "US-FL", "CA", "US" (a NANP country outside the US and Canada: the federal hours, see decision 131). */
  jurisdiction: string;
  /** The emergency no-call periods covering the class (decision 181; only in a table from withEmergencyPeriods). */
  periods?: AppliedPeriod[];
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
  const runsOf = zoneRuns();
  const classes: CallingClass[] = [{ zoneSet: "", zones: [], readZones: [], rules: rulesForJurisdiction("US", null), jurisdiction: "" }];
  /**
   * Zone sets of US numbers (region "US": the 50 states and DC; the territories are regions of their own, PR, VI,
   * GU, MP, AS): class 0 is read in all of their zones.
   */
  const usSets = new Set<number>();
  /** Per jurisdiction: the class of each zone set (0 = not made yet). */
  const byJurisdiction = new Map<string, Uint16Array>();
  const byExchange = new Uint16Array(new SharedArrayBuffer(EXCHANGES * 2));
  // an area code's exchanges in runs of one zone set (~2,700 runs in all, not 640k entries one by one); classes
  // are numbered as they are first met, area code and exchange ascending
  for (let npa = 200; npa <= 999; npa++) {
    const region = numberRegion(npa * 10_000_000);
    if (!region) continue;
    const state = region === "CA" ? null : stateOfAreaCode(npa);
    const usLike = region !== "CA" && (state !== null || region === "US");
    const jurisdiction = region === "CA" ? "CA" : state && usLike ? `US-${state}` : "US";
    let bySet = byJurisdiction.get(jurisdiction);
    if (!bySet) byJurisdiction.set(jurisdiction, (bySet = new Uint16Array(ZONE_SETS.length)));
    const runs = runsOf.get(npa);
    if (!runs) continue;
    let i = exchangeIndex(npa, 200);
    for (let k = 0; k < runs.length; k += 2) {
      const set = runs[k];
      const count = runs[k + 1];
      if (set >= 0 && region === "US") usSets.add(set);
      if (set >= 0) {
        let c = bySet[set];
        if (c === 0) {
          c = bySet[set] = classes.length;
          const zoneSet = ZONE_SETS[set];
          classes.push({
            zoneSet,
            zones: zoneSet.split("|"),
            readZones: zoneSet.split("|"),
            rules: rulesForJurisdiction(region === "CA" ? "CA" : "US", usLike ? state : null),
            jurisdiction,
          });
        }
        byExchange.fill(c, i, i + count);
      }
      i += count;
    }
  }
  classes[0].readZones = [...new Set([...usSets].flatMap((set) => ZONE_SETS[set].split("|")))].sort();
  return (classTable = { classes, byExchange });
}
