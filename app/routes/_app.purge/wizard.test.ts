import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Processing } from "./step-results";
import { CallingTimes } from "~/components/purge/calling-times";
import { CallingChoice } from "./calling-choice";
import { parseWizardState } from "~/intake/purge-wizard";
import { jobView, type JobWithFiles } from "~/models/purge.server";

function row(over: Partial<JobWithFiles["job"]>): JobWithFiles {
  return {
    files: [],
    lists: [],
    job: {
      id: "6f1c0e6a-1b2c-4d3e-8f90-123456789abc",
      user_id: "u",
      source: "web",
      api_key_id: null,
      file_name: "leads.csv",
      suppression_type: "LitigationOnly",
      column_name: null,
      container_id: null,
      category_id: null,
      states: null,
      status: "running",
      error: null,
      input_path: "/x",
      input_bytes: 1000n,
      bytes_read: 425n,
      rows_done: 1234n,
      total_rows: 0n,
      good_count: 0n,
      bad_count: 0n,
      invalid_count: 0n,
      reason_counts: {},
      usage_reserved: 3000n,
      lease_owner: null,
      lease_expires_at: null,
      attempts: 1,
      created_at: new Date("2026-11-21T10:00:00Z"),
      started_at: null,
      finished_at: null,
      input_sha256: null,
      valid_until: null,
      dnc_age_days: null,
      remind_at: null,
      reminder_sent_at: null,
      results_deleted_at: null,
      input_format: null,
      input_encoding: null,
      input_delimiter: null,
      input_sheet: null,
      calling_window: false,
      evaluated_at: null,
      calling_summary: null,
      exemption_list_id: null,
      exemption_summary: null,
      call_purpose: "telemarketing",
      call_subject: "default",
      debt_column: null,
      ...over,
    },
  };
}

describe("processing view", () => {
  it("shows real progress (rows and percent of the file read) and refreshes itself without JavaScript", () => {
    const html = renderToStaticMarkup(createElement(Processing, { job: jobView(row({}))! }));
    expect(html).toContain("Processing Data");
    expect(html).toContain("1,234 rows processed · 42%");
    expect(html).toContain('aria-valuenow="42"');
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="2"/></noscript>');
  });

  it("never shows 100% before the job is completed, and 100% once it is", () => {
    expect(jobView(row({ bytes_read: 1000n }))!.percent).toBe(99);
    expect(jobView(row({ status: "queued", bytes_read: 0n }))!.percent).toBe(0);
    expect(jobView(row({ status: "completed", bytes_read: 990n }))!.percent).toBe(100);
    expect(jobView(row({ input_bytes: 0n, total_rows: 10n, rows_done: 5n }))!.percent).toBe(50);
  });
});

describe("chart axis", () => {
  it("uses four whole-number steps that cover the largest day", async () => {
    const { niceMax } = await import("~/components/purge/daily-chart");
    expect(niceMax(0)).toBe(4);
    expect(niceMax(3)).toBe(4);
    expect(niceMax(5)).toBe(8);
    expect(niceMax(37)).toBe(40);
    expect(niceMax(41)).toBe(80);
    expect(niceMax(1_234_567)).toBe(2_000_000);
  });
});

describe("calling times on the results screen", () => {
  it("shows callable now / later today / not today and a bar per time zone", () => {
    const html = renderToStaticMarkup(
      createElement(CallingTimes, {
        calling: {
          at: "2026-11-29T15:00:00Z",
          rulesVersion: "2026-11-26.1",
          callableNow: 1200,
          laterToday: 30,
          notToday: 4,
          noTimeZone: 2,
          byTimeZone: [
            { zones: "America/New_York", count: 1000 },
            { zones: "America/Denver|America/Phoenix", count: 234 },
            { zones: "America/Detroit", count: 6 },
          ],
          heldBack: [
            { note: "Before 8 a.m. Eastern (47 CFR 64.1200(c)(1))", count: 30 },
            { note: "Sunday: South Dakota allows weekdays only (SDCL 49-31-102)", count: 4 },
          ],
          calls: null,
        },
      }),
    );
    expect(html).toContain("Callable now");
    expect(html).toContain("1,200");
    expect(html).toContain("Later today");
    expect(html).toContain("Not today");
    expect(html).toContain("2026-11-29 15:00:00 UTC");
    // zones as people name them, ids in the tooltip; two Eastern zone sets are one bar (#44)
    expect(html).toContain('title="America/Denver + America/Phoenix">Mountain + Arizona</span>');
    expect(html).toContain('title="America/New_York; America/Detroit">Eastern</span>');
    expect(html).toContain("1,006");
    // why numbers were held back, with counts and the rule's citation, linking to /rules (#44)
    expect(html).toContain("Why numbers were held back");
    expect(html).toMatch(/Sunday: South Dakota allows weekdays only \(SDCL 49-31-102\)<\/td><td[^>]*>4</);
    expect(html).toMatch(/Before 8 a.m. Eastern \(47 CFR 64.1200\(c\)\(1\)\)<\/td><td[^>]*>30</);
    // the rules version links to its entry on the public rules page (decision 178)
    expect(html).toContain('href="/rules#rules-2026-11-26.1"');
    expect(html).toContain("rules <a");
    expect(html).toContain("2 toll-free or other non-geographic numbers have no time zone");
    expect(html).toContain('width="100%"');
    expect(html).not.toContain("call history");
    expect(html).not.toContain("style=");
  });
});

describe("the calls' purpose with calling times (decision 191)", () => {
  const state = parseWizardState(new URLSearchParams("step=5&mode=csv&calling=1"));
  it("offers telemarketing (default) or debt collection and, for a file with a header, a debt id column: shown by CSS only while calling times are ticked", () => {
    const html = renderToStaticMarkup(createElement(CallingChoice, { state, columns: ["Name", "Phone", "Account"] }));
    expect(html).toContain('class="calling-toggle');
    expect(html).toMatch(/<fieldset class="hidden [^"]*group-has-\[\.calling-toggle:checked\]:block"/);
    expect(html).toContain('<input type="radio" name="purpose" class="mt-0.5 accent-blue-600" checked="" value="telemarketing"/>');
    expect(html).toContain('<input type="radio" name="purpose" class="mt-0.5 accent-blue-600" value="debt-collection"/>');
    expect(html).toContain('<select id="purge-debt-column" name="debtColumn"');
    expect(html).toContain('<option value="Account">Account</option>');
  });
  it("keeps a choice made before (the wizard's state: a refused start shows it again, JavaScript off too)", () => {
    const chosen = parseWizardState(new URLSearchParams("step=5&mode=csv&calling=1&purpose=debt-collection&debtColumn=Account"));
    const html = renderToStaticMarkup(createElement(CallingChoice, { state: chosen, columns: ["Name", "Phone", "Account"] }));
    expect(html).toContain('<input type="radio" name="purpose" class="mt-0.5 accent-blue-600" checked="" value="debt-collection"/>');
    expect(html).toContain('<option value="Account" selected="">Account</option>');
  });
  it("has no debt id column for typed numbers", () => {
    const html = renderToStaticMarkup(createElement(CallingChoice, { state }));
    expect(html).toContain('name="purpose"');
    expect(html).not.toContain("debtColumn");
  });
});

describe("the calls counted on the results screen (decision 191)", () => {
  it("says the history was counted and how many good numbers a call limit held back", () => {
    const calling = {
      at: "2026-12-02T17:00:00Z",
      rulesVersion: "2026-11-26.1",
      callableNow: 6,
      laterToday: 1,
      notToday: 2,
      noTimeZone: 0,
      byTimeZone: [{ zones: "America/New_York", count: 9 }],
      heldBack: [{ note: "Call limit: Florida: three commercial solicitation calls per 24 hours on one subject (Fla. Stat. § 501.616(6)(b))", count: 3 }],
      calls: { purpose: "telemarketing", records: 1234, rowsWithCalls: 8, heldByCaps: 3 },
    };
    const html = renderToStaticMarkup(createElement(CallingTimes, { calling }));
    expect(html).toContain("Your call history was counted (telemarketing limits): 1,234 call records read, 8 good numbers called in the last 7 days");
    expect(html).toContain("3 held back by a call limit");
    expect(html).toMatch(
      /Call limit: Florida: three commercial solicitation calls per 24 hours on one subject \(Fla\. Stat\. § 501\.616\(6\)\(b\)\)<\/td><td[^>]*>3</,
    );
  });
});
