/**
 * The normalizer against Google's libphonenumber (libphonenumber-js, "max" metadata, default region US) on
 * a generated corpus: every number class (US, Canada, Caribbean, toll-free, premium, personal, unassigned,
 * reserved and N11 area codes, N11 and 0/1 exchanges, 555-01XX, wrong lengths, letters, two numbers, other
 * countries, Excel notation, empty) in every format the rules accept (docs/decisions/100).
 *
 * The library's answer for a cell: valid when isValid() and the country calling code is 1; the number is
 * its national number. Classes where we knowingly differ are listed in KNOWN and checked to differ only the
 * documented way; every other cell must agree on validity and on the 10-digit number.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../test/random";
import { AREA_CODE_STATES, stateOfNumber } from "./area-codes";
import { numberKind, normalizeCode, reasonOfCode, type InvalidReason } from "./normalize";
import { AREA_CODE_ROWS } from "./numbering.generated";

const CELLS_PER_CLASS = 400;

/** Where the rules differ from the library on purpose: the reason we give, and why. */
const KNOWN: Record<string, { ours: InvalidReason | "valid"; why: string; sometimes?: boolean }> = {
  service_exchange: {
    ours: "service_exchange",
    why: "the library's US pattern is NPA + [2-9]XXXXXX, so it accepts N11 central-office codes (411, 911...), which are never assigned to subscribers",
  },
  fiction: { ours: "fictional_number", why: "the library accepts 555-0100..0199, which the NANPA reserves for fiction" },
  text_around: {
    ours: "not_a_number",
    why: "the library extracts a number from surrounding words (call 212...) in most such cells; a cell with words may be a note or two numbers, so we never guess",
    sometimes: true,
  },
  two_numbers_listed: {
    ours: "two_numbers",
    why: "the library often reads the first of two numbers separated by a comma or semicolon; we do not pick one of two numbers",
    sometimes: true,
  },
  unicode_spaces: {
    ours: "valid",
    why: "the library reads space, no-break space and ideographic space only; we read every Unicode space (thin, narrow no-break, en, em, figure...) as a separator",
  },
  other_digits: {
    ours: "valid",
    why: "the library reads ASCII, fullwidth and Arabic-Indic digits only; we read every Unicode decimal digit (Devanagari, Bengali, Thai...)",
  },
};

const US_REGIONS = new Set(["US", "PR", "VI", "GU", "AS", "MP"]);

type Gen = () => string;

function corpus(seed: number): { cls: string; cell: string; ten: string }[] {
  const r = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)];
  const p3 = (n: number) => String(n).padStart(3, "0");
  const p4 = (n: number) => String(n).padStart(4, "0");

  const rowsOf = (pred: (region: string, runs: string) => boolean) => AREA_CODE_ROWS.filter(([, region, runs]) => pred(region, runs)).map(([npa]) => npa);
  const usNpa = [...AREA_CODE_STATES.keys()].filter((n) => AREA_CODE_ROWS.some(([npa, region]) => npa === n && region === "US"));
  const territoryNpa = [...AREA_CODE_STATES.entries()].filter(([, s]) => s !== "US" && US_REGIONS.has(s)).map(([n]) => n);
  const caNpa = rowsOf((region, runs) => region === "CA" && runs.startsWith("c800"));
  const caribNpa = rowsOf((region, runs) => !US_REGIONS.has(region) && region !== "CA" && runs.includes("b"));
  const inService = new Set(AREA_CODE_ROWS.map(([npa]) => npa));
  const unassignedNpa: number[] = [];
  for (let n = 200; n <= 999; n++) if (!inService.has(n) && n % 100 !== 11) unassignedNpa.push(n);

  /** A subscriber exchange and line: no N11 exchange, no 555-01XX. */
  const nxx = () => {
    for (;;) {
      const x = int(200, 999);
      if (x % 100 !== 11) return x;
    }
  };
  const line = (x: number) => (x === 555 ? int(200, 9999) : int(0, 9999));
  const num = (npa: number, x = nxx()) => `${p3(npa)}${p3(x)}${p4(line(x))}`;

  const classes: Record<string, Gen> = {
    us: () => num(pick(usNpa)),
    us_territory: () => num(pick(territoryNpa)),
    canada: () => num(pick(caNpa)),
    caribbean: () => num(pick(caribNpa)), // random exchanges: many are not in service
    toll_free: () => num(pick([800, 833, 844, 855, 866, 877, 888])),
    premium: () => num(900),
    personal: () => num(pick([500, 521, 522, 525, 533, 544, 566, 577, 588])),
    n11_area: () => num(pick([211, 311, 411, 511, 611, 711, 811, 911])),
    reserved_area: () => num(pick([370, 371, 372, 373, 374, 375, 376, 377, 378, 379, 960, 961, 962, 963, 964, 965, 966, 967, 968, 969])),
    unassigned_area: () => num(pick(unassignedNpa)),
    area_0_1: () => `${int(0, 1)}${int(0, 9)}${int(0, 9)}${p3(nxx())}${p4(int(0, 9999))}`,
    exchange_0_1: () => `${pick(usNpa)}${int(0, 1)}${int(0, 9)}${int(0, 9)}${p4(int(0, 9999))}`,
    service_exchange: () => `${pick(usNpa)}${int(2, 9)}11${p4(int(0, 9999))}`,
    fiction: () => `${pick(usNpa)}55501${String(int(0, 99)).padStart(2, "0")}`,
  };

  // separators the library reads too (thin spaces: see KNOWN.unicode_spaces)
  const sep = () => pick([" ", "-", ".", "/", "\u00a0", "\u3000", "\u2013", "\u2014", "\u2212", "\u2010", "\u2011", " - "]);
  const formats: ((t: string) => string)[] = [
    (t) => t,
    (t) => `1${t}`,
    (t) => `+1${t}`,
    (t) => `${t.slice(0, 3)}-${t.slice(3, 6)}-${t.slice(6)}`,
    (t) => `(${t.slice(0, 3)}) ${t.slice(3, 6)}-${t.slice(6)}`,
    (t) => `${t.slice(0, 3)}.${t.slice(3, 6)}.${t.slice(6)}`,
    (t) => {
      const s = sep();
      return `${t.slice(0, 3)}${s}${t.slice(3, 6)}${s}${t.slice(6)}`;
    },
    (t) => `+1 ${t.slice(0, 3)}${sep()}${t.slice(3, 6)}${sep()}${t.slice(6)}`,
    (t) => `1 (${t.slice(0, 3)})${sep()}${t.slice(3, 6)}${sep()}${t.slice(6)}`,
    (t) => `${pick(["tel:", "TEL:", "tel:+1", "tel:+1-"])}${t}`,
    (t) => `'${t}`,
    (t) => `="${t}"`,
    (t) => `011 1 ${t.slice(0, 3)} ${t.slice(3, 6)} ${t.slice(6)}`,
    (t) => [...t].map((d) => String.fromCharCode(0xff10 + Number(d))).join(""),
    (t) => [...`${t.slice(0, 3)}-${t.slice(3, 6)}-${t.slice(6)}`].map((c) => (c === "-" ? c : String.fromCharCode(0x0660 + Number(c)))).join(""),
    (t) => `${t.slice(0, 3)}-${t.slice(3, 6)}-${t.slice(6)}${pick([" ext ", " ext. ", " extension ", " x", "x", " #", " EXT "])}${int(1, 9999)}`,
    (t) => `\u200b${t}\ufeff`,
    (t) => ` ${t}\t`,
  ];

  const out: { cls: string; cell: string; ten: string }[] = [];
  for (const [cls, gen] of Object.entries(classes)) {
    for (let i = 0; i < CELLS_PER_CLASS; i++) {
      const ten = gen();
      out.push({ cls, cell: pick(formats)(ten), ten });
    }
  }
  // Cells that are not one NANP number, and the knowingly different classes.
  const rest: Record<string, () => string> = {
    wrong_length: () => String(int(2, 9)).repeat(pick([7, 8, 9, 12, 13])),
    letters: () => pick(["212-555-CALL", "1-800-FLOWERS", "N/A", "none", "abc", "555-HELP", "TBD", "call me"]),
    two_numbers: () => `${num(pick(usNpa))}${pick([" ", " / ", " or ", "/", ","])}${num(pick(usNpa))}`,
    two_numbers_listed: () => `${num(pick(usNpa))}${pick([", ", "; "])}${num(pick(usNpa))}`,
    other_country: () => pick(["+44 20 7946 0958", "+33 1 42 68 53 00", "+49 30 901820", "011 44 20 7946 0958", "+52 55 5555 5555"]),
    excel: () => pick(["1.23457E+9", "2.12555E+09", "3.05556E+9", "1E10"]),
    empty: () => pick(["", " ", "\u00a0", "\t"]),
    text_around: () => `${pick(["call ", "cell: ", "Tel ", "mobile "])}${num(pick(usNpa))}${pick(["", " after 5", " (home)"])}`,
    unicode_spaces: () => {
      const t = num(pick(usNpa));
      const s = pick(["\u2009", "\u202f", "\u2002", "\u2003", "\u2007", "\u205f"]);
      return `${t.slice(0, 3)}${s}${t.slice(3, 6)}${s}${t.slice(6)}`;
    },
    other_digits: () => {
      const zero = pick([0x0966, 0x09e6, 0x0e50, 0x1040]);
      return [...num(pick(usNpa))].map((d) => String.fromCodePoint(zero + Number(d))).join("");
    },
  };
  for (const [cls, gen] of Object.entries(rest)) {
    for (let i = 0; i < CELLS_PER_CLASS / 4; i++) out.push({ cls, cell: gen(), ten: "" });
  }
  return out;
}

type Answer = { valid: boolean; ten: string; country?: string; type?: string };
const answers = new Map<string, Answer>();
function library(cell: string): Answer {
  let a = answers.get(cell);
  if (!a) {
    const p = parsePhoneNumberFromString(cell, "US");
    a =
      !p || p.countryCallingCode !== "1" || !p.isValid()
        ? { valid: false, ten: "" }
        : { valid: true, ten: p.nationalNumber, country: p.country, type: p.getType() };
    answers.set(cell, a);
  }
  return a;
}

describe("normalizer vs libphonenumber-js (max metadata, US default region)", () => {
  const cells = corpus(20261123);

  it(`agrees on validity and the number for ≥ 99.5% of ${cells.length.toLocaleString("en-US")} cells outside the known classes`, () => {
    const disagreements: string[] = [];
    const perClass = new Map<string, { n: number; agree: number; valid: number }>();
    let compared = 0;
    let agreed = 0;
    for (const { cls, cell } of cells) {
      if (cls in KNOWN) continue;
      const lib = library(cell);
      const code = normalizeCode(cell);
      const ours = code >= 0 ? String(code) : "";
      const agree = lib.valid === code >= 0 && lib.ten === ours;
      const c = perClass.get(cls) ?? { n: 0, agree: 0, valid: 0 };
      c.n++;
      if (agree) c.agree++;
      if (code >= 0) c.valid++;
      perClass.set(cls, c);
      compared++;
      if (agree) agreed++;
      else disagreements.push(`${cls} ${JSON.stringify(cell)}: library ${lib.valid ? lib.ten : "invalid"}, ours ${ours || reasonOfCode(code)}`);
      // never a different valid number than the library's
      if (lib.valid && code >= 0) expect(ours, cell).toBe(lib.ten);
    }
    expect(agreed / compared, disagreements.slice(0, 20).join("\n")).toBeGreaterThanOrEqual(0.995);
    // the corpus really holds valid and invalid cells of every class it claims
    for (const cls of ["us", "us_territory", "canada", "caribbean", "toll_free", "premium", "personal"]) {
      expect(perClass.get(cls)!.valid, cls).toBeGreaterThan(0);
    }
    for (const cls of [
      "n11_area",
      "reserved_area",
      "unassigned_area",
      "area_0_1",
      "exchange_0_1",
      "wrong_length",
      "letters",
      "two_numbers",
      "other_country",
      "excel",
      "empty",
    ]) {
      expect(perClass.get(cls)!.valid, cls).toBe(0);
    }
  });

  it("differs from the library only in the listed classes, and only the listed way", () => {
    const differing = new Map<string, number>();
    for (const { cls, cell } of cells) {
      const known = KNOWN[cls];
      if (!known) continue;
      const lib = library(cell);
      const code = normalizeCode(cell);
      expect(code < 0 ? reasonOfCode(code) : "valid", cell).toBe(known.ours);
      const differs = lib.valid !== code >= 0;
      if (!known.sometimes) expect(differs, cell).toBe(true);
      if (differs) differing.set(cls, (differing.get(cls) ?? 0) + 1);
      if (lib.valid && code >= 0) expect(String(code), cell).toBe(lib.ten);
    }
    for (const cls of Object.keys(KNOWN)) expect(differing.get(cls) ?? 0, cls).toBeGreaterThan(10); // each class really differs
  });

  it("gives the state filter a state exactly for US geographic numbers, and the kind the library's type and country imply", () => {
    let checked = 0;
    for (const { cell } of cells) {
      const lib = library(cell);
      const code = normalizeCode(cell);
      if (!lib.valid || code < 0) continue;
      checked++;
      const kind = numberKind(code);
      const state = stateOfNumber(code);
      const want =
        lib.type === "TOLL_FREE"
          ? "toll_free"
          : lib.type === "PREMIUM_RATE"
            ? "premium"
            : lib.type === "PERSONAL_NUMBER"
              ? "personal"
              : US_REGIONS.has(lib.country!)
                ? "us"
                : lib.country === "CA"
                  ? "canada"
                  : "caribbean";
      expect(kind, cell).toBe(want);
      if (kind === "us") expect(state, cell).toBe(lib.country === "US" ? state : lib.country);
      expect(state !== null, cell).toBe(kind === "us");
    }
    expect(checked).toBeGreaterThan(2000);
  });
});
