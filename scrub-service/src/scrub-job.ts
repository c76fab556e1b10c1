/**
 * The scrub-job handler: a claimed job's lists made ready (container, registry lists, exemption list at one
 * version), its file scrubbed against them, and its completion recorded in one transaction (the certificate,
 * the job row, its result files) while the lease is this process's; a failure is worded for the customer
 * (failureText) and the job failed, or handed back to the queue when the process is shutting down.
 * The lease queue that claims jobs and keeps their leases is jobs.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { log } from "./ops/log";
import { metrics } from "./ops/metrics";
import { currentSigningKey } from "./certificate/keys";
import { issueCertificate, type ListUsed } from "./certificate/issue";
import { appendLedger } from "./ledger/store";
import { scrubDraft } from "./ledger/drafts";
import { INTERNAL_DNC_REASON, exemptionWindowsOf, isStateListKind, isSuppressionType, listsOfSuppression } from "./list-types";
import { readExemptionSnapshot } from "./exemptions";
import { emergencyPeriodsAt } from "./emergency-periods";
import { readCallHistory } from "./calls/store";
import { historyWindowMs } from "./calling/caps";
import type { ScrubCalls } from "./pipeline/run";
import type { ExemptionProof } from "./certificate/document";
import type { ExemptionIndex } from "./exemption-rules/decide";
import { isoSecond } from "./calling/window";
import { CodedError, errorEntryOf } from "./errors";
import { ListStoreError } from "./lists/store";
import { runScrub, ScrubInputError, type ListCheck, type ScrubProgress } from "./pipeline/run";
import { MAX_ATTEMPTS } from "./job-status";
import { readListFreshness, refusesStaleLists } from "./lists/freshness";
import { instantStanding, staleListsMessage, staleListsOf } from "./evaluation";
import type { RunContext } from "./run-context";
import type { JobRow } from "./job-row";
import { internalDncListId } from "./opt-outs/internal-list";

export const INTERRUPTED_JOB = "The scrub was interrupted (the scrub service stopped). Please run it again.";

const STORE_RETRY_DELAYS_MS = [1000, 3000, 8000, 15_000];

export const SHUTTING_DOWN = new Error("The scrub service is shutting down.");

/** A job row made ready to run again from the start. */
export const RESTART = {
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

export type { JobRow } from "./job-row";

/**
 * The scrub's evaluation instant (the calling columns and the exemptions): the order's, else the scrub's start
 * (this attempt's claim).
 */
function evaluationInstant(job: JobRow): Date {
  return job.evaluated_at ?? job.started_at ?? new Date();
}

export { LIST_STORE_UNAVAILABLE, SCRUB_FAILED_OUR_SIDE } from "./errors";

/**
 * The failure's words for the customer (the job's error) and, when they differ from the real cause, the
 * operator's line for the log, from the error catalogue (decision 194): a list-store failure names the operator's
 * next command there, never client-library text to the customer.
 */
export function failureText(e: unknown): { customer: string; operator: string | null } {
  const m = e instanceof Error ? e.message : String(e);
  const entry = errorEntryOf(e);
  // the customer's own input (a wrong column, an unreadable file): shown as is, nothing for the operator
  if (entry.customer === null) return { customer: m, operator: null };
  const hint = e instanceof CodedError ? e.options.operatorHint : undefined;
  return { customer: entry.customer, operator: hint ? `${m} ${hint}` : m };
}

/** The job's lists made ready, then its file scrubbed against them. */
async function scrubAgainstLists(ctx: RunContext, job: JobRow, outDir: string, signal: AbortSignal, onProgress: (p: ScrubProgress) => void) {
  const t0 = performance.now();
  const m = ctx.o.manager;
  const checks: ListCheck[] = [];
  const used: ListUsed[] = [];
  const use = (r: Awaited<ReturnType<typeof m.ready>>) => used.push({ kind: r.info.kind, listId: r.info.id, version: r.info.version, size: r.info.size });
  // The owner's internal do-not-call list (its opt-outs, decision 195): checked by every scrub of its owner whatever
  // container is chosen, first in the reason order, never exempted; once when it is the container chosen.
  const internalId = await internalDncListId(ctx.o.handle.db, job.user_id);
  if (internalId != null) {
    const ready = await m.ready(internalId);
    checks.push({ reason: INTERNAL_DNC_REASON.reason, bloom: ready.bloom, snapshot: ready.snapshot });
    use(ready);
  }
  if (job.container_id != null && job.container_id !== internalId) {
    // the order's owner's when it was accepted (createScrubJob); here only a container deleted since is refused
    const info = await m.info(job.container_id);
    if (!info || info.deleted || info.kind !== "container") {
      throw new ScrubInputError("The selected container no longer exists.");
    }
    const ready = await m.ready(info.id);
    checks.push({ reason: "container", bloom: ready.bloom, snapshot: ready.snapshot });
    use(ready);
  }
  if (!isSuppressionType(job.suppression_type)) throw new Error(`Unknown suppression type ${String(job.suppression_type)}.`);
  // The last line of defence (decision 174): whatever path queued the job (web, API, the CLI in process or through
  // the scrub service), a list past its freshness rule stops it while "refuse stale DNC" is on, every one named.
  const runAt = job.started_at ?? new Date();
  const freshness = await readListFreshness(ctx.o.handle.db, listsOfSuppression(job.suppression_type), runAt);
  const staleMessage = staleListsMessage(freshness);
  if (staleMessage && (await refusesStaleLists(ctx.o.handle.db))) throw new ScrubInputError(staleMessage);
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
    const snap = await readExemptionSnapshot(ctx.o.handle.db, { id: job.exemption_list_id });
    if (!snap) throw new ScrubInputError("The selected exemption list no longer exists.");
    const at = Math.floor(evaluationInstant(job).getTime() / 1000) * 1000;
    const windows = checks.flatMap((c) => {
      const w = exemptionWindowsOf(c.reason);
      return w ? [{ kind: c.reason, purchaseMonths: w.purchaseMonths, inquiryMonths: w.inquiryMonths, source: w.source }] : [];
    });
    exemption = {
      proof: {
        listId: snap.list.id,
        name: snap.list.name,
        version: snap.list.version,
        sha256: snap.list.sha256,
        count: snap.list.size,
        at: isoSecond(at),
        windows,
      },
      index: snap.index,
      at,
    };
  }
  // The owner's call history (decision 191), read once at one instant: every record after the longest window of the
  // purpose's caps before the evaluation instant (30 days for debt collection: Massachusetts; 7 for telemarketing, the
  // good file's calls_7d, the states' 24 hours inside it).
  let calls: ScrubCalls | null = null;
  if (job.calling_window) {
    const at = Math.floor(evaluationInstant(job).getTime() / 1000) * 1000;
    const sinceMs = at - historyWindowMs(job.call_purpose);
    const history = await readCallHistory(ctx.o.handle.db, job.user_id, sinceMs);
    calls = {
      index: history.index,
      purpose: job.call_purpose,
      subject: job.call_subject,
      debtColumn: job.debt_column,
      history: { sinceMs, records: history.records, sha256: history.sha256 },
    };
  }
  const t1 = performance.now();
  const result = await runScrub({
    inputPath: job.input_path,
    outDir,
    columnName: job.column_name,
    sheet: job.input_sheet,
    lists: checks,
    states: job.states,
    calling: job.calling_window ? { at: evaluationInstant(job).getTime(), periods: await emergencyPeriodsAt(ctx.o.handle.db, evaluationInstant(job)) } : null,
    exemptions: exemption ? { index: exemption.index, at: exemption.at } : null,
    calls,
    pool: ctx.o.pool(),
    signal,
    batchBytes: ctx.o.batchBytes,
    onProgress,
  });
  const exemptions: ExemptionProof | null =
    exemption && result.exemptions
      ? { ...exemption.proof, byBasis: result.exemptions, ...(result.exemptionRecords ? { records: result.exemptionRecords } : {}) }
      : null;
  // An instant asked for (the CLI may ask for any, decision 174): a past one is a replay, one after the lists'
  // "valid for calls until" is beyond their validity; both said in the certificate and the summary.
  const usedKinds = new Set<string>(used.map((u) => u.kind));
  const checked = freshness.filter((f) => usedKinds.has(f.kind));
  // (an order holds an instant only with the calling window or an exemption list: order.ts)
  const evaluation = job.evaluated_at
    ? (() => {
        const at = Math.floor(job.evaluated_at.getTime() / 1000) * 1000;
        const standing = instantStanding(at, { now: runAt, lists: checked });
        return { at: isoSecond(at), replay: standing.replay, beyondListValidity: standing.beyondListValidity, notes: standing.notes };
      })()
    : null;
  const staleLists = staleListsOf(checked);
  return { result, used, exemptions, evaluation, staleLists, prepareMs: t1 - t0, pipelineMs: performance.now() - t1 };
}

/** Runs one claimed job to its end: completed with its certificate, failed with the customer's words, or handed back. */
export async function runScrubJob(ctx: RunContext, job: JobRow, abort: AbortController): Promise<void> {
  const startedAt = performance.now();
  const outDir = path.join(ctx.o.dataDir, "jobs", job.id);
  let latest: ScrubProgress | null = null;
  let writing = Promise.resolve();
  const flush = () => {
    const p = latest;
    writing = writing
      .then(async () => {
        const r = await ctx.db
          .updateTable("scrub_jobs")
          .set({
            lease_expires_at: ctx.lease(),
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
          .where("lease_owner", "=", ctx.o.owner)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) abort.abort(new Error("The job's lease was lost to another process."));
      })
      .catch(() => {});
  };
  const timer = setInterval(flush, ctx.progressMs);
  try {
    const delays = ctx.o.storeRetryDelaysMs ?? STORE_RETRY_DELAYS_MS;
    let scrubbed: Awaited<ReturnType<typeof scrubAgainstLists>>;
    for (let retry = 0; ; retry++) {
      try {
        scrubbed = await scrubAgainstLists(ctx, job, outDir, abort.signal, (p) => (latest = p));
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
    const { result, used, exemptions, evaluation, staleLists, prepareMs, pipelineMs } = scrubbed;
    clearInterval(timer);
    ctx.timings.set(job.id, { prepareMs, pipelineMs });
    await writing;
    const stem = path.basename(job.file_name).replace(/\.[^.]*$/, "") || "numbers";
    const fileNames = { good: `${stem}_Good.csv`, bad: `${stem}_Bad.csv`, invalid: `${stem}_Invalid.csv` };
    const key = await currentSigningKey(ctx.db, ctx.o.config);
    const now = (ctx.o.clock ?? (() => new Date()))();
    await ctx.db.transaction().execute(async (trx) => {
      // The certificate is issued in the transaction that completes the job: a completed job always has one.
      const issued = await issueCertificate(trx, {
        job: {
          id: job.id,
          user_id: job.user_id,
          file_name: job.file_name,
          suppression_type: job.suppression_type,
          states: job.states,
          started_at: job.started_at,
        },
        result,
        fileNames,
        lists: used,
        exemptions,
        evaluation,
        staleLists,
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
          column_name: result.phoneColumn || job.column_name,
          input_sha256: result.inputSha256,
          valid_until: issued.validUntil,
          dnc_age_days: issued.dncAgeDays,
          finished_at: now,
          input_format: result.input.format,
          input_encoding: result.input.encoding,
          input_delimiter: result.input.delimiter,
          evaluated_at: result.calling ? new Date(result.calling.at) : exemptions ? new Date(exemptions.at) : job.evaluated_at,
          calling_summary: result.calling ? JSON.stringify(result.calling) : null,
          exemption_summary: exemptions ? JSON.stringify(exemptions) : null,
          lease_owner: null,
          lease_expires_at: null,
        })
        .where("id", "=", job.id)
        .where("lease_owner", "=", ctx.o.owner)
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
      // the decision ledger's batch entry (decision 197), committed with the job
      await appendLedger(trx, job.user_id, [scrubDraft(issued.certificate, issued.text, key.id)], { now });
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
    const handBack = abort.signal.reason === SHUTTING_DOWN && job.attempts < MAX_ATTEMPTS;
    const failure = failureText(e);
    metrics().scrubJobs.inc({ status: handBack ? "handed_back" : "failed" });
    if (!handBack && failure.operator) console.error(`[scrub] job ${job.id} failed: ${failure.operator}`);
    // Only while the lease is ours: after a lost lease the directory belongs to the retry.
    const failed = await ctx.db
      .updateTable("scrub_jobs")
      .set(
        handBack
          ? { status: "queued", ...RESTART }
          : { status: "failed", error: failure.customer, finished_at: sql`now()`, lease_owner: null, lease_expires_at: null },
      )
      .where("id", "=", job.id)
      .where("lease_owner", "=", ctx.o.owner)
      .executeTakeFirst()
      .catch((err) => console.warn(`[scrub] could not record failure of ${job.id}: ${(err as Error).message}`));
    if (failed && Number(failed.numUpdatedRows) > 0) fs.rmSync(outDir, { recursive: true, force: true });
  }
}
