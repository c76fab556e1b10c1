import { describe, expect, it } from "vitest";
import { exemptionNotes, findExemption, type ExemptionIndex } from "./decide";
import { MAX_EXEMPTION_RECORD_CHARS, MAX_EXEMPTION_ROWS, parseExemptionText, ExemptionReader, type ParsedExemptions } from "./parse";
import {
  addCalendarMonths,
  BASIS_CONSENT,
  BASIS_INQUIRY,
  BASIS_PURCHASE,
  dayOfIsoDate,
  exemptionApplies,
  exemptionEndDay,
  isoDateOfDay,
  type ExemptionWindows,
} from "./windows";
import { exemptionWindowsOf } from "../list-types";

const FEDERAL: ExemptionWindows = { purchaseMonths: 18, inquiryMonths: 3, source: "federal" };
const day = (iso: string) => dayOfIsoDate(iso)!;
const at = (iso: string) => Date.parse(iso);
const plus = (iso: string, months: number) => isoDateOfDay(addCalendarMonths(day(iso), months));

describe("calendar months", () => {
  it("adds months on the calendar, clamping to a shorter month's last day", () => {
    expect(plus("2025-01-31", 18)).toBe("2026-07-31");
    expect(plus("2025-03-01", 18)).toBe("2026-09-01");
    expect(plus("2025-08-31", 18)).toBe("2027-02-28");
    expect(plus("2025-11-30", 3)).toBe("2026-02-28");
    expect(plus("2025-12-15", 3)).toBe("2026-03-15");
  });
  it("knows leap days", () => {
    expect(plus("2023-11-30", 3)).toBe("2024-02-29");
    expect(plus("2024-02-29", 18)).toBe("2025-08-29");
    expect(plus("2024-02-29", 3)).toBe("2024-05-29");
    expect(plus("2022-08-29", 18)).toBe("2024-02-29");
    expect(dayOfIsoDate("2024-02-29")).not.toBeNull();
    expect(dayOfIsoDate("2025-02-29")).toBeNull();
    expect(dayOfIsoDate("2025-13-01")).toBeNull();
    expect(dayOfIsoDate("2025-1-01")).toBeNull();
  });
});

describe("when a record applies", () => {
  it("a purchase on 2025-01-31 covers calls up to the end of 2026-07-30, not on 2026-07-31", () => {
    const d = day("2025-01-31");
    expect(exemptionApplies(BASIS_PURCHASE, d, FEDERAL, at("2026-07-30T23:59:59Z"))).toBe(true);
    expect(exemptionApplies(BASIS_PURCHASE, d, FEDERAL, at("2026-07-31T00:00:00Z"))).toBe(false);
    expect(exemptionApplies(BASIS_PURCHASE, d, FEDERAL, at("2026-07-31T16:00:00Z"))).toBe(false);
    expect(isoDateOfDay(exemptionEndDay(BASIS_PURCHASE, d, FEDERAL)!)).toBe("2026-07-31");
  });
  it("an inquiry lasts 3 calendar months; across a leap day", () => {
    const d = day("2023-11-30");
    expect(exemptionApplies(BASIS_INQUIRY, d, FEDERAL, at("2024-02-28T23:59:59Z"))).toBe(true);
    expect(exemptionApplies(BASIS_INQUIRY, d, FEDERAL, at("2024-02-29T00:00:00Z"))).toBe(false);
    const leap = day("2024-02-29");
    expect(exemptionApplies(BASIS_INQUIRY, leap, FEDERAL, at("2024-05-28T12:00:00Z"))).toBe(true);
    expect(exemptionApplies(BASIS_INQUIRY, leap, FEDERAL, at("2024-05-29T12:00:00Z"))).toBe(false);
  });
  it("consent has no end, but a record dated after the instant never applies", () => {
    const d = day("2024-02-29");
    expect(exemptionApplies(BASIS_CONSENT, d, FEDERAL, at("2024-02-29T00:00:00Z"))).toBe(true);
    expect(exemptionApplies(BASIS_CONSENT, d, FEDERAL, at("2034-02-28T00:00:00Z"))).toBe(true);
    expect(exemptionApplies(BASIS_CONSENT, d, FEDERAL, at("2024-02-28T23:59:59Z"))).toBe(false);
    expect(exemptionApplies(BASIS_PURCHASE, day("2026-07-31"), FEDERAL, at("2026-07-30T12:00:00Z"))).toBe(false);
    expect(exemptionEndDay(BASIS_CONSENT, d, FEDERAL)).toBeNull();
  });
  it("Pennsylvania's list: a purchase clears it for 12 months, not 18; no inquiry window (Act 24 of 2002 as the Attorney General quotes it)", () => {
    const pa = exemptionWindowsOf("dnc-pa")!;
    expect([pa.purchaseMonths, pa.inquiryMonths]).toEqual([12, 0]);
    const d = day("2025-03-15");
    // the call on 2026-03-14, a day short of 12 months: the purchase clears it to the last second of that day
    expect(exemptionApplies(BASIS_PURCHASE, d, pa, at("2026-03-14T23:59:59Z"))).toBe(true);
    // at 12 months (2026-03-15) and after: it does not, though the federal 18 months still run
    expect(exemptionApplies(BASIS_PURCHASE, d, pa, at("2026-03-15T00:00:00Z"))).toBe(false);
    expect(exemptionApplies(BASIS_PURCHASE, d, pa, at("2026-06-01T12:00:00Z"))).toBe(false);
    expect(exemptionApplies(BASIS_PURCHASE, d, FEDERAL, at("2026-06-01T12:00:00Z"))).toBe(true);
    expect(isoDateOfDay(exemptionEndDay(BASIS_PURCHASE, d, pa)!)).toBe("2026-03-15");
    expect(exemptionApplies(BASIS_INQUIRY, day("2026-03-01"), pa, at("2026-03-02T12:00:00Z"))).toBe(false);
  });
  it("a list with its own, shorter windows ends sooner", () => {
    const shorter: ExemptionWindows = { purchaseMonths: 12, inquiryMonths: 1, source: "state" };
    const d = day("2025-03-01");
    expect(exemptionApplies(BASIS_PURCHASE, d, FEDERAL, at("2026-05-01T12:00:00Z"))).toBe(true);
    expect(exemptionApplies(BASIS_PURCHASE, d, shorter, at("2026-05-01T12:00:00Z"))).toBe(false);
  });
});

function index(rows: [number, number, string][]): ExemptionIndex {
  const sorted = [...rows].sort((a, b) => a[0] - b[0]);
  return {
    numbers: Float64Array.from(sorted, (r) => r[0]),
    basis: Uint8Array.from(sorted, (r) => r[1]),
    day: Int32Array.from(sorted, (r) => day(r[2])),
  };
}

describe("the exemption index and notes", () => {
  const A = 2125552301;
  const C = 2125552303;
  const idx = index([
    [A, BASIS_PURCHASE, "2025-08-01"],
    [C, BASIS_CONSENT, "2020-05-05"],
  ]);

  it("finds a record by number", () => {
    expect(findExemption(idx, A)).toBeGreaterThanOrEqual(0);
    expect(findExemption(idx, 2125552305)).toBe(-1);
  });

  it("notes only rows that end good, counted per basis, quoted for the delimiter", () => {
    // what the one decision left (decision/decide.test.ts): rows 0 and 2 let through by A's and C's records
    const d = { record: Int32Array.from([findExemption(idx, A), -1, findExemption(idx, C), -1]), endDay: Int32Array.from([day("2027-02-01"), -1, -1, -1]) };
    const n = exemptionNotes(d, (r) => r === 0, 4, idx, ",");
    expect(n.byBasis).toEqual([1, 0, 0]);
    expect(n.notes[n.rowNote[0]]).toBe('"purchase 2025-08-01, exempt until 2027-02-01"');
    expect(n.rowNote[2]).toBe(0);
    const semi = exemptionNotes(d, (r) => r === 0 || r === 2, 4, idx, ";");
    expect(semi.notes[semi.rowNote[0]]).toBe("purchase 2025-08-01, exempt until 2027-02-01");
    expect(semi.notes[semi.rowNote[2]]).toBe("consent 2020-05-05");
    expect(semi.byBasis).toEqual([1, 0, 1]);
  });
});

describe("parseExemptionText", () => {
  const today = day("2026-11-26");
  it("reads rows with or without a header, sorted, the later date of one basis kept", () => {
    const r = parseExemptionText(
      "\uFEFFPhone,Basis,Date\r\n(212) 555-2345,Purchase,2025-03-01\n\n2125552300,consent,2024-02-29\n212.555.2345,purchase,2025-04-01\n",
      today,
    );
    expect(rowsOf(r)).toEqual([
      { number: 2125552300, basis: BASIS_CONSENT, day: day("2024-02-29") },
      { number: 2125552345, basis: BASIS_PURCHASE, day: day("2025-04-01") },
    ]);
    const plain = parseExemptionText("2125552345,inquiry,2026-11-26", today);
    expect(rowsOf(plain)[0].basis).toBe(BASIS_INQUIRY);
    const columns = parseExemptionText("date;basis;mobile\n2026-01-02;consent;2125552345", today);
    expect(rowsOf(columns)[0].day).toBe(day("2026-01-02"));
  });
  it("names every bad line: malformed date, unknown basis, future date, a number with two bases, a bad number", () => {
    const text = [
      "phone,basis,date",
      "2125552345,purchase,2025-02-30",
      "2125552346,sale,2025-02-01",
      "2125552347,consent,2026-11-27",
      "2125552348,purchase,2025-01-01",
      "2125552349,inquiry,2026-10-01",
      "212-555-2348,consent,2024-01-01",
      "555-1234,consent,2024-01-01",
      "2125552350,consent",
    ].join("\n");
    const r = parseExemptionText(text, today);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      'Line 2: date "2025-02-30" is not a real date in the form YYYY-MM-DD.',
      'Line 3: basis "sale" is not purchase, inquiry or consent.',
      "Line 4: date 2026-11-27 is in the future (today is 2026-11-26, UTC).",
      "Line 7: 2125552348 is on line 5 as purchase and here as consent; give each number one basis.",
      expect.stringMatching(/^Line 8: "555-1234" is not a valid phone number \(7 digits/),
      "Line 9: expected phone,basis,date, found 2 cells.",
    ]);
  });
  it("refuses an empty list and a header without the columns; lists at most 20 errors", () => {
    expect(parseExemptionText("phone,basis,date\n", today)).toEqual({ ok: false, errors: ["The list has no rows: give one phone,basis,date row per number."] });
    expect(parseExemptionText("name,basis\nx,y", today)).toEqual({
      ok: false,
      errors: ["Line 1: the header must name the phone, basis and date columns (phone,basis,date)."],
    });
    const many = parseExemptionText(Array.from({ length: 25 }, (_, i) => `21255523${10 + i},gift,2025-01-01`).join("\n"), today);
    expect(!many.ok && many.errors.length).toBe(21);
    expect(!many.ok && many.errors[20]).toBe("…and 5 more lines with errors.");
  });
  it("counts lines through quoted line breaks (LF, CRLF and CR alone)", () => {
    for (const nl of ["\n", "\r\n", "\r"]) {
      const r = parseExemptionText(`"555${nl}1234",purchase,2025-01-01${nl}2125552346,gift,2025-01-01`, today);
      expect(r).toEqual({ ok: false, errors: [expect.stringMatching(/^Line 1: "555/), 'Line 3: basis "gift" is not purchase, inquiry or consent.'] });
    }
    expect(parseExemptionText('"2125552345",consent,"2025-""01"""\n', today)).toEqual({
      ok: false,
      errors: ['Line 1: date "2025-"01"" is not a real date in the form YYYY-MM-DD.'],
    });
  });
  it("reads a CR-only file, and the same rows pushed in any pieces", () => {
    const text = 'phone,basis,date\r2125552345,purchase,2025-01-01\r\n"2125552346",consent,2024-02-29\r2125552347,inquiry,2026-10-01\r';
    const whole = rowsOf(parseExemptionText(text, today));
    expect(whole.map((r) => r.number)).toEqual([2125552345, 2125552346, 2125552347]);
    for (const size of [1, 2, 3, 7]) {
      const reader = new ExemptionReader(today);
      for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
      expect(rowsOf(reader.end())).toEqual(whole);
    }
  });
  it("refuses dates before 1900 exactly as written (no two-digit-year rewrite)", () => {
    const r = parseExemptionText(
      "2125552345,purchase,0001-01-01\n2125552346,consent,0099-12-31\n2125552347,consent,1899-12-31\n2125552348,consent,1900-01-01",
      today,
    );
    expect(r).toEqual({
      ok: false,
      errors: [
        "Line 1: date 0001-01-01 is before 1900-01-01; give the date of the purchase, inquiry or consent.",
        "Line 2: date 0099-12-31 is before 1900-01-01; give the date of the purchase, inquiry or consent.",
        "Line 3: date 1899-12-31 is before 1900-01-01; give the date of the purchase, inquiry or consent.",
      ],
    });
    expect(day("1900-01-01")).toBe(-25_567);
  });
  it("stops at a record past its length, naming the line and the limit, whatever follows", () => {
    const reader = new ExemptionReader(today);
    reader.push("2125552345,purchase,2025-01-01\n2125552346,consent,");
    const big = "9".repeat(1024 * 1024);
    for (let i = 0; i < 30 && !reader.stopped; i++) reader.push(big);
    expect(reader.stopped).toBe(true);
    expect(reader.end()).toEqual({
      ok: false,
      errors: [
        `Line 2: the row is longer than ${MAX_EXEMPTION_RECORD_CHARS.toLocaleString("en-US")} characters; nothing was loaded (an exemption row is phone,basis,date).`,
      ],
    });
    const quoted = parseExemptionText(`2125552345,purchase,"${"x".repeat(MAX_EXEMPTION_RECORD_CHARS)}`, today);
    expect(!quoted.ok && quoted.errors[0]).toMatch(/^Line 1: the row is longer than 65,536 characters/);
  });
  it("stops past the row limit, counting bad rows too", () => {
    const reader = new ExemptionReader(today);
    const block = "1\n".repeat(100_000);
    let pushed = 0;
    while (!reader.stopped && pushed < 20) {
      reader.push(block);
      pushed++;
    }
    expect(pushed).toBe(11);
    const r = reader.end();
    expect(!r.ok && r.errors.at(-1)).toBe(`Line ${MAX_EXEMPTION_ROWS + 1}: an exemption list holds at most 1,000,000 rows; nothing was loaded.`);
    expect(!r.ok && r.errors.length).toBe(22);
  });
});

function rowsOf(r: ParsedExemptions) {
  if (!r.ok) throw new Error(r.errors.join("\n"));
  return Array.from(r.rows.numbers, (number, i) => ({ number, basis: r.rows.basis[i], day: r.rows.day[i] }));
}
