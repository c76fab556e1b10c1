import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.WEBHOOK_RETRY_BASE_MS = "60000";
process.env.WEBHOOK_MAX_ATTEMPTS = "5";

import { useAppTestDb } from "../../tests/setup/db";
import { metrics } from "scrub-service";
import { finishJob, makeKey, makeUser } from "../../tests/api/helpers";
import { backoffMs, deliverDueWebhooks, postWebhook, purgeOldDeliveries, runWebhookTick, signWebhook, verifyWebhookSignature } from "./webhooks.server";
import { isPrivateAddress, webhookUrlProblem } from "./webhook-url.server";
import { listDeliveries, rotateWebhookSecret, setIntegrationToggle } from "~/models/integration.server";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";

const { handle } = useAppTestDb();
const db = () => handle().db;
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), "webhooks-"));

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback: answers with the queued statuses, refuses anything past `max` requests. */
class Receiver {
  server!: http.Server;
  received: Received[] = [];
  statuses: number[] = [];
  max = 50;
  async start() {
    this.server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        this.received.push({ path: req.url ?? "", headers: req.headers, body });
        const status = this.received.length > this.max ? 410 : (this.statuses.shift() ?? 200);
        res.writeHead(status, { "Content-Type": "text/plain" }).end("ok");
      });
    });
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", () => r()));
  }
  url(p = "/hook") {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${p}`;
  }
  on(p: string) {
    return this.received.filter((r) => r.path === p);
  }
  async stop() {
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

async function apiJob(userId: string, keyId: string | null): Promise<string> {
  const row = await db()
    .insertInto("scrub_jobs")
    .values({
      user_id: userId,
      source: keyId ? "api" : "web",
      api_key_id: keyId,
      file_name: "leads.csv",
      suppression_type: "LitigationOnly",
      status: "queued",
      input_path: "/nonexistent",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function setup(hookPath: string) {
  const userId = await makeUser(db(), { plan: "business" });
  const k = await makeKey(db(), userId, { webhookUrl: receiver.url(hookPath) });
  return { userId, ...k };
}

const T0 = new Date(Date.now() + 60_000);
const at = (ms: number) => new Date(T0.getTime() + ms);

describe("signing", () => {
  it("HMAC-SHA256 over timestamp.body, verified with a replay window", () => {
    const sig = signWebhook("whsec_test", 1700000000, '{"a":1}');
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    const ok = { body: '{"a":1}', timestamp: "1700000000", signature: `sha256=${sig}` };
    expect(verifyWebhookSignature("whsec_test", ok, { now: 1700000000_000 })).toBe(true);
    expect(verifyWebhookSignature("whsec_other", ok, { now: 1700000000_000 })).toBe(false);
    expect(verifyWebhookSignature("whsec_test", { ...ok, body: '{"a":2}' }, { now: 1700000000_000 })).toBe(false);
    expect(verifyWebhookSignature("whsec_test", ok, { now: 1700000000_000 + 301_000 })).toBe(false);
  });

  it("backs off exponentially", () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 1000))).toEqual([1000, 2000, 4000, 8000]);
  });
});

describe("webhook URLs", () => {
  it("only http(s); private and loopback targets refused in production, allowed otherwise", () => {
    expect(webhookUrlProblem("ftp://example.com/x")).toMatch(/https/);
    expect(webhookUrlProblem("not a url")).toMatch(/valid URL/);
    expect(webhookUrlProblem("https://user:pw@example.com/")).toMatch(/user name/);
    expect(webhookUrlProblem("http://127.0.0.1:9/x")).toBeNull();
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      for (const u of [
        "http://127.0.0.1/x",
        "http://localhost/x",
        "http://10.1.2.3/",
        "http://[::1]/",
        "http://169.254.169.254/latest",
        "http://192.168.1.1/",
      ]) {
        expect(webhookUrlProblem(u), u).toMatch(/public/);
      }
      expect(webhookUrlProblem("https://hooks.example.com/dpt")).toBeNull();
    } finally {
      process.env.NODE_ENV = before;
    }
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("::ffff:10.0.0.1")).toBe(true);
  });
});

describe("delivery", () => {
  it("a completed API job is POSTed once, signed, and logged", async () => {
    const s = await setup("/ok");
    const jobId = await apiJob(s.userId, s.keyId);
    await runWebhookTick(db(), at(0));
    expect(receiver.on("/ok")).toHaveLength(0); // not finished yet
    await finishJob(db(), jobId, resultsDir);
    const delivered = async () => (await metrics().webhookDeliveries.get()).values.find((v) => v.labels.outcome === "delivered")?.value ?? 0;
    const before = await delivered();
    await runWebhookTick(db(), at(0));
    await runWebhookTick(db(), at(0));
    const got = receiver.on("/ok");
    expect(got).toHaveLength(1);
    expect(await delivered()).toBe(before + 1); // dpt_webhook_deliveries_total{outcome="delivered"}
    const h = got[0].headers;
    expect(h["content-type"]).toBe("application/json");
    expect(h["x-webhook-event"]).toBe("scrub.completed");
    expect(
      verifyWebhookSignature(
        s.webhookSecret!,
        { body: got[0].body, timestamp: String(h["x-webhook-timestamp"]), signature: String(h["x-signature"]) },
        { now: at(0).getTime() },
      ),
    ).toBe(true);
    const event = JSON.parse(got[0].body);
    expect(event).toMatchObject({ id: h["x-webhook-id"], type: "scrub.completed", data: { job: { id: jobId, status: "completed" } } });
    expect(event.data.job.files).toHaveLength(3);
    const log = await listDeliveries(db(), { userId: s.userId });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ event: "scrub.completed", attempt: 1, statusCode: 200, error: null, nextAttemptAt: null, eventStatus: "delivered", jobId });
    // Another user sees none of it.
    const other = await makeUser(db(), { plan: "business" });
    expect(await listDeliveries(db(), { userId: other })).toHaveLength(0);
  });

  it("a failed job sends scrub.failed; web jobs send nothing", async () => {
    const s = await setup("/failed");
    const jobId = await apiJob(s.userId, s.keyId);
    const webJob = await apiJob(s.userId, null);
    await finishJob(db(), jobId, resultsDir, "failed");
    await finishJob(db(), webJob, resultsDir, "failed");
    await runWebhookTick(db(), at(0));
    const got = receiver.on("/failed");
    expect(got).toHaveLength(1);
    expect(JSON.parse(got[0].body)).toMatchObject({ type: "scrub.failed", data: { job: { id: jobId, status: "failed" } } });
  });

  it("retries with exponential backoff until the receiver accepts, same id and body each time", async () => {
    const s = await setup("/retry");
    receiver.statuses.push(500, 503, 200);
    const jobId = await apiJob(s.userId, s.keyId);
    await finishJob(db(), jobId, resultsDir);
    await runWebhookTick(db(), at(0));
    expect(receiver.on("/retry")).toHaveLength(1);
    await runWebhookTick(db(), at(59_999)); // not due yet
    expect(receiver.on("/retry")).toHaveLength(1);
    await runWebhookTick(db(), at(60_000));
    expect(receiver.on("/retry")).toHaveLength(2);
    await runWebhookTick(db(), at(60_000 + 119_999));
    expect(receiver.on("/retry")).toHaveLength(2);
    await runWebhookTick(db(), at(60_000 + 120_000));
    const got = receiver.on("/retry");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((g) => g.headers["x-webhook-id"])).size).toBe(1);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    expect(got.map((g) => g.headers["x-webhook-attempt"])).toEqual(["1", "2", "3"]);
    const log = (await listDeliveries(db(), { userId: s.userId })).reverse();
    expect(log.map((d) => [d.attempt, d.statusCode])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(log[0].error).toBe("HTTP 500");
    expect(log[0].nextAttemptAt).toBe(at(60_000).toISOString());
    expect(log[1].nextAttemptAt).toBe(at(180_000).toISOString());
    expect(log[2].nextAttemptAt).toBeNull();
    expect(log[2].eventStatus).toBe("delivered");
  });

  it("gives up after 5 attempts", async () => {
    const s = await setup("/down");
    receiver.statuses.push(500, 500, 500, 500, 500);
    const jobId = await apiJob(s.userId, s.keyId);
    await finishJob(db(), jobId, resultsDir);
    let t = 0;
    for (let i = 1; i <= 6; i++) {
      await runWebhookTick(db(), at(t));
      t += backoffMs(i);
    }
    expect(receiver.on("/down")).toHaveLength(5);
    const log = await listDeliveries(db(), { userId: s.userId });
    expect(log).toHaveLength(5);
    expect(log[0]).toMatchObject({ attempt: 5, nextAttemptAt: null, eventStatus: "failed" });
  });

  it("auto retry off: one attempt only", async () => {
    const s = await setup("/noretry");
    await setIntegrationToggle(db(), { id: s.integrationId, userId: s.userId, toggle: "auto_retry_enabled", on: false });
    receiver.statuses.push(500);
    const jobId = await apiJob(s.userId, s.keyId);
    await finishJob(db(), jobId, resultsDir);
    for (const ms of [0, 60_000, 600_000]) await runWebhookTick(db(), at(ms));
    expect(receiver.on("/noretry")).toHaveLength(1);
    const log = await listDeliveries(db(), { userId: s.userId });
    expect(log[0]).toMatchObject({ attempt: 1, statusCode: 500, nextAttemptAt: null, eventStatus: "failed" });
  });

  it("webhook notifications off: nothing is sent, and turning them on does not replay old jobs", async () => {
    const s = await setup("/toggle");
    await setIntegrationToggle(db(), { id: s.integrationId, userId: s.userId, toggle: "webhook_enabled", on: false });
    const quiet = await apiJob(s.userId, s.keyId);
    await finishJob(db(), quiet, resultsDir);
    await runWebhookTick(db(), at(0));
    expect(receiver.on("/toggle")).toHaveLength(0);
    await setIntegrationToggle(db(), { id: s.integrationId, userId: s.userId, toggle: "webhook_enabled", on: true });
    await runWebhookTick(db(), at(0));
    expect(receiver.on("/toggle")).toHaveLength(0);
    const loud = await apiJob(s.userId, s.keyId);
    await finishJob(db(), loud, resultsDir);
    await runWebhookTick(db(), at(0));
    const got = receiver.on("/toggle");
    expect(got).toHaveLength(1);
    expect(JSON.parse(got[0].body).data.job.id).toBe(loud);
  });

  it("a rotated secret signs the next delivery", async () => {
    const s = await setup("/rotate");
    const fresh = await rotateWebhookSecret(db(), { id: s.integrationId, userId: s.userId });
    expect(fresh).toMatch(/^whsec_/);
    expect(await rotateWebhookSecret(db(), { id: s.integrationId, userId: await makeUser(db()) })).toBeNull();
    const jobId = await apiJob(s.userId, s.keyId);
    await finishJob(db(), jobId, resultsDir);
    await runWebhookTick(db(), at(0));
    const [got] = receiver.on("/rotate");
    const sig = { body: got.body, timestamp: String(got.headers["x-webhook-timestamp"]), signature: String(got.headers["x-signature"]) };
    expect(verifyWebhookSignature(fresh!, sig, { now: at(0).getTime() })).toBe(true);
    expect(verifyWebhookSignature(s.webhookSecret!, sig, { now: at(0).getTime() })).toBe(false);
  });

  it("an unreachable receiver is logged as an error and retried", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const userId = await makeUser(db(), { plan: "business" });
    const k = await makeKey(db(), userId, { webhookUrl: `http://127.0.0.1:${port}/gone` });
    const jobId = await apiJob(userId, k.keyId);
    await finishJob(db(), jobId, resultsDir);
    await runWebhookTick(db(), at(0));
    const [d] = await listDeliveries(db(), { userId });
    expect(d.statusCode).toBeNull();
    expect(d.error).toMatch(/ECONNREFUSED/);
    expect(d.eventStatus).toBe("pending");
  });

  it("concurrent dispatchers deliver each event once (SKIP LOCKED lease)", async () => {
    const s = await setup("/once");
    const jobs = await Promise.all([1, 2, 3].map(() => apiJob(s.userId, s.keyId)));
    for (const j of jobs) await finishJob(db(), j, resultsDir);
    const { enqueueWebhookEvents } = await import("./webhooks.server");
    await Promise.all([enqueueWebhookEvents(db(), at(0)), enqueueWebhookEvents(db(), at(0))]);
    await Promise.all([deliverDueWebhooks(db(), { now: at(0) }), deliverDueWebhooks(db(), { now: at(0) }), deliverDueWebhooks(db(), { now: at(0) })]);
    const got = receiver.on("/once");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((g) => JSON.parse(g.body).data.job.id))).toEqual(new Set(jobs));
  });

  it("keeps the delivery log for 30 days, and an old event is never sent again", async () => {
    const s = await setup("/old");
    const jobId = await apiJob(s.userId, s.keyId);
    await finishJob(db(), jobId, resultsDir);
    await runWebhookTick(db(), at(0));
    expect(await listDeliveries(db(), { userId: s.userId })).toHaveLength(1);
    await purgeOldDeliveries(db(), at(29 * 24 * 3600_000));
    expect(await listDeliveries(db(), { userId: s.userId })).toHaveLength(1);
    await purgeOldDeliveries(db(), at(31 * 24 * 3600_000));
    expect(await listDeliveries(db(), { userId: s.userId })).toHaveLength(0);
    await runWebhookTick(db(), at(31 * 24 * 3600_000));
    expect(receiver.on("/old")).toHaveLength(1);
  });

  it("a failure on our side (unreadable secret) is retried later and never crashes the round", async () => {
    const s = await setup("/broken");
    const ok = await setup("/fine");
    await db().updateTable("integrations").set({ webhook_secret_enc: "not.a.secret" }).where("id", "=", s.integrationId).execute();
    const broken = await apiJob(s.userId, s.keyId);
    const fine = await apiJob(ok.userId, ok.keyId);
    await finishJob(db(), broken, resultsDir);
    await finishJob(db(), fine, resultsDir);
    const warn = console.warn;
    const warned: unknown[] = [];
    console.warn = (...a: unknown[]) => warned.push(a);
    try {
      await runWebhookTick(db(), at(0));
    } finally {
      console.warn = warn;
    }
    expect(receiver.on("/broken")).toHaveLength(0);
    expect(receiver.on("/fine")).toHaveLength(1);
    expect(String(warned[0])).toContain("[webhooks]");
    const ev = await db().selectFrom("webhook_events").selectAll().where("job_id", "=", broken).executeTakeFirstOrThrow();
    expect(ev.status).toBe("pending");
    expect(ev.next_attempt_at.getTime()).toBe(at(60_000).getTime());
  });

  it("a receiver that trickles its answer is cut off at the deadline", async () => {
    const timers: NodeJS.Timeout[] = [];
    const slow = http.createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      const t = setInterval(() => res.write("."), 20);
      timers.push(t);
      res.on("close", () => clearInterval(t));
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", () => r()));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
      const result = await postWebhook(url, "{}", { "Content-Type": "application/json" }, 300);
      expect(result.error).toMatch(/timed out after 300 ms|aborted/);
    } finally {
      timers.forEach(clearInterval);
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });
});
