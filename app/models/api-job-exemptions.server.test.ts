import { describe, expect, it } from "vitest";
import { serializeExemptions } from "./api-job.server";

describe("the API's view of a job's exemptions (decision 184)", () => {
  const byBasis = { purchase: 2, inquiry: 1, consent: 0 };
  const none = { purchase: 0, inquiry: 0, consent: 0 };
  it("carries the records per outcome and basis from the summary, in the API's snake case", () => {
    const summary = {
      listId: 4,
      version: 2,
      sha256: "ab",
      at: "2026-11-28T15:00:00Z",
      byBasis,
      records: { applied: byBasis, expired: { ...none, purchase: 3 }, neverApplicable: { ...none, consent: 1 }, notYet: none },
    };
    expect(serializeExemptions({ exemption_list_id: 4, exemption_summary: JSON.stringify(summary) } as never)).toEqual({
      list_id: 4,
      version: 2,
      sha256: "ab",
      at: "2026-11-28T15:00:00Z",
      counts: byBasis,
      records: { applied: byBasis, expired: { ...none, purchase: 3 }, never_applicable: { ...none, consent: 1 }, not_yet: none },
    });
  });

  it("records null for a summary from before the count", () => {
    const summary = { listId: 4, version: 2, sha256: "ab", at: "2026-11-28T15:00:00Z", byBasis };
    expect(serializeExemptions({ exemption_list_id: 4, exemption_summary: summary } as never)?.records).toBeNull();
  });
});
