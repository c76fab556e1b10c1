import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ExemptionsView } from "~/models/purge.server";
import { ExemptionCounts } from "./exemption-counts";

const none = { purchase: 0, inquiry: 0, consent: 0 };
const base: ExemptionsView = {
  name: "CRM export",
  version: 3,
  sha256: null,
  at: "2026-11-28T15:00:00Z",
  byBasis: { purchase: 7, inquiry: 2, consent: 1 },
  windows: [
    { kind: "dnc", purchaseMonths: 18, inquiryMonths: 3 },
    { kind: "dnc-tx", purchaseMonths: 12, inquiryMonths: 0 },
  ],
  records: {
    applied: { purchase: 7, inquiry: 2, consent: 1 },
    expired: { ...none, purchase: 3, inquiry: 1 },
    neverApplicable: { ...none, consent: 1 },
    notYet: none,
  },
};
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("the results screen's exemptions (decision 184)", () => {
  it("gives each basis's window on every list checked (Texas's own 12 months, no inquiry), not the federal one alone", () => {
    const html = renderToStaticMarkup(<ExemptionCounts exemptions={base} />);
    expect(text(html)).toContain("Federal: within 18 months; Texas: within 12 months");
    expect(text(html)).toContain("Federal: within 3 months; Texas: no inquiry exemption");
    expect(text(html)).not.toContain("within 18 months Inquiry");
  });

  it("counts the records applied, expired and never applicable, in all and per basis", () => {
    const html = renderToStaticMarkup(<ExemptionCounts exemptions={base} />);
    expect(text(html)).toContain("Records of listed numbers: 15. 10 applied, 4 expired, 1 never applicable (a litigation list or your container).");
    const purchase = /data-testid="exemption-purchase-records">(.*?)<\/dl>/.exec(html)![1];
    expect(text(purchase).trim()).toBe("Applied 7 Expired 3 Never applicable 0");
    const consent = /data-testid="exemption-consent-records">(.*?)<\/dl>/.exec(html)![1];
    expect(text(consent).trim()).toBe("Applied 1 Expired 0 Never applicable 1");
    // a record dated after the instant is named only when there is one
    const later = renderToStaticMarkup(<ExemptionCounts exemptions={{ ...base, records: { ...base.records!, notYet: { ...none, consent: 2 } } }} />);
    expect(text(later)).toContain("2 dated after the instant");
    expect(text(/data-testid="exemption-consent-records">(.*?)<\/dl>/.exec(later)![1]).trim()).toBe(
      "Applied 1 Expired 0 Never applicable 1 Dated after the instant 2",
    );
  });

  it("a summary from before the records were counted shows the good numbers per basis and the windows only", () => {
    const html = renderToStaticMarkup(<ExemptionCounts exemptions={{ ...base, records: null }} />);
    expect(html).not.toContain("exemption-records");
    expect(html).toContain('data-testid="exemption-purchase-value">7<');
  });
});
