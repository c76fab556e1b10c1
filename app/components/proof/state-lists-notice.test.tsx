import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ListAgesLine, StateListsNotice, type StateListClockView } from "./state-lists-notice";
import { freshnessTone, listFreshness } from "scrub-service/domain";

const clock = (kind: string, name: string, ageDays: number, validDays: number, state: StateListClockView["state"]): StateListClockView => ({
  kind,
  name,
  registryDate: "2026-06-01T00:00:00.000Z",
  validUntil: "2026-09-01T00:00:00.000Z",
  ageDays,
  validDays,
  state,
});

describe("the state lists' freshness banner on the purge page", () => {
  it("names each stale state list with its age and its state's limit, and nothing when none is stale", () => {
    expect(renderToStaticMarkup(<StateListsNotice clocks={[clock("dnc-tx", "Texas DNC List", 140, 152, "warning")]} refusing={false} />)).toBe("");
    const html = renderToStaticMarkup(
      <StateListsNotice
        clocks={[clock("dnc-la", "Louisiana DNC List", 40, 31, "stale"), clock("dnc-tx", "Texas DNC List", 140, 152, "warning")]}
        refusing={false}
      />,
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
      <StateListsNotice
        clocks={[clock("dnc-ca", "Canada National DNCL", 32, 31, "stale"), clock("dnc-la", "Louisiana DNC List", 40, 31, "stale")]}
        refusing={false}
      />,
    );
    expect(both).toContain("Do-not-call lists past their freshness rule:");
    expect(both).toContain("the state allows 31 days");
  });

  it("lists every loaded list's age on the dashboard, amber in its rule's last week and red past it (#44)", () => {
    const html = renderToStaticMarkup(
      <ListAgesLine
        clocks={[
          clock("dnc-tx", "Texas DNC List", 146, 152, "warning"),
          clock("dnc-la", "Louisiana DNC List", 32, 31, "stale"),
          clock("dnc-co", "Colorado DNC List", 1, 112, "fresh"),
        ]}
      />,
    );
    expect(html).toContain("Texas DNC List: 146 days old of 152 (due soon)");
    expect(html).toContain("Louisiana DNC List: 32 days old of 31 (out of date)");
    expect(html).toContain("Colorado DNC List: 1 day old of 112<");
    expect(renderToStaticMarkup(<ListAgesLine clocks={[]} />)).toBe("");
  });

  it("tones a list by its own rule: the federal list amber from day 25 of 31, a state list in its last 7 days, red past the rule", () => {
    const now = new Date("2026-11-28T12:00:00Z");
    const tone = (kind: string, daysAgo: number) => freshnessTone(listFreshness(kind, new Date(now.getTime() - daysAgo * 86_400_000), now)!);
    expect([24, 25, 31, 32].map((d) => tone("dnc", d))).toEqual(["fresh", "warning", "warning", "stale"]);
    expect([144, 145, 152, 153].map((d) => tone("dnc-tx", d))).toEqual(["fresh", "warning", "warning", "stale"]);
    expect([23, 24, 31, 32].map((d) => tone("dnc-la", d))).toEqual(["fresh", "warning", "warning", "stale"]);
  });
});
