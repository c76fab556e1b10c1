import path from "node:path";
import { type ScrubService, describeRedisTarget, redisTargetFromEnv, type RedisTarget } from "scrub-service";
import { dbHandle } from "./db.server";
import { engineSettings, env } from "./env.server";
import { singleton } from "./singleton.server";

/** The list store's Redis (REDIS_CLUSTER_NODES, else REDIS_SENTINELS, else REDIS_URL), or null for the embedded index. */
export function listRedis(): RedisTarget | null {
  const e = env();
  return redisTargetFromEnv({
    REDIS_URL: e.REDIS_URL,
    REDIS_CLUSTER_NODES: e.REDIS_CLUSTER_NODES,
    REDIS_SENTINELS: e.REDIS_SENTINELS,
    REDIS_SENTINEL_NAME: e.REDIS_SENTINEL_NAME,
    REDIS_SENTINEL_PASSWORD: e.REDIS_SENTINEL_PASSWORD,
  });
}

/**
 * The process's scrub service: in-process (sharing the app's database handle, so one process owns the
 * PGlite directory) when SCRUB_SERVICE_URL is unset, an HTTP client of the scrub service when it is set.
 */
export function getScrubService(): Promise<ScrubService> {
  return singleton("scrub-service", async () => {
    const e = env();
    if (e.SCRUB_SERVICE_URL) {
      const { createHttpScrubClient } = await import("scrub-service/http-client");
      return createHttpScrubClient({ url: e.SCRUB_SERVICE_URL, token: e.SCRUB_SERVICE_TOKEN ?? "" });
    }
    const { createInProcessScrubService } = await import("scrub-service/in-process");
    return createInProcessScrubService({
      handle: await dbHandle(),
      dataDir: path.resolve(e.DATA_DIR),
      redis: listRedis(),
      config: engineSettings(),
      redisPrefix: engineSettings().SCRUB_REDIS_PREFIX,
    });
  });
}

/**
 * Embedded mode: the CLI cannot open the PGlite directory this process holds, so the in-process service
 * also listens on a Unix socket in DATA_DIR (owner-only) for `npm run scrub` / `npm run lists`.
 */
export async function startLocalScrubSocket(): Promise<void> {
  const e = env();
  if (e.SCRUB_SERVICE_URL || e.DATABASE_URL) return;
  const service = await getScrubService();
  try {
    await singleton("scrub-socket", async () => {
      const { listenLocalSocket } = await import("scrub-service/local-socket");
      return listenLocalSocket(service, { handle: await dbHandle(), dataDir: path.resolve(e.DATA_DIR) });
    });
  } catch (err) {
    // Not fatal: the web app works; only the CLI can't reach this server's service.
    console.warn(`[scrub] no CLI socket in ${e.DATA_DIR}: ${(err as Error).message}`);
    const g = globalThis as unknown as { __singletons?: Map<string, unknown> };
    g.__singletons?.delete("scrub-socket");
  }
}

export async function stopScrubService(): Promise<void> {
  const g = globalThis as unknown as { __singletons?: Map<string, unknown> };
  const sock = g.__singletons?.get("scrub-socket") as Promise<{ close(): Promise<void> }> | undefined;
  await (await sock?.catch(() => undefined))?.close();
  const svc = g.__singletons?.get("scrub-service") as Promise<ScrubService> | undefined;
  await (await svc?.catch(() => undefined))?.close();
}

/**
 * At start, with Redis configured: says in the log at once when the list store does not answer (scrubs
 * then fail closed with a human message to customers) or holds stale lists, with the command that fixes it.
 * Never throws: the web app serves what it can without Redis.
 */
export async function reportListStoreAtStart(service: ScrubService, redis: string | RedisTarget, waitMs = 5000): Promise<"ok" | "stale" | "unreachable"> {
  // never the URL itself: it may hold a password
  const where = describeRedisTarget(typeof redis === "string" ? { kind: "node", url: redis } : redis);
  let timer: NodeJS.Timeout | undefined;
  try {
    const status = await Promise.race([
      service.listStoreStatus(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${waitMs / 1000} s`)), waitMs);
      }),
    ]);
    const stale = status.filter((s) => s.storeVersion !== s.version);
    if (stale.length === 0) return "ok";
    const old = stale.filter((s) => s.note);
    console.warn(
      `[boot] ${where} holds no current copy of ${stale.length} list(s) (ids ${stale.map((s) => s.listId).join(", ")}); ` +
        (old.length ? `list(s) ${old.map((s) => s.listId).join(", ")} are in an older key layout; ` : "") +
        "scrubs using them fail until you run `npm run lists -- rebuild`.",
    );
    return "stale";
  } catch (e) {
    console.error(
      `[boot] the list store (${where}) is unreachable: ${e instanceof Error ? e.message : e}. Scrubs fail (customers are asked ` +
        "to retry) until it answers; then run `npm run lists -- rebuild`.",
    );
    return "unreachable";
  } finally {
    clearTimeout(timer);
  }
}
