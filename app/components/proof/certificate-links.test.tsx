import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StaleDncBanner, ValidUntil } from "./certificate-links";

describe("the results screen's DNC clock", () => {
  it("shows the stale-DNC banner only past 31 days at scrub time, apart from the valid-until line", () => {
    expect(renderToStaticMarkup(<StaleDncBanner dncAgeDays={31} />)).toBe("");
    expect(renderToStaticMarkup(<StaleDncBanner dncAgeDays={null} />)).toBe("");
    const banner = renderToStaticMarkup(<StaleDncBanner dncAgeDays={32} />);
    expect(banner).toContain('data-testid="stale-dnc-banner"');
    expect(banner).toContain("This purge checked a DNC list that was 32 days old.");
    expect(renderToStaticMarkup(<ValidUntil validUntil="2026-10-23T00:00:00.000Z" dncAgeDays={32} />)).toContain(
      "Good file valid for calls until Oct 23, 2026 (DNC list 32 days old)",
    );
    expect(renderToStaticMarkup(<ValidUntil validUntil="2026-12-23T00:00:00.000Z" dncAgeDays={3} />)).not.toContain("days old");
  });
});
