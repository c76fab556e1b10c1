import { beforeAll, describe, expect, it } from "vitest";
import { API_REQUESTS_PER_HOUR } from "~/api/rate-limit.server";
import { lookupRateLimiter } from "~/api/lookup-rate-limit.server";
import { useAppTestDb } from "../../../tests/setup/db";
import { makeRequest, testContext } from "../../../tests/setup/request";
import { makeContainer, makeUser } from "../../../tests/api/helpers";
import { startUserSession } from "~/accounts/auth.server";
import { action, loader } from "./route";
import { findApiKey, listApiKeys, MAX_KEYS_PER_INTEGRATION } from "~/models/integration.server";
import { openSecret } from "~/utils/secret-box.server";

const { handle } = useAppTestDb();
const db = () => handle().db;
let userId: string;
let cookie: string;
let otherCookie: string;

async function cookieFor(id: string) {
  return (await startUserSession(makeRequest("/login"), id)).split(";")[0];
}

async function post(form: Record<string, string>, c = cookie): Promise<{ status: number; body: any; location: string | null }> {
  let res: unknown;
  try {
    res = await action({ request: makeRequest("/integrations", { cookie: c, form }), params: {}, context: testContext });
  } catch (thrown) {
    res = thrown;
  }
  if (res instanceof Response) return { status: res.status, body: null, location: res.headers.get("Location") };
  const r = res as { type?: string; data: unknown; init?: { status?: number } };
  if (r && r.type === "DataWithResponseInit") return { status: r.init?.status ?? 200, body: r.data, location: null };
  return { status: 200, body: res, location: null };
}

async function load(c = cookie, search = "") {
  return loader({ request: makeRequest(`/integrations${search}`, { cookie: c }), params: {}, context: testContext });
}

beforeAll(async () => {
  userId = await makeUser(db(), { plan: "business" });
  cookie = await cookieFor(userId);
  otherCookie = await cookieFor(await makeUser(db(), { plan: "business" }));
});

describe("rate limits on the page", () => {
  it("states the hourly API limit and the live lookup's own budget, as enforced (decisions 051, 111)", async () => {
    const page = await load();
    expect([page.limitPerHour, page.lookupsPerSecond, page.lookupBurst]).toEqual([API_REQUESTS_PER_HOUR, lookupRateLimiter.perSecond, lookupRateLimiter.burst]);
    expect([page.limitPerHour, page.lookupsPerSecond, page.lookupBurst]).toEqual([1000, 200, 400]);
  });
});

describe("create integration", () => {
  it("validates the form and keeps the dialog's errors", async () => {
    const r = await post({ intent: "create-integration", name: "", webhookUrl: "ftp://x" });
    expect(r.status).toBe(400);
    expect(r.body.form).toBe("integration");
    expect(r.body.result.error.name).toEqual(["Name is required"]);
    expect(r.body.result.error.webhookUrl[0]).toMatch(/https:\/\//);
  });

  it("refuses a container that is not the user's", async () => {
    const other = await makeUser(db(), { plan: "business" });
    const foreign = await makeContainer(db(), other);
    const r = await post({ intent: "create-integration", name: "X", containerId: String(foreign) });
    expect(r.status).toBe(400);
    expect(r.body.result.error.containerId).toEqual(["Choose one of your containers"]);
  });

  it("refuses private webhook targets in production", async () => {
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      const r = await post({ intent: "create-integration", name: "X", webhookUrl: "http://169.254.169.254/latest/meta-data" });
      expect(r.status).toBe(400);
      expect(r.body.result.error.webhookUrl).toEqual(["Webhook URL must be a public address"]);
    } finally {
      process.env.NODE_ENV = before;
    }
  });

  it("creates it with a first key and a webhook secret, each shown once; the table shows it", async () => {
    const container = await makeContainer(db(), userId, "Do not call");
    const r = await post({
      intent: "create-integration",
      name: "Salesforce",
      description: "Nightly",
      containerId: String(container),
      webhookUrl: "https://hooks.example.com/dpt",
    });
    expect(r.status).toBe(200);
    const { revealed } = r.body;
    expect(revealed.kind).toBe("api-key");
    expect(revealed.value).toMatch(/^dpt_[A-Za-z0-9_-]{43}$/);
    expect(revealed.secret).toMatch(/^whsec_/);
    // Stored hashed / encrypted, never in clear.
    const row = await db().selectFrom("integrations").selectAll().where("id", "=", revealed.integrationId).executeTakeFirstOrThrow();
    expect(row.webhook_secret_enc).not.toContain(revealed.secret.slice(6));
    expect(await openSecret(db(), row.webhook_secret_enc!)).toBe(revealed.secret);
    expect((await findApiKey(db(), revealed.value))?.integrationId).toBe(revealed.integrationId);
    const keys = await db().selectFrom("api_keys").selectAll().where("integration_id", "=", revealed.integrationId).execute();
    expect(JSON.stringify(keys)).not.toContain(revealed.value);

    const page = await load();
    const listed = page.integrations.find((i) => i.id === revealed.integrationId)!;
    expect(listed).toMatchObject({
      name: "Salesforce",
      description: "Nightly",
      containerName: "Do not call",
      activeKeys: 1,
      webhookSecretPrefix: revealed.secret.slice(0, 10),
    });
    expect(JSON.stringify(page)).not.toContain(revealed.value);
    expect(JSON.stringify(page)).not.toContain(revealed.secret);
    // Another user sees none of it.
    expect((await load(otherCookie)).integrations).toHaveLength(0);
  });
});

describe("keys, toggles, secret, delete", () => {
  let integrationId: string;
  beforeAll(async () => {
    integrationId = (await post({ intent: "create-integration", name: "Keys" })).body.revealed.integrationId;
  });

  it("creates named keys up to the limit and revokes them", async () => {
    const r = await post({ intent: "create-key", integrationId, name: "Production" });
    expect(r.body.revealed).toMatchObject({ kind: "api-key", label: 'API key "Production" created' });
    const empty = await post({ intent: "create-key", integrationId, name: " " });
    expect(empty.status).toBe(400);
    expect(empty.body.result.error.name).toEqual(["Key name is required"]);
    for (let i = 2; i < MAX_KEYS_PER_INTEGRATION; i++) await post({ intent: "create-key", integrationId, name: `k${i}` });
    const over = await post({ intent: "create-key", integrationId, name: "one too many" });
    expect(over.status).toBe(400);
    expect(over.body.result.error[""][0]).toMatch(/at most 10 active keys/);

    const prod = (await listApiKeys(db(), userId)).find((k) => k.name === "Production")!;
    expect((await post({ intent: "revoke-key", id: prod.id }, otherCookie)).status).toBe(404);
    const revoked = await post({ intent: "revoke-key", id: prod.id });
    expect(revoked.status).toBe(302);
    expect(revoked.location).toBe(`/integrations?integration=${integrationId}`);
    expect((await findApiKey(db(), r.body.revealed.value))?.revoked).toBe(true);
    expect((await post({ intent: "revoke-key", id: prod.id })).status).toBe(404);
  });

  it("renames a key (owner only)", async () => {
    const created = (await post({ intent: "create-key", integrationId, name: "Old name" })).body.revealed;
    const key = (await listApiKeys(db(), userId)).find((k) => k.name === "Old name")!;
    expect((await post({ intent: "rename-key", id: key.id, name: "Taken" }, otherCookie)).status).toBe(404);
    const empty = await post({ intent: "rename-key", id: key.id, name: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.result.error.name).toEqual(["Key name is required"]);
    expect((await post({ intent: "rename-key", id: key.id, name: "Billing sync" })).status).toBe(302);
    expect((await listApiKeys(db(), userId)).find((k) => k.id === key.id)?.name).toBe("Billing sync");
    expect((await findApiKey(db(), created.value))?.revoked).toBe(false);
    await post({ intent: "revoke-key", id: key.id });
  });

  it("a key for another user's integration is 404", async () => {
    const r = await post({ intent: "create-key", integrationId, name: "steal" }, otherCookie);
    expect(r.status).toBe(404);
  });

  it("toggles change the stored settings (and only the owner's)", async () => {
    for (const toggle of ["webhook_enabled", "rate_limit_enabled", "auto_retry_enabled"]) {
      expect((await post({ intent: "toggle", integrationId, toggle, value: "off" }, otherCookie)).status).toBe(404);
      expect((await post({ intent: "toggle", integrationId, toggle, value: "off" })).status).toBe(302);
    }
    const row = await db().selectFrom("integrations").selectAll().where("id", "=", integrationId).executeTakeFirstOrThrow();
    expect([row.webhook_enabled, row.rate_limit_enabled, row.auto_retry_enabled]).toEqual([false, false, false]);
    expect((await post({ intent: "toggle", integrationId, toggle: "nonsense", value: "off" })).status).toBe(400);
    await post({ intent: "toggle", integrationId, toggle: "rate_limit_enabled", value: "on" });
    const page = await load(cookie, `?integration=${integrationId}`);
    expect(page.selectedId).toBe(integrationId);
    expect(page.integrations.find((i) => i.id === integrationId)?.rateLimitEnabled).toBe(true);
  });

  it("editing the webhook URL gives a new secret; rotate needs a URL", async () => {
    const noUrl = await post({ intent: "rotate-secret", id: integrationId });
    expect(noUrl.status).toBe(302);
    const edited = await post({ intent: "update-integration", integrationId, name: "Keys v2", webhookUrl: "https://hooks.example.com/v2" });
    expect(edited.body.revealed.kind).toBe("webhook-secret");
    const rotated = await post({ intent: "rotate-secret", id: integrationId });
    expect(rotated.body.revealed.value).toMatch(/^whsec_/);
    expect(rotated.body.revealed.value).not.toBe(edited.body.revealed.value);
    const same = await post({ intent: "update-integration", integrationId, name: "Keys v3", webhookUrl: "https://hooks.example.com/v2" });
    expect(same.status).toBe(302);
  });

  it("deleting revokes every key at once", async () => {
    const key = (
      await post({ intent: "create-key", integrationId: (await post({ intent: "create-integration", name: "Doomed" })).body.revealed.integrationId, name: "x" })
    ).body.revealed;
    expect((await post({ intent: "delete-integration", id: key.integrationId }, otherCookie)).status).toBe(404);
    expect((await post({ intent: "delete-integration", id: key.integrationId })).status).toBe(302);
    expect((await findApiKey(db(), key.value))?.revoked).toBe(true);
    expect((await load()).integrations.some((i) => i.id === key.integrationId)).toBe(false);
  });

  it("unknown intents are 400, malformed ids 404", async () => {
    expect((await post({ intent: "explode" })).status).toBe(400);
    expect((await post({ intent: "delete-integration", id: "not-a-uuid" })).status).toBe(404);
  });
});

describe("dialers (issue #48)", () => {
  it("shows the values to paste, built from the configured public address, with the key's hint only", async () => {
    const page = await load();
    const { appUrl } = await import("~/utils/env.server");
    expect(page.dialers.scrubUrl).toBe(`${appUrl()}/api/compat/dncscrub/scrub`);
    expect(page.dialers.checkUrl).toBe(`${appUrl()}/api/v1/check`);
    expect(page.dialers.callsUrl).toBe(`${appUrl()}/api/compat/calls`);
    // never the request's Host
    const spoofed = await loader({
      request: new Request("http://evil.example/integrations", { headers: { Cookie: cookie, "X-Forwarded-Host": "evil.example" } }),
      params: {},
      context: testContext,
    });
    expect(JSON.stringify(spoofed.dialers)).not.toContain("evil.example");
    if (page.dialers.keyHint) expect(page.dialers.keyHint).toMatch(/^dpt_/);
  });

  it("saves a campaign's container and exemption list (the user's own only) and removes it", async () => {
    const container = await makeContainer(db(), userId, "Campaign DNC");
    const foreign = await makeContainer(db(), await makeUser(db(), { plan: "business" }));
    const refused = await post({ intent: "save-campaign", campaignId: "SPRING", containerId: String(foreign) });
    expect(refused.status).toBe(400);
    expect(refused.body.result.error.containerId).toEqual(["Choose one of your containers"]);
    const bad = await post({ intent: "save-campaign", campaignId: "has,comma" });
    expect(bad.status).toBe(400);
    const saved = await post({ intent: "save-campaign", campaignId: "SPRING", containerId: String(container) });
    expect(saved.location).toBe("/integrations");
    expect((await load()).dialers.campaigns).toEqual([{ campaignId: "SPRING", containerName: "Campaign DNC", exemptionListName: null }]);
    // another user sees none of it
    expect((await load(otherCookie)).dialers.campaigns).toEqual([]);
    await post({ intent: "delete-campaign", campaignId: "SPRING" });
    expect((await load()).dialers.campaigns).toEqual([]);
  });

  it("shows the last request of each endpoint, refused ones with their reason", async () => {
    const { recordDialerRequest } = await import("~/models/dialer.server");
    await recordDialerRequest(db(), userId, {
      endpoint: "scrub",
      method: "POST",
      status: 400,
      outcome: "refused",
      detail: "phoneList is required",
      numbers: null,
      campaignId: "SPRING",
    });
    const page = await load();
    expect(page.dialers.lastRequests).toEqual([
      expect.objectContaining({ endpoint: "scrub", outcome: "refused", status: 400, detail: "phoneList is required", campaignId: "SPRING" }),
    ]);
    expect((await load(otherCookie)).dialers.lastRequests).toEqual([]);
  });
});
