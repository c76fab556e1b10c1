import { describe, expect, it } from "vitest";
import { normalizeBytes } from "./csv";
import { normalizeCode, normalizePhone, parsePhone, formatPhone } from "./normalize";

const enc = new TextEncoder();
function both(s: string): number {
  const a = normalizeCode(s);
  const b = enc.encode(s);
  expect(normalizeBytes(b, 0, b.length)).toBe(a); // the byte path agrees with the string path
  return a;
}

describe("normalizer", () => {
  it.each([
    ["2125550123", 2125550123],
    ["12125550123", 2125550123],
    ["+12125550123", 2125550123],
    ["+1 212 555 0123", 2125550123],
    ["(212) 555-0123", 2125550123],
    ["212.555.0123", 2125550123],
    ["212-555-0123", 2125550123],
    ["1-212-555-0123", 2125550123],
    ["  2125550123  ", 2125550123],
    ["+1 (212) 555.0123", 2125550123],
    ["\t212 555 0123", 2125550123],
    ["9999999999", 9999999999],
    ["2002000000", 2002000000],
  ])("accepts %j", (input, want) => {
    expect(both(input)).toBe(want);
    expect(parsePhone(input)).toEqual({ ok: true, number: want, digits: String(want) });
  });

  it.each([
    ["", "empty"],
    ["   ", "empty"],
    ["1.23457E+9", "excel_notation"],
    ["2.12555E+09", "excel_notation"],
    ["1E10", "excel_notation"],
    ["abc", "not_a_number"],
    ["212555012x", "not_a_number"],
    ["212/555/0123", "not_a_number"],
    ["++12125550123", "not_a_number"],
    ["212+5550123", "not_a_number"],
    ["()", "not_a_number"],
    ["ext. 212", "not_a_number"],
    ["212555012", "wrong_length"],
    ["212555012345", "wrong_length"],
    ["22125550123", "wrong_length"],
    ["0125550123", "invalid_area_code"],
    ["1125550123", "invalid_area_code"],
    ["11125550123", "invalid_area_code"],
    ["2120550123", "invalid_exchange"],
    ["2121550123", "invalid_exchange"],
    ["+1 (212) 155-0123", "invalid_exchange"],
  ])("rejects %j as %s", (input, reason) => {
    expect(both(input)).toBeLessThan(0);
    expect(parsePhone(input)).toEqual({ ok: false, reason });
    expect(normalizePhone(input)).toBeNull();
  });

  it("formats", () => {
    expect(formatPhone(2125550123)).toBe("(212) 555-0123");
    expect(normalizePhone("+1 212 555 0123")).toBe("2125550123");
  });
});
