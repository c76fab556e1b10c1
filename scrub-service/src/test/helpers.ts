/** Test helpers for the scrub engine: databases, users, lists, services. */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DbHandle } from "db/client";
import { createInProcessScrubService, type InProcessOptions, type InProcessScrubService } from "../in-process";
import { parseClusterNodes, type RedisTarget } from "../lists/redis-client";
import { RedisListStore } from "../lists/redis-store";

export function tmpDir(label = "scrub"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`));
}

export async function createUser(handle: DbHandle): Promise<string> {
  const row = await handle.db
    .insertInto("users")
    .values({
      email: `u${crypto.randomBytes(5).toString("hex")}@example.com`,
      first_name: "Test",
      last_name: "User",
      company: "Co",
      phone_number: "",
      password_hash: "x",
      role: "NormalUser",
      status: "Active",
      email_confirmed: true,
    } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function createContainer(handle: DbHandle, userId: string, name = "c"): Promise<number> {
  const row = await handle.db
    .insertInto("lists")
    .values({ kind: "container", user_id: userId, name, description: "" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function adminListIds(handle: DbHandle): Promise<{ litigation: number; dnc: number }> {
  const rows = await handle.db.selectFrom("lists").select(["id", "kind"]).where("kind", "in", ["litigation", "dnc"]).execute();
  return {
    litigation: rows.find((r) => r.kind === "litigation")!.id,
    dnc: rows.find((r) => r.kind === "dnc")!.id,
  };
}

export const REDIS_URL = process.env.REDIS_URL;
/** A Redis Cluster's nodes (scripts/redis-cluster.sh start; .ci/run exports it). */
export const REDIS_CLUSTER_NODES = process.env.REDIS_CLUSTER_NODES;
export type StoreKind = "embedded" | "redis" | "cluster";
/**
 * Redis tests run when REDIS_URL is set, cluster tests when REDIS_CLUSTER_NODES is; under CI both are
 * (global setup refuses CI without REDIS_URL, lists/redis-cluster.test.ts fails without the cluster).
 */
export const storeKinds: StoreKind[] = ["embedded", ...(REDIS_URL ? (["redis"] as const) : []), ...(REDIS_CLUSTER_NODES ? (["cluster"] as const) : [])];

/** The Redis of a store kind (null: embedded). */
export function redisOf(kind: StoreKind): RedisTarget | null {
  if (kind === "redis") return { kind: "node", url: REDIS_URL! };
  if (kind === "cluster") return parseClusterNodes(REDIS_CLUSTER_NODES!);
  return null;
}

/** A Redis list store of a kind with a fresh key prefix. */
export function newRedisStore(kind: "redis" | "cluster", extra: { scanBelowKeys?: number } = {}): RedisListStore {
  return new RedisListStore({ target: redisOf(kind)!, prefix: uniquePrefix(), ...extra });
}

export function uniquePrefix(): string {
  return `test:${process.pid}:${crypto.randomBytes(4).toString("hex")}:`;
}

export async function startService(handle: DbHandle, kind: StoreKind, extra: Partial<InProcessOptions> = {}): Promise<InProcessScrubService> {
  return createInProcessScrubService({
    handle,
    dataDir: extra.dataDir ?? tmpDir("data"),
    redis: redisOf(kind),
    redisPrefix: kind !== "embedded" ? uniquePrefix() : undefined,
    threads: 2,
    listWaitMs: 0,
    progressMs: 50,
    storeRetryDelaysMs: [10, 20], // two quick retries: a test's store is down for good or up
    ...extra,
  });
}

/** Deletes the Redis keys of a test service. */
export async function cleanupService(s: InProcessScrubService): Promise<void> {
  await s.close().catch(() => {});
  if (s.store instanceof RedisListStore) {
    const fresh = new RedisListStore({ target: s.store.target, prefix: s.store.prefix });
    await fresh.clearAll();
    await fresh.close();
  }
}
