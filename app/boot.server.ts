import { dbHandle } from "~/utils/db.server";
import { settleAfterResponse } from "~/utils/after-response.server";
import { engineSettings, env } from "~/utils/env.server";
import { ensureDemoAdmin, DEMO_ADMIN } from "./demo-admin.server";
import { startWebhookDispatcher, stopWebhookDispatcher } from "~/integrations/webhooks.server";
import { getDb } from "~/utils/db.server";
import { getScrubService, listRedis, reportListStoreAtStart, startLocalScrubSocket, stopScrubService } from "~/utils/scrub.server";
import { describeRedisTarget, flushLedger, hugePagesOfThisProcess } from "scrub-service";
import { startHousekeeping, stopHousekeeping } from "~/maintenance/housekeeping.server";
import { cleanPartialUploads } from "~/intake/upload-store.server";
import { stopLookupUsage } from "~/models/usage.server";
import { closeCallCounters, getCallCounters } from "~/utils/call-counters.server";

/**
 * Runs once before the server listens: configuration check, migrations, demo data.
 * Anything that fails here stops the process with a clear message instead of serving errors.
 */
export async function boot(): Promise<void> {
  const e = env();
  engineSettings(); // the engine's variables, checked now (a bad one stops the start, named) and installed
  await dbHandle();
  // the live call counters beside the lists, before any record is written (decision 196): built from the database
  await getCallCounters();
  const wantDemo = e.DEMO_ADMIN ? e.DEMO_ADMIN === "1" : !e.DATABASE_URL;
  if (wantDemo) {
    const created = await ensureDemoAdmin();
    console.log(`[boot] demo SuperAdmin ${created ? "created" : "present"}: ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`);
  }
  // In-process scrub service: fails jobs a dead process left running, then takes queued work.
  if (!e.SCRUB_SERVICE_URL) {
    const service = await getScrubService();
    await startLocalScrubSocket();
    const redis = listRedis();
    if (redis) await reportListStoreAtStart(service, redis);
  }
  // Webhooks for finished API jobs (every replica polls; SKIP LOCKED keeps deliveries single).
  if (e.WEBHOOK_DISPATCHER !== "0") startWebhookDispatcher(getDb);
  // Uploads a stopped process was writing (a SIGTERM mid-upload): gone now, not at the hourly sweep (decision 175).
  // Shared when another process may write here: a PostgreSQL deployment's other web processes, scrub replicas.
  const parts = await cleanPartialUploads({ atStart: true, shared: Boolean(e.DATABASE_URL || e.SCRUB_SERVICE_URL) }).catch((err) => {
    console.warn(`[boot] partial uploads not cleaned: ${err instanceof Error ? err.message : err}`);
    return [];
  });
  if (parts.length) console.log(`[boot] removed ${parts.length} partial upload file(s) left by a stopped process`);
  // Expired sessions, dead throttle counters, long-spent links, old records and stranded opt-outs, hourly.
  startHousekeeping(getDb, getScrubService);
  console.log(
    `[boot] database: ${e.DATABASE_URL ? "PostgreSQL" : `PGlite (${e.DATA_DIR})`}; ` +
      `lists: ${listRedis() ? describeRedisTarget(listRedis()!) : "embedded index"}; ` +
      `scrub service: ${e.SCRUB_SERVICE_URL ?? "in-process"}; e-mail: ${e.SMTP_URL ? "SMTP" : "outbox"}; memory: ${hugePagesOfThisProcess()}`,
  );
}

/** Called on SIGTERM/SIGINT: writes pending lookup usage, releases the database (and the PGlite directory lock). */
export async function shutdown(): Promise<void> {
  await settleAfterResponse();
  // Live lookups counted in memory since the last flush (decision 111): written before the database closes.
  await stopLookupUsage().catch((e) => console.error(`[shutdown] lookup usage not written: ${e instanceof Error ? e.message : e}`));
  // lookup answers queued for the decision ledger (decision 197): appended before the database closes
  await flushLedger().catch((e) => console.error(`[shutdown] ledger entries not written: ${e instanceof Error ? e.message : e}`));
  stopWebhookDispatcher();
  stopHousekeeping();
  await stopScrubService().catch(() => undefined);
  await closeCallCounters().catch(() => undefined);
  const handle = await dbHandle().catch(() => undefined);
  await handle?.close();
}
