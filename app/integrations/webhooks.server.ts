import crypto from "node:crypto";
import { metrics } from "scrub-service";
import http from "node:http";
import https from "node:https";
import { sql, type Kysely } from "kysely";
import type { Database, WebhookEventType } from "db/schema";
import { serializeJob } from "~/models/api-job.server";
import { appUrl, env } from "~/utils/env.server";
import { openSecret } from "~/utils/secret-box.server";
import { guardedLookup, webhookUrlProblem } from "./webhook-url.server";
import { purgeOldRateLimitWindows } from "~/api/rate-limit.server";
import { singleton } from "~/utils/singleton.server";

/*
 * Webhooks on job completion or failure. A dispatcher in every app process polls the database:
 * 1. enqueue: one webhook_events row per finished API job and integration (unique, so replicas never
 *    double-enqueue);
 * 2. deliver: claims due events with FOR UPDATE SKIP LOCKED and a lease (no transaction is held during
 *    the HTTP call), POSTs the JSON body signed with HMAC-SHA256, logs every attempt in
 *    webhook_deliveries and, with auto retry on, schedules the next attempt with exponential backoff.
 * See docs/decisions/052-webhooks.md.
 */

/** The dispatcher's settings, from the app's environment (app/utils/env.server.ts). */
export function webhookConfig() {
  const { WEBHOOK_RETRY_BASE_MS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_POLL_MS, WEBHOOK_TIMEOUT_MS } = env();
  return { WEBHOOK_RETRY_BASE_MS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_POLL_MS, WEBHOOK_TIMEOUT_MS };
}

export const SIGNATURE_HEADER = "X-Signature";
export const TIMESTAMP_HEADER = "X-Webhook-Timestamp";

/** hex HMAC-SHA256 of "<timestamp>.<raw body>" with the integration's secret. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** Checks a received webhook (what a customer's receiver does); tolerance guards against replay. */
export function verifyWebhookSignature(
  secret: string,
  { body, timestamp, signature }: { body: string; timestamp: string | null; signature: string | null },
  { toleranceSeconds = 300, now = Date.now() } = {},
): boolean {
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = `sha256=${signWebhook(secret, Number(timestamp), body)}`;
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** Delay before attempt n+1 after attempt n failed: base · 2^(n-1) (1 s, 2 s, 4 s, 8 s … by default). */
export function backoffMs(attempt: number, base = webhookConfig().WEBHOOK_RETRY_BASE_MS): number {
  return base * 2 ** Math.max(0, attempt - 1);
}

/** Creates the events of jobs that finished since the integration's notifications were turned on. */
export async function enqueueWebhookEvents(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const res = await sql`
    insert into webhook_events (integration_id, user_id, job_id, event, next_attempt_at)
    select i.id, i.user_id, j.id,
           case j.status when 'completed' then 'scrub.completed' else 'scrub.failed' end,
           ${now}
      from scrub_jobs j
      join api_keys k on k.id = j.api_key_id
      join integrations i on i.id = k.integration_id
     where j.api_key_id is not null
       and j.status in ('completed', 'failed')
       and j.user_id = i.user_id
       and j.finished_at is not null
       and j.finished_at >= i.webhook_enabled_since
       and j.finished_at > ${now}::timestamptz - interval '7 days'
       and i.webhook_url is not null
       and i.webhook_enabled
       and i.deleted_at is null
       and not exists (select 1 from webhook_events e where e.integration_id = i.id and e.job_id = j.id)
    on conflict (integration_id, job_id) do nothing`.execute(db);
  return Number(res.numAffectedRows ?? 0);
}

interface Claimed {
  id: string;
  integration_id: string;
  user_id: string;
  job_id: string;
  event: WebhookEventType;
  payload: string | null;
  attempts: number;
}

async function claimDue(db: Kysely<Database>, now: Date, limit: number): Promise<Claimed[]> {
  const leaseUntil = new Date(now.getTime() + webhookConfig().WEBHOOK_TIMEOUT_MS + 30_000);
  const res = await sql<Claimed>`
    update webhook_events set attempts = attempts + 1, lease_until = ${leaseUntil}
     where id in (
       select id from webhook_events
        where status = 'pending' and next_attempt_at <= ${now}
          and (lease_until is null or lease_until < ${now})
        order by next_attempt_at
        limit ${limit}
        for update skip locked)
    returning id, integration_id, user_id, job_id, event, payload, attempts`.execute(db);
  return res.rows;
}

async function buildPayload(db: Kysely<Database>, ev: Claimed, now: Date): Promise<string | null> {
  const job = await db.selectFrom("scrub_jobs").selectAll().where("id", "=", ev.job_id).where("user_id", "=", ev.user_id).executeTakeFirst();
  if (!job) return null;
  const files = await db.selectFrom("result_files").selectAll().where("job_id", "=", job.id).execute();
  return JSON.stringify({
    id: ev.id,
    type: ev.event,
    created_at: now.toISOString(),
    data: { job: serializeJob(job, files, appUrl()) },
  });
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * One HTTP POST on a fresh connection; never follows redirects (a 3xx is logged as a failed attempt);
 * refuses private targets in production: literal addresses before connecting, host names on every DNS
 * answer (`lookup`). A refused target costs no network traffic and logs the same row whatever listens there.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  { lookup = guardedLookup }: { lookup?: typeof guardedLookup } = {},
): Promise<SendResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const problem = webhookUrlProblem(url);
    if (problem) return resolve({ statusCode: null, error: problem, durationMs: 0 });
    const target = new URL(url);
    const client = target.protocol === "https:" ? https : http;
    let settled = false;
    const timer: { deadline?: NodeJS.Timeout } = {};
    const done = (r: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer.deadline);
      resolve({ ...r, durationMs: Date.now() - started });
    };
    const req = client.request(
      target,
      {
        method: "POST",
        agent: false,
        lookup,
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        timeout: timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        res.resume();
        res.on("end", () => done({ statusCode: status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` }));
        res.on("error", (e) => done({ statusCode: status, error: e.message }));
      },
    );
    req.on("timeout", () => {
      req.destroy(new Error(`timed out after ${timeoutMs} ms`));
    });
    req.on("error", (e) => done({ statusCode: null, error: e.message }));
    // A whole-exchange deadline too: a receiver trickling bytes would keep the idle timeout from firing.
    timer.deadline = setTimeout(() => req.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    req.end(body);
  });
}

/** Delivers due events once; returns how many attempts were made. */
export async function deliverDueWebhooks(db: Kysely<Database>, { now = new Date(), limit = 10 } = {}): Promise<number> {
  const cfg = webhookConfig();
  const claimed = await claimDue(db, now, limit);
  // Deliveries of one round run side by side: one slow receiver does not hold up the others.
  await Promise.all(
    claimed.map((ev) =>
      deliverOne(db, ev, now, cfg).catch(async (e) => {
        // Our side failed (not the receiver): retry later like a failed attempt, give up after the maximum.
        console.warn(`[webhooks] event ${ev.id}: ${e instanceof Error ? e.message : e}`);
        const giveUp = ev.attempts >= cfg.WEBHOOK_MAX_ATTEMPTS;
        await db
          .updateTable("webhook_events")
          .set(
            giveUp
              ? { status: "failed", lease_until: null, finished_at: now }
              : { lease_until: null, next_attempt_at: new Date(now.getTime() + backoffMs(ev.attempts, cfg.WEBHOOK_RETRY_BASE_MS)) },
          )
          .where("id", "=", ev.id)
          .execute()
          .catch(() => undefined);
      }),
    ),
  );
  return claimed.length;
}

async function deliverOne(db: Kysely<Database>, ev: Claimed, now: Date, cfg: ReturnType<typeof webhookConfig>): Promise<void> {
  const integration = await db
    .selectFrom("integrations")
    .select(["webhook_url", "webhook_secret_enc", "webhook_enabled", "auto_retry_enabled", "deleted_at"])
    .where("id", "=", ev.integration_id)
    .executeTakeFirst();
  if (!integration || integration.deleted_at || !integration.webhook_enabled || !integration.webhook_url || !integration.webhook_secret_enc) {
    // Notifications were turned off (or the integration removed) after the job finished: nothing is sent.
    await db.updateTable("webhook_events").set({ status: "failed", lease_until: null, finished_at: now }).where("id", "=", ev.id).execute();
    return;
  }
  let payload = ev.payload;
  if (!payload) {
    payload = await buildPayload(db, ev, now);
    if (!payload) {
      await db.updateTable("webhook_events").set({ status: "failed", lease_until: null, finished_at: now }).where("id", "=", ev.id).execute();
      return;
    }
    await db.updateTable("webhook_events").set({ payload }).where("id", "=", ev.id).execute();
  }
  const secret = await openSecret(db, integration.webhook_secret_enc);
  const timestamp = Math.floor(now.getTime() / 1000);
  const result = await postWebhook(
    integration.webhook_url,
    payload,
    {
      "Content-Type": "application/json",
      "User-Agent": "DataPurgingTool-Webhooks/1.0",
      "X-Webhook-Id": ev.id,
      "X-Webhook-Event": ev.event,
      "X-Webhook-Attempt": String(ev.attempts),
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: `sha256=${signWebhook(secret, timestamp, payload)}`,
    },
    cfg.WEBHOOK_TIMEOUT_MS,
  );
  const ok = result.error === null;
  metrics().webhookDeliveries.inc({ outcome: ok ? "delivered" : "failed" });
  const maxAttempts = integration.auto_retry_enabled ? cfg.WEBHOOK_MAX_ATTEMPTS : 1;
  const retry = !ok && ev.attempts < maxAttempts;
  const nextAttemptAt = retry ? new Date(now.getTime() + backoffMs(ev.attempts, cfg.WEBHOOK_RETRY_BASE_MS)) : null;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("webhook_deliveries")
      .values({
        event_id: ev.id,
        integration_id: ev.integration_id,
        user_id: ev.user_id,
        event: ev.event,
        attempt: ev.attempts,
        url: integration.webhook_url!,
        status_code: result.statusCode,
        error: result.error ? result.error.slice(0, 500) : null,
        duration_ms: result.durationMs,
        next_attempt_at: nextAttemptAt,
      })
      .execute();
    await trx
      .updateTable("webhook_events")
      .set({
        status: ok ? "delivered" : retry ? "pending" : "failed",
        max_attempts: maxAttempts,
        lease_until: null,
        ...(nextAttemptAt ? { next_attempt_at: nextAttemptAt } : { finished_at: now }),
      })
      .where("id", "=", ev.id)
      .execute();
  });
}

/** One dispatcher round: enqueue finished jobs, deliver what is due, tidy old rate-limit windows. */
export async function runWebhookTick(db: Kysely<Database>, now: Date = new Date()): Promise<void> {
  await enqueueWebhookEvents(db, now);
  // Keep going while there are due events (each round claims at most 10; retries are due later).
  while ((await deliverDueWebhooks(db, { now })) > 0);
}

/** Delivery log and finished events are kept for 30 days. */
export async function purgeOldDeliveries(db: Kysely<Database>, now: Date = new Date()): Promise<void> {
  const cutoff = new Date(now.getTime() - 30 * 24 * 3600_000);
  await db.deleteFrom("webhook_deliveries").where("created_at", "<", cutoff).execute();
  await db.deleteFrom("webhook_events").where("status", "<>", "pending").where("finished_at", "<", cutoff).execute();
}

let lastPurge = 0;

/** Starts the polling loop in this process (idempotent). */
export function startWebhookDispatcher(getDb: () => Promise<Kysely<Database>>): void {
  singleton("webhookDispatcher", () => {
    const { WEBHOOK_POLL_MS } = webhookConfig();
    let running = false;
    const timer = setInterval(async () => {
      if (running) return;
      running = true;
      try {
        const db = await getDb();
        await runWebhookTick(db);
        if (Date.now() - lastPurge > 10 * 60_000) {
          lastPurge = Date.now();
          await purgeOldRateLimitWindows(db);
          await purgeOldDeliveries(db);
        }
      } catch (e) {
        console.warn(`[webhooks] dispatcher round failed: ${e instanceof Error ? e.message : e}`);
      } finally {
        running = false;
      }
    }, WEBHOOK_POLL_MS);
    timer.unref();
    return timer;
  });
}

export function stopWebhookDispatcher(): void {
  const g = globalThis as unknown as { __singletons?: Map<string, unknown> };
  const timer = g.__singletons?.get("webhookDispatcher") as NodeJS.Timeout | undefined;
  if (timer) clearInterval(timer);
  g.__singletons?.delete("webhookDispatcher");
}
