import { describe, expect, it } from "vitest";
import { checkManualNumbers, manualEntryError, MAX_MANUAL_NUMBERS, PHONE_ENTRY_MESSAGES, splitManualNumbers } from "./typed-numbers";

describe("manual phone entry", () => {
  it("splits on commas and newlines and trims", () => {
    expect(splitManualNumbers(" 2015552123 ,3125552199\n\r\n4155552100,, ")).toEqual({
      numbers: ["2015552123", "3125552199", "4155552100"],
      invalid: [],
    });
  });

  it("needs at least one number", () => {
    expect(manualEntryError("")).toBe(PHONE_ENTRY_MESSAGES.noneValid);
    expect(manualEntryError(" , ,\n")).toBe("You must enter at least one valid 10-digit phone number.");
  });

  it("lists the invalid entries with the spec's text", () => {
    // +12015552123 was refused here before the one splitter (#12/#14): the engine's normalizer reads it as 2015552123.
    expect(manualEntryError("2015552123, 12345, 20155501ab, +12015552123, 1015552123")).toBe(
      "The following numbers are invalid (must be exactly 10 digits with no alphabets): 12345, 20155501ab, 1015552123",
    );
  });

  it("lists at most 20 invalid entries", () => {
    const bad = Array.from({ length: 25 }, (_, i) => `x${i}`).join(",");
    expect(manualEntryError(bad)).toMatch(/x19 and 5 more$/);
  });

  it("takes up to 100,000 numbers, not 10 characters", () => {
    const many = Array.from({ length: MAX_MANUAL_NUMBERS }, (_, i) => String(2015560000 + i).padStart(10, "2")).join(",");
    expect(manualEntryError(many)).toBeNull();
    expect(manualEntryError(`${many},2015560000`)).toMatch(/manual entry takes up to 100,000/);
  });
});

describe("checkManualNumbers (purge wizard manual entry)", () => {
  it("asks for numbers when the box is empty", () => {
    expect(checkManualNumbers("")).toEqual({ ok: false, message: "Please enter phone numbers" });
    expect(checkManualNumbers(" \n , ")).toEqual({ ok: false, message: "No valid phone numbers found" });
    expect(checkManualNumbers(undefined)).toEqual({ ok: false, message: "Please enter phone numbers" });
  });

  it("splits on newlines and commas and keeps 10 to 15 digits after stripping non-digits", () => {
    // A valid number is passed on as the normalizer's 10 digits (it was "13105552199" before #12: with the
    // normalizer's extensions, "212-555-2100 x12" must not become 12 digits).
    expect(checkManualNumbers("(202) 555-2101\n+1 310.555.2199,  442079460958123")).toEqual({
      ok: true,
      numbers: ["2025552101", "3105552199", "442079460958123"],
    });
  });

  it("rejects when none is valid, and lists the first three invalid entries", () => {
    expect(checkManualNumbers("abc, 123456789")).toEqual({ ok: false, message: "No valid phone numbers found" });
    expect(checkManualNumbers("2025552101, 1234567890123456, x, 99, 1")).toEqual({
      ok: false,
      message: "Invalid phone numbers found: 1234567890123456, x, 99...",
    });
  });
});

describe("one rule on every screen", () => {
  const formats = ["2125552142", "(212) 555-2142", "212.555.2142", "212-555-2142", "+1 212 555 2142", "1-212-555-2142", "+12125552142"];
  const refused = ["555-2142", "12125550142999", "1125552142", "2121550142", "2.12555E+9", "phone"];

  it("accepts the same formats in the purge wizard and in the container and DNC dialogs, as the same number", () => {
    for (const f of formats) {
      expect(splitManualNumbers(f)).toEqual({ numbers: ["2125552142"], invalid: [] });
      expect(manualEntryError(f)).toBeNull();
      expect(checkManualNumbers(f)).toEqual({ ok: true, numbers: ["2125552142"] });
    }
  });

  it("refuses the same entries everywhere", () => {
    for (const f of refused) {
      expect(splitManualNumbers(f)).toEqual({ numbers: [], invalid: [f] });
      expect(manualEntryError(`2125552142, ${f}`)).toBe(`${PHONE_ENTRY_MESSAGES.invalidPrefix}${f}`);
      // The purge alone lets an invalid entry of 10 to 15 digits through to invalid.csv (it does not stop at
      // invalid numbers); it is still not a valid number there.
      const digits = f.replace(/\D/g, "").length;
      if (digits < 10 || digits > 15) expect(checkManualNumbers(`2125552142, ${f}`)).toEqual({ ok: false, message: `Invalid phone numbers found: ${f}...` });
      else expect(checkManualNumbers(`2125552142, ${f}`)).toEqual({ ok: true, numbers: ["2125552142", f.replace(/\D/g, "")] });
    }
  });
});
