import { describe, expect, it } from "vitest";
import { manualEntryError, MAX_MANUAL_NUMBERS, PHONE_ENTRY_MESSAGES, splitManualNumbers } from "./phone-entry";

describe("manual phone entry", () => {
  it("splits on commas and newlines and trims", () => {
    expect(splitManualNumbers(" 2015550123 ,3125550199\n\r\n4155550100,, ")).toEqual({
      numbers: ["2015550123", "3125550199", "4155550100"],
      invalid: [],
    });
  });

  it("needs at least one number", () => {
    expect(manualEntryError("")).toBe(PHONE_ENTRY_MESSAGES.noneValid);
    expect(manualEntryError(" , ,\n")).toBe("You must enter at least one valid 10-digit phone number.");
  });

  it("lists the invalid entries with the spec's text", () => {
    expect(manualEntryError("2015550123, 12345, 20155501ab, +12015550123")).toBe(
      "The following numbers are invalid (must be exactly 10 digits with no alphabets): 12345, 20155501ab, +12015550123",
    );
  });

  it("lists at most 20 invalid entries", () => {
    const bad = Array.from({ length: 25 }, (_, i) => `x${i}`).join(",");
    expect(manualEntryError(bad)).toMatch(/x19 and 5 more$/);
  });

  it("takes up to 100,000 numbers, not 10 characters", () => {
    const many = Array.from({ length: MAX_MANUAL_NUMBERS }, (_, i) => String(2015550000 + i).padStart(10, "2")).join(",");
    expect(manualEntryError(many)).toBeNull();
    expect(manualEntryError(`${many},2015550000`)).toMatch(/manual entry takes up to 100,000/);
  });
});
