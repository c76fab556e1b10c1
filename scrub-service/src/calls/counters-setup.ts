/**
 * Which call counters a process keeps (decision 196), beside its lists: Redis (one node, Sentinel's primary or a
 * cluster) when the lists live there, the embedded counters with the embedded database (PGlite: one process writes
 * every record), none with PostgreSQL and the embedded index (several processes may write records there, and no one
 * process's memory would see them all: the lookup reads the database, decision 187).
 */
import type { DbHandle } from "db/client";
import type { RedisTarget } from "../lists/redis-client";
import { useCallCounters, type CallCounterStore } from "./counters";
import { EmbeddedCallCounters } from "./counters-embedded";
import { RedisCallCounters } from "./counters-redis";

const made = new WeakMap<object, CallCounterStore | null>();

/** The counters of the database `handle` (made once, registered so that every record written through it feeds them). */
export function callCountersFor(handle: DbHandle, o: { redis: RedisTarget | null; prefix?: string; rebuild?: boolean }): CallCounterStore | null {
  if (made.has(handle.db)) return made.get(handle.db)!;
  const store: CallCounterStore | null = o.redis
    ? new RedisCallCounters({ target: o.redis, prefix: o.prefix, db: handle.db, autoRebuild: o.rebuild !== false })
    : handle.driver.kind === "pglite"
      ? new EmbeddedCallCounters(handle.db)
      : null;
  made.set(handle.db, store);
  useCallCounters(handle.db, store);
  // built from the database in the background; lookups read the database until then
  if (o.rebuild !== false) void store?.requestRebuild();
  return store;
}

/** Closes the handle's counters (before the database closes). */
export async function closeCallCountersOf(handle: DbHandle): Promise<void> {
  const store = made.get(handle.db);
  made.delete(handle.db);
  useCallCounters(handle.db, null);
  await store?.close();
}

/** Puts `store` in place of the handle's counters (tests: a store that does not answer); returns the one it replaced. */
export function replaceCallCountersOf(handle: DbHandle, store: CallCounterStore | null): CallCounterStore | null {
  const before = made.get(handle.db) ?? null;
  made.set(handle.db, store);
  useCallCounters(handle.db, store);
  return before;
}
