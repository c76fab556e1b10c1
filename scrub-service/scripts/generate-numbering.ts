/**
 * Generates scrub-service/src/numbers/numbering.generated.ts: which NANP area codes and central-office codes
 * (NPA-NXX) are in service, their region and kind, from libphonenumber-js's "max" metadata (Google's
 * libphonenumber data, refreshed with every library release). Also the Unicode decimal digit blocks.
 *
 *   npm run generate:numbering        (after updating libphonenumber-js)
 *
 * Each NPA-NXX is classified the way libphonenumber classifies a number (country by leading digits, else
 * by the first NANP country whose type patterns match; valid when that country's type patterns match),
 * with ten line numbers per NPA-NXX; an NPA-NXX whose line numbers disagree is listed as "mixed" with
 * its line ranges (every line number classified). The result is checked against the library's own parse on a
 * random sample before anything is written.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Metadata, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { seededRandom } from "../src/test/random";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const OUT = path.join(root, "scrub-service/src/numbers/numbering.generated.ts");
const libVersion = JSON.parse(fs.readFileSync(path.join(root, "node_modules/libphonenumber-js/package.json"), "utf8")).version as string;

const metadataJson = JSON.parse(fs.readFileSync(path.join(root, "node_modules/libphonenumber-js/metadata.max.json"), "utf8"));
const COUNTRIES: string[] = metadataJson.country_calling_codes["1"];
const TYPES = ["FIXED_LINE", "MOBILE", "TOLL_FREE", "PREMIUM_RATE", "SHARED_COST", "VOIP", "PERSONAL_NUMBER", "PAGER", "UAN", "VOICEMAIL"] as const;
/** Regions of the United States (states, DC and the territories with US area codes). */
const US_REGIONS = new Set(["US", "PR", "VI", "GU", "AS", "MP"]);
export const KINDS = ["us", "canada", "caribbean", "toll_free", "premium", "personal"] as const;

interface Plan {
  country: string;
  leading: RegExp | null;
  general: RegExp;
  types: { type: string; re: RegExp }[];
}

const plans: Plan[] = COUNTRIES.map((country) => {
  const m = new Metadata();
  m.selectNumberingPlan(country as never);
  // Metadata's typed surface does not list these accessors; they are the library's own (see getNumberType.js).
  const np = m.numberingPlan as unknown as {
    leadingDigits(): string | undefined;
    nationalNumberPattern(): string;
    type(t: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
  };
  const ld = np.leadingDigits();
  return {
    country,
    leading: ld ? new RegExp(`^(?:${ld})`) : null,
    general: new RegExp(`^(?:${np.nationalNumberPattern()})$`),
    types: TYPES.flatMap((type) => {
      const t = np.type(type);
      const p = t?.pattern();
      if (!t || !p) return [];
      const lengths = t.possibleLengths();
      if (lengths && !lengths.includes(10)) return [];
      return [{ type, re: new RegExp(`^(?:${p})$`) }];
    }),
  };
});

function typeIn(plan: Plan, n: string): string | null {
  if (!plan.general.test(n)) return null;
  for (const t of plan.types) if (t.re.test(n)) return t.type;
  return null;
}

/** The library's classification of a 10-digit NANP national number: [country, type] or null (invalid). */
function classify(n: string): [string, string] | null {
  for (const plan of plans) {
    if (plan.leading) {
      if (plan.leading.test(n)) {
        const t = typeIn(plan, n);
        return t ? [plan.country, t] : null;
      }
    } else {
      const t = typeIn(plan, n);
      if (t) return [plan.country, t];
    }
  }
  return null;
}

function kindOf(country: string, type: string): (typeof KINDS)[number] {
  if (type === "TOLL_FREE") return "toll_free";
  if (type === "PREMIUM_RATE") return "premium";
  if (type === "PERSONAL_NUMBER") return "personal";
  if (US_REGIONS.has(country)) return "us";
  if (country === "CA") return "canada";
  return "caribbean";
}

const LINES = ["0000", "1234", "2345", "3456", "4567", "5678", "6789", "7890", "8901", "9999"];

/** One letter per kind in the encoded table; "." = not in service. */
const KIND_LETTER: Record<(typeof KINDS)[number], string> = { us: "u", canada: "c", caribbean: "b", toll_free: "t", premium: "p", personal: "s" };

interface AreaCode {
  region: string;
  /** Per NXX 200-999: kind letter or ".". */
  nxx: string[];
}
const areaCodes = new Map<number, AreaCode>();
const mixed: number[] = [];
for (let npa = 200; npa <= 999; npa++) {
  for (let nxx = 200; nxx <= 999; nxx++) {
    const results = LINES.map((l) => classify(`${npa}${nxx}${l}`));
    const valid = results.filter((r) => r !== null) as [string, string][];
    if (valid.length === 0) continue;
    if (valid.length !== LINES.length || valid.some((v) => v[0] !== valid[0][0] || v[1] !== valid[0][1])) mixed.push(npa * 1000 + nxx);
    const [country, type] = valid[0];
    let ac = areaCodes.get(npa);
    if (!ac) {
      ac = { region: country, nxx: new Array<string>(800).fill(".") };
      areaCodes.set(npa, ac);
    } else if (ac.region !== country) {
      throw new Error(`area code ${npa}: regions ${ac.region} and ${country} (NXX ${nxx}); the table needs a region per NPA-NXX`);
    }
    if (valid.length === LINES.length) ac.nxx[nxx - 200] = KIND_LETTER[kindOf(country, type)];
  }
}

// The emulation must be the library: compare with its parser on random numbers.
const random = seededRandom(14);
let checked = 0;
for (let i = 0; i < 30_000; i++) {
  const n = String(2_000_000_000 + Math.floor(random() * 8_000_000_000));
  const p = parsePhoneNumberFromString(`+1${n}`);
  const lib = p?.isValid() ? `${p.country}/${kindOf(p.country!, p.getType()!)}` : "invalid";
  const c = classify(n);
  const ours = c ? `${c[0]}/${kindOf(c[0], c[1])}` : "invalid";
  if (lib !== ours) throw new Error(`${n}: library ${lib}, generator ${ours}`);
  checked++;
}

/** Run-length form of the 800 NXX letters: "u800", "b12.3t1.784". */
function encodeNxx(nxx: string[]): string {
  let out = "";
  for (let i = 0; i < nxx.length;) {
    let j = i;
    while (j < nxx.length && nxx[j] === nxx[i]) j++;
    out += nxx[i] + (j - i);
    i = j;
  }
  return out;
}

/** Line ranges of the mixed NPA-NXX, every line number classified. */
const mixedRanges = mixed.map((code): [number, [number, number, string][]] => {
  const npa = Math.floor(code / 1000);
  const nxx = code % 1000;
  const ranges: [number, number, string][] = [];
  for (let line = 0; line < 10_000; line++) {
    const c = classify(`${npa}${nxx}${String(line).padStart(4, "0")}`);
    if (!c) continue;
    const letter = KIND_LETTER[kindOf(c[0], c[1])];
    const last = ranges[ranges.length - 1];
    if (last && last[1] === line - 1 && last[2] === letter) last[1] = line;
    else ranges.push([line, line, letter]);
  }
  return [code, ranges];
});

// Unicode decimal digits (Nd) come in runs of ten, 0 to 9: the first code point of each run.
const zeros: number[] = [];
for (let cp = 0x80; cp <= 0x10ffff; cp++) {
  if (/\p{Nd}/u.test(String.fromCodePoint(cp)) && !/\p{Nd}/u.test(String.fromCodePoint(cp - 1))) {
    let len = 0;
    while (/\p{Nd}/u.test(String.fromCodePoint(cp + len))) len++;
    if (len % 10 !== 0) throw new Error(`Nd run at ${cp.toString(16)} has ${len} code points`);
    for (let k = 0; k < len; k += 10) zeros.push(cp + k);
  }
}

const rows = [...areaCodes.entries()].map(([npa, ac]) => `  [${npa}, "${ac.region}", "${encodeNxx(ac.nxx)}"],`);
const out = `// Generated by scrub-service/scripts/generate-numbering.ts (npm run generate:numbering): do not edit.
// Source: libphonenumber-js ${libVersion}, "max" metadata (Google libphonenumber). ${checked} random numbers checked against its parser.

export const NUMBERING_VERSION = "${libVersion}";
export const NUMBERING_SOURCE = "libphonenumber-js ${libVersion} max metadata";

export const NUMBER_KINDS = ${JSON.stringify(KINDS)} as const;
export type NumberKind = (typeof NUMBER_KINDS)[number];

/** Letter of each kind in AREA_CODE_ROWS' exchange runs ("." = not in service). */
export const KIND_LETTERS = ${JSON.stringify(KIND_LETTER)} as const;

/**
 * Area codes in service: [NPA, region (the ISO 3166 code the library assigns), central-office codes 200-999
 * run-length encoded as kind letter + count: "u800" = every NXX is a US number; "b12.3t1" = 12 Caribbean, 3 not in service, 1 toll-free...].
 */
export const AREA_CODE_ROWS: readonly (readonly [number, string, string])[] = [
${rows.join("\n")}
];

/**
 * NPA·1000+NXX whose validity depends on the line number, with the line numbers in service:
 * [first, last, kind letter] ranges (the table above marks these NXX "." ).
 */
export const MIXED_EXCHANGES: ReadonlyMap<number, readonly (readonly [number, number, string])[]> = new Map([
${mixedRanges.map(([k, r]) => `  [${k}, ${JSON.stringify(r)}],`).join("\n")}
]);

/** First code point of every run of Unicode decimal digits 0-9 outside ASCII (Unicode ${process.versions.unicode}). */
export const UNICODE_DIGIT_ZEROS: readonly number[] = [${zeros.map((z) => "0x" + z.toString(16)).join(", ")}];
`;
fs.writeFileSync(OUT, out);
console.log(`${areaCodes.size} area codes, ${mixed.length} mixed NPA-NXX, ${zeros.length} digit blocks -> ${path.relative(root, OUT)}`);
