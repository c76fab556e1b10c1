import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CallLimitsSection, JurisdictionSection, SummaryTable } from "./parts";
import { callCapsView, rulesPageData } from "./view.server";

describe("the rules page's markup (server-rendered, no script needed)", () => {
  const data = rulesPageData();
  const oregon = data.states.find((j) => j.code === "OR")!;
  const louisiana = data.states.find((j) => j.code === "LA")!;

  it("the overview table scrolls inside its own box and shows Oregon's 8 p.m. end and Louisiana's Sunday ban", () => {
    const html = renderToStaticMarkup(<SummaryTable rows={[data.federal, oregon, louisiana]} />);
    expect(html).toMatch(/^<div class="overflow-x-auto/);
    expect(html).toContain(">Oregon</a>");
    expect(html).toContain("8:00 AM–8:00 PM");
    expect(html).toContain('in force from <time dateTime="2026-01-01">Jan 01, 2026</time>');
    expect(html).toMatch(/summary-LA.*Banned/);
  });

  it("a jurisdiction's section gives the citation, the source link and the state list's freshness", () => {
    const html = renderToStaticMarkup(<JurisdictionSection j={louisiana} />);
    expect(html).toContain("La. R.S. 45:811(2)-(3)");
    expect(html).toContain(`href="${louisiana.rules[0].source}"`);
    expect(html).toContain('Sun</span> <span class="text-red-700">no calls');
    expect(html).toContain("Louisiana DNC List");
    expect(html).toContain("Purchase or transaction: 6 months");
  });

  it("the Call limits section shows every cap with its limit, scope, citation and source (decision 185)", () => {
    const { version, caps } = callCapsView();
    const html = renderToStaticMarkup(<CallLimitsSection version={version} caps={caps} />);
    expect(html).toContain("Call limits");
    expect(html).toContain(version);
    for (const c of caps) {
      expect(html).toContain(`data-testid="call-cap-${c.id}"`);
      expect(html).toContain(`href="${c.source}"`);
    }
    expect(html).toContain("Florida: At most 3 in 24 hours");
    expect(html).toContain("Federal: No call for 7 days after a conversation");
    expect(html).toContain("Lifted by: An established business relationship: a transaction between the caller and the party within the 18 months");
  });
});
