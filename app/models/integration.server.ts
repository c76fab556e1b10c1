import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database, RoleName, WebhookEventStatus, WebhookEventType } from "db/schema";
import { randomToken, sha256 } from "~/utils/crypto.server";
import { sealSecret } from "~/utils/secret-box.server";
import { isUuid } from "~/utils/ids";
import { ownContainers } from "~/models/container.server";
import { TtlCache } from "scrub-service/domain";

type Db = Kysely<Database>;

export const API_KEY_PREFIX = "dpt_";
export const WEBHOOK_SECRET_PREFIX = "whsec_";
/** Most integrations and live keys one user may hold (keeps lists and lookups bounded). */
export const MAX_INTEGRATIONS_PER_USER = 25;
export const MAX_KEYS_PER_INTEGRATION = 10;

export type ToggleName = "webhook_enabled" | "rate_limit_enabled" | "auto_retry_enabled";

export interface IntegrationSummary {
  id: string;
  name: string;
  description: string;
  containerId: number | null;
  containerName: string | null;
  webhookUrl: string | null;
  webhookSecretPrefix: string | null;
  webhookEnabled: boolean;
  rateLimitEnabled: boolean;
  autoRetryEnabled: boolean;
  activeKeys: number;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface ApiKeySummary {
  id: string;
  integrationId: string;
  name: string;
  prefix: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

export interface DeliverySummary {
  id: string;
  integrationId: string;
  integrationName: string;
  event: WebhookEventType;
  attempt: number;
  url: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  nextAttemptAt: string | null;
  createdAt: string;
  jobId: string;
  eventStatus: WebhookEventStatus;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomToken()}`;
}

/** The customer's own live container with this id, or undefined (another user's container reads as absent). */
export async function findOwnContainer(db: Db, userId: string, containerId: number) {
  return ownContainers(db, userId).select(["id", "name", "size"]).where("id", "=", containerId).executeTakeFirst();
}

export async function listIntegrations(db: Db, userId: string): Promise<IntegrationSummary[]> {
  const rows = await db
    .selectFrom("integrations as i")
    .leftJoin("lists as l", (j) => j.onRef("l.id", "=", "i.container_id").on("l.deleted_at", "is", null))
    .select((eb) => [
      "i.id",
      "i.name",
      "i.description",
      "i.container_id",
      "l.name as container_name",
      "i.webhook_url",
      "i.webhook_secret_prefix",
      "i.webhook_enabled",
      "i.rate_limit_enabled",
      "i.auto_retry_enabled",
      "i.created_at",
      eb
        .selectFrom("api_keys as k")
        .select((e) => e.fn.countAll<string>().as("n"))
        .whereRef("k.integration_id", "=", "i.id")
        .where("k.revoked_at", "is", null)
        .as("active_keys"),
      eb
        .selectFrom("api_keys as k")
        .select((e) => e.fn.max("k.last_used_at").as("m"))
        .whereRef("k.integration_id", "=", "i.id")
        .as("last_used_at"),
    ])
    .where("i.user_id", "=", userId)
    .where("i.deleted_at", "is", null)
    .orderBy("i.created_at", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    containerId: r.container_id,
    containerName: r.container_name ?? null,
    webhookUrl: r.webhook_url,
    webhookSecretPrefix: r.webhook_secret_prefix,
    webhookEnabled: r.webhook_enabled,
    rateLimitEnabled: r.rate_limit_enabled,
    autoRetryEnabled: r.auto_retry_enabled,
    activeKeys: Number(r.active_keys ?? 0),
    lastUsedAt: iso((r.last_used_at as Date | null) ?? null),
    createdAt: iso(r.created_at)!,
  }));
}

export async function getIntegration(db: Db, { id, userId }: { id: string; userId: string }) {
  if (!isUuid(id)) return undefined;
  return db.selectFrom("integrations").selectAll().where("id", "=", id).where("user_id", "=", userId).where("deleted_at", "is", null).executeTakeFirst();
}

export async function countIntegrations(db: Db, userId: string): Promise<number> {
  const r = await db
    .selectFrom("integrations")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Creates an integration; returns the webhook secret in clear once (only when a webhook URL is given). */
export async function createIntegration(
  db: Db,
  input: { userId: string; name: string; description: string; containerId: number | null; webhookUrl: string | null },
): Promise<{ id: string; webhookSecret: string | null }> {
  const secret = input.webhookUrl ? newWebhookSecret() : null;
  const row = await db
    .insertInto("integrations")
    .values({
      user_id: input.userId,
      name: input.name,
      description: input.description,
      container_id: input.containerId,
      webhook_url: input.webhookUrl,
      webhook_secret_enc: secret ? await sealSecret(db, secret) : null,
      webhook_secret_prefix: secret ? secret.slice(0, WEBHOOK_SECRET_PREFIX.length + 4) : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, webhookSecret: secret };
}

/** Changes name, description, container and webhook URL; a new or changed URL gets a new secret (returned once). */
export async function updateIntegration(
  db: Db,
  input: { id: string; userId: string; name: string; description: string; containerId: number | null; webhookUrl: string | null },
): Promise<{ updated: boolean; webhookSecret: string | null }> {
  const current = await getIntegration(db, { id: input.id, userId: input.userId });
  if (!current) return { updated: false, webhookSecret: null };
  const urlChanged = (current.webhook_url ?? null) !== input.webhookUrl;
  const secret = input.webhookUrl && (urlChanged || !current.webhook_secret_enc) ? newWebhookSecret() : null;
  await db
    .updateTable("integrations")
    .set({
      name: input.name,
      description: input.description,
      container_id: input.containerId,
      webhook_url: input.webhookUrl,
      ...(secret ? { webhook_secret_enc: await sealSecret(db, secret), webhook_secret_prefix: secret.slice(0, WEBHOOK_SECRET_PREFIX.length + 4) } : {}),
      ...(input.webhookUrl ? {} : { webhook_secret_enc: null, webhook_secret_prefix: null }),
      updated_at: sql<Date>`now()`,
    })
    .where("id", "=", input.id)
    .where("user_id", "=", input.userId)
    .execute();
  forgetLookupKeys();
  return { updated: true, webhookSecret: secret };
}

export async function rotateWebhookSecret(db: Db, { id, userId }: { id: string; userId: string }): Promise<string | null> {
  if (!isUuid(id)) return null;
  const secret = newWebhookSecret();
  const res = await db
    .updateTable("integrations")
    .set({
      webhook_secret_enc: await sealSecret(db, secret),
      webhook_secret_prefix: secret.slice(0, WEBHOOK_SECRET_PREFIX.length + 4),
      updated_at: sql<Date>`now()`,
    })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .where("webhook_url", "is not", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1 ? secret : null;
}

export async function setIntegrationToggle(
  db: Db,
  { id, userId, toggle, on }: { id: string; userId: string; toggle: ToggleName; on: boolean },
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const res = await db
    .updateTable("integrations")
    .set({
      [toggle]: on,
      // Turning notifications on does not replay jobs that finished while they were off.
      ...(toggle === "webhook_enabled" && on ? { webhook_enabled_since: sql<Date>`now()` } : {}),
      updated_at: sql<Date>`now()`,
    })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  forgetLookupKeys();
  return Number(res.numUpdatedRows) === 1;
}

/** Soft-deletes the integration and revokes its keys at once. */
export async function deleteIntegration(db: Db, { id, userId }: { id: string; userId: string }): Promise<boolean> {
  if (!isUuid(id)) return false;
  // Inside a caller's transaction (the use case that also writes the audit row) or in one of its own.
  const inTransaction = <T>(fn: (trx: Db) => Promise<T>) => (db.isTransaction ? fn(db) : db.transaction().execute(fn));
  const deleted = await inTransaction(async (trx) => {
    const res = await trx
      .updateTable("integrations")
      .set({ deleted_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await trx
      .updateTable("api_keys")
      .set({ revoked_at: sql<Date>`now()` })
      .where("integration_id", "=", id)
      .where("revoked_at", "is", null)
      .execute();
    await trx
      .updateTable("webhook_events")
      .set({ status: "failed", finished_at: sql<Date>`now()` })
      .where("integration_id", "=", id)
      .where("status", "=", "pending")
      .execute();
    return true;
  });
  if (deleted) forgetLookupKeys(); // after the commit: a lookup in between would keep the old row
  return deleted;
}

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = `${API_KEY_PREFIX}${crypto.randomBytes(32).toString("base64url")}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 8), hash: sha256(key) };
}

/** Creates a key for one of the user's integrations; the key is returned in clear once and stored hashed. */
export async function createApiKey(
  db: Db,
  { userId, integrationId, name }: { userId: string; integrationId: string; name: string },
): Promise<{ id: string; key: string; prefix: string } | { error: "not_found" | "too_many" }> {
  const integration = await getIntegration(db, { id: integrationId, userId });
  if (!integration) return { error: "not_found" };
  const live = await db
    .selectFrom("api_keys")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("integration_id", "=", integrationId)
    .where("revoked_at", "is", null)
    .executeTakeFirstOrThrow();
  if (Number(live.n) >= MAX_KEYS_PER_INTEGRATION) return { error: "too_many" };
  const { key, prefix, hash } = generateApiKey();
  const row = await db
    .insertInto("api_keys")
    .values({ user_id: userId, integration_id: integrationId, name, prefix, key_hash: hash })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, key, prefix };
}

export async function listApiKeys(db: Db, userId: string): Promise<ApiKeySummary[]> {
  const rows = await db
    .selectFrom("api_keys as k")
    .innerJoin("integrations as i", "i.id", "k.integration_id")
    .select(["k.id", "k.integration_id", "k.name", "k.prefix", "k.last_used_at", "k.revoked_at", "k.created_at"])
    .where("k.user_id", "=", userId)
    .where("i.deleted_at", "is", null)
    .orderBy("k.created_at", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    integrationId: r.integration_id,
    name: r.name,
    prefix: r.prefix,
    lastUsedAt: iso(r.last_used_at),
    revokedAt: iso(r.revoked_at),
    createdAt: iso(r.created_at)!,
  }));
}

export async function renameApiKey(db: Db, { id, userId, name }: { id: string; userId: string; name: string }): Promise<boolean> {
  if (!isUuid(id)) return false;
  const res = await db.updateTable("api_keys").set({ name }).where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function revokeApiKey(db: Db, { id, userId }: { id: string; userId: string }): Promise<boolean> {
  if (!isUuid(id)) return false;
  const res = await db
    .updateTable("api_keys")
    .set({ revoked_at: sql<Date>`now()` })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  forgetLookupKeys();
  return Number(res.numUpdatedRows) === 1;
}

export interface ApiKeyOwner {
  keyId: string;
  userId: string;
  integrationId: string;
  containerId: number | null;
  rateLimitEnabled: boolean;
  revoked: boolean;
  lastUsedAt: Date | null;
  /** The key owner's role, and whether the account may use it (Active, not deleted). */
  role: RoleName;
  ownerActive: boolean;
}

/** The owner's current plan period, as findActivePeriod (usage.server.ts) reads it; null without one. */
export interface ApiKeyPeriod {
  startDate: Date;
  endDate: Date;
  planName: string;
  suppressionLimit: number | bigint | string;
  apiAccess: boolean;
}

/**
 * Looks a presented key up by its hash (the key itself is never stored), with its integration and owner: one
 * query per API request. `withPeriod` also reads the owner's active plan period in the same query (the live
 * lookup's plan gate and usage limit; the conditions are findActivePeriod's).
 */
export async function findApiKey(db: Db, presented: string): Promise<ApiKeyOwner | undefined>;
export async function findApiKey(
  db: Db,
  presented: string,
  opts: { withPeriod: true; now?: Date },
): Promise<(ApiKeyOwner & { period: ApiKeyPeriod | null }) | undefined>;
export async function findApiKey(db: Db, presented: string, opts: { withPeriod?: boolean; now?: Date } = {}) {
  const now = opts.now ?? new Date();
  const base = db
    .selectFrom("api_keys as k")
    .innerJoin("integrations as i", "i.id", "k.integration_id")
    .innerJoin("users as u", "u.id", "k.user_id")
    .select([
      "k.id",
      "k.user_id",
      "k.integration_id",
      "k.revoked_at",
      "k.last_used_at",
      "i.container_id",
      "i.rate_limit_enabled",
      "i.deleted_at",
      "u.role",
      "u.status",
      "u.deleted_at as user_deleted_at",
    ])
    .where("k.key_hash", "=", sha256(presented));
  const row = opts.withPeriod
    ? await base
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom("transactions as t")
              .innerJoin("plans as p", "p.id", "t.plan_id")
              .select([
                "t.start_date as period_start",
                "t.end_date as period_end",
                "t.plan_name as period_plan",
                "t.dnc_and_litigation_scrubs as period_limit",
                "p.api_access as period_api",
              ])
              .whereRef("t.user_id", "=", "k.user_id")
              .where("t.status", "in", ["paid", "active", "expired"])
              .where("t.start_date", "<=", now)
              .where("t.end_date", ">", now)
              .orderBy("t.start_date", "desc")
              .limit(1)
              .as("period"),
          (join) => join.onTrue(),
        )
        .select(["period.period_start", "period.period_end", "period.period_plan", "period.period_limit", "period.period_api"])
        .executeTakeFirst()
    : await base.executeTakeFirst();
  if (!row) return undefined;
  const owner: ApiKeyOwner = {
    keyId: row.id,
    userId: row.user_id,
    integrationId: row.integration_id,
    containerId: row.container_id,
    rateLimitEnabled: row.rate_limit_enabled,
    revoked: row.revoked_at !== null || row.deleted_at !== null,
    lastUsedAt: row.last_used_at,
    role: row.role,
    ownerActive: row.status === "Active" && row.user_deleted_at === null,
  };
  if (!opts.withPeriod) return owner;
  const p = row as typeof row & {
    period_start: Date | null;
    period_end: Date | null;
    period_plan: string | null;
    period_limit: number | bigint | string | null;
    period_api: boolean | null;
  };
  const period: ApiKeyPeriod | null =
    p.period_start && p.period_end
      ? {
          startDate: new Date(p.period_start),
          endDate: new Date(p.period_end),
          planName: p.period_plan!,
          suppressionLimit: p.period_limit!,
          apiAccess: !!p.period_api,
        }
      : null;
  return { ...owner, period };
}

/** How long the live lookup may answer from a key read earlier (decision 111). */
export const LOOKUP_KEY_CACHE_MS = 1000;

type LookupKey = ApiKeyOwner & { period: ApiKeyPeriod | null };
/** Exported for tests (its clock). */
export const lookupKeyCache = new TtlCache<string, LookupKey>(LOOKUP_KEY_CACHE_MS);

/**
 * findApiKey with the plan period for the live lookup, whose dialers ask hundreds of times a second: a key found
 * is kept for at most LOOKUP_KEY_CACHE_MS (never past its plan period's end), so a key costs one query a second,
 * not one a request. Revoking a key, deleting or changing an integration, or changing its owner's status or role
 * through this process forgets them at once; another app process sees such a change within that second.
 */
export async function findLookupKey(db: Db, presented: string): Promise<LookupKey | undefined> {
  const hash = sha256(presented);
  const cached = lookupKeyCache.get(hash);
  if (cached) return cached;
  const found = await findApiKey(db, presented, { withPeriod: true });
  if (found) lookupKeyCache.set(hash, found, found.period ? found.period.endDate.getTime() - Date.now() : LOOKUP_KEY_CACHE_MS);
  return found;
}

/** Forgets every key the live lookup kept (after a change to keys, integrations, users or plans). */
export function forgetLookupKeys(): void {
  lookupKeyCache.clear();
}

/** Marks a key used (at most once a minute per key, to keep writes off the hot path). */
export async function touchApiKey(db: Db, keyId: string): Promise<void> {
  await db
    .updateTable("api_keys")
    .set({ last_used_at: sql<Date>`now()` })
    .where("id", "=", keyId)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", sql<Date>`now() - interval '1 minute'`)]))
    .execute();
}

export async function listDeliveries(
  db: Db,
  { userId, integrationId, limit = 25 }: { userId: string; integrationId?: string; limit?: number },
): Promise<DeliverySummary[]> {
  let q = db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("integrations as i", "i.id", "d.integration_id")
    .innerJoin("webhook_events as e", "e.id", "d.event_id")
    .select([
      "d.id",
      "d.integration_id",
      "i.name as integration_name",
      "d.event",
      "d.attempt",
      "d.url",
      "d.status_code",
      "d.error",
      "d.duration_ms",
      "d.next_attempt_at",
      "d.created_at",
      "e.job_id",
      "e.status as event_status",
    ])
    .where("d.user_id", "=", userId)
    .orderBy("d.created_at", "desc")
    .orderBy("d.attempt", "desc")
    .limit(limit);
  if (integrationId) q = q.where("d.integration_id", "=", integrationId);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    integrationId: r.integration_id,
    integrationName: r.integration_name,
    event: r.event,
    attempt: r.attempt,
    url: r.url,
    statusCode: r.status_code,
    error: r.error,
    durationMs: r.duration_ms,
    nextAttemptAt: iso(r.next_attempt_at),
    createdAt: iso(r.created_at)!,
    jobId: r.job_id,
    eventStatus: r.event_status,
  }));
}
