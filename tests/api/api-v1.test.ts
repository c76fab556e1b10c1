import fs from "node:fs";
import { appUrl, resetEnv } from "~/utils/env.server";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

// Before any app module reads the environment: uploads go to a temp dir; a small upload cap to test 413.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-v1-"));
process.env.DATA_DIR = dataDir;
process.env.MAX_UPLOAD_BYTES = "4096";
// The fake engine never finishes jobs: lift the per-user active-scrub cap (tested on its own below).
process.env.MAX_ACTIVE_SCRUBS_PER_USER = "1000";

import { useAppTestDb } from "../setup/db";
import { testContext } from "../setup/request";
import { apiRequest, bodyOf, fakeScrubService, finishJob, installScrubService, makeContainer, makeKey, makeUser } from "./helpers";
import * as scrubs from "~/routes/api.v1.scrubs._index";
import * as scrub from "~/routes/api.v1.scrubs.$id";
import * as files from "~/routes/api.v1.scrubs.$id.files.$kind";
import * as certificate from "~/routes/api.v1.scrubs.$id.certificate";
import * as usage from "~/routes/api.v1.usage";
import * as containers from "~/routes/api.v1.containers._index";
import * as numbers from "~/routes/api.v1.containers.$id.numbers";
import * as loads from "~/routes/api.v1.containers.$id.loads.$loadId";
import * as openapi from "~/routes/api.v1.openapi[.json]";
import * as catchAll from "~/routes/api.$";
import { revokeApiKey, setIntegrationToggle, createApiKey } from "~/models/integration.server";
import { API_ERROR_CODES } from "~/api/api.server";
import { serializeCalling } from "~/models/api-job.server";

const { handle } = useAppTestDb();
const db = () => handle().db;
const fake = fakeScrubService();

type Mod = { loader: (a: any) => Promise<Response> | Response; action?: (a: any) => Promise<Response> | Response };
async function call(mod: Mod, request: Request, params: Record<string, string> = {}): Promise<Response> {
  const fn = request.method === "GET" || request.method === "HEAD" ? mod.loader : mod.action!;
  return fn({ request, params, context: testContext });
}

let alice: { userId: string; key: string; keyId: string; integrationId: string; container: number };
let bob: { userId: string; key: string; container: number; jobId?: string };

beforeAll(async () => {
  installScrubService(fake.service);
  const aliceId = await makeUser(db(), { plan: "business" });
  const aliceContainer = await makeContainer(db(), aliceId, "Alice customers");
  alice = { userId: aliceId, ...(await makeKey(db(), aliceId)), container: aliceContainer };
  const bobId = await makeUser(db(), { plan: "premium" });
  bob = { userId: bobId, key: (await makeKey(db(), bobId)).key, container: await makeContainer(db(), bobId, "Bob list") };
  const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: bob.key, json: { numbers: ["2125552100"], suppression_type: "LitigationOnly" } }));
  expect(res.status).toBe(202);
  bob.jobId = (await bodyOf(res)).job.id;
});

describe("authentication", () => {
  it("401 missing_api_key without a bearer header", async () => {
    const res = await call(usage, apiRequest("/api/v1/usage"));
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toContain("Bearer");
    expect(await bodyOf(res)).toEqual({ error: { code: "missing_api_key", message: expect.any(String) } });
  });

  it("401 invalid_api_key for an unknown key", async () => {
    const res = await call(usage, apiRequest("/api/v1/usage", { key: "dpt_not-a-real-key" }));
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).error.code).toBe("invalid_api_key");
  });

  it("401 api_key_revoked for a revoked key, and the key stops working at once", async () => {
    const k = await makeKey(db(), alice.userId, { name: "to revoke" });
    expect((await call(usage, apiRequest("/api/v1/usage", { key: k.key }))).status).toBe(200);
    expect(await revokeApiKey(db(), { id: k.keyId, userId: bob.userId })).toBe(false); // not Bob's to revoke
    expect(await revokeApiKey(db(), { id: k.keyId, userId: alice.userId })).toBe(true);
    const res = await call(usage, apiRequest("/api/v1/usage", { key: k.key }));
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).error.code).toBe("api_key_revoked");
  });

  it("403 account_disabled when the owner is blocked", async () => {
    const id = await makeUser(db(), { plan: "business" });
    const k = await makeKey(db(), id);
    await db().updateTable("users").set({ status: "Blocked" }).where("id", "=", id).execute();
    const res = await call(usage, apiRequest("/api/v1/usage", { key: k.key }));
    expect(res.status).toBe(403);
    expect((await bodyOf(res)).error.code).toBe("account_disabled");
  });

  it("stores only the hash of a key and records last use", async () => {
    const row = await db().selectFrom("api_keys").selectAll().where("id", "=", alice.keyId).executeTakeFirstOrThrow();
    expect(row.key_hash).not.toContain(alice.key);
    expect(alice.key.startsWith(row.prefix)).toBe(true);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    await call(usage, apiRequest("/api/v1/usage", { key: alice.key }));
    const after = await db().selectFrom("api_keys").select("last_used_at").where("id", "=", alice.keyId).executeTakeFirstOrThrow();
    expect(after.last_used_at).not.toBeNull();
  });
});

describe("rate limit: 1000 requests per hour per key", () => {
  async function seed(bucket: string, count: number) {
    await db()
      .insertInto("api_rate_limits")
      .values({ bucket, window_start: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000), count })
      .onConflict((oc) => oc.columns(["bucket", "window_start"]).doUpdateSet({ count }))
      .execute();
  }

  it("tells the remaining quota on every answer", async () => {
    const id = await makeUser(db(), { plan: "business" });
    const k = await makeKey(db(), id);
    const first = await call(usage, apiRequest("/api/v1/usage", { key: k.key }));
    expect(first.headers.get("X-RateLimit-Limit")).toBe("1000");
    expect(first.headers.get("X-RateLimit-Remaining")).toBe("999");
    const reset = Number(first.headers.get("X-RateLimit-Reset"));
    expect(reset % 3600).toBe(0);
    const second = await call(scrub, apiRequest("/api/v1/scrubs/nope", { key: k.key }), { id: "nope" });
    expect(second.status).toBe(404);
    expect(second.headers.get("X-RateLimit-Remaining")).toBe("998");
  });

  it("the 1000th request passes, the 1001st gets 429 rate_limited with Retry-After", async () => {
    const id = await makeUser(db(), { plan: "business" });
    const k = await makeKey(db(), id);
    await seed(`key:${k.keyId}`, 999);
    const ok = await call(usage, apiRequest("/api/v1/usage", { key: k.key }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("X-RateLimit-Remaining")).toBe("0");
    const limited = await call(usage, apiRequest("/api/v1/usage", { key: k.key }));
    expect(limited.status).toBe(429);
    expect((await bodyOf(limited)).error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
    // Another key of another integration is unaffected.
    const other = await makeKey(db(), id);
    expect((await call(usage, apiRequest("/api/v1/usage", { key: other.key }))).status).toBe(200);
  });

  it("counts with concurrent requests are exact (atomic upsert)", async () => {
    const id = await makeUser(db(), { plan: "business" });
    const k = await makeKey(db(), id);
    await Promise.all(Array.from({ length: 20 }, () => call(usage, apiRequest("/api/v1/usage", { key: k.key }))));
    const row = await db().selectFrom("api_rate_limits").select("count").where("bucket", "=", `key:${k.keyId}`).executeTakeFirstOrThrow();
    expect(row.count).toBe(20);
  });

  it("rate limiting on: all keys of the integration share one 1000/hour budget; off: each key has its own", async () => {
    const id = await makeUser(db(), { plan: "business" });
    const k1 = await makeKey(db(), id);
    const k2 = await createApiKey(db(), { userId: id, integrationId: k1.integrationId, name: "second" });
    if ("error" in k2) throw new Error("no key");
    await seed(`integration:${k1.integrationId}`, 1000);
    const shared = await call(usage, apiRequest("/api/v1/usage", { key: k2.key }));
    expect(shared.status).toBe(429);

    expect(await setIntegrationToggle(db(), { id: k1.integrationId, userId: id, toggle: "rate_limit_enabled", on: false })).toBe(true);
    const own = await call(usage, apiRequest("/api/v1/usage", { key: k2.key }));
    expect(own.status).toBe(200);
    // The per-key limit itself cannot be switched off.
    await seed(`key:${k2.id}`, 1000);
    expect((await call(usage, apiRequest("/api/v1/usage", { key: k2.key }))).status).toBe(429);
  });
});

describe("usage", () => {
  it("reads the plan, the period's usage and limits", async () => {
    const res = await call(usage, apiRequest("/api/v1/usage", { key: alice.key }));
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body.plan).toEqual({ id: "business", name: "Business", api_access: true });
    expect(body.suppression.limit).toBe(500000);
    expect(body.container.limit).toBe(100000);
    expect(body.rate_limit.limit_per_hour).toBe(1000);
  });
});

describe("submit a scrub", () => {
  it("JSON list of numbers: 202 with the queued job, usage reserved, engine told", async () => {
    const res = await call(
      scrubs,
      apiRequest("/api/v1/scrubs", {
        key: alice.key,
        json: { numbers: ["(212) 555-2142", 2125552143, "12"], suppression_type: "DNCAndLitigation", states: ["ny", "NJ"] },
      }),
    );
    expect(res.status).toBe(202);
    const { job } = await bodyOf(res);
    expect(res.headers.get("Location")).toBe(`${appUrl()}/api/v1/scrubs/${job.id}`);
    expect(job).toMatchObject({ status: "queued", source: "api", suppression_type: "DNCAndLitigation", states: ["NY", "NJ"], files: [] });
    expect(fake.enqueued).toContain(job.id);
    const row = await db().selectFrom("scrub_jobs").selectAll().where("id", "=", job.id).executeTakeFirstOrThrow();
    expect(row.api_key_id).toBe(alice.keyId);
    expect(Number(row.usage_reserved)).toBe(3);
    expect(fs.readFileSync(row.input_path, "utf8")).toBe("Number\n(212) 555-2142\n2125552143\n12\n");
    const audit = await db().selectFrom("audit_log").selectAll().where("target_id", "=", job.id).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_id: alice.userId, action: "scrub.started", target_type: "scrub_job" });
    expect(audit.details).toMatchObject({ source: "api", apiKeyId: alice.keyId, rows: 3 });
    const u = await bodyOf(await call(usage, apiRequest("/api/v1/usage", { key: alice.key })));
    expect(u.suppression.used).toBeGreaterThanOrEqual(3);
  });

  it("multipart CSV with column, container and states", async () => {
    const form = new FormData();
    form.set("file", new File(["Name,Mobile\nAnn,2125552142\nBob,2125552143\n"], "leads.csv", { type: "text/csv" }));
    form.set("suppression_type", "LitigationOnly");
    form.set("column", "Mobile");
    form.set("container_id", String(alice.container));
    form.set("states", "NY,FL");
    const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form }));
    expect(res.status).toBe(202);
    const { job } = await bodyOf(res);
    expect(job).toMatchObject({ file_name: "leads.csv", column: "Mobile", container_id: alice.container, states: ["NY", "FL"] });
    const row = await db().selectFrom("scrub_jobs").select(["input_path", "usage_reserved"]).where("id", "=", job.id).executeTakeFirstOrThrow();
    expect(row.input_path.startsWith(path.join(dataDir, "uploads"))).toBe(true);
    expect(Number(row.usage_reserved)).toBe(2);
  });

  it("an `at` means 'for calls then' (decision 174): one in the past or after the checked lists' validity is a 422 on `at` naming the instant and the bound", async () => {
    const post = (body: Record<string, unknown>) =>
      call(
        scrubs,
        apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly", calling_window: true, ...body } }),
      );
    const DAY = 86_400_000;
    const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
    const past = await post({ at: "2025-06-01T12:00:00Z" });
    expect(past.status).toBe(422);
    expect((await bodyOf(past)).error.details).toEqual([
      { field: "at", message: expect.stringMatching(/^2025-06-01T12:00:00Z is in the past: it must not be earlier than now \(.*less 5 minutes of clock skew/) },
    ]);
    // an hour ago (beyond the skew) too; a minute ago is within it
    expect((await post({ at: iso(Date.now() - 3600_000) })).status).toBe(422);
    expect((await post({ at: iso(Date.now() - 60_000) })).status).toBe(202);
    // Litigation Only checks no list with a freshness rule: only the lower bound holds
    expect((await post({ at: iso(Date.now() + 400 * DAY) })).status).toBe(202);
    // with exemptions the same instant is refused the same way
    const before = await db().selectFrom("lists").select(["registry_date"]).where("kind", "=", "dnc").executeTakeFirstOrThrow();
    const released = new Date(Math.floor((Date.now() - 20 * DAY) / DAY) * DAY); // valid for calls until + 31 days
    await db().updateTable("lists").set({ registry_date: released }).where("kind", "=", "dnc").execute();
    try {
      const until = released.getTime() + 31 * DAY;
      const beyond = await post({ suppression_type: "DNCAndLitigation", at: iso(until + 1000) });
      expect(beyond.status).toBe(422);
      expect((await bodyOf(beyond)).error.details).toEqual([
        {
          field: "at",
          message: `${iso(until + 1000)} is after the lists' validity: the federal DNC list (release ${released
            .toISOString()
            .slice(0, 10)}, rule 31 days) is valid for calls until ${iso(until)}`,
        },
      ]);
      expect((await post({ suppression_type: "DNCAndLitigation", at: iso(until) })).status).toBe(202);
    } finally {
      await db().updateTable("lists").set({ registry_date: before.registry_date }).where("kind", "=", "dnc").execute();
    }
  });

  it("with 'refuse stale DNC' on, a DNC scrub is refused naming every stale list at once (decision 174)", async () => {
    const DAY = 86_400_000;
    const kept = await db().selectFrom("lists").select(["kind", "registry_date", "size"]).where("kind", "in", ["dnc", "dnc-tx"]).execute();
    const day = (d: number) => new Date(Math.floor(Date.now() / DAY) * DAY - d * DAY);
    await db()
      .updateTable("lists")
      .set({ registry_date: day(40) })
      .where("kind", "=", "dnc")
      .execute();
    await db()
      .updateTable("lists")
      .set({ registry_date: day(160), size: 1 })
      .where("kind", "=", "dnc-tx")
      .execute();
    await db()
      .insertInto("app_settings")
      .values({ name: "refuseStaleDnc", value: "true", updated_by: null })
      .onConflict((oc) => oc.column("name").doUpdateSet({ value: "true" }))
      .execute();
    try {
      const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552142"], suppression_type: "DNCAndLitigation" } }));
      expect(res.status).toBe(422);
      expect((await bodyOf(res)).error.details).toEqual([
        {
          field: "suppressionType",
          message:
            `The federal DNC list (release ${day(40).toISOString().slice(0, 10)}, 40 days old; rule 31 days) and the Texas DNC list ` +
            `(release ${day(160)
              .toISOString()
              .slice(0, 10)}, 160 days old; rule 152 days) are out of date: purges that include DNC are refused until an admin loads a newer release of each.`,
        },
      ]);
      // Litigation Only checks neither
      expect(
        (await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }))).status,
      ).toBe(202);
    } finally {
      await db().deleteFrom("app_settings").where("name", "=", "refuseStaleDnc").execute();
      for (const k of kept) await db().updateTable("lists").set({ registry_date: k.registry_date, size: k.size }).where("kind", "=", k.kind).execute();
    }
  });

  it("calling_window and at (JSON and multipart) are kept on the job; a bad at or at alone is a 422 on its field", async () => {
    const res = await call(
      scrubs,
      apiRequest("/api/v1/scrubs", {
        key: alice.key,
        json: { numbers: ["2125552142"], suppression_type: "LitigationOnly", calling_window: true, at: "2099-11-29T10:00:00-05:00" },
      }),
    );
    expect(res.status).toBe(202);
    const { job } = await bodyOf(res);
    expect(job.calling_window).toEqual({
      at: "2099-11-29T15:00:00Z",
      rules_version: null,
      time_zone_source: null,
      counts: null,
      by_time_zone: null,
      purpose: "telemarketing",
      subject: "default",
      debt_column: null,
      calls: null,
    });
    const row = await db().selectFrom("scrub_jobs").select(["calling_window", "evaluated_at"]).where("id", "=", job.id).executeTakeFirstOrThrow();
    expect(row.calling_window).toBe(true);
    expect(row.evaluated_at?.toISOString()).toBe("2099-11-29T15:00:00.000Z");

    const form = new FormData();
    form.set("file", new File(["Phone\n2125552142\n"], "leads.csv", { type: "text/csv" }));
    form.set("suppression_type", "LitigationOnly");
    form.set("calling_window", "true");
    const multi = await bodyOf(await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form })));
    expect(multi.job.calling_window).toMatchObject({ at: null, counts: null });
    const plain = await bodyOf(
      await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } })),
    );
    expect(plain.job.calling_window).toBeNull();

    for (const [body, field] of [
      [{ calling_window: true, at: "2026-11-29 10:00" }, "at"],
      [{ at: "2026-11-29T10:00:00Z" }, "at"],
      [{ calling_window: "yes" }, "calling_window"],
    ] as const) {
      const bad = await call(
        scrubs,
        apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly", ...body } }),
      );
      expect(bad.status).toBe(422);
      expect((await bodyOf(bad)).error.details[0].field).toBe(field);
    }
  });

  it("purpose, subject and debt_column (JSON and multipart) are kept on the job; without calling_window, or a debt column without debt collection, a 422 on the field (decision 191)", async () => {
    const res = await call(
      scrubs,
      apiRequest("/api/v1/scrubs", {
        key: alice.key,
        json: { numbers: ["2125552142"], suppression_type: "LitigationOnly", calling_window: true, purpose: "debt-collection", debt_column: "Phone" },
      }),
    );
    expect(res.status).toBe(202);
    const { job } = await bodyOf(res);
    expect(job.calling_window).toMatchObject({ purpose: "debt-collection", subject: "default", debt_column: "Phone", calls: null });
    const row = await db().selectFrom("scrub_jobs").select(["call_purpose", "call_subject", "debt_column"]).where("id", "=", job.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ call_purpose: "debt-collection", call_subject: "default", debt_column: "Phone" });

    const form = new FormData();
    form.set("file", new File(["Phone\n2125552142\n"], "leads.csv", { type: "text/csv" }));
    form.set("suppression_type", "LitigationOnly");
    form.set("calling_window", "true");
    form.set("subject", "spring");
    const multi = await bodyOf(await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form })));
    expect(multi.job.calling_window).toMatchObject({ purpose: "telemarketing", subject: "spring", debt_column: null });

    for (const [body, field, message] of [
      [{ purpose: "debt-collection" }, "purpose", "purpose: applies with calling_window=true only"],
      [{ calling_window: true, debt_column: "Phone" }, "debt_column", "debt_column: applies with purpose=debt-collection only"],
      [{ calling_window: true, purpose: "charity" }, "purpose", "purpose: purpose must be telemarketing or debt-collection"],
    ] as const) {
      const bad = await call(
        scrubs,
        apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly", ...body } }),
      );
      expect(bad.status).toBe(422);
      const err = (await bodyOf(bad)).error;
      expect([err.details[0].field, err.message]).toEqual([field, message]);
    }
  });

  it("a completed job's calling_window names the call history read and the rows the caps held back (decision 191)", () => {
    const calls = {
      capsVersion: "2026-11-28.2",
      purpose: "debt-collection",
      subject: "default",
      debtColumn: "Account",
      history: { since: "2026-11-25T17:00:00Z", records: 32, sha256: "ab".repeat(32) },
      rowsWithCalls: 8,
      heldByCaps: 3,
      byCap: [{ cap: "us-reg-f-7-in-7", cite: "12 CFR 1006.14(b)(2)(i)(A)", rows: 3 }],
    };
    const summary = {
      at: "2026-12-02T17:00:00Z",
      rulesVersion: "r",
      timeZoneSource: "t",
      callableNow: 5,
      laterToday: 1,
      notToday: 2,
      noTimeZone: 0,
      byTimeZone: [],
      calls,
    };
    const view = serializeCalling({
      calling_window: true,
      evaluated_at: new Date("2026-12-02T17:00:00Z"),
      calling_summary: JSON.stringify(summary) as never,
      call_purpose: "debt-collection",
      call_subject: "default",
      debt_column: "Account",
    });
    expect(view).toMatchObject({
      purpose: "debt-collection",
      subject: "default",
      debt_column: "Account",
      calls: {
        caps_version: "2026-11-28.2",
        history: { since: "2026-11-25T17:00:00Z", records: 32, sha256: "ab".repeat(32) },
        rows_with_calls: 8,
        held_by_caps: 3,
        by_cap: [{ cap: "us-reg-f-7-in-7", cite: "12 CFR 1006.14(b)(2)(i)(A)", rows: 3 }],
      },
    });
  });

  it("uses the integration's container when the request names none", async () => {
    const k = await makeKey(db(), alice.userId, { containerId: alice.container });
    const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: k.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
    expect((await bodyOf(res)).job.container_id).toBe(alice.container);
    // null in the request means none; a default container deleted since is ignored, not a 404.
    const none = await call(
      scrubs,
      apiRequest("/api/v1/scrubs", { key: k.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly", container_id: null } }),
    );
    expect((await bodyOf(none)).job.container_id).toBeNull();
    const gone = await makeContainer(db(), alice.userId, "Soon gone");
    const k2 = await makeKey(db(), alice.userId, { containerId: gone });
    await db().updateTable("lists").set({ deleted_at: new Date() }).where("id", "=", gone).execute();
    const after = await call(scrubs, apiRequest("/api/v1/scrubs", { key: k2.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
    expect(after.status).toBe(202);
    expect((await bodyOf(after)).job.container_id).toBeNull();
  });

  it.each([
    [{ numbers: ["2125552142"] }, "suppression_type"],
    [{ numbers: [], suppression_type: "LitigationOnly" }, "numbers"],
    [{ numbers: "2125552142", suppression_type: "LitigationOnly" }, "numbers"],
    [{ numbers: ["2125552142"], suppression_type: "Everything" }, "suppression_type"],
    [{ numbers: ["2125552142"], suppression_type: "LitigationOnly", states: ["XX"] }, "states"],
    [{ numbers: ["2125552142"], suppression_type: "LitigationOnly", container_id: "abc" }, "container_id"],
  ])("422 validation_failed for %j", async (json, field) => {
    const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, json }));
    expect(res.status).toBe(422);
    const body = await bodyOf(res);
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("422 for a JSON body that is not an object, a missing file, an unknown column, an empty CSV", async () => {
    const arr = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, json: ["2125552142"] }));
    expect(arr.status).toBe(422);

    const noFile = new FormData();
    noFile.set("suppression_type", "LitigationOnly");
    const r1 = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form: noFile }));
    expect(r1.status).toBe(422);
    expect((await bodyOf(r1)).error.details[0].field).toBe("file");

    const badColumn = new FormData();
    badColumn.set("file", new File(["Phone\n2125552142\n"], "a.csv"));
    badColumn.set("suppression_type", "LitigationOnly");
    badColumn.set("column", "Cell");
    const r2 = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form: badColumn }));
    expect(r2.status).toBe(422);
    expect((await bodyOf(r2)).error.message).toContain("Column 'Cell' not found in CSV file");

    const two = new FormData();
    two.append("file", new File(["Phone\n2125552142\n"], "a.csv"));
    two.append("file", new File(["Phone\n2125552143\n"], "b.csv"));
    two.set("suppression_type", "LitigationOnly");
    const r4 = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form: two }));
    expect(r4.status).toBe(422);
    expect((await bodyOf(r4)).error.message).toContain("one CSV file");

    // A text field named "file" carrying an earlier upload's id (here: a queued job's input) is not a file,
    // and a refused request must not delete that job's input.
    const queued = await db()
      .selectFrom("scrub_jobs")
      .select("input_path")
      .where("user_id", "=", alice.userId)
      .where("status", "=", "queued")
      .executeTakeFirstOrThrow();
    const sneaky = new FormData();
    sneaky.set("file", path.basename(queued.input_path, ".csv"));
    sneaky.set("suppression_type", "Everything");
    const r6 = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form: sneaky }));
    expect(r6.status).toBe(422);
    expect(fs.existsSync(queued.input_path)).toBe(true);
    sneaky.set("suppression_type", "LitigationOnly");
    const r7 = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form: sneaky }));
    expect(r7.status).toBe(422);
    expect((await bodyOf(r7)).error.details[0].field).toBe("file");
    expect(fs.existsSync(queued.input_path)).toBe(true);

    const noPhones = new FormData();
    noPhones.set("file", new File(["Name,Phone\nAnn,call me\nBob,n/a\n"], "nophones.csv"));
    noPhones.set("suppression_type", "LitigationOnly");
    const r5 = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form: noPhones }));
    expect(r5.status).toBe(422);
    expect((await bodyOf(r5)).error.details).toEqual([{ field: "column", message: "No phone numbers found in column 'Phone'" }]);

    const junk = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["abc", "12"], suppression_type: "LitigationOnly" } }));
    expect(junk.status).toBe(422);
    expect((await bodyOf(junk)).error.details).toEqual([{ field: "numbers", message: "No valid phone numbers found" }]);

    const empty = new FormData();
    empty.set("file", new File(["Phone\n"], "empty.csv"));
    empty.set("suppression_type", "LitigationOnly");
    const r3 = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form: empty }));
    expect(r3.status).toBe(422);
    // Refused uploads are not left on disk.
    const left = fs.readdirSync(path.join(dataDir, "uploads", alice.userId)).filter((f) => f.endsWith(".csv"));
    const jobs = await db().selectFrom("scrub_jobs").select("input_path").where("user_id", "=", alice.userId).execute();
    expect(left.length).toBe(jobs.length);
  });

  it("400 invalid_json and 415 unsupported_media_type", async () => {
    const bad = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, body: "{not json", headers: { "Content-Type": "application/json" } }));
    expect(bad.status).toBe(400);
    expect((await bodyOf(bad)).error.code).toBe("invalid_json");
    const text = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, body: "2125552142", headers: { "Content-Type": "text/plain" } }));
    expect(text.status).toBe(415);
    expect((await bodyOf(text)).error.code).toBe("unsupported_media_type");
  });

  it("413 payload_too_large when the file passes the cap while streaming (nothing kept)", async () => {
    const before = fs.readdirSync(path.join(dataDir, "uploads", alice.userId)).length;
    const form = new FormData();
    form.set("suppression_type", "LitigationOnly");
    form.set("file", new File(["Phone\n" + "2125552142\n".repeat(1000)], "big.csv"));
    const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, form }));
    expect(res.status).toBe(413);
    expect((await bodyOf(res)).error.code).toBe("payload_too_large");
    expect(fs.readdirSync(path.join(dataDir, "uploads", alice.userId)).length).toBe(before);
  });

  it("413 before reading when Content-Length says the body is too large", async () => {
    let pulled = 0;
    const stream = new ReadableStream({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
        if (pulled > 10_000) controller.close();
      },
    });
    const req = new Request("http://localhost/api/v1/scrubs", {
      method: "POST",
      headers: { Authorization: `Bearer ${alice.key}`, "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(50 * 1024 * 1024) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    const res = await call(scrubs, req);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(5);
  });

  it("403 no_plan, api_not_in_plan, usage_limit_exceeded", async () => {
    const noPlan = await makeKey(db(), await makeUser(db(), { plan: null }));
    const r1 = await call(scrubs, apiRequest("/api/v1/scrubs", { key: noPlan.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
    expect(r1.status).toBe(403);
    expect((await bodyOf(r1)).error.code).toBe("no_plan");

    const beginner = await makeKey(db(), await makeUser(db(), { plan: "beginner" }));
    const r2 = await call(scrubs, apiRequest("/api/v1/scrubs", { key: beginner.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
    expect(r2.status).toBe(403);
    expect((await bodyOf(r2)).error.code).toBe("api_not_in_plan");

    const fullId = await makeUser(db(), { plan: "business" });
    const full = await makeKey(db(), fullId);
    await db()
      .insertInto("scrub_jobs")
      .values({
        user_id: fullId,
        source: "web",
        file_name: "earlier.csv",
        suppression_type: "LitigationOnly",
        status: "completed",
        input_path: "/nonexistent",
        total_rows: 499_999,
        finished_at: new Date(),
      })
      .execute();
    const r3 = await call(
      scrubs,
      apiRequest("/api/v1/scrubs", { key: full.key, json: { numbers: ["2125552142", "2125552143"], suppression_type: "LitigationOnly" } }),
    );
    expect(r3.status).toBe(403);
    const b3 = await bodyOf(r3);
    expect(b3.error.code).toBe("usage_limit_exceeded");
    expect(b3.error.details).toMatchObject({ limit: 500000, used: 499999, requested: 2, available: 1 });
    // one number still fits
    const r4 = await call(scrubs, apiRequest("/api/v1/scrubs", { key: full.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
    expect(r4.status).toBe(202);
  });

  it("429 too_many_active_jobs when the account has its maximum of scrubs queued or running", async () => {
    const k = await makeKey(db(), await makeUser(db(), { plan: "business" }));
    const submit = () => call(scrubs, apiRequest("/api/v1/scrubs", { key: k.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
    process.env.MAX_ACTIVE_SCRUBS_PER_USER = "2";
    resetEnv(); // the app parses its environment once (env.server.ts)
    try {
      expect((await submit()).status).toBe(202);
      expect((await submit()).status).toBe(202);
      const res = await submit();
      expect(res.status).toBe(429);
      const body = await bodyOf(res);
      expect(body.error).toMatchObject({ code: "too_many_active_jobs", details: { limit: 2 } });
      expect(res.headers.get("X-RateLimit-Remaining")).toBe("997");
    } finally {
      process.env.MAX_ACTIVE_SCRUBS_PER_USER = "1000";
      resetEnv();
    }
  });

  it("an admin (unlimited) needs no plan", async () => {
    const admin = await makeKey(db(), await makeUser(db(), { role: "Admin", plan: null }));
    const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: admin.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
    expect(res.status).toBe(202);
  });
});

describe("jobs: status, list, download", () => {
  it("status with progress, then the result files once completed", async () => {
    const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
    const id = (await bodyOf(res)).job.id;
    const early = await call(files, apiRequest(`/api/v1/scrubs/${id}/files/good`, { key: alice.key }), { id, kind: "good" });
    expect(early.status).toBe(409);
    expect((await bodyOf(early)).error.code).toBe("result_not_ready");

    await finishJob(db(), id, path.join(dataDir, "results"));
    const status = await bodyOf(await call(scrub, apiRequest(`/api/v1/scrubs/${id}`, { key: alice.key }), { id }));
    expect(status.job.status).toBe("completed");
    expect(status.job.progress).toEqual({ rows_done: 3, total_rows: 3, percent: 100 });
    expect(status.job.counts).toEqual({ good: 1, bad: 1, invalid: 1, reasons: { dnc: 1 } });
    expect(status.job.files.map((f: { kind: string }) => f.kind)).toEqual(["good", "bad", "invalid"]);
    expect(status.job.files[1].download_url).toBe(`${appUrl()}/api/v1/scrubs/${id}/files/bad`);

    for (const kind of ["good", "bad", "invalid"]) {
      const dl = await call(files, apiRequest(`/api/v1/scrubs/${id}/files/${kind}`, { key: alice.key }), { id, kind });
      expect(dl.status).toBe(200);
      expect(dl.headers.get("Content-Type")).toContain("text/csv");
      expect(dl.headers.get("Content-Disposition")).toContain(`api-numbers-${kind}.csv`);
      expect(await dl.text()).toContain("Number");
    }
    const badKind = await call(files, apiRequest(`/api/v1/scrubs/${id}/files/all`, { key: alice.key }), { id, kind: "all" });
    expect(badKind.status).toBe(404);
  });

  it("a failed job reports its error and has no files", async () => {
    const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
    const id = (await bodyOf(res)).job.id;
    await finishJob(db(), id, "", "failed");
    const status = await bodyOf(await call(scrub, apiRequest(`/api/v1/scrubs/${id}`, { key: alice.key }), { id }));
    expect(status.job).toMatchObject({ status: "failed", error: expect.stringContaining("did not answer"), files: [] });
    const dl = await call(files, apiRequest(`/api/v1/scrubs/${id}/files/good`, { key: alice.key }), { id, kind: "good" });
    expect(dl.status).toBe(404);
  });

  it("lists the account's jobs newest first with a cursor", async () => {
    const first = await bodyOf(await call(scrubs, apiRequest("/api/v1/scrubs?limit=2", { key: alice.key })));
    expect(first.data).toHaveLength(2);
    expect(first.next_cursor).toBe(first.data[1].id);
    const second = await bodyOf(await call(scrubs, apiRequest(`/api/v1/scrubs?limit=2&after=${first.next_cursor}`, { key: alice.key })));
    const ids = new Set([...first.data, ...second.data].map((j: { id: string }) => j.id));
    expect(ids.size).toBe(4);
    const all = await bodyOf(await call(scrubs, apiRequest("/api/v1/scrubs?limit=100", { key: alice.key })));
    const created = all.data.map((j: { created_at: string }) => j.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(all.data.every((j: { id: string }) => j.id !== bob.jobId)).toBe(true);
    const completed = await bodyOf(await call(scrubs, apiRequest("/api/v1/scrubs?status=completed", { key: alice.key })));
    expect(completed.data.every((j: { status: string }) => j.status === "completed")).toBe(true);
  });

  it("422 for bad list parameters", async () => {
    for (const q of ["limit=0", "limit=500", "status=done", "after=xyz"]) {
      const res = await call(scrubs, apiRequest(`/api/v1/scrubs?${q}`, { key: alice.key }));
      expect(res.status, q).toBe(422);
    }
  });
});

describe("a job retried after a lost scrub service", () => {
  it("a job retried after its scrub service stopped reads 'retrying' (not failed) and offers no files yet", async () => {
    const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: bob.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
    const id = (await bodyOf(res)).job.id;
    const statusOf = async () => (await bodyOf(await call(scrub, apiRequest(`/api/v1/scrubs/${id}`, { key: bob.key }), { id }))).job;
    // What the runner's sweep leaves (decision 125): queued again after one attempt, then running the second.
    await db().updateTable("scrub_jobs").set({ status: "queued", attempts: 1 }).where("id", "=", id).execute();
    expect(await statusOf()).toMatchObject({ status: "retrying", error: null, files: [] });
    await db().updateTable("scrub_jobs").set({ status: "running", attempts: 2 }).where("id", "=", id).execute();
    expect(await statusOf()).toMatchObject({ status: "retrying", error: null, files: [] });
    const listed = async (status: string) =>
      (await bodyOf(await call(scrubs, apiRequest(`/api/v1/scrubs?status=${status}`, { key: bob.key })))).data.map((j: { id: string }) => j.id);
    expect(await listed("retrying")).toContain(id);
    expect(await listed("running")).not.toContain(id);
    const dl = await call(files, apiRequest(`/api/v1/scrubs/${id}/files/good`, { key: bob.key }), { id, kind: "good" });
    expect(dl.status).toBe(409);
    await finishJob(db(), id, path.join(dataDir, "results"));
    expect((await statusOf()).status).toBe("completed");
  });
});

describe("ownership: one user's key never reaches another user's jobs or containers", () => {
  it("another user's job, its files, container and loads are 404", async () => {
    const id = bob.jobId!;
    await finishJob(db(), id, path.join(dataDir, "results"));
    expect((await call(scrub, apiRequest(`/api/v1/scrubs/${id}`, { key: bob.key }), { id })).status).toBe(200);
    const r1 = await call(scrub, apiRequest(`/api/v1/scrubs/${id}`, { key: alice.key }), { id });
    expect(r1.status).toBe(404);
    expect((await bodyOf(r1)).error.code).toBe("not_found");
    expect((await call(files, apiRequest(`/api/v1/scrubs/${id}/files/good`, { key: alice.key }), { id, kind: "good" })).status).toBe(404);

    const r2 = await call(
      scrubs,
      apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly", container_id: bob.container } }),
    );
    expect(r2.status).toBe(404);
    const r3 = await call(numbers, apiRequest(`/api/v1/containers/${bob.container}/numbers`, { key: alice.key, json: { numbers: ["2125552142"] } }), {
      id: String(bob.container),
    });
    expect(r3.status).toBe(404);

    const bobLoad = await call(numbers, apiRequest(`/api/v1/containers/${bob.container}/numbers`, { key: bob.key, json: { numbers: ["2125552142"] } }), {
      id: String(bob.container),
    });
    expect(bobLoad.status).toBe(202);
    const loadId = (await bodyOf(bobLoad)).load.id;
    const r4 = await call(loads, apiRequest(`/api/v1/containers/${bob.container}/loads/${loadId}`, { key: alice.key }), {
      id: String(bob.container),
      loadId,
    });
    expect(r4.status).toBe(404);
    const list = await bodyOf(await call(containers, apiRequest("/api/v1/containers", { key: alice.key })));
    expect(list.data.map((c: { id: number }) => c.id)).toEqual([alice.container]);
    // Admins' keys are owner-scoped too: the API never widens access the way some admin screens do.
    const admin = await makeKey(db(), await makeUser(db(), { role: "SuperAdmin", plan: null }));
    expect((await call(scrub, apiRequest(`/api/v1/scrubs/${id}`, { key: admin.key }), { id })).status).toBe(404);
    expect((await call(files, apiRequest(`/api/v1/scrubs/${id}/files/good`, { key: admin.key }), { id, kind: "good" })).status).toBe(404);
    const adminList = await bodyOf(await call(scrubs, apiRequest("/api/v1/scrubs", { key: admin.key })));
    expect(adminList.data).toEqual([]);
  });
});

describe("ownership of certificates: two keys, two users", () => {
  it("GET /scrubs/{id}/certificate: the owner gets the file; another user's key (an admin's too) gets the same 404 as an unknown id", async () => {
    const carol = await makeKey(db(), await makeUser(db(), { plan: "premium" }));
    const dave = await makeKey(db(), await makeUser(db(), { plan: "premium" }));
    const carolId = (await db().selectFrom("api_keys").select("user_id").where("id", "=", carol.keyId).executeTakeFirstOrThrow()).user_id;
    const started = await call(scrubs, apiRequest("/api/v1/scrubs", { key: carol.key, json: { numbers: ["2125552101"], suppression_type: "LitigationOnly" } }));
    const id = (await bodyOf(started)).job.id as string;
    const get = (key: string, jobId = id) => call(certificate, apiRequest(`/api/v1/scrubs/${jobId}/certificate`, { key }), { id: jobId });

    // not finished: the owner hears 409; another user still 404 (the job's existence is not revealed)
    expect((await get(carol.key)).status).toBe(409);
    expect((await get(dave.key)).status).toBe(404);

    await finishJob(db(), id, path.join(dataDir, "results"));
    const document = JSON.stringify({ certificate: { jobId: id }, signature: { keyId: "k" } }, null, 2);
    await db().insertInto("scrub_certificates").values({ job_id: id, user_id: carolId, document, key_id: "k" }).execute();
    const own = await get(carol.key);
    expect(own.status).toBe(200);
    expect(await own.text()).toBe(document);

    const unknown = await get(dave.key, "00000000-0000-4000-8000-000000000000");
    const other = await get(dave.key);
    expect(other.status).toBe(404);
    const otherBody = await bodyOf(other);
    expect(otherBody).toEqual(await bodyOf(unknown));
    expect(otherBody.error.code).toBe("not_found");
    const admin = await makeKey(db(), await makeUser(db(), { role: "SuperAdmin", plan: null }));
    expect((await get(admin.key)).status).toBe(404);
  });
});

describe("containers", () => {
  it("adds numbers (JSON and CSV) and reports the load", async () => {
    const res = await call(
      numbers,
      apiRequest(`/api/v1/containers/${alice.container}/numbers`, { key: alice.key, json: { numbers: ["2125552142", "2125552143"] } }),
      {
        id: String(alice.container),
      },
    );
    expect(res.status).toBe(202);
    const { load } = await bodyOf(res);
    expect(load).toMatchObject({ container_id: alice.container, status: "queued" });
    expect(fake.loads).toContain(load.id);
    const reserved = await db().selectFrom("list_loads").select("usage_reserved").where("id", "=", load.id).executeTakeFirstOrThrow();
    expect(Number(reserved.usage_reserved)).toBe(2);
    const got = await call(loads, apiRequest(`/api/v1/containers/${alice.container}/loads/${load.id}`, { key: alice.key }), {
      id: String(alice.container),
      loadId: load.id,
    });
    expect((await bodyOf(got)).load.id).toBe(load.id);

    const form = new FormData();
    form.set("file", new File(["Phone\n2125552144\n"], "more.csv"));
    const csv = await call(numbers, apiRequest(`/api/v1/containers/${alice.container}/numbers`, { key: alice.key, form }), { id: String(alice.container) });
    expect(csv.status).toBe(202);
    expect((await bodyOf(csv)).load.file_name).toBe("more.csv");
  });

  it("404 for unknown or malformed container ids; 422 for bad bodies; 403 over the container limit", async () => {
    for (const id of ["999999", "abc", "-1"]) {
      const res = await call(numbers, apiRequest(`/api/v1/containers/${id}/numbers`, { key: alice.key, json: { numbers: ["2125552142"] } }), { id });
      expect(res.status, id).toBe(404);
    }
    const bad = await call(numbers, apiRequest(`/api/v1/containers/${alice.container}/numbers`, { key: alice.key, json: { numbers: [] } }), {
      id: String(alice.container),
    });
    expect(bad.status).toBe(422);
    const junk = await call(numbers, apiRequest(`/api/v1/containers/${alice.container}/numbers`, { key: alice.key, json: { numbers: ["12", "abc"] } }), {
      id: String(alice.container),
    });
    expect(junk.status).toBe(422);
    expect((await bodyOf(junk)).error.details[0].message).toBe("You must enter at least one valid 10-digit phone number.");

    const id = await makeUser(db(), { plan: "beginner" });
    const c = await makeContainer(db(), id);
    const k = await makeKey(db(), id);
    const res = await call(numbers, apiRequest(`/api/v1/containers/${c}/numbers`, { key: k.key, json: { numbers: ["2125552142"] } }), { id: String(c) });
    expect(res.status).toBe(403);
    expect((await bodyOf(res)).error.code).toBe("api_not_in_plan");

    const fullId = await makeUser(db(), { plan: "business" });
    const fc = await makeContainer(db(), fullId);
    const fk = await makeKey(db(), fullId);
    await db()
      .insertInto("list_loads")
      .values({ list_id: fc, user_id: fullId, mode: "add", status: "completed", file_name: "earlier.csv", added: 100_000, finished_at: new Date() })
      .execute();
    const over = await call(numbers, apiRequest(`/api/v1/containers/${fc}/numbers`, { key: fk.key, json: { numbers: ["2125552142"] } }), { id: String(fc) });
    expect(over.status).toBe(403);
    expect((await bodyOf(over)).error.code).toBe("usage_limit_exceeded");
  });
});

describe("the rest of the surface", () => {
  it("405 method_not_allowed with Allow", async () => {
    const res = await call(usage, apiRequest("/api/v1/usage", { key: alice.key, method: "POST" }));
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET");
    expect((await bodyOf(res)).error.code).toBe("method_not_allowed");
  });

  it("500 internal_error (logged, no details leaked) when something fails on our side", async () => {
    const original = fake.service.countRecords;
    fake.service.countRecords = async () => {
      throw new Error("disk on fire at /srv/secret/path");
    };
    const logged: unknown[][] = [];
    const consoleError = console.error;
    console.error = (...a: unknown[]) => logged.push(a);
    try {
      const res = await call(scrubs, apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }));
      expect(res.status).toBe(500);
      const body = await bodyOf(res);
      expect(body.error.code).toBe("internal_error");
      expect(JSON.stringify(body)).not.toContain("/srv/secret");
      expect(res.headers.get("X-RateLimit-Limit")).toBe("1000");
      expect(logged).toHaveLength(1);
    } finally {
      console.error = consoleError;
      fake.service.countRecords = original;
    }
  });

  it("unknown API paths answer a JSON 404", async () => {
    const res = await call(catchAll, apiRequest("/api/v1/nothing"));
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toContain("application/json");
    expect((await bodyOf(res)).error.code).toBe("not_found");
  });

  it("serves the OpenAPI document with every endpoint", async () => {
    const res = await call(openapi, apiRequest("/api/v1/openapi.json"));
    const doc = await bodyOf(res);
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual([
      "/scrubs",
      "/scrubs/{id}",
      "/scrubs/{id}/files/{kind}",
      "/scrubs/{id}/certificate",
      "/lookup",
      "/containers",
      "/containers/{id}/numbers",
      "/containers/{id}/loads/{loadId}",
      "/exemption-lists",
      "/exemption-lists/{id}",
      "/calls",
      "/calls/{id}",
      "/opt-outs",
      "/check",
      "/compat/dncscrub/scrub",
      "/compat/calls",
      "/ledger",
      "/numbers/{number}/dossier",
      "/usage",
    ]);
    expect(doc.components.securitySchemes.bearerAuth.scheme).toBe("bearer");
    // Every $ref resolves, and the documented error codes are exactly the ones the API can answer.
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      const name = ref.split("/").pop()!.replace('"', "");
      expect(doc.components.schemas[name], ref).toBeDefined();
    }
    expect([...doc.components.schemas.Error.properties.error.properties.code.enum].sort()).toEqual([...API_ERROR_CODES].sort());
  });
});
