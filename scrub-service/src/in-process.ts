/**
 * The in-process scrub service: the app's server (embedded mode), the standalone HTTP service and the CLI
 * all run this. It shares the caller's database handle (one process per PGlite directory).
 */
import { bounded, databaseChecks, runChecks } from "./ops/readiness";
import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
import type { DbHandle } from "db/client";
import { JobRunner } from "./jobs";
import { EmbeddedListStore } from "./lists/embedded-store";
import { recordLoadProvenance, typedEntriesSource } from "./lists/provenance";
import { numbersOfEntries } from "./lists/input";
import { ListManager } from "./lists/manager";
import { lookupNumbers } from "./lists/lookup";
import { RedisListStore } from "./lists/redis-store";
import type { RedisTarget } from "./lists/redis-client";
import type { ListStore } from "./lists/store";
import { countRecords, previewCsv } from "./pipeline/read";
import { invalidReasonText, normalizeCode, reasonOfCode } from "./numbers/normalize";
import { listRegionOf, numbersInRegion, OUT_OF_REGION, outOfRegionMessage, outOfRegionRefusal } from "./lists/scope";
import { ScrubInputError } from "./pipeline/run";
import {
  createListLoad,
  createScrubJob,
  type BatchRow,
  type BatchScrubService,
  type ListStoreState,
  type ManualLoadInput,
  type ManualLoadResult,
} from "./service";
import { operatorAccountId } from "./operator-account";
import { createExemptionList, ExemptionInputError, loadExemptions } from "./exemptions";
import { readExemptionRows } from "./exemption-files/file";
import { currentSigningKey, publishedKeys, rotateSigningKey } from "./certificate/keys";
import { defaultWorkerPath } from "./dist-paths";
import { importCallFileOrThrow } from "./calls/import";
import { engineConfig, useEngineConfig, withEngineConfig, type EngineConfig } from "./config";

export interface InProcessOptions {
  handle: DbHandle;
  /**
   * The entry's parsed configuration (config.ts): installed for this process and passed to the worker threads.
   * Unset (tests): the process's (engineConfig()).
   */
  config?: EngineConfig;
  dataDir: string;
  /** One Redis node (tests); `redis` takes a cluster too (redisTargetFromEnv). */
  redisUrl?: string;
  redis?: RedisTarget | null;
  /** Redis key prefix (tests: unique per run). */
  redisPrefix?: string;
  /** How long a list change waits for Redis replicas to confirm its writes (default 5 s; decision 113). */
  replicaWaitMs?: number;
  /** The Redis client's longest pause between reconnect attempts (default ioredis's; tests that stop Redis). */
  redisReconnectMaxMs?: number;
  /** The built worker (scrub-service/dist/worker.mjs). */
  workerPath?: string;
  threads?: number;
  leaseMs?: number;
  progressMs?: number;
  /** How long a scrub waits for a list being changed before failing closed. */
  listWaitMs?: number;
  /** Pauses before a scrub is run again after a transient list-store failure (RunnerOptions). */
  storeRetryDelaysMs?: number[];
  /** Embedded database (PGlite): numbers per list-load transaction (default 50,000). */
  listLoadChunk?: number;
  /** Start claiming queued work (default true). */
  autoStart?: boolean;
  batchBytes?: number;
  /** Inject a store (tests). */
  store?: ListStore;
  /** The time certificates are issued at (tests inject it). */
  clock?: () => Date;
}

export interface InProcessScrubService extends BatchScrubService {
  readonly kind: "in-process";
  readonly manager: ListManager;
  readonly store: ListStore;
  readonly runner: JobRunner;
  readonly owner: string;
}

export async function createInProcessScrubService(o: InProcessOptions): Promise<InProcessScrubService> {
  const config = o.config ? useEngineConfig(o.config) : engineConfig();
  const target: RedisTarget | null = o.redisUrl ? { kind: "node", url: o.redisUrl } : (o.redis ?? null);
  const store: ListStore =
    o.store ??
    (target
      ? new RedisListStore({ target, prefix: o.redisPrefix, replicaWaitMs: o.replicaWaitMs, reconnectMaxMs: o.redisReconnectMaxMs })
      : new EmbeddedListStore());
  const manager = new ListManager(o.handle, store, {
    waitMs: o.listWaitMs,
    cacheDir: path.join(o.dataDir, "cache"),
    loadChunk: o.listLoadChunk,
  });
  const owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString("hex")}`;
  let pool: Piscina | null = null;
  const getPool = () => {
    pool ??= new Piscina({
      filename: o.workerPath ?? defaultWorkerPath(),
      maxThreads: o.threads ?? Math.max(1, Math.min(4, os.availableParallelism())),
      minThreads: 1,
      idleTimeout: 30_000,
      workerData: withEngineConfig({}, config),
    });
    return pool;
  };
  const runner = new JobRunner({
    handle: o.handle,
    manager,
    pool: getPool,
    dataDir: o.dataDir,
    owner,
    leaseMs: o.leaseMs,
    progressMs: o.progressMs,
    singleProcess: o.handle.driver.kind === "pglite",
    batchBytes: o.batchBytes,
    clock: o.clock,
    storeRetryDelaysMs: o.storeRetryDelaysMs,
    config,
  });
  if (o.autoStart !== false) await runner.start();
  const db = o.handle.db;
  /**
   * Starts the work just inserted: a serving process (autoStart) only looks for it; a batch process (the CLI,
   * started without autoStart) claims that work and nothing else, so it never takes the server's.
   */
  const startOnly = async (only: { jobs: string[]; loads: string[] }) => {
    if (o.autoStart !== false) return runner.kick();
    runner.only = only;
    await runner.start();
  };
  const service: InProcessScrubService = {
    kind: "in-process",
    manager,
    store,
    runner,
    owner,
    async enqueue() {
      runner.kick();
    },
    async enqueueListLoad() {
      runner.kick();
    },
    waitFor: (kind, id, timeoutMs) => runner.waitFor(kind, id, timeoutMs),
    countRecords: (p, opts) => countRecords(p, opts),
    previewCsv: (p, maxRows, opts) => previewCsv(p, maxRows, opts),
    async loadNumbers(input: ManualLoadInput): Promise<ManualLoadResult> {
      const typed = numbersOfEntries(input.numbers);
      const rejected: { value: string; reason: string; message: string }[] = typed.rejected.map((r) => ({
        value: r.value,
        reason: reasonOfCode(r.code),
        message: invalidReasonText(r.code),
      }));
      let { numbers, valid } = typed;
      const loadId =
        input.loadId ??
        (
          await db
            .insertInto("list_loads")
            .values({
              list_id: input.listId,
              user_id: input.userId ?? null,
              mode: input.mode,
              status: "running",
              file_name: "manual entry",
              usage_reserved: input.usageReserved ?? 0,
              lease_owner: owner,
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      if (input.loadId) {
        await db.updateTable("list_loads").set({ status: "running", lease_owner: owner, file_name: "manual entry" }).where("id", "=", loadId).execute();
      }
      try {
        // Canada's National DNCL holds Canadian numbers only (decision 179): a typed number elsewhere is rejected
        const kind = (await db.selectFrom("lists").select("kind").where("id", "=", input.listId).executeTakeFirst())?.kind ?? "";
        const region = listRegionOf(kind);
        if (region) {
          const { kept } = numbersInRegion(numbers, region);
          const inRegion = new Set(kept);
          const outside = input.numbers.filter((e) => {
            const c = normalizeCode(e);
            return c >= 0 && !inRegion.has(c);
          });
          const refusal = outOfRegionRefusal(kind, kept.length, numbers.length - kept.length);
          if (refusal) throw new ScrubInputError(refusal);
          for (const e of outside) rejected.push({ value: e, reason: OUT_OF_REGION, message: outOfRegionMessage(kind, normalizeCode(e)) });
          valid -= outside.length;
          numbers = kept;
        }
        const c = await manager.change(input.listId, input.mode, numbers, async (s, counts) => {
          await s.query(
            `update list_loads set status = 'completed', added = $2, already_present = $3, removed = $4, invalid = $5,
               finished_at = clock_timestamp(), lease_owner = null where id = $1`,
            [loadId, counts.added, counts.alreadyPresent + (valid - numbers.length), counts.removed, rejected.length],
          );
          await recordLoadProvenance(s, { id: loadId, listId: input.listId, registryDate: input.registryDate }, typedEntriesSource(input.numbers), counts);
        });
        return {
          loadId,
          added: c.added,
          alreadyPresent: c.alreadyPresent + (valid - numbers.length),
          removed: c.removed,
          invalid: rejected.length,
          rejected,
          size: c.size,
          version: c.version,
        };
      } catch (e) {
        await db
          .updateTable("list_loads")
          .set({ status: "failed", error: e instanceof ScrubInputError ? e.message : `The list load failed: ${(e as Error).message}`, lease_owner: null })
          .where("id", "=", loadId)
          .execute();
        throw e;
      }
    },
    async listStoreStatus(): Promise<ListStoreState[]> {
      return (await manager.status()).map((s) => ({ ...s }));
    },
    async rebuildLists(listIds?: number[]): Promise<ListStoreState[]> {
      const ids = listIds ?? (await manager.status()).map((s) => s.listId);
      for (const id of ids) await manager.rebuild(id);
      return (await manager.status()).filter((s) => ids.includes(s.listId));
    },
    lookup: (input) => lookupNumbers(manager, input),
    ready: () =>
      runChecks({
        ...databaseChecks(o.handle.db),
        listStore: bounded("listStore", () => store.ping(), "not answering"),
      }),
    pollMs: 50,
    operatorId: () => operatorAccountId(db),
    async submitScrub(input) {
      // the order's container and exemption list, and the lists' freshness, are checked there (createScrubJob)
      const jobId = await createScrubJob(db, { ...input, usageReserved: 0, source: "web" });
      await startOnly({ jobs: [jobId], loads: [] });
      return jobId;
    },
    // while it runs, only the job row (in embedded mode each query runs on this thread, beside the scrub's
    // ordering and writing); the files and the certificate once it is done
    async scrubJob(id) {
      const job = await db.selectFrom("scrub_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      if (job.status !== "completed") return job as unknown as BatchRow;
      const files = await db.selectFrom("result_files").selectAll().where("job_id", "=", id).execute();
      const cert = await db.selectFrom("scrub_certificates").select("document").where("job_id", "=", id).executeTakeFirst();
      return { ...job, files, certificate: cert?.document ?? null } as unknown as BatchRow;
    },
    whenSettled: (id) => runner.whenSettled(id),
    jobTimings: (id) => runner.timings.get(id) ?? null,
    async submitListLoad(input) {
      const loadId = await createListLoad(db, { ...input, fileName: path.basename(input.inputPath) });
      await startOnly({ jobs: [], loads: [loadId] });
      return loadId;
    },
    listLoad: async (id) => (await db.selectFrom("list_loads").selectAll().where("id", "=", id).executeTakeFirstOrThrow()) as unknown as BatchRow,
    idle: () => runner.idle(),
    adminListId: (kind) => manager.adminListId(kind),
    async exemptionListFromFile(userId, name, file) {
      try {
        const rows = await readExemptionRows({ path: file });
        const list = await createExemptionList(db, { userId, name });
        await loadExemptions(db, { listId: list.id, userId, mode: "replace", rows });
        return list.id;
      } catch (e) {
        if (e instanceof ExemptionInputError) throw new Error(`The exemption file was not loaded:\n${e.errors.join("\n")}`);
        throw e;
      }
    },
    importCalls: (userId, file, zone) => importCallFileOrThrow(db, { path: file, userId, zone, name: path.basename(file) }),
    async signingKeys({ rotate }) {
      let rotated: { keyId: string; retired: string[] } | null = null;
      if (rotate) {
        const { key, retired } = await rotateSigningKey(db);
        rotated = { keyId: key.id, retired };
      } else {
        // the key that signs next is made now if there is none yet, so it can be published before first use
        await currentSigningKey(db);
      }
      return { keys: await publishedKeys(db), rotated };
    },
    async close() {
      await runner.stop();
      await pool?.destroy();
      pool = null;
      await store.close();
    },
  };
  return service;
}
