import { describe, expect, it } from "vitest";
import { auditSentence } from "./audit-sentences";

describe("audit entries read as sentences", () => {
  it("says what happened, with names and no stored keys", () => {
    expect(auditSentence("container.load", { name: "Opt-outs", loadId: 12, source: "file" })).toEqual({
      title: 'Added numbers to the container "Opt-outs"',
      detail: "from a file",
    });
    expect(auditSentence("user.invited", JSON.stringify({ email: "ann@example.com", role: "NormalUser", status: "Active" }))).toEqual({
      title: "Invited ann@example.com as Normal User",
      detail: "Status Active",
    });
    expect(auditSentence("payment.requested", { plan: "Business", amountCents: 50000, reference: "DPT-AB12-CD34" })).toEqual({
      title: "Asked to pay for the Business plan by bank transfer",
      detail: "$500, reference DPT-AB12-CD34",
    });
    expect(auditSentence("scrub.started", { fileName: "leads.csv", rows: 1200, suppressionType: "DNCAndLitigation", source: "file" })).toEqual({
      title: 'Started a purge "leads.csv"',
      detail: "1,200 rows, against the Litigation and DNC lists",
    });
    expect(auditSentence("user.role_changed", { from: "NormalUser", to: "Admin" }).title).toBe("Changed a user's role from Normal User to Admin");
  });

  it("never shows a key: value list, even for an unknown action or unreadable details", () => {
    expect(auditSentence("list.purged", { loadId: 3 })).toEqual({ title: "List purged", detail: "" });
    expect(auditSentence("container.create", "{not json")).toEqual({ title: "Created the container", detail: "" });
  });
});
