import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StateListsNotice, type StateListClockView } from "./state-lists-notice";

const clock = (kind: string, name: string, ageDays: number, validDays: number, state: StateListClockView["state"]): StateListClockView => ({
  kind,
  name,
  registryDate: "2026-06-01T00:00:00.000Z",
  ageDays,
  validDays,
  state,
});

describe("the state lists' freshness banner on the purge page", () => {
  it("names each stale state list with its age and its state's limit, and nothing when none is stale", () => {
    expect(renderToStaticMarkup(<StateListsNotice clocks={[clock("dnc-tx", "Texas DNC List", 140, 152, "warning")]} refusing={false} />)).toBe("");
    const html = renderToStaticMarkup(
      <StateListsNotice clocks={[clock("dnc-la", "Louisiana DNC List", 40, 31, "stale"), clock("dnc-tx", "Texas DNC List", 140, 152, "warning")]} refusing={false} />,
    );
    expect(html).toContain("A state do-not-call list is past its freshness rule:");
    expect(html).toContain("Louisiana DNC List: 40 days old (registry date");
    expect(html).toContain("the state allows 31 days");
    expect(html).not.toContain("Texas");
    expect(html).toContain("A purge that includes DNC now checks against an out-of-date copy of that list.");
    expect(renderToStaticMarkup(<StateListsNotice clocks={[clock("dnc-la", "Louisiana DNC List", 40, 31, "stale")]} refusing />)).toContain(
      "Purges that include DNC are refused until an admin loads a newer release.",
    );
  });

  it("names Canada's National DNCL (decision 179) as the CRTC's, not a state's", () => {
    const html = renderToStaticMarkup(<StateListsNotice clocks={[clock("dnc-ca", "Canada National DNCL", 32, 31, "stale")]} refusing />);
    expect(html).toContain("Canada&#x27;s National Do Not Call List is past its freshness rule:");
    expect(html).toContain("Canada National DNCL: 32 days old (registry date");
    expect(html).toContain("the CRTC allows 31 days");
    const both = renderToStaticMarkup(
      <StateListsNotice clocks={[clock("dnc-ca", "Canada National DNCL", 32, 31, "stale"), clock("dnc-la", "Louisiana DNC List", 40, 31, "stale")]} refusing={false} />,
    );
    expect(both).toContain("Do-not-call lists past their freshness rule:");
    expect(both).toContain("the state allows 31 days");
  });
});
