import { sql, type Kysely } from "kysely";
import type { Database, DialerLastRequestsTable } from "db/schema";
import { TtlCache } from "scrub-service/domain";

/*
 * Dialer integrations (issue #48, migration 0029): a campaign's settings for the DNCScrub-compatible scrub, and the
 * last request each compatibility endpoint received per customer (what the Integrations page's "test connection"
 * shows).
 */

type Db = Kysely<Database>;

export type DialerEndpoint = DialerLastRequestsTable["endpoint"];
export const DIALER_ENDPOINTS: readonly DialerEndpoint[] = ["scrub", "check", "calls"];

export interface DialerCampaign {
  campaignId: string;
  containerId: number | null;
  containerName: string | null;
  exemptionListId: number | null;
  exemptionListName: string | null;
}

/** The customer's settings of one campaign (its container and exemption list still theirs and live), or undefined. */
export async function findDialerCampaign(db: Db, userId: string, campaignId: string): Promise<DialerCampaign | undefined> {
  return (await listDialerCampaigns(db, userId, campaignId))[0];
}

/**
 * How long the compatibility layer's hot path (the yes/no check, the compatible scrub) may use a campaign's settings
 * read for an earlier request: the live lookup's list rows' second (LOOKUP_LISTS_CACHE_MS, decision 111). A change
 * through this process is seen at once (saveDialerCampaign and deleteDialerCampaign forget them); one written by another
 * process, or a container or exemption list deleted, within that second (a deleted container then answers 404: the
 * check says 1).
 */
export const DIALER_CAMPAIGN_CACHE_MS = 1000;
const campaignCache = new TtlCache<string, DialerCampaign | null>(DIALER_CAMPAIGN_CACHE_MS);

/** findDialerCampaign, reused for DIALER_CAMPAIGN_CACHE_MS (decision 196: no database read per check). */
export async function findDialerCampaignCached(db: Db, userId: string, campaignId: string): Promise<DialerCampaign | undefined> {
  const key = `${userId}\u0000${campaignId}`;
  const hit = campaignCache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const found = await findDialerCampaign(db, userId, campaignId);
  campaignCache.set(key, found ?? null);
  return found;
}

/** Forgets every cached campaign setting (a change through this process; tests move time with the cache's clock). */
export function forgetDialerCampaigns(): void {
  campaignCache.clear();
}

/** The campaign cache itself (tests set its clock). */
export const dialerCampaignCache = campaignCache;

export async function listDialerCampaigns(db: Db, userId: string, campaignId?: string): Promise<DialerCampaign[]> {
  let q = db
    .selectFrom("dialer_campaigns as c")
    .leftJoin("lists as l", (j) => j.onRef("l.id", "=", "c.container_id").on("l.user_id", "=", userId).on("l.deleted_at", "is", null))
    .leftJoin("exemption_lists as e", (j) => j.onRef("e.id", "=", "c.exemption_list_id").on("e.user_id", "=", userId))
    .select(["c.campaign_id", "l.id as container_id", "l.name as container_name", "e.id as exemption_list_id", "e.name as exemption_list_name"])
    .where("c.user_id", "=", userId);
  if (campaignId !== undefined) q = q.where("c.campaign_id", "=", campaignId);
  const rows = await q.orderBy("c.campaign_id").execute();
  return rows.map((r) => ({
    campaignId: r.campaign_id,
    containerId: r.container_id ?? null,
    containerName: r.container_name ?? null,
    exemptionListId: r.exemption_list_id ?? null,
    exemptionListName: r.exemption_list_name ?? null,
  }));
}

/** Creates or replaces a campaign's settings (the caller checked the container and list are the customer's). */
export async function saveDialerCampaign(
  db: Db,
  userId: string,
  c: { campaignId: string; containerId: number | null; exemptionListId: number | null },
): Promise<void> {
  await db
    .insertInto("dialer_campaigns")
    .values({ user_id: userId, campaign_id: c.campaignId, container_id: c.containerId, exemption_list_id: c.exemptionListId })
    .onConflict((oc) =>
      oc.columns(["user_id", "campaign_id"]).doUpdateSet({ container_id: c.containerId, exemption_list_id: c.exemptionListId, updated_at: sql<Date>`now()` }),
    )
    .execute();
  forgetDialerCampaigns();
}

export async function deleteDialerCampaign(db: Db, userId: string, campaignId: string): Promise<void> {
  await db.deleteFrom("dialer_campaigns").where("user_id", "=", userId).where("campaign_id", "=", campaignId).execute();
  forgetDialerCampaigns();
}

export interface DialerRequest {
  endpoint: DialerEndpoint;
  at: string;
  method: string;
  status: number;
  outcome: "answered" | "refused";
  detail: string;
  numbers: number | null;
  campaignId: string | null;
}

/** When this process last wrote each (user, endpoint): answered requests are written at most once a second. */
const writtenAt = new Map<string, number>();
export const LAST_REQUEST_WRITE_MS = 1000;

/**
 * Keeps a compatibility request as the customer's last one of its endpoint. A refused request is always written (the
 * administrator needs its reason); an answered one at most once a second per endpoint (the yes/no check may be asked
 * hundreds of times a second). Never fails the request: a write that fails is logged.
 */
export async function recordDialerRequest(db: Db, userId: string, r: Omit<DialerRequest, "at">, nowMs = Date.now()): Promise<void> {
  const k = `${userId}:${r.endpoint}`;
  if (r.outcome === "answered" && (writtenAt.get(k) ?? 0) > nowMs - LAST_REQUEST_WRITE_MS) return;
  if (writtenAt.size > 10_000) writtenAt.clear();
  writtenAt.set(k, nowMs);
  const row = {
    user_id: userId,
    endpoint: r.endpoint,
    at: new Date(nowMs),
    method: r.method.slice(0, 10),
    status: r.status,
    outcome: r.outcome,
    detail: r.detail.slice(0, 500),
    numbers: r.numbers,
    campaign_id: r.campaignId ? r.campaignId.slice(0, 100) : null,
  };
  try {
    await db
      .insertInto("dialer_last_requests")
      .values(row)
      .onConflict((oc) =>
        oc.columns(["user_id", "endpoint"]).doUpdateSet({
          at: row.at,
          method: row.method,
          status: row.status,
          outcome: row.outcome,
          detail: row.detail,
          numbers: row.numbers,
          campaign_id: row.campaign_id,
        }),
      )
      .execute();
  } catch (e) {
    console.error("[compat] could not keep the last request:", e);
  }
}

/** Forgets the write throttle (tests). */
export function forgetDialerRequestWrites(): void {
  writtenAt.clear();
}

export async function lastDialerRequests(db: Db, userId: string): Promise<DialerRequest[]> {
  const rows = await db.selectFrom("dialer_last_requests").selectAll().where("user_id", "=", userId).orderBy("endpoint").execute();
  return rows.map((r) => ({
    endpoint: r.endpoint,
    at: new Date(r.at).toISOString(),
    method: r.method,
    status: r.status,
    outcome: r.outcome,
    detail: r.detail,
    numbers: r.numbers,
    campaignId: r.campaign_id,
  }));
}
