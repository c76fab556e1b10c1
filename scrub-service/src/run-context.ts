/**
 * What the lease queue (jobs.ts) and its two handlers (scrub-job.ts, list-load-job.ts) share: the runner's
 * options and the context a handler runs a claimed row in.
 */
import type { Kysely, RawBuilder } from "kysely";
import type { Piscina } from "piscina";
import type { DbHandle } from "db/client";
import type { Database } from "db/schema";
import type { ListManager } from "./lists/manager";
import type { EngineConfig } from "./config";

export interface RunnerOptions {
  handle: DbHandle;
  manager: ListManager;
  pool: () => Piscina;
  dataDir: string;
  owner: string;
  leaseMs?: number;
  progressMs?: number;
  /** Jobs and list loads run at once by this process (default: maxConcurrentJobs()). */
  concurrency?: number;
  /** Only this process can hold leases (embedded PGlite): every running job at start is a dead one's. */
  singleProcess: boolean;
  batchBytes?: number;
  /** The time certificates are issued at (tests inject it). */
  clock?: () => Date;
  /** The process's configuration (CERT_SIGNING_KEY); default engineConfig(). */
  config?: EngineConfig;
  /**
   * Pauses before scrubbing a job again from the start after a transient list-store failure (a Redis failover
   * takes seconds); one retry per entry (default 1, 3, 8 and 15 s).
   */
  storeRetryDelaysMs?: number[];
}

/** What a handler needs of the queue that claimed its work: the database, the lease it renews, where timings go. */
export interface RunContext {
  db: Kysely<Database>;
  o: RunnerOptions;
  /** The lease's new end (now + the lease length), as SQL. */
  lease(): RawBuilder<Date>;
  progressMs: number;
  timings: Map<string, { prepareMs: number; pipelineMs: number }>;
}
