/** The standalone scrub service's wiring and HTTP entry (started by index.ts). */
import path from "node:path";
import { migrateToLatest, openDatabase } from "../../db/client";
import { listenHttp } from "./http";
import { readGauges } from "./ops/gauges";
import { bridgeConsoleToLog } from "./ops/log";
import { metrics } from "./ops/metrics";
import { hugePagesOfThisProcess } from "./huge-pages";
import { createInProcessScrubService } from "./in-process";
import { describeRedisTarget, redisTargetFromEnv } from "./lists/redis-client";

function numberEnv(name: string): number | undefined {
  const v = process.env[name];
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number (got "${v}").`);
  return n;
}

function describeLists(): string {
  const t = redisTargetFromEnv();
  return t ? describeRedisTarget(t) : "embedded index";
}

async function main(): Promise<void> {
  process.env.DPT_SERVICE_NAME ??= "scrub-service";
  if (process.env.LOG_PRETTY !== "1") bridgeConsoleToLog();
  const token = process.env.SCRUB_SERVICE_TOKEN;
  if (!token || token.length < 16) throw new Error("SCRUB_SERVICE_TOKEN (at least 16 characters) is required.");
  const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
  const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  await migrateToLatest(handle.db);
  const service = await createInProcessScrubService({
    handle,
    dataDir,
    redis: redisTargetFromEnv(),
    redisPrefix: process.env.SCRUB_REDIS_PREFIX,
    leaseMs: numberEnv("SCRUB_LEASE_MS"),
    threads: numberEnv("SCRUB_THREADS"),
    batchBytes: numberEnv("SCRUB_BATCH_BYTES"),
  });
  metrics().setGaugeSource(() => readGauges(handle.db));
  metrics().setReadinessSource(async () => !stopping && (await service.ready()).status === "ready");
  let stopping = false;
  const port = Number(process.env.SCRUB_SERVICE_PORT ?? 3100);
  const server = await listenHttp(service, { handle, dataDir, token, port, stopping: () => stopping });
  console.log(
    `[scrub-service] listening on :${port}; database ${process.env.DATABASE_URL ? "PostgreSQL" : `PGlite (${dataDir})`}; ` +
      `lists ${describeLists()}; memory ${hugePagesOfThisProcess()}`,
  );
  // SIGTERM: /readyz answers 503 at once; after SHUTDOWN_GRACE_MS new requests stop, running jobs are
  // handed back to the queue with their lease released (another replica takes them at once), pools close.
  const graceMs = numberEnv("SHUTDOWN_GRACE_MS") ?? 0;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[scrub-service] ${signal}: shutting down (readiness 503; closing in ${graceMs} ms)`);
    if (graceMs > 0) await new Promise((r) => setTimeout(r, graceMs));
    const closed = server.close();
    await service.close();
    await closed;
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
