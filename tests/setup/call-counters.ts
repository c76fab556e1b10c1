import crypto from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { EmbeddedCallCounters, parseClusterNodes, RedisCallCounters, useCallCounters, type CallCounterStore } from "scrub-service";
import type { DbHandle } from "db/client";
import type { TestDbKind } from "./db";

/** Where a test's live call counters live (decision 196); `database`: none, the lookup reads PostgreSQL/PGlite. */
export type CounterKind = "database" | "embedded" | "redis" | "cluster";

/**
 * The counter kinds to run against a database kind: the database path always; the embedded counters with PGlite (the
 * only database they are made for); Redis and the cluster (when configured) beside PostgreSQL when there is one, else
 * beside PGlite.
 */
export function counterKinds(db: TestDbKind): CounterKind[] {
  const out: CounterKind[] = ["database"];
  if (db === "pglite") out.push("embedded");
  const beside = process.env.DATABASE_URL ? db === "postgres" : true;
  if (beside && process.env.REDIS_URL) out.push("redis");
  if (beside && process.env.REDIS_CLUSTER_NODES) out.push("cluster");
  return out;
}

/** A new store of that kind for the database (Redis: a prefix of its own), not registered and not built. */
export function makeCounters(
  kind: CounterKind,
  handle: DbHandle,
  o: { prefix?: string; now?: () => number; reconnectMaxMs?: number } = {},
): CallCounterStore | null {
  const prefix = o.prefix ?? `tc${crypto.randomBytes(4).toString("hex")}:`;
  if (kind === "embedded") return new EmbeddedCallCounters(handle.db, { now: o.now });
  if (kind === "redis")
    return new RedisCallCounters({
      target: { kind: "node", url: process.env.REDIS_URL! },
      prefix,
      db: handle.db,
      now: o.now,
      reconnectMaxMs: o.reconnectMaxMs,
    });
  if (kind === "cluster") return new RedisCallCounters({ target: parseClusterNodes(process.env.REDIS_CLUSTER_NODES!), prefix, db: handle.db, now: o.now });
  return null;
}

/** Removes a store's keys (Redis) and closes it. */
export async function dropCounters(store: CallCounterStore | null): Promise<void> {
  if (store instanceof RedisCallCounters) await store.clear().catch(() => {});
  await store?.close();
}

/**
 * Gives the test file's database live counters of `kind`, registered (every record written through the database feeds
 * them, every lookup reads them) and built; removed after the file.
 */
export function useCounters(kind: CounterKind, handle: () => DbHandle): { counters: () => CallCounterStore | null } {
  let store: CallCounterStore | null = null;
  beforeAll(async () => {
    store = makeCounters(kind, handle());
    useCallCounters(handle().db, store);
    await store?.rebuild();
  });
  afterAll(async () => {
    useCallCounters(handle().db, null);
    await dropCounters(store);
  });
  return { counters: () => store };
}
