/** The standalone scrub service's wiring and HTTP entry (started by index.ts). */
import path from "node:path";
import { migrateToLatest, openDatabase } from "db/client";
import { callCountersFor, closeCallCountersOf } from "./calls/counters-setup";
import { parseEngineConfig, useEngineConfig } from "./config";
import { listenHttp } from "./http";
import { readGauges } from "./ops/gauges";
import { bridgeConsoleToLog } from "./ops/log";
import { metrics } from "./ops/metrics";
import { hugePagesOfThisProcess } from "./huge-pages";
import { createInProcessScrubService } from "./in-process";
import { describeRedisTarget, redisTargetFromEnv } from "./lists/redis-client";

async function main(): Promise<void> {
  // The one read of the environment: checked here, at start, and passed down (config.ts, decision 188)
  const parsed = parseEngineConfig(process.env);
  const config = useEngineConfig({ ...parsed, DPT_SERVICE_NAME: parsed.DPT_SERVICE_NAME ?? "scrub-service" });
  if (config.LOG_PRETTY !== "1") bridgeConsoleToLog();
  const token = config.SCRUB_SERVICE_TOKEN;
  if (!token || token.length < 16) throw new Error("SCRUB_SERVICE_TOKEN (at least 16 characters) is required.");
  const dataDir = path.resolve(config.DATA_DIR);
  const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
  await migrateToLatest(handle.db);
  const redis = redisTargetFromEnv(config);
  // call files imported here (POST /v1/call-files) feed the live counters beside the lists (decision 196)
  if (redis) callCountersFor(handle, { redis, prefix: config.SCRUB_REDIS_PREFIX });
  const service = await createInProcessScrubService({
    config,
    handle,
    dataDir,
    redis,
    redisPrefix: config.SCRUB_REDIS_PREFIX,
    leaseMs: config.SCRUB_LEASE_MS,
    threads: config.SCRUB_THREADS,
    batchBytes: config.SCRUB_BATCH_BYTES,
  });
  metrics().setGaugeSource(() => readGauges(handle.db));
  metrics().setReadinessSource(async () => !stopping && (await service.ready()).status === "ready");
  let stopping = false;
  const port = config.SCRUB_SERVICE_PORT;
  const server = await listenHttp(service, { handle, dataDir, token, port, stopping: () => stopping });
  console.log(
    `[scrub-service] listening on :${port}; database ${config.DATABASE_URL ? "PostgreSQL" : `PGlite (${dataDir})`}; ` +
      `lists ${redis ? describeRedisTarget(redis) : "embedded index"}; memory ${hugePagesOfThisProcess()}`,
  );
  // SIGTERM: /readyz answers 503 at once; after SHUTDOWN_GRACE_MS new requests stop, running jobs are
  // handed back to the queue with their lease released (another replica takes them at once), pools close.
  const graceMs = config.SHUTDOWN_GRACE_MS ?? 0;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[scrub-service] ${signal}: shutting down (readiness 503; closing in ${graceMs} ms)`);
    if (graceMs > 0) await new Promise((r) => setTimeout(r, graceMs));
    const closed = server.close();
    await service.close();
    await closed;
    await closeCallCountersOf(handle).catch(() => undefined);
    await handle.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((e) => {
  console.error(`[scrub-service] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
