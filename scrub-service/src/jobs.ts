/**
 * The lease queue: claims queued scrub jobs and list loads with a lease (FOR UPDATE SKIP LOCKED, so N
 * replicas never run one job twice), hands each to its handler (scrub-job.ts, list-load-job.ts), which writes
 * progress into the row every ~250 ms (renewing the lease) and records completion atomically. A job or load
 * whose lease ran out (its process died) is queued again from the start, up to MAX_ATTEMPTS claims, on
 * whichever replica claims it next (decision 125); its partial files are deleted, never shown complete.
 */
import { engineConfig } from "./config";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import type { JobStatus } from "db/schema";
import { withLogContext } from "./ops/log";
import { MAX_ATTEMPTS } from "./job-status";
import { INTERRUPTED_JOB, RESTART, runScrubJob, SHUTTING_DOWN } from "./scrub-job";
import { parseJobRow, type JobRow } from "./job-row";
import type { RunContext, RunnerOptions } from "./run-context";
import { INTERRUPTED_LOAD, runListLoad, type LoadRow } from "./list-load-job";

export { failureText, LIST_STORE_UNAVAILABLE, SCRUB_FAILED_OUR_SIDE } from "./scrub-job";
export type { RunnerOptions } from "./run-context";

/**
 * Scrubs and list loads run at once per process: SCRUB_MAX_CONCURRENT_JOBS, default 1. The memory budget of a
 * process is one job (~600 MB at 10M rows, decision 090) plus one workbook decode (≤ 200 MB: shared strings are
 * capped at 128 MiB and 8,388,608 entries) plus previews of plain text (a 256 KB batch each): about 1 GB; more
 * jobs at once multiply the first term (docs/decisions/152).
 */
export function maxConcurrentJobs(): number {
  return engineConfig().SCRUB_MAX_CONCURRENT_JOBS;
}

export class JobRunner {
  private running = 0;
  private pumping = false;
  private again = false;
  private stopped = false;
  private sweepTimer: NodeJS.Timeout | null = null;
  private aborts = new Set<AbortController>();
  /** whenSettled's waiters, by job id. */
  private settleWaiters = new Map<string, (() => void)[]>();
  private readonly leaseMs: number;
  private readonly progressMs: number;
  private readonly concurrency: number;
  /** When set (CLI), only these ids are claimed: a short-lived process must not take the server's work. */
  only: { jobs: string[]; loads: string[] } | null = null;
  /** Where each job's time went (lists made ready vs the streaming pipeline); for the CLI and the benchmark. */
  readonly timings = new Map<string, { prepareMs: number; pipelineMs: number }>();

  constructor(private readonly o: RunnerOptions) {
    this.leaseMs = o.leaseMs ?? 30_000;
    this.progressMs = o.progressMs ?? 250;
    this.concurrency = o.concurrency ?? maxConcurrentJobs();
  }

  private get db() {
    return this.o.handle.db;
  }

  /** Fails what dead processes left running, then starts taking queued work. */
  async start(): Promise<void> {
    await this.recover();
    this.sweepTimer = setInterval(
      () => {
        this.recover()
          .then(() => this.kick())
          .catch((e) => console.warn(`[scrub] sweep failed: ${(e as Error).message}`));
      },
      Math.max(1000, this.leaseMs / 2),
    );
    this.sweepTimer.unref();
    this.kick();
  }

  /**
   * Jobs and loads whose process died: queued again from the start while they have attempts left (the
   * customer sees "retrying"), failed after the last one. Their partial result files are deleted.
   */
  async recover(): Promise<{ jobs: number; loads: number }> {
    const expired = this.o.singleProcess ? sql<boolean>`lease_owner is distinct from ${this.o.owner}` : sql<boolean>`lease_expires_at < now()`;
    const retry = sql<boolean>`attempts < ${MAX_ATTEMPTS}`;
    const jobs = await this.db
      .updateTable("scrub_jobs")
      .set({
        ...RESTART,
        status: sql<JobStatus>`case when ${retry} then 'queued' else 'failed' end`,
        error: sql<string | null>`case when ${retry} then null else ${INTERRUPTED_JOB} end`,
        finished_at: sql<Date | null>`case when ${retry} then null else now() end`,
      })
      .where("status", "=", "running")
      .where(expired)
      .returning("id")
      .execute();
    for (const j of jobs) fs.rmSync(path.join(this.o.dataDir, "jobs", j.id), { recursive: true, force: true });
    // A typed-in (manual) load has no file to read again: it fails at once.
    const retryLoad = sql<boolean>`attempts < ${MAX_ATTEMPTS} and input_path <> ''`;
    const loads = await this.db
      .updateTable("list_loads")
      .set({
        lease_owner: null,
        lease_expires_at: null,
        started_at: null,
        status: sql<JobStatus>`case when ${retryLoad} then 'queued' else 'failed' end`,
        error: sql<string | null>`case when ${retryLoad} then null else ${INTERRUPTED_LOAD} end`,
        finished_at: sql<Date | null>`case when ${retryLoad} then null else now() end`,
        bytes_read: 0,
      })
      .where("status", "=", "running")
      .where(expired)
      .returning("id")
      .execute();
    return { jobs: jobs.length, loads: loads.length };
  }

  /** Looks for queued work (called by enqueue). */
  kick(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    this.pump()
      // a claim cut off by stop() (the database closing under it) is the shutdown, not a failure
      .catch((e) => {
        if (!this.stopped) console.warn(`[scrub] claim failed: ${(e as Error).message}`);
      })
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async pump(): Promise<void> {
    while (!this.stopped && this.running < this.concurrency) {
      const load = await this.claimLoad();
      if (load) {
        this.running++;
        void withLogContext({ loadId: load.id }, () => this.runLoad(load)).finally(() => {
          this.running--;
          this.settled(load.id);
          this.kick();
        });
        continue;
      }
      const job = await this.claimJob();
      if (!job) return;
      this.running++;
      void withLogContext({ jobId: job.id, userId: job.user_id }, () => this.runJob(job)).finally(() => {
        this.running--;
        this.kick();
      });
    }
  }

  /**
   * Resolves when this process next finishes with job or list load `id` (completed, failed or handed back): a caller
   * in the same process (the CLI) wakes at once instead of reading the row on a timer while the work runs.
   */
  whenSettled(id: string): Promise<void> {
    return new Promise((resolve) => {
      const list = this.settleWaiters.get(id) ?? [];
      list.push(resolve);
      this.settleWaiters.set(id, list);
    });
  }

  private settled(id: string): void {
    const list = this.settleWaiters.get(id);
    this.settleWaiters.delete(id);
    for (const wake of list ?? []) wake();
  }

  private lease() {
    return sql<Date>`now() + make_interval(secs => ${this.leaseMs / 1000})`;
  }

  private onlyIds(kind: "jobs" | "loads") {
    if (!this.only) return sql``;
    const ids = this.only[kind];
    if (!ids.length) return sql`and false`;
    return sql`and id in (${sql.join(ids.map((i) => sql`${i}::uuid`))})`;
  }

  private async claimJob(): Promise<JobRow | null> {
    const r = await sql<unknown>`
      update scrub_jobs set status = 'running', lease_owner = ${this.o.owner}, lease_expires_at = ${this.lease()},
        started_at = now(), attempts = attempts + 1
      where id = (select id from scrub_jobs where status = 'queued' ${this.onlyIds("jobs")}
                  order by created_at limit 1 for update skip locked)
      returning *`.execute(this.db);
    return r.rows[0] ? parseJobRow(r.rows[0]) : null;
  }

  private async claimLoad(): Promise<LoadRow | null> {
    const r = await sql<LoadRow>`
      update list_loads set status = 'running', lease_owner = ${this.o.owner}, lease_expires_at = ${this.lease()},
        started_at = now(), attempts = attempts + 1
      where id = (select id from list_loads where status = 'queued' ${this.onlyIds("loads")}
                  order by created_at limit 1 for update skip locked)
      returning id, list_id, mode, input_path`.execute(this.db);
    return r.rows[0] ?? null;
  }

  private async runJob(job: JobRow): Promise<void> {
    const abort = new AbortController();
    this.aborts.add(abort);
    try {
      await runScrubJob(this.context(), job, abort);
    } finally {
      this.aborts.delete(abort);
      this.settled(job.id);
    }
  }

  private runLoad(load: LoadRow): Promise<void> {
    return runListLoad(this.context(), load);
  }

  /** What the handlers need of this queue. */
  private context(): RunContext {
    return { db: this.db, o: this.o, lease: () => this.lease(), progressMs: this.progressMs, timings: this.timings };
  }

  async waitFor(kind: "job" | "load", id: string, timeoutMs = 10 * 60_000): Promise<"completed" | "failed"> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row =
        kind === "job"
          ? await this.db.selectFrom("scrub_jobs").select("status").where("id", "=", id).executeTakeFirst()
          : await this.db.selectFrom("list_loads").select("status").where("id", "=", id).executeTakeFirst();
      if (!row) throw new Error(`No ${kind} ${id}`);
      if (row.status === "completed" || row.status === "failed") return row.status;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${kind} ${id}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Resolves once nothing runs. A load's row says completed at its commit, before this process has built the
   * new version's Bloom filter and saved it for the next process (20M numbers: seconds; 250M: a minute): a CLI
   * that stopped at the row's word cut that short, and the next scrub rebuilt the filter from the database.
   */
  async idle(): Promise<void> {
    while (this.running > 0) await new Promise((r) => setTimeout(r, 20));
  }

  /** Stops taking work; running jobs are aborted and handed back to the queue (failed after their last attempt). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const a of this.aborts) a.abort(SHUTTING_DOWN);
    const deadline = Date.now() + 10_000;
    while (this.running > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }
}
