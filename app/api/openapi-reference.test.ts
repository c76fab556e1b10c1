import { describe, expect, it } from "vitest";
import { referenceEndpoints } from "./openapi";
import { COMPAT_FIELDS } from "./compat.server";

describe("the API reference page's fields (#44: the lookup described, not only in openapi.json)", () => {
  const lookup = referenceEndpoints().find((e) => e.method === "POST" && e.path === "/api/v1/lookup")!;

  it("lists the lookup's request fields with their meaning", () => {
    const request = new Map(lookup.requestFields.map((f) => [f.name, f]));
    for (const name of ["numbers", "suppression_type", "container_id", "at", "exemptions"]) expect(request.has(name), name).toBe(true);
    expect(request.get("at")!.type).toBe("string (date-time)");
    expect(request.get("at")!.description).toContain("callableNow");
    expect(request.get("exemptions")!.description).toContain("exempt");
    expect(request.get("suppression_type")!.type).toBe("SuppressionType");
  });

  it("lists every answer field, the per-number ones by their path", () => {
    const answer = new Map(lookup.answerFields.map((f) => [f.name, f]));
    for (const name of [
      "data",
      "at",
      "calling_rules_version",
      "stale_lists",
      "data[].timeZones",
      "data[].callableNow",
      "data[].nextCallAt",
      "data[].exempt",
      "data[].callingNote",
      "data[].suppressed_by",
    ]) {
      expect(answer.has(name), name).toBe(true);
    }
    expect(answer.get("data[].callingNote")!.description).toContain("calling_note");
    expect(answer.get("data")!.type).toBe("array of LookupResult");
    for (const f of lookup.answerFields.filter((f) => f.name.startsWith("data[]."))) expect(f.description, f.name).not.toBe("");
  });

  it("gives the scrub submission its fields too", () => {
    const scrub = referenceEndpoints().find((e) => e.method === "POST" && e.path === "/api/v1/scrubs")!;
    expect(scrub.requestFields.length).toBeGreaterThan(3);
    expect(scrub.answerFields.length).toBeGreaterThan(0);
  });

  it("describes every field of the call-history endpoints (#46)", () => {
    const post = referenceEndpoints().find((e) => e.method === "POST" && e.path === "/api/v1/calls")!;
    const request = new Map(post.requestFields.map((f) => [f.name, f]));
    for (const name of [
      "calls",
      "calls[].number",
      "calls[].at",
      "calls[].subject",
      "calls[].channel",
      "calls[].outcome",
      "calls[].debt_id",
      "calls[].dialer_call_id",
      "calls[].reserved",
    ]) {
      expect(request.get(name)?.description, name).toBeTruthy();
    }
    expect(post.answerFields.map((f) => f.name)).toEqual(["recorded", "ignored", "ids"]);
    const get = referenceEndpoints().find((e) => e.method === "GET" && e.path === "/api/v1/calls")!;
    for (const f of get.answerFields) expect(f.description, f.name).not.toBe("");
    expect(get.answerFields.map((f) => f.name)).toContain("data[].dialer_call_id");
    const del = referenceEndpoints().find((e) => e.method === "DELETE" && e.path === "/api/v1/calls/{id}")!;
    expect(del.statuses.map((s) => s.code)).toEqual(expect.arrayContaining(["204", "404", "409"]));
  });

  it("describes every field of the opt-out endpoints (#47, decision 195)", () => {
    const post = referenceEndpoints().find((e) => e.method === "POST" && e.path === "/api/v1/opt-outs")!;
    expect(post.description).toContain("internal do-not-call list");
    const request = new Map(post.requestFields.map((f) => [f.name, f]));
    for (const name of ["number", "received_at", "channel", "words", "subject"]) expect(request.get(name)?.description, name).toBeTruthy();
    expect(post.answerFields.map((f) => f.name)).toEqual(["recorded", "ids", "internal_list_id", "load_id", "honoured_at"]);
    expect(post.statuses.map((s) => s.code)).toEqual(expect.arrayContaining(["201", "413", "415", "422"]));
    const get = referenceEndpoints().find((e) => e.method === "GET" && e.path === "/api/v1/opt-outs")!;
    for (const f of get.answerFields) expect(f.description, f.name).not.toBe("");
    expect(get.answerFields.map((f) => f.name)).toEqual(expect.arrayContaining(["data[].received_at", "data[].honoured_at", "data[].deadline", "data[].late"]));
    const lookup = referenceEndpoints().find((e) => e.method === "POST" && e.path === "/api/v1/lookup")!;
    expect(lookup.answerFields.find((f) => f.name === "data[].suppressed_by")!.description).toContain("internal_dnc");
  });

  it("documents the dialer compatibility layer (#48): every request and answer field of the compatible scrub, the check and the call push", () => {
    const scrub = referenceEndpoints().find((e) => e.method === "POST" && e.path === "/api/compat/dncscrub/scrub")!;
    expect(scrub.requestFields.map((f) => f.name)).toEqual(["loginId", "phoneList", "campaignId", "projId", "version", "output"]);
    expect(scrub.answerFields.map((f) => f.name)).toEqual(COMPAT_FIELDS.map((f) => `[].${f}`));
    for (const f of [...scrub.requestFields, ...scrub.answerFields]) expect(f.description, f.name).not.toBe("");
    expect(referenceEndpoints().find((e) => e.method === "GET" && e.path === "/api/compat/dncscrub/scrub")).toBeDefined();
    const check = referenceEndpoints().find((e) => e.method === "GET" && e.path === "/api/v1/check")!;
    expect(check.description).toContain("key");
    expect(check.statuses.map((s) => s.code)).toEqual(expect.arrayContaining(["200", "401"]));
    const calls = referenceEndpoints().find((e) => e.method === "POST" && e.path === "/api/compat/calls")!;
    expect(calls.requestFields.map((f) => f.name)).toEqual(["call_date", "phone_number", "campaign_id", "status", "length_in_sec", "uniqueid"]);
    expect(calls.answerFields.map((f) => f.name)).toEqual(["recorded", "ignored"]);
  });
});
