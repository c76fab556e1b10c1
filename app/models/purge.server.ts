import { reminderState, type ReminderState } from "~/models/reminder-state";
import { sql, type Kysely } from "kysely";
import type { Database, ResultKind, RoleName, SuppressionTypeName } from "db/schema";
import { shownStatus, type ShownStatus } from "scrub-service/domain";
import { isAdmin } from "~/models/user-permissions";
import { isUuid } from "~/utils/ids";

/**
 * A purge's history: the queries behind /purge's job view, /history and /downloads over scrub_jobs and
 * result_files (the wizard's choices are purge-options.server.ts, the dashboard's figures dashboard.server.ts).
 * Every query takes the viewer and scopes by user in the query: admins (Admin, SuperAdmin) see every user's jobs where a screen says so, others only their own.
 */

export interface Viewer {
  id: string;
  role: RoleName;
}

export const isAdminViewer = (v: Viewer) => isAdmin(v.role);

export const HISTORY_PAGE_SIZE = 10;
export const STATS_WINDOW_DAYS = 30;

export interface ResultFileSummary {
  id: string;
  kind: ResultKind;
  records: number;
}

export interface HistoryRow {
  id: string;
  userId: string;
  createdAt: string;
  creatorName: string;
  fileName: string;
  suppressionType: SuppressionTypeName;
  status: ShownStatus;
  error: string | null;
  processed: number;
  /** Progress of a queued/running job (0..99), from the bytes read. */
  percent: number;
  good: number;
  bad: number;
  invalid: number;
  files: ResultFileSummary[];
  /** DNC purges: the Good file is valid for calls until then (registry date + 31 days). */
  validUntil: string | null;
  /** The DNC list's age in days when the purge completed. */
  dncAgeDays: number | null;
  /** A signed certificate exists (every job completed since certificates began). */
  hasCertificate: boolean;
  /** The owner's "remind me to re-scrub" request (decision 110). */
  reminder: ReminderState;
  /** good.csv carries the calling-time columns. */
  callingTimes: boolean;
  /** The exemption list the purge applied (its name now; "a deleted list" once it is gone), or null. */
  exemptionList: string | null;
}

const KIND_ORDER: Record<ResultKind, number> = { good: 0, bad: 1, invalid: 2 };

/** A query over scrub_jobs narrowed to the viewer's own jobs (all of them for an admin when `all`). */
export function scopeJobs<QB extends { where: (column: "scrub_jobs.user_id", op: "=", value: string) => QB }>(qb: QB, viewer: Viewer, all: boolean): QB {
  return all && isAdminViewer(viewer) ? qb : qb.where("scrub_jobs.user_id", "=", viewer.id);
}

async function filesForJobs(db: Kysely<Database>, jobIds: string[]): Promise<Map<string, ResultFileSummary[]>> {
  const map = new Map<string, ResultFileSummary[]>();
  if (!jobIds.length) return map;
  const files = await db.selectFrom("result_files").select(["id", "job_id", "kind", "records"]).where("job_id", "in", jobIds).execute();
  for (const f of files) {
    const list = map.get(f.job_id) ?? [];
    list.push({ id: f.id, kind: f.kind, records: Number(f.records) });
    map.set(f.job_id, list);
  }
  for (const list of map.values()) list.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  return map;
}

/** One page of purge history, newest first. Admins see every user's operations. */
export async function listHistory(
  db: Kysely<Database>,
  viewer: Viewer,
  opts: { page: number; pageSize?: number },
): Promise<{ rows: HistoryRow[]; total: number; page: number; pageCount: number; pageSize: number }> {
  const pageSize = opts.pageSize ?? HISTORY_PAGE_SIZE;
  const countRow = await scopeJobs(db.selectFrom("scrub_jobs"), viewer, true)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(countRow.n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(opts.page) || 1), pageCount);
  const jobs = await scopeJobs(
    db
      .selectFrom("scrub_jobs")
      .innerJoin("users", "users.id", "scrub_jobs.user_id")
      .leftJoin("exemption_lists", "exemption_lists.id", "scrub_jobs.exemption_list_id"),
    viewer,
    true,
  )
    .select([
      "scrub_jobs.calling_window",
      "scrub_jobs.exemption_list_id",
      "exemption_lists.name as exemption_list_name",
      "scrub_jobs.id",
      "scrub_jobs.user_id",
      "scrub_jobs.created_at",
      "scrub_jobs.file_name",
      "scrub_jobs.suppression_type",
      "scrub_jobs.status",
      "scrub_jobs.attempts",
      "scrub_jobs.error",
      "scrub_jobs.rows_done",
      "scrub_jobs.bytes_read",
      "scrub_jobs.input_bytes",
      "scrub_jobs.good_count",
      "scrub_jobs.bad_count",
      "scrub_jobs.invalid_count",
      "scrub_jobs.valid_until",
      "scrub_jobs.dnc_age_days",
      "scrub_jobs.remind_at",
      "scrub_jobs.reminder_sent_at",
      (eb) => eb.exists(eb.selectFrom("scrub_certificates").select("job_id").whereRef("scrub_certificates.job_id", "=", "scrub_jobs.id")).as("has_certificate"),
      "users.first_name",
      "users.last_name",
      "users.email",
    ])
    .orderBy("scrub_jobs.created_at", "desc")
    .orderBy("scrub_jobs.id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const files = await filesForJobs(
    db,
    jobs.filter((j) => j.status === "completed").map((j) => j.id),
  );
  return {
    total,
    page,
    pageCount,
    pageSize,
    rows: jobs.map((j) => ({
      id: j.id,
      userId: j.user_id,
      createdAt: j.created_at.toISOString(),
      creatorName: `${j.first_name} ${j.last_name}`.trim() || j.email,
      fileName: j.file_name,
      suppressionType: j.suppression_type,
      status: shownStatus(j),
      error: j.error,
      processed: Number(j.rows_done),
      percent: j.status === "completed" ? 100 : Number(j.input_bytes) > 0 ? Math.min(99, Math.floor((Number(j.bytes_read) / Number(j.input_bytes)) * 100)) : 0,
      good: Number(j.good_count),
      bad: Number(j.bad_count),
      invalid: Number(j.invalid_count),
      files: files.get(j.id) ?? [],
      validUntil: j.valid_until ? j.valid_until.toISOString() : null,
      dncAgeDays: j.dnc_age_days,
      hasCertificate: Boolean(j.has_certificate),
      reminder: reminderState(j),
      callingTimes: Boolean(j.calling_window),
      exemptionList: j.exemption_list_id == null ? null : (j.exemption_list_name ?? "a deleted list"),
    })),
  };
}

export interface PurgeTotals {
  operations: number;
  processed: number;
  clean: number;
  /** clean / processed as a fraction (0 when nothing was processed). */
  cleanRate: number;
}

/** Totals over the viewer's jobs (all jobs for admins); only completed jobs count as processed. */
export async function historyStats(db: Kysely<Database>, viewer: Viewer, opts: { since?: Date } = {}): Promise<PurgeTotals> {
  let q = scopeJobs(db.selectFrom("scrub_jobs"), viewer, true);
  if (opts.since) q = q.where("scrub_jobs.created_at", ">=", opts.since);
  const row = await q
    .select((eb) => [
      eb.fn.countAll<string>().as("operations"),
      sql<string>`coalesce(sum(case when status = 'completed' then good_count + bad_count + invalid_count else 0 end), 0)`.as("processed"),
      sql<string>`coalesce(sum(case when status = 'completed' then good_count else 0 end), 0)`.as("clean"),
    ])
    .executeTakeFirstOrThrow();
  const processed = Number(row.processed);
  const clean = Number(row.clean);
  return { operations: Number(row.operations), processed, clean, cleanRate: processed ? clean / processed : 0 };
}

/** A job the viewer may see (own job; admins any job when `adminSeesAll`). */
export async function getJobForViewer(db: Kysely<Database>, viewer: Viewer, jobId: string, opts: { adminSeesAll?: boolean } = {}) {
  if (!isUuid(jobId)) return undefined;
  const job = await scopeJobs(db.selectFrom("scrub_jobs"), viewer, opts.adminSeesAll ?? false)
    .selectAll("scrub_jobs")
    .where("scrub_jobs.id", "=", jobId)
    .executeTakeFirst();
  if (!job) return undefined;
  const files = (await filesForJobs(db, [job.id])).get(job.id) ?? [];
  return { job, files, lists: job.status === "completed" ? await listsCheckedBy(db, job.id) : [] };
}

/** A list version a completed purge was checked against, as its certificate states it. */
export interface ListChecked {
  kind: string;
  name: string;
  version: number;
  count: number;
  /** The stated registry date of the download (DNC, a state list), else the load time; ISO or null. */
  registryDate: string | null;
}

/** The lists a completed job was checked against, from its certificate (none for jobs before certificates). */
async function listsCheckedBy(db: Kysely<Database>, jobId: string): Promise<ListChecked[]> {
  const row = await db.selectFrom("scrub_certificates").select("document").where("job_id", "=", jobId).executeTakeFirst();
  if (!row) return [];
  const lists = (JSON.parse(row.document) as { certificate?: { lists?: ListChecked[] } }).certificate?.lists ?? [];
  return lists.map((l) => ({ kind: l.kind, name: l.name, version: Number(l.version), count: Number(l.count), registryDate: l.registryDate ?? null }));
}

export interface JobView {
  id: string;
  fileName: string;
  suppressionType: SuppressionTypeName;
  status: ShownStatus;
  error: string | null;
  rowsDone: number;
  totalRows: number;
  bytesRead: number;
  inputBytes: number;
  /** 0..100, from bytes read (exact for a file) or rows when bytes are unknown. */
  percent: number;
  good: number;
  bad: number;
  invalid: number;
  reasons: Record<string, number>;
  files: ResultFileSummary[];
  createdAt: string;
  finishedAt: string | null;
  validUntil: string | null;
  dncAgeDays: number | null;
  reminder: ReminderState;
  /** The calling-window summary of a completed job that asked for it (decision 131). */
  calling: CallingView | null;
  /** The lists and versions a completed job was checked against (its certificate's). */
  lists: ListChecked[];
  /** The exemption list a completed job applied and the good rows each basis let through (decision 161). */
  exemptions: ExemptionsView | null;
}

export type BasisCounts = { purchase: number; inquiry: number; consent: number };

export interface ExemptionsView {
  name: string;
  version: number;
  sha256: string | null;
  at: string;
  byBasis: BasisCounts;
  /** Each exemptible list the scrub checked, with its own windows (months; 0 = no such exemption). */
  windows: { kind: string; purchaseMonths: number; inquiryMonths: number }[];
  /**
   * The listed numbers' records per outcome and basis (decision 184); null for scrubs made before the summary had
   * them.
   */
  records: { applied: BasisCounts; expired: BasisCounts; neverApplicable: BasisCounts; notYet: BasisCounts } | null;
}

function basisCounts(raw: unknown): BasisCounts {
  const b = (raw ?? {}) as Partial<Record<keyof BasisCounts, unknown>>;
  return { purchase: Number(b.purchase ?? 0), inquiry: Number(b.inquiry ?? 0), consent: Number(b.consent ?? 0) };
}

function exemptionsView(raw: unknown): ExemptionsView | null {
  const s = (typeof raw === "string" ? JSON.parse(raw) : raw) as (Partial<ExemptionsView> & { records?: Record<string, unknown> }) | null;
  if (!s || typeof s !== "object" || typeof s.at !== "string" || !s.byBasis) return null;
  const r = s.records && typeof s.records === "object" ? s.records : null;
  return {
    name: String(s.name ?? ""),
    version: Number(s.version ?? 0),
    sha256: typeof s.sha256 === "string" ? s.sha256 : null,
    at: s.at,
    byBasis: basisCounts(s.byBasis),
    windows: Array.isArray(s.windows)
      ? s.windows.map((w) => ({ kind: String(w.kind), purchaseMonths: Number(w.purchaseMonths ?? 0), inquiryMonths: Number(w.inquiryMonths ?? 0) }))
      : [],
    records: r
      ? { applied: basisCounts(r.applied), expired: basisCounts(r.expired), neverApplicable: basisCounts(r.neverApplicable), notYet: basisCounts(r.notYet) }
      : null,
  };
}

export interface CallingView {
  at: string;
  rulesVersion: string;
  callableNow: number;
  laterToday: number;
  notToday: number;
  noTimeZone: number;
  byTimeZone: { zones: string; count: number }[];
  /** The calling notes that held good numbers back at the instant, with their counts (empty for older scrubs). */
  heldBack: { note: string; count: number }[];
  /** The calls counted (decision 191): purpose, records read, rows with calls and rows a call limit held; null for older scrubs. */
  calls: { purpose: string; records: number; rowsWithCalls: number; heldByCaps: number } | null;
}

function callingView(raw: unknown): CallingView | null {
  const s = (typeof raw === "string" ? JSON.parse(raw) : raw) as Partial<CallingView> | null;
  if (!s || typeof s !== "object" || typeof s.at !== "string") return null;
  return {
    at: s.at,
    rulesVersion: String(s.rulesVersion ?? ""),
    callableNow: Number(s.callableNow ?? 0),
    laterToday: Number(s.laterToday ?? 0),
    notToday: Number(s.notToday ?? 0),
    noTimeZone: Number(s.noTimeZone ?? 0),
    byTimeZone: Array.isArray(s.byTimeZone) ? s.byTimeZone.map((z) => ({ zones: String(z.zones), count: Number(z.count) })) : [],
    heldBack: Array.isArray(s.heldBack) ? s.heldBack.map((h) => ({ note: String(h.note), count: Number(h.count) })) : [],
    calls: callsView((s as { calls?: unknown }).calls),
  };
}

function callsView(raw: unknown): CallingView["calls"] {
  const c = raw as { purpose?: unknown; history?: { records?: unknown }; rowsWithCalls?: unknown; heldByCaps?: unknown } | null | undefined;
  if (!c || typeof c !== "object") return null;
  return {
    purpose: String(c.purpose ?? ""),
    records: Number(c.history?.records ?? 0),
    rowsWithCalls: Number(c.rowsWithCalls ?? 0),
    heldByCaps: Number(c.heldByCaps ?? 0),
  };
}

export type JobWithFiles = NonNullable<Awaited<ReturnType<typeof getJobForViewer>>>;

export function jobView(job: JobWithFiles | undefined): JobView | null {
  if (!job) return null;
  const j = job.job;
  const inputBytes = Number(j.input_bytes);
  const bytesRead = Number(j.bytes_read);
  const rowsDone = Number(j.rows_done);
  const totalRows = Number(j.total_rows);
  let percent = 0;
  if (j.status === "completed") percent = 100;
  else if (inputBytes > 0) percent = (bytesRead / inputBytes) * 100;
  else if (totalRows > 0) percent = (rowsDone / totalRows) * 100;
  percent = Math.max(0, Math.min(j.status === "completed" ? 100 : 99, Math.floor(percent)));
  const reasons: Record<string, number> = {};
  const rc = (typeof j.reason_counts === "string" ? JSON.parse(j.reason_counts) : j.reason_counts) as Record<string, unknown>;
  for (const [k, v] of Object.entries(rc ?? {})) if (typeof v === "number" || typeof v === "string") reasons[k] = Number(v);
  return {
    id: j.id,
    fileName: j.file_name,
    suppressionType: j.suppression_type,
    status: shownStatus(j),
    error: j.error,
    rowsDone,
    totalRows,
    bytesRead,
    inputBytes,
    percent,
    good: Number(j.good_count),
    bad: Number(j.bad_count),
    invalid: Number(j.invalid_count),
    reasons,
    files: job.files,
    createdAt: j.created_at.toISOString(),
    finishedAt: j.finished_at ? j.finished_at.toISOString() : null,
    validUntil: j.valid_until ? j.valid_until.toISOString() : null,
    dncAgeDays: j.dnc_age_days,
    reminder: reminderState(j),
    calling: j.status === "completed" ? callingView(j.calling_summary) : null,
    lists: job.lists,
    exemptions: j.status === "completed" ? exemptionsView(j.exemption_summary) : null,
  };
}

/** A result file the viewer may download: the owner's, or any for admins. */
export async function getResultFileForViewer(db: Kysely<Database>, viewer: Viewer, fileId: string) {
  if (!isUuid(fileId)) return undefined;
  let q = db
    .selectFrom("result_files")
    .innerJoin("scrub_jobs", "scrub_jobs.id", "result_files.job_id")
    .select([
      "result_files.id",
      "result_files.kind",
      "result_files.path",
      "result_files.bytes",
      "result_files.file_name",
      "scrub_jobs.file_name as job_file_name",
    ])
    .where("result_files.id", "=", fileId);
  if (!isAdminViewer(viewer)) q = q.where("result_files.user_id", "=", viewer.id);
  return q.executeTakeFirst();
}

/** `{original name}-{kind}.csv`, safe for a Content-Disposition header and any file system. */
export function downloadName(originalName: string, kind: ResultKind): string {
  const base = (originalName.split(/[/\\]/).pop() ?? "")
    .replace(/\.[^.]*$/, "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\w .()-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[ ._-]+|[ ._-]+$/g, "")
    .slice(0, 100);
  return `${base || "purge"}-${kind}.csv`;
}

/** The same name keeping non-ASCII letters, for the `filename*` (RFC 5987) parameter. */
export function downloadNameUtf8(originalName: string, kind: ResultKind): string {
  const base = (originalName.split(/[/\\]/).pop() ?? "")
    .replace(/\.[^.]*$/, "")
    .replace(/[\u0000-\u001f\u007f"*:<>?|;]+/g, "_")
    .replace(/^[ ._-]+|[ ._-]+$/g, "")
    .slice(0, 100);
  return base ? `${base}-${kind}.csv` : downloadName(originalName, kind);
}
