import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CertificateFile, ListVersionProof } from "scrub-service/domain";
import { TimeZoneProvider } from "~/utils/time-zone";
import { CertificateView } from "./certificate-view";

const list = (kind: string, registryDate: string): ListVersionProof => ({
  kind,
  listId: 1,
  name: kind,
  version: 3,
  count: 10,
  loadId: "l1",
  loadedAt: registryDate,
  registryDate,
  sourceFileName: null,
  sourceSha256: null,
});

const output = { fileName: "x.csv", sha256: "0".repeat(64), records: 1, bytes: 10 };

const file = {
  certificate: {
    format: "scrub-certificate/1",
    jobId: "j1",
    issuedAt: "2026-11-28T15:00:00.000Z",
    owner: { userId: "u", name: "N", email: "e@x", company: "C" },
    startedAt: null,
    completedAt: "2026-11-28T15:00:00.000Z",
    input: { fileName: "in.csv", sha256: "0".repeat(64), bytes: 10 },
    suppressionType: "DNCAndLitigation",
    stateFilter: null,
    counts: { total: 1, good: 1, bad: 0, invalid: 0, byReason: {} },
    lists: [list("dnc", "2026-11-23T00:00:00.000Z"), list("dnc-tx", "2026-11-16T00:00:00.000Z"), list("container", "2026-11-23T03:30:00.000Z")],
    normalizerRulesVersion: "1",
    outputs: { good: output, bad: output, invalid: output },
    dncRegistry: { registryDate: "2026-11-23T00:00:00.000Z", ageDays: 5, validUntil: "2026-12-24T00:00:00.000Z", withinWindow: true },
  },
  signature: { algorithm: "Ed25519", keyId: "k", publicKey: "", value: "" },
} as unknown as CertificateFile;

describe("the certificate's dates (#44: a registry date is a calendar day)", () => {
  it("shows registry and valid-until days as the same day to a New York viewer, and a load time in the viewer's zone", () => {
    const html = renderToStaticMarkup(
      <TimeZoneProvider serverZone="America/New_York">
        <CertificateView file={file} />
      </TimeZoneProvider>,
    );
    expect(html).toContain('Registry date <time dateTime="2026-11-23">Nov 23, 2026</time>, 5 days old');
    expect(html).toContain('valid for calls until <time dateTime="2026-12-24">Dec 24, 2026</time>');
    expect(html).toContain('Registry date <time dateTime="2026-11-16">Nov 16, 2026</time>');
    expect(html).not.toMatch(/Registry date <time[^>]*>Nov 22/);
    // a container's date is its load instant: 03:30 UTC is the evening before in New York, named as such
    expect(html).toMatch(/Loaded <time[^>]*>Nov 22, 2026, 10:30 PM EST<\/time>/);
  });
});
