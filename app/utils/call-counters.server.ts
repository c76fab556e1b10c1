import { callCountersFor, closeCallCountersOf, type CallCounterStore } from "scrub-service";
import { dbHandle } from "./db.server";
import { engineSettings } from "./env.server";
import { listRedis } from "./scrub.server";

/**
 * The process's live call counters (decision 196): beside the lists (Redis or Redis Cluster when they live there, this
 * process's memory with PGlite, none with PostgreSQL and the embedded index), registered for the database so that every
 * record written through it feeds them. Made at boot; the routes that write or read call records ask for it too.
 */
export async function getCallCounters(): Promise<CallCounterStore | null> {
  return callCountersFor(await dbHandle(), { redis: listRedis(), prefix: engineSettings().SCRUB_REDIS_PREFIX });
}

export async function closeCallCounters(): Promise<void> {
  const handle = await dbHandle().catch(() => undefined);
  if (handle) await closeCallCountersOf(handle);
}
