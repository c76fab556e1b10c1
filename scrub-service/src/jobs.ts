/**
 * The job runner: claims queued scrub jobs and list loads with a lease (FOR UPDATE SKIP LOCKED, so N
 * replicas never run one job twice), runs them, writes progress into the row every ~250 ms (which also
 * renews the lease), and records completion atomically. A job or load whose lease ran out (its process
 * died) is queued again from the start, up to MAX_ATTEMPTS claims, on whichever replica claims it next
 * (decision 125); its partial files are deleted, never shown complete.
 */
import { log, withLogContext } from "./ops/log";
import { metrics } from "./ops/metrics";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import type { Piscina } from "piscina";
import type { DbHandle } from "../../db/client";
import type { JobStatus, ListLoadMode, ScrubJobsTable } from "../../db/schema";
import { currentSigningKey } from "./certificate/keys";
import { issueCertificate, type ListUsed } from "./certificate/issue";
import { exemptionWindowsOf, isStateListKind, isSuppressionType, listsOfSuppression } from "./list-types";
import { readExemptionSnapshot } from "./exemptions";
import type { ExemptionProof } from "./certificate/document";
import type { ExemptionIndex } from "./worker/exemptions/decide";
import { isoSecond } from "./worker/calling/window";
import { numbersOfFile } from "./lists/input";
import { recordLoadProvenance } from "./lists/provenance";
import { isInputFormatError } from "./pipeline/input/errors";
import type { ChangeCounts, ListManager } from "./lists/manager";
import type { BulkSession } from "./lists/pg-bulk";
import { ListStoreError } from "./lists/store";
import { runScrub, ScrubInputError, type ListCheck, type ScrubProgress } from "./pipeline/run";
import { MAX_ATTEMPTS } from "./job-status";

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
  /** Read for CERT_SIGNING_KEY. */
  env?: NodeJS.ProcessEnv;
  /**
   * Pauses before scrubbing a job again from the start after a transient list-store failure (a Redis failover
   * takes seconds); one retry per entry (default 1, 3, 8 and 15 s).
   */
  storeRetryDelaysMs?: number[];
}

const STORE_RETRY_DELAYS_MS = [1000, 3000, 8000, 15_000];

/**
 * Scrubs and list loads run at once per process: SCRUB_MAX_CONCURRENT_JOBS, default 1. The memory budget of a
 * process is one job (~600 MB at 10M rows, decision 090) plus one workbook decode (≤ 200 MB: shared strings are
 * capped at 128 MiB and 8,388,608 entries) plus previews of plain text (a 256 KB batch each): about 1 GB; more
 * jobs at once multiply the first term (docs/decisions/152).
 */
export function maxConcurrentJobs(): number {
  const n = Number(process.env.SCRUB_MAX_CONCURRENT_JOBS ?? 1);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

const INTERRUPTED_JOB = "The scrub was interrupted (the scrub service stopped). Please run it again.";
const INTERRUPTED_LOAD =
  "The list load was interrupted (the scrub service stopped). The list was not changed; load the file again.";

const SHUTTING_DOWN = new Error("The scrub service is shutting down.");

/** A job row made ready to run again from the start. */
const RESTART = {
  lease_owner: null,
  lease_expires_at: null,
  started_at: null,
  rows_done: 0,
  bytes_read: 0,
  good_count: 0,
  bad_count: 0,
  invalid_count: 0,
  reason_counts: "{}",
};

type JobRow = { [K in keyof ScrubJobsTable]: unknown } & { id: string; user_id: string; file_name: string; input_path: string };

/**
 * The scrub's evaluation instant (the calling columns and the exemptions): the one asked for, else the scrub's
 * start (this attempt's claim).
 */
function callingInstant(job: JobRow): Date {
  const asked = job.calling_at as Date | string | null;
  if (asked) return new Date(asked);
  return job.started_at ? new Date(job.started_at as Date | string) : new Date();
}

/** What a customer reads when the suppression lists could not be checked (Redis down, flushed, stale). */
export const LIST_STORE_UNAVAILABLE =
  "The suppression lists could not be checked just now, so this scrub was stopped and no results were kept. Please run it again in a few minutes.";
/** What a customer reads for a failure on our side we have no better words for. */
export const SCRUB_FAILED_OUR_SIDE = "The scrub failed because of a problem on our side. Please run it again.";
const REBUILD_HINT = "Rebuild the list store with `npm run lists -- rebuild` once it answers.";
/** After a store that did not answer: a failover to a replica normally keeps every copy, so no blind rebuild. */
const STATUS_HINT =
  "Once Redis answers again, `npm run lists -- status` shows whether its copies survived (after a failover to a replica they " +
  "normally have); rebuild only if it names a stale list: `npm run lists -- rebuild`.";

/**
 * The failure's words for the customer (the job's error) and, when they differ from the real cause, the
 * operator's line for the log: a list-store failure names the rebuild command there, never client-library
 * text to the customer.
 */
export function failureText(e: unknown): { customer: string; operator: string | null } {
  const m = e instanceof Error ? e.message : String(e);
  if (e instanceof ScrubInputError) return { customer: m, operator: null };
  if (e instanceof ListStoreError) {
    return { customer: LIST_STORE_UNAVAILABLE, operator: /npm run lists -- rebuild/.test(m) ? m : `${m} ${e.transient ? STATUS_HINT : REBUILD_HINT}` };
  }
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === "ENOSPC" || code === "EDQUOT") {
    return { customer: "The server ran out of disk space while writing the results. Please try again later.", operator: m };
  }
  if (/worker exited|terminating worker/i.test(m)) return { customer: "The scrub was interrupted (a scrub worker stopped). Please run it again.", operator: m };
  return { customer: SCRUB_FAILED_OUR_SIDE, operator: m };
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
    this.sweepTimer = setInterval(() => {
      this.recover()
        .then(() => this.kick())
        .catch((e) => console.warn(`[scrub] sweep failed: ${(e as Error).message}`));
    }, Math.max(1000, this.leaseMs / 2));
    this.sweepTimer.unref();
    this.kick();
  }

  /**
   * Jobs and loads whose process died: queued again from the start while they have attempts left (the
   * customer sees "retrying"), failed after the last one. Their partial result files are deleted.
   */
  async recover(): Promise<{ jobs: number; loads: number }> {
    const expired = this.o.singleProcess
      ? sql<boolean>`lease_owner is distinct from ${this.o.owner}`
      : sql<boolean>`lease_expires_at < now()`;
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
      .catch((e) => console.warn(`[scrub] claim failed: ${(e as Error).message}`))
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
   * Resolves when this process next finishes with job `id` (completed, failed or handed back): a caller in the
   * same process (the CLI) wakes at once instead of reading the job row on a timer while the scrub runs.
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

  /** The job's lists made ready, then its file scrubbed against them. */
  private async scrubAgainstLists(job: JobRow, outDir: string, signal: AbortSignal, onProgress: (p: ScrubProgress) => void) {
    const t0 = performance.now();
    const m = this.o.manager;
    const checks: ListCheck[] = [];
    const used: ListUsed[] = [];
    const use = (r: Awaited<ReturnType<typeof m.ready>>) => used.push({ kind: r.info.kind, listId: r.info.id, version: r.info.version, size: r.info.size });
    if (job.container_id != null) {
      const info = await m.info(Number(job.container_id));
      if (!info || info.deleted || info.kind !== "container" || info.userId !== job.user_id) {
        throw new ScrubInputError("The selected container no longer exists.");
      }
      const ready = await m.ready(info.id);
      checks.push({ reason: "container", bloom: ready.bloom, snapshot: ready.snapshot });
      use(ready);
    }
    if (!isSuppressionType(job.suppression_type)) throw new Error(`Unknown suppression type ${String(job.suppression_type)}.`);
    for (const kind of listsOfSuppression(job.suppression_type)) {
      const list = await m.ready(await m.adminListId(kind));
      // A state list holding no numbers when the scrub starts (never loaded) suppresses nothing: not named.
      if (isStateListKind(kind) && list.info.size === 0) continue;
      checks.push({ reason: kind, bloom: list.bloom, snapshot: list.snapshot });
      use(list);
    }
    // The exemption list is read whole at one version, before the scrub starts (decision 161).
    let exemption: { proof: Omit<ExemptionProof, "byBasis">; index: ExemptionIndex; at: number } | null = null;
    if (job.exemption_list_id != null) {
      const snap = await readExemptionSnapshot(this.o.handle.db, { id: Number(job.exemption_list_id), userId: job.user_id });
      if (!snap) throw new ScrubInputError("The selected exemption list no longer exists.");
      const at = Math.floor(callingInstant(job).getTime() / 1000) * 1000;
      const windows = checks.flatMap((c) => {
        const w = exemptionWindowsOf(c.reason);
        return w ? [{ kind: c.reason, purchaseMonths: w.purchaseMonths, inquiryMonths: w.inquiryMonths, source: w.source }] : [];
      });
      exemption = {
        proof: { listId: snap.list.id, name: snap.list.name, version: snap.list.version, sha256: snap.list.sha256, count: snap.list.size, at: isoSecond(at), windows },
        index: snap.index,
        at,
      };
    }
    const t1 = performance.now();
    const result = await runScrub({
      inputPath: job.input_path,
      outDir,
      columnName: (job.column_name as string | null) ?? null,
      sheet: (job.input_sheet as string | null) ?? null,
      lists: checks,
      states: (job.states as string[] | null) ?? null,
      calling: job.calling_window ? { at: callingInstant(job).getTime() } : null,
      exemptions: exemption ? { index: exemption.index, at: exemption.at } : null,
      pool: this.o.pool(),
      signal,
      batchBytes: this.o.batchBytes,
      onProgress,
    });
    const exemptions: ExemptionProof | null =
      exemption && result.exemptions ? { ...exemption.proof, byBasis: result.exemptions } : null;
    return { result, used, exemptions, prepareMs: t1 - t0, pipelineMs: performance.now() - t1 };
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
    const r = await sql<JobRow>`
      update scrub_jobs set status = 'running', lease_owner = ${this.o.owner}, lease_expires_at = ${this.lease()},
        started_at = now(), attempts = attempts + 1
      where id = (select id from scrub_jobs where status = 'queued' ${this.onlyIds("jobs")}
                  order by created_at limit 1 for update skip locked)
      returning *`.execute(this.db);
    return r.rows[0] ?? null;
  }

  private async claimLoad(): Promise<{ id: string; list_id: number; mode: ListLoadMode; input_path: string } | null> {
    const r = await sql<{ id: string; list_id: number; mode: ListLoadMode; input_path: string }>`
      update list_loads set status = 'running', lease_owner = ${this.o.owner}, lease_expires_at = ${this.lease()},
        started_at = now(), attempts = attempts + 1
      where id = (select id from list_loads where status = 'queued' ${this.onlyIds("loads")}
                  order by created_at limit 1 for update skip locked)
      returning id, list_id, mode, input_path`.execute(this.db);
    return r.rows[0] ?? null;
  }

  private async runJob(job: JobRow): Promise<void> {
    const startedAt = performance.now();
    const abort = new AbortController();
    this.aborts.add(abort);
    const outDir = path.join(this.o.dataDir, "jobs", job.id);
    let latest: ScrubProgress | null = null;
    let writing = Promise.resolve();
    const flush = () => {
      const p = latest;
      writing = writing.then(async () => {
        const r = await this.db
          .updateTable("scrub_jobs")
          .set({
            lease_expires_at: this.lease(),
            ...(p
              ? {
                  rows_done: p.rowsDone,
                  bytes_read: p.bytesRead,
                  good_count: p.good,
                  bad_count: p.bad,
                  invalid_count: p.invalid,
                  reason_counts: JSON.stringify(p.reasons),
                }
              : {}),
          })
          .where("id", "=", job.id)
          .where("lease_owner", "=", this.o.owner)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) abort.abort(new Error("The job's lease was lost to another process."));
      }).catch(() => {});
    };
    const timer = setInterval(flush, this.progressMs);
    try {
      const delays = this.o.storeRetryDelaysMs ?? STORE_RETRY_DELAYS_MS;
      let scrubbed: Awaited<ReturnType<JobRunner["scrubAgainstLists"]>>;
      for (let retry = 0; ; retry++) {
        try {
          scrubbed = await this.scrubAgainstLists(job, outDir, abort.signal, (p) => (latest = p));
          break;
        } catch (e) {
          if (e instanceof ListStoreError) metrics().listStoreErrors.inc();
          if (!(e instanceof ListStoreError && e.transient) || retry >= delays.length || abort.signal.aborted) throw e;
          // The same job on this process from the start (its partial files were removed): the customer's
          // progress starts over, the job stays running under its lease.
          console.warn(`[scrub] job ${job.id}: ${e.message} Scrubbing it again in ${delays[retry] / 1000} s (retry ${retry + 1} of ${delays.length}).`);
          latest = { rowsDone: 0, bytesRead: 0, inputBytes: 0, good: 0, bad: 0, invalid: 0, reasons: {} };
          await sleep(delays[retry], undefined, { signal: abort.signal }).catch(() => {}); // an abort is thrown next
          if (abort.signal.aborted) throw abort.signal.reason;
        }
      }
      const { result, used, exemptions, prepareMs, pipelineMs } = scrubbed;
      clearInterval(timer);
      this.timings.set(job.id, { prepareMs, pipelineMs });
      await writing;
      const stem = path.basename(job.file_name).replace(/\.[^.]*$/, "") || "numbers";
      const fileNames = { good: `${stem}_Good.csv`, bad: `${stem}_Bad.csv`, invalid: `${stem}_Invalid.csv` };
      const key = await currentSigningKey(this.db, this.o.env);
      const now = (this.o.clock ?? (() => new Date()))();
      await this.db.transaction().execute(async (trx) => {
        // The certificate is issued in the transaction that completes the job: a completed job always has one.
        const issued = await issueCertificate(trx, {
          job: {
            id: job.id,
            user_id: job.user_id,
            file_name: job.file_name,
            suppression_type: job.suppression_type as "LitigationOnly" | "DNCAndLitigation",
            states: (job.states as string[] | null) ?? null,
            started_at: (job.started_at as Date | null) ?? null,
          },
          result,
          fileNames,
          lists: used,
          exemptions,
          now,
          key,
        });
        const done = await trx
          .updateTable("scrub_jobs")
          .set({
            status: "completed",
            error: null,
            rows_done: result.rowsDone,
            total_rows: result.rowsDone,
            bytes_read: result.bytesRead,
            input_bytes: result.inputBytes,
            good_count: result.good,
            bad_count: result.bad,
            invalid_count: result.invalid,
            reason_counts: JSON.stringify(result.reasons),
            column_name: result.phoneColumn || ((job.column_name as string | null) ?? null),
            input_sha256: result.inputSha256,
            valid_until: issued.validUntil,
            dnc_age_days: issued.dncAgeDays,
            finished_at: now,
            input_format: result.input.format,
            input_encoding: result.input.encoding,
            input_delimiter: result.input.delimiter,
            calling_at: result.calling
              ? new Date(result.calling.at)
              : exemptions
                ? new Date(exemptions.at)
                : ((job.calling_at as Date | null) ?? null),
            calling_summary: result.calling ? JSON.stringify(result.calling) : null,
            exemption_summary: exemptions ? JSON.stringify(exemptions) : null,
            lease_owner: null,
            lease_expires_at: null,
          })
          .where("id", "=", job.id)
          .where("lease_owner", "=", this.o.owner)
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) throw new Error("The job's lease was lost to another process.");
        await trx
          .insertInto("result_files")
          .values(
            result.files.map((f) => ({
              job_id: job.id,
              user_id: job.user_id,
              kind: f.kind,
              file_name: fileNames[f.kind],
              path: f.path,
              records: f.records,
              bytes: f.bytes,
            })),
          )
          .execute();
        await trx.insertInto("scrub_certificates").values({ job_id: job.id, user_id: job.user_id, document: issued.text, key_id: key.id }).execute();
      });
      const m = metrics();
      m.scrubJobs.inc({ status: "completed" });
      m.scrubRows.inc({ outcome: "good" }, result.good);
      m.scrubRows.inc({ outcome: "bad" }, result.bad);
      m.scrubRows.inc({ outcome: "invalid" }, result.invalid);
      m.scrubDuration.observe((performance.now() - startedAt) / 1000);
      log().info({ rows: result.rowsDone, good: result.good, bad: result.bad, invalid: result.invalid }, `[scrub] job ${job.id} completed`);
    } catch (e) {
      clearInterval(timer);
      await writing;
      // A replica shutting down hands the job back (a retry from the start) rather than failing it.
      const handBack = abort.signal.reason === SHUTTING_DOWN && Number(job.attempts) < MAX_ATTEMPTS;
      const failure = failureText(e);
      metrics().scrubJobs.inc({ status: handBack ? "handed_back" : "failed" });
      if (!handBack && failure.operator) console.error(`[scrub] job ${job.id} failed: ${failure.operator}`);
      // Only while the lease is ours: after a lost lease the directory belongs to the retry.
      const failed = await this.db
        .updateTable("scrub_jobs")
        .set(
          handBack
            ? { status: "queued", ...RESTART }
            : { status: "failed", error: failure.customer, finished_at: sql`now()`, lease_owner: null, lease_expires_at: null },
        )
        .where("id", "=", job.id)
        .where("lease_owner", "=", this.o.owner)
        .executeTakeFirst()
        .catch((err) => console.warn(`[scrub] could not record failure of ${job.id}: ${(err as Error).message}`));
      if (failed && Number(failed.numUpdatedRows) > 0) fs.rmSync(outDir, { recursive: true, force: true });
    } finally {
      this.aborts.delete(abort);
      this.settled(job.id);
    }
  }

  private async runLoad(load: { id: string; list_id: number; mode: ListLoadMode; input_path: string }): Promise<void> {
    let bytes = 0;
    let loadStatus: "completed" | "failed" = "completed";
    const timer = setInterval(() => {
      void this.db
        .updateTable("list_loads")
        .set({ bytes_read: bytes, lease_expires_at: this.lease() })
        .where("id", "=", load.id)
        .where("lease_owner", "=", this.o.owner)
        .execute()
        .catch(() => {});
    }, this.progressMs);
    try {
      let file;
      try {
        file = await numbersOfFile(load.input_path, (b) => (bytes = b));
      } catch (e) {
        if (isInputFormatError(e)) throw new ScrubInputError(e.message);
        if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new ScrubInputError("The uploaded file is missing.");
        throw e; // our side (disk, a bug): failureText words it for the admin, the log keeps the cause
      }
      const f = file;
      const complete = async (s: BulkSession, c: ChangeCounts, removed: number, notPresent: number) => {
        const r = await s.query(
          `update list_loads set status = 'completed', error = null, bytes_read = $2, bytes_total = $2, added = $3,
             already_present = $4, removed = $5, invalid = $6, not_present = $8, input_encoding = $9, input_delimiter = $10,
             finished_at = clock_timestamp(), lease_owner = null, lease_expires_at = null
           where id = $1 and lease_owner = $7`,
          [load.id, f.bytes, c.added, c.alreadyPresent + (f.valid - f.numbers.length), removed, f.invalid, this.o.owner, notPresent, f.encoding, f.delimiter],
        );
        if (r.rowCount === 0) throw new Error("The load's lease was lost to another process.");
        await recordLoadProvenance(s, { id: load.id, listId: load.list_id }, f, c);
      };
      if (load.mode === "changes") {
        if (f.layout !== "ftc-changes") {
          throw new ScrubInputError("The file is not an FTC change list: no record names a number with an add (A) or delete (D) indicator.");
        }
        // deletions, then additions, in one load (decision 106): each step is idempotent, so a load retried
        // after a crash between them ends in the same list
        const removals = f.removals!;
        const del = removals.length ? await this.o.manager.change(load.list_id, "remove", removals) : { removed: 0 };
        await this.o.manager.change(load.list_id, "add", f.numbers, (s, c) => complete(s, c, del.removed, removals.length - del.removed));
      } else {
        if (f.layout === "ftc-changes") {
          throw new ScrubInputError("This is an FTC change list (its records say add or delete): apply it as a change list, not as a list of numbers.");
        }
        await this.o.manager.change(load.list_id, load.mode, f.numbers, (s, c) => complete(s, c, c.removed, 0));
      }
    } catch (e) {
      if (e instanceof ListStoreError) metrics().listStoreErrors.inc();
      loadStatus = "failed";
      const msg = e instanceof ScrubInputError || e instanceof ListStoreError ? e.message : `The list load failed: ${(e as Error).message}`;
      await this.db
        .updateTable("list_loads")
        .set({ status: "failed", error: msg, finished_at: sql`now()`, lease_owner: null, lease_expires_at: null })
        .where("id", "=", load.id)
        .where("lease_owner", "=", this.o.owner)
        .execute()
        .catch(() => {});
    } finally {
      clearInterval(timer);
      const list = await this.db.selectFrom("lists").select("kind").where("id", "=", load.list_id).executeTakeFirst().catch(() => undefined);
      metrics().listLoads.inc({ list: list?.kind ?? "unknown", status: loadStatus });
    }
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
