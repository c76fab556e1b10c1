import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CertificateFile } from "scrub-service/domain";
import { CertificateView } from "./certificate-view";

const proof = { fileName: "x", sha256: "0".repeat(64), records: 1, bytes: 1 };
const file = (callingWindow: CertificateFile["certificate"]["callingWindow"]): CertificateFile => ({
  certificate: {
    format: "scrub-certificate/1",
    jobId: "j",
    issuedAt: "2026-09-10T00:00:00.000Z",
    owner: { userId: "u", name: "Ann", email: "a@example.com", company: "Acme" },
    startedAt: null,
    completedAt: "2026-09-10T00:00:00.000Z",
    input: { fileName: "in.csv", sha256: "0".repeat(64), bytes: 1 },
    suppressionType: "LitigationOnly",
    stateFilter: null,
    counts: { total: 1, good: 1, bad: 0, invalid: 0, byReason: {} },
    lists: [],
    normalizerRulesVersion: "1",
    outputs: { good: proof, bad: proof, invalid: proof },
    dncRegistry: null,
    callingWindow,
  },
  signature: { algorithm: "Ed25519", keyId: "k", publicKey: "p", value: "v" },
});

describe("the certificate view: emergency periods (decision 181)", () => {
  it("names each period the scrub applied, its rows held and its source; nothing without periods", () => {
    const base = { at: "2026-09-10T04:59:00Z", rulesVersion: "2026-11-28.2", timeZoneSource: "libphonenumber" };
    const html = renderToStaticMarkup(
      <CertificateView
        file={file({
          ...base,
          emergencyPeriods: [
            {
              id: 3,
              states: ["LA"],
              areaCodes: [504],
              firstDay: "2026-09-01",
              lastDay: "2026-09-10",
              authority: "Governor of Louisiana",
              sourceUrl: "https://gov.louisiana.gov/x",
              heldRows: 12,
            },
          ],
        })}
      />,
    );
    expect(html).toContain("Period 3: LA (area codes 504), 2026-09-01 to 2026-09-10, declared by Governor of Louisiana: 12 good rows held;");
    expect(html).toContain('href="https://gov.louisiana.gov/x"');
    expect(renderToStaticMarkup(<CertificateView file={file(base)} />)).not.toContain("certificate-emergency-periods");
  });
});
