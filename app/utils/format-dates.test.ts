import { describe, expect, it } from "vitest";
import { DEFAULT_TIME_ZONE, formatDate, formatDateTime, formatDay, isoTimestamp, isValidTimeZone } from "./format";

describe("one date format, in the viewer's zone, with the zone named", () => {
  const at = "2026-11-05T20:04:05.123Z";

  it("date and time: MMM dd, yyyy, h:mm AM/PM ZONE", () => {
    expect(formatDateTime(at, "America/New_York")).toBe("Nov 05, 2026, 3:04 PM EST");
    expect(formatDateTime(at, "America/Los_Angeles")).toBe("Nov 05, 2026, 12:04 PM PST");
    expect(formatDateTime(at, "UTC")).toBe("Nov 05, 2026, 8:04 PM UTC");
    expect(formatDateTime("2026-07-04T03:00:00Z", "America/Chicago")).toBe("Jul 03, 2026, 10:00 PM CDT");
    // A zone without an English abbreviation is named by its offset.
    expect(formatDateTime(at, "Asia/Kolkata")).toBe("Nov 06, 2026, 1:34 AM GMT+5:30");
  });

  it("a date alone is the day in the viewer's zone, always two-digit", () => {
    expect(formatDate("2026-11-06T02:00:00Z", "America/New_York")).toBe("Nov 05, 2026");
    expect(formatDate("2026-11-06T02:00:00Z", "UTC")).toBe("Nov 06, 2026");
    expect(formatDate(new Date("2026-01-09T12:00:00Z"))).toBe("Jan 09, 2026");
    expect(formatDay("2026-03-07")).toBe("Mar 07");
  });

  it("without a known zone: UTC, named", () => {
    expect(DEFAULT_TIME_ZONE).toBe("UTC");
    expect(formatDateTime(at)).toBe("Nov 05, 2026, 8:04 PM UTC");
    expect(formatDateTime(at, "Not/AZone")).toBe("Nov 05, 2026, 8:04 PM UTC");
    expect(formatDate(null)).toBe("N/A");
    expect(formatDateTime("garbage")).toBe("N/A");
  });

  it("accepts only real IANA zone names", () => {
    for (const ok of ["UTC", "America/New_York", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+5"]) expect(isValidTimeZone(ok), ok).toBe(true);
    for (const bad of ["", "Mars/Olympus", "America/New_York; Path=/", "<script>", "a".repeat(65), 5, null])
      expect(isValidTimeZone(bad), String(bad)).toBe(false);
  });

  it("exports: ISO-8601 with the offset, to the second", () => {
    expect(isoTimestamp(at)).toBe("2026-11-05T20:04:05+00:00");
    expect(isoTimestamp(null)).toBe("");
  });
});
