import { describe, expect, it } from "vitest";
import {
  INVALID_REASONS,
  INVALID_REASON_LABELS,
  NORMALIZER_RULES_VERSION,
  formatPhone,
  invalidReasonText,
  normalizeBytes,
  normalizeCode,
  normalizePhone,
  parsePhone,
  tenDigitsAt,
} from "./normalize";

const enc = new TextEncoder();
function both(s: string): number {
  const a = normalizeCode(s);
  const b = enc.encode(s);
  expect(normalizeBytes(b, 0, b.length)).toBe(a); // the byte path agrees with the string path
  return a;
}

describe("normalizer", () => {
  it.each([
    ["2125552123", 2125552123],
    ["12125552123", 2125552123],
    ["+12125552123", 2125552123],
    ["+1 212 555 2123", 2125552123],
    ["(212) 555-2123", 2125552123],
    ["212.555.2123", 2125552123],
    ["212-555-2123", 2125552123],
    ["1-212-555-2123", 2125552123],
    ["  2125552123  ", 2125552123],
    ["+1 (212) 555.2123", 2125552123],
    ["\t212 555 2123", 2125552123],
    ["212/555-2123", 2125552123],
    ["212/555/2123", 2125552123],
    ["2125552123.", 2125552123],
    ["+ 1 212 555 2123", 2125552123],
    // Unicode separators
    ["212\u00a0555\u00a02123", 2125552123],
    ["212\u2009555\u202f2123", 2125552123],
    ["212\u2013555\u20142123", 2125552123],
    ["212\u2212555\u22122123", 2125552123],
    ["212\u2010555\u20112123", 2125552123],
    ["\u200b2125552123\ufeff", 2125552123],
    ["\u3000212\u30005552123", 2125552123],
    ["[212] 555-2123", 2125552123],
    // digits of other scripts
    ["\uff12\uff11\uff12\uff15\uff15\uff15\uff12\uff11\uff12\uff13", 2125552123],
    ["\uff0b\uff11\uff08\uff12\uff11\uff12\uff09\uff15\uff15\uff15\uff0d\uff12\uff11\uff12\uff13", 2125552123],
    ["\u0662\u0661\u0662\u0665\u0665\u0665\u0662\u0661\u0662\u0663", 2125552123],
    ["\u0968\u0967\u0968\u096b\u096b\u096b\u0968\u0967\u0968\u0969", 2125552123],
    // prefixes, Excel text markers, international prefix
    ["tel:+1-212-555-2123", 2125552123],
    ["TEL:2125552123", 2125552123],
    ["tel:+12125552123;ext=7", 2125552123],
    ["'2125552123", 2125552123],
    ['="2125552123"', 2125552123],
    ['="+1 212 555 2123"', 2125552123],
    ["011 1 212 555 2123", 2125552123],
    ["01112125552123", 2125552123],
    // extensions
    ["212-555-2123 ext 12", 2125552123],
    ["212-555-2123 ext. 12", 2125552123],
    ["212-555-2123 EXT12", 2125552123],
    ["212-555-2123 extension 12", 2125552123],
    ["212-555-2123 x123", 2125552123],
    ["212-555-2123x", 2125552123],
    ["212-555-2123 #12", 2125552123],
    ["212-555-2123#", 2125552123],
    // valid NANP numbers that are not US geographic
    ["4162342345", 4162342345],
    ["8002342345", 8002342345],
    ["9002342345", 9002342345],
    ["2684601234", 2684601234],
    ["7872342345", 7872342345],
  ])("accepts %j", (input, want) => {
    expect(both(input)).toBe(want);
    const p = parsePhone(input);
    expect(p.ok && p.number).toBe(want);
    expect(p.ok && p.digits).toBe(String(want));
  });

  it("records the kind and region", () => {
    expect(parsePhone("(212) 555-2123")).toEqual({ ok: true, number: 2125552123, digits: "2125552123", kind: "us", region: "US" });
    expect(parsePhone("416 234 2345")).toMatchObject({ kind: "canada", region: "CA" });
    expect(parsePhone("876 234 2345")).toMatchObject({ kind: "caribbean", region: "JM" });
    expect(parsePhone("1-800-234-2345")).toMatchObject({ kind: "toll_free" });
    expect(parsePhone("900 234 2345")).toMatchObject({ kind: "premium" });
    expect(parsePhone("500 234 2345")).toMatchObject({ kind: "personal" });
    expect(parsePhone("787 234 2345")).toMatchObject({ kind: "us", region: "PR" });
  });

  it.each([
    ["", "empty", "empty: no phone number in this cell"],
    ["   ", "empty", "empty: no phone number in this cell"],
    ["\u00a0", "empty", "empty: no phone number in this cell"],
    ["1.23457E+9", "excel_notation", "Excel scientific notation (like 1.23457E+9): digits were lost - format the column as text and export again"],
    ["2.12555E+09", "excel_notation", null],
    ["1E10", "excel_notation", null],
    ["abc", "not_a_number", "not a phone number"],
    ["212-555-CALL", "not_a_number", null],
    ["1-800-FLOWERS", "not_a_number", null],
    ["call 2125552123 after 5", "not_a_number", null],
    ["++12125552123", "not_a_number", null],
    ["212+5552123", "not_a_number", null],
    ["()", "not_a_number", null],
    ["ext. 212", "not_a_number", null],
    ["N/A", "not_a_number", null],
    ["212555212x", "wrong_length", "9 digits: a US phone number has 10 digits (11 starting with 1)"],
    ["212555212", "wrong_length", null],
    ["212555212345", "wrong_length", "12 digits: a US phone number has 10 digits (11 starting with 1)"],
    ["22125552123", "wrong_length", null],
    ["0012125552123", "wrong_length", null],
    ["0125552123", "invalid_area_code", "area code 012 is not a phone area code (area codes never start with 0 or 1)"],
    ["1125552123", "invalid_area_code", null],
    ["11125552123", "invalid_area_code", null],
    ["9115552123", "service_area_code", "area code 911 is not a phone area code (N11 codes like 411 and 911 are service numbers)"],
    ["+1 411 555 2123", "service_area_code", null],
    ["3702342345", "unassigned_area_code", "area code 370 is not in service (unassigned or reserved)"],
    ["9602342345", "unassigned_area_code", null],
    ["2002342345", "unassigned_area_code", null],
    ["7002342345", "unassigned_area_code", null],
    ["9999999999", "unassigned_area_code", null],
    ["2120552123", "invalid_exchange", "exchange 055 is not a phone exchange (exchanges never start with 0 or 1)"],
    ["2121552123", "invalid_exchange", null],
    ["+1 (212) 155-2123", "invalid_exchange", null],
    ["2129112345", "service_exchange", "exchange 911 is a service code (N11) and not a phone exchange"],
    ["(305) 411-2345", "service_exchange", null],
    ["2685552345", "unassigned_exchange", "exchange 268-555 is not in service"],
    ["2125550123", "fictional_number", "555-0100 to 555-0199 numbers are reserved for films and fiction"],
    ["(800) 555-0199", "fictional_number", null],
    ["2125552123 2125552124", "two_numbers", "two phone numbers in one cell: put one number per row"],
    ["212-555-2123 / 1 212 555 2124", "two_numbers", null],
    ["2125552123 or 2125552124", "two_numbers", null],
    ["+44 20 7946 0958", "not_nanp", "not a North American number (only +1 numbers: US and Canada and the Caribbean)"],
    ["011 44 20 7946 0958", "not_nanp", null],
    ["+2125552123", "not_nanp", null],
  ])("rejects %j as %s", (input, reason, text) => {
    expect(both(input)).toBeLessThan(0);
    const p = parsePhone(input);
    expect(p).toMatchObject({ ok: false, reason });
    if (text) expect(!p.ok && p.message).toBe(text);
    expect(normalizePhone(input)).toBeNull();
  });

  it("explains every reason in words safe in any CSV dialect, with a label for counts", () => {
    for (let i = 0; i < INVALID_REASONS.length; i++) {
      for (const detail of [0, 7, 212, 268555]) {
        const text = invalidReasonText(-(1 + i) - 64 * detail);
        expect(text).toMatch(/^[A-Za-z0-9(][ -~]*$/);
        expect(text).not.toMatch(/[,;|"\t]/);
      }
      expect(INVALID_REASON_LABELS[INVALID_REASONS[i]]).toBeTruthy();
    }
  });

  it("reads a cell's bytes as UTF-8 on the slow path", () => {
    const cell = enc.encode("x,212\u00a0555\u00a02123,y");
    expect(normalizeBytes(cell, 2, cell.length - 2)).toBe(2125552123);
  });

  it("reads Excel's scientific notation from the bytes as the string path does", () => {
    const cells = [
      "1.23457E+9",
      " 2.12555E+09\t",
      "-1e5",
      "+3.E-2",
      "12E3",
      "1.2.3E4",
      "E5",
      "1.5E",
      "1.5E+",
      ".5E3",
      "1.5E3x",
      "1.5e3\u00a0",
      "\u00a01.5E3",
      "1,5E3",
      "1.5E3 4",
    ];
    for (const c of cells) both(c);
    expect(both(" 1.23457E+9 ")).toBe(normalizeCode("1.23457E+9"));
  });

  it("formats and names its rules", () => {
    expect(formatPhone(2125552123)).toBe("(212) 555-2123");
    expect(normalizePhone("+1 212 555 2123")).toBe("2125552123");
    expect(NORMALIZER_RULES_VERSION).toMatch(/^nanp-2\/libphonenumber-js@\d+\.\d+\.\d+$/);
  });
});

describe("tenDigitsAt (the ten-digit fast path)", () => {
  it("reads ten digits anywhere in a buffer, and answers -1 when any one byte is anything but a digit", () => {
    const buf = enc.encode("x0123456789y9999999999");
    expect(tenDigitsAt(buf, 1)).toBe(123456789);
    expect(tenDigitsAt(buf, 12)).toBe(9_999_999_999);
    expect(tenDigitsAt(enc.encode("0000000000"), 0)).toBe(0);
    const digits = enc.encode("2125550123");
    for (let at = 0; at < 10; at++) {
      for (let byte = 0; byte < 256; byte++) {
        if (byte >= 48 && byte <= 57) continue;
        const b = digits.slice();
        b[at] = byte;
        if (tenDigitsAt(b, 0) !== -1) throw new Error(`byte ${byte} at ${at} was read as a digit`);
      }
    }
  });
});
