import { describe, expect, it } from "vitest";
import { hiddenFields, parseWizardState, previousStep, wizardHref } from "./purge-wizard";
import { downloadName, downloadNameUtf8 } from "~/models/purge.server";
import { ADMIN_LIST_KINDS, DEFAULT_SUPPRESSION_TYPE, listsOfSuppression } from "scrub-service/domain";

describe("wizard state in the URL", () => {
  it("reads a state and falls back to defaults for anything malformed", () => {
    const s = parseWizardState(
      new URLSearchParams("step=9&type=Bogus&category=nope&container=12&exemptions=x1&mode=manual&upload=ZZ&state=tx&state=CA&state=California&job=x"),
    );
    expect(s).toEqual({
      step: 1,
      type: "DNCAndLitigation",
      category: "",
      container: "12",
      exemptions: "",
      mode: "manual",
      upload: "",
      column: "",
      sheet: "",
      states: ["CA", "TX"],
      job: "",
      calling: false,
      purpose: "telemarketing",
      debtColumn: "",
    });
  });

  it("starts with the suppression type that checks every list (decision 124)", () => {
    expect(DEFAULT_SUPPRESSION_TYPE).toBe("DNCAndLitigation");
    expect(listsOfSuppression(DEFAULT_SUPPRESSION_TYPE)).toEqual(ADMIN_LIST_KINDS);
    expect(parseWizardState(new URLSearchParams("")).type).toBe("DNCAndLitigation");
    // A chosen type is always in the URL, so a link keeps its meaning whatever the default.
    expect(wizardHref(parseWizardState(new URLSearchParams("type=LitigationOnly")))).toContain("type=LitigationOnly");
    expect(wizardHref(parseWizardState(new URLSearchParams("")))).toContain("type=DNCAndLitigation");
  });

  it("round-trips through wizardHref", () => {
    const s = parseWizardState(
      new URLSearchParams(
        "step=5&type=DNCAndLitigation&category=6f1c0e6a-1b2c-4d3e-8f90-123456789abc&mode=csv&upload=0123456789abcdef0123456789abcdef&sheet=Leads%202026&column=Mobile%20Phone&state=NY",
      ),
    );
    const again = parseWizardState(new URL(wizardHref(s), "http://x").searchParams);
    expect(again).toEqual(s);
    expect(hiddenFields(s, ["column"])).toEqual([
      ["type", "DNCAndLitigation"],
      ["category", "6f1c0e6a-1b2c-4d3e-8f90-123456789abc"],
      ["mode", "csv"],
      ["upload", "0123456789abcdef0123456789abcdef"],
      ["sheet", "Leads 2026"],
      ["state", "NY"],
    ]);
  });

  it("carries the calls' purpose and debt column through the URL and hidden fields (decision 191)", () => {
    const s = parseWizardState(new URLSearchParams("step=5&mode=csv&calling=1&purpose=debt-collection&debtColumn=Account"));
    expect([s.purpose, s.debtColumn]).toEqual(["debt-collection", "Account"]);
    expect(wizardHref(s)).toContain("purpose=debt-collection&debtColumn=Account");
    expect(hiddenFields(s, [])).toEqual(
      expect.arrayContaining([
        ["purpose", "debt-collection"],
        ["debtColumn", "Account"],
      ]),
    );
    expect(hiddenFields(s, ["purpose", "debtColumn"]).map(([k]) => k)).not.toContain("purpose");
    expect(parseWizardState(new URLSearchParams("purpose=charity")).purpose).toBe("telemarketing");
    expect(wizardHref(parseWizardState(new URLSearchParams("")))).not.toContain("purpose");
  });

  it('carries "Add calling times" through the URL and hidden fields (the column step\'s checkbox edits it)', () => {
    const s = parseWizardState(new URLSearchParams("step=6&mode=csv&calling=1"));
    expect(s.calling).toBe(true);
    expect(wizardHref(s)).toContain("calling=1");
    expect(hiddenFields(s, [])).toContainEqual(["calling", "1"]);
    expect(hiddenFields(s, ["calling"])).not.toContainEqual(["calling", "1"]);
    expect(parseWizardState(new URLSearchParams("calling=on")).calling).toBe(true);
    expect(parseWizardState(new URLSearchParams("calling=maybe")).calling).toBe(false);
    expect(wizardHref(parseWizardState(new URLSearchParams("")))).not.toContain("calling");
  });

  it("goes back from Results to Upload Data (manual) or Column Selection (CSV)", () => {
    expect(previousStep({ step: 6, mode: "manual" })).toBe(4);
    expect(previousStep({ step: 6, mode: "csv" })).toBe(5);
    expect(previousStep({ step: 3, mode: "csv" })).toBe(2);
    expect(previousStep({ step: 1, mode: "csv" })).toBe(1);
  });
});

describe("downloadName", () => {
  it("makes `{original name}-{kind}.csv` safe for headers and file systems", () => {
    expect(downloadName("leads.csv", "good")).toBe("leads-good.csv");
    expect(downloadName('C:\\Users\\x\\"q3" leads;.csv', "bad")).toBe("q3_ leads-bad.csv");
    expect(downloadName("../../etc/passwd", "invalid")).toBe("passwd-invalid.csv");
    expect(downloadName("\r\nSet-Cookie: x=1.csv", "good")).toBe("Set-Cookie_ x=1-good.csv".replace("=", "_"));
    expect(downloadName("", "good")).toBe("purge-good.csv");
    expect(downloadName("Ünïcödé.CSV", "good")).toBe("Unicode-good.csv");
  });
});

describe("downloadNameUtf8", () => {
  it("keeps letters of any script but no separators, quotes or control characters", () => {
    expect(downloadNameUtf8("Клиенты 2026.csv", "good")).toBe("Клиенты 2026-good.csv");
    expect(downloadNameUtf8('a"b;c\r\n.csv', "bad")).toBe("a_b_c-bad.csv");
    expect(downloadNameUtf8("dir/..csv", "invalid")).toBe("purge-invalid.csv");
  });
});
