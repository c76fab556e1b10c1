import type { Kysely, Selectable } from "kysely";
import type { Database, ResultFilesTable, ScrubJobsTable } from "db/schema";
import { shownStatus, type ShownStatus } from "scrub-service/domain";
import { isUuid } from "~/utils/ids";

type Db = Kysely<Database>;
type JobRow = Selectable<ScrubJobsTable>;
type FileRow = Selectable<ResultFilesTable>;

export interface ApiJob {
  id: string;
  /** "retrying" while a job whose scrub service stopped runs again from the start (decision 125). */
  status: ShownStatus;
  source: JobRow["source"];
  file_name: string;
  suppression_type: JobRow["suppression_type"];
  column: string | null;
  /** What the upload was detected as (null until the job has read it). */
  input: { format: string | null; encoding: string | null; delimiter: string | null; sheet: string | null };
  container_id: number | null;
  states: string[] | null;
  progress: { rows_done: number; total_rows: number; percent: number };
  counts: { good: number; bad: number; invalid: number; reasons: Record<string, number> };
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  files: { kind: FileRow["kind"]; file_name: string; records: number; bytes: number; download_url: string }[];
  /** Asked for with calling_window=true: the instant (null until the job starts), and once completed the counts. */
  calling_window: ApiCallingWindow | null;
  /** Asked for with `exemptions`: the list, and once completed its version, SHA-256, instant and good rows per basis. */
  exemptions: ApiExemptions | null;
}

export interface ApiExemptions {
  list_id: number | null;
  version: number | null;
  sha256: string | null;
  at: string | null;
  counts: { purchase: number; inquiry: number; consent: number } | null;
  /**
   * The listed numbers' records per outcome and basis (decision 184): applied, expired, never_applicable (litigation,
   * the container), not_yet (dated after the instant); null until completed, and for scrubs before the count.
   */
  records: Record<"applied" | "expired" | "never_applicable" | "not_yet", { purchase: number; inquiry: number; consent: number }> | null;
}

type BasisCounts = { purchase: number; inquiry: number; consent: number };

/** The API's view of a job's exemption summary (ExemptionProof, stored by the engine as JSON). */
export function serializeExemptions(job: Pick<JobRow, "exemption_list_id" | "exemption_summary">): ApiExemptions | null {
  const raw = typeof job.exemption_summary === "string" ? JSON.parse(job.exemption_summary) : job.exemption_summary;
  const s = raw as {
    listId: number;
    version: number;
    sha256: string | null;
    at: string;
    byBasis: BasisCounts;
    records?: { applied: BasisCounts; expired: BasisCounts; neverApplicable: BasisCounts; notYet: BasisCounts };
  } | null;
  if (!s && job.exemption_list_id == null) return null;
  return {
    list_id: s?.listId ?? job.exemption_list_id ?? null,
    version: s?.version ?? null,
    sha256: s?.sha256 ?? null,
    at: s?.at ?? null,
    counts: s ? { ...s.byBasis } : null,
    records: s?.records
      ? {
          applied: { ...s.records.applied },
          expired: { ...s.records.expired },
          never_applicable: { ...s.records.neverApplicable },
          not_yet: { ...s.records.notYet },
        }
      : null,
  };
}

export interface ApiCallingWindow {
  at: string | null;
  rules_version: string | null;
  time_zone_source: string | null;
  counts: { callable_now: number; later_today: number; not_today: number; no_time_zone: number } | null;
  by_time_zone: { time_zones: string; count: number }[] | null;
  /** The caps the calls are counted against (decision 191), the calls' subject, each row's debt column. */
  purpose: JobRow["call_purpose"];
  subject: string;
  debt_column: string | null;
  /** Once completed: the history read and the rows the caps held back (null before, and for scrubs before the count). */
  calls: ApiCalls | null;
}

export interface ApiCalls {
  caps_version: string;
  history: { since: string; records: number; sha256: string };
  rows_with_calls: number;
  held_by_caps: number;
  by_cap: { cap: string; cite: string; rows: number }[];
}

/** The API's view of a job's calling summary (CallingSummary, stored by the engine as JSON). */
export function serializeCalling(
  job: Pick<JobRow, "calling_window" | "evaluated_at" | "calling_summary" | "call_purpose" | "call_subject" | "debt_column">,
): ApiCallingWindow | null {
  if (!job.calling_window) return null;
  const raw = typeof job.calling_summary === "string" ? JSON.parse(job.calling_summary) : job.calling_summary;
  const s = raw as {
    at: string;
    rulesVersion: string;
    timeZoneSource: string;
    callableNow: number;
    laterToday: number;
    notToday: number;
    noTimeZone: number;
    byTimeZone: { zones: string; count: number }[];
    calls?: {
      capsVersion: string;
      history: { since: string; records: number; sha256: string };
      rowsWithCalls: number;
      heldByCaps: number;
      byCap: { cap: string; cite: string; rows: number }[];
    };
  } | null;
  const c = s?.calls;
  return {
    at: s?.at ?? (job.evaluated_at ? new Date(job.evaluated_at).toISOString().slice(0, 19) + "Z" : null),
    rules_version: s?.rulesVersion ?? null,
    time_zone_source: s?.timeZoneSource ?? null,
    counts: s ? { callable_now: s.callableNow, later_today: s.laterToday, not_today: s.notToday, no_time_zone: s.noTimeZone } : null,
    by_time_zone: s ? s.byTimeZone.map((z) => ({ time_zones: z.zones, count: z.count })) : null,
    purpose: job.call_purpose,
    subject: job.call_subject,
    debt_column: job.debt_column,
    calls: c
      ? {
          caps_version: c.capsVersion,
          history: { ...c.history },
          rows_with_calls: c.rowsWithCalls,
          held_by_caps: c.heldByCaps,
          by_cap: c.byCap.map((b) => ({ ...b })),
        }
      : null,
  };
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function progressPercent(job: Pick<JobRow, "status" | "rows_done" | "total_rows" | "bytes_read" | "input_bytes">): number {
  if (job.status === "completed") return 100;
  const total = Number(job.total_rows);
  if (total > 0) return Math.min(99.9, Math.round((Number(job.rows_done) / total) * 1000) / 10);
  const bytes = Number(job.input_bytes);
  if (bytes > 0) return Math.min(99.9, Math.round((Number(job.bytes_read) / bytes) * 1000) / 10);
  return 0;
}

export function serializeJob(job: JobRow, files: FileRow[], baseUrl: string): ApiJob {
  const reasons = typeof job.reason_counts === "string" ? JSON.parse(job.reason_counts) : (job.reason_counts ?? {});
  const order = { good: 0, bad: 1, invalid: 2 } as const;
  return {
    id: job.id,
    status: shownStatus(job),
    source: job.source,
    file_name: job.file_name,
    suppression_type: job.suppression_type,
    column: job.column_name,
    input: { format: job.input_format, encoding: job.input_encoding, delimiter: job.input_delimiter, sheet: job.input_sheet },
    container_id: job.container_id,
    states: job.states,
    progress: { rows_done: Number(job.rows_done), total_rows: Number(job.total_rows), percent: progressPercent(job) },
    counts: { good: Number(job.good_count), bad: Number(job.bad_count), invalid: Number(job.invalid_count), reasons },
    error: job.error,
    created_at: iso(job.created_at)!,
    started_at: iso(job.started_at),
    finished_at: iso(job.finished_at),
    files:
      job.status === "completed"
        ? [...files]
            .sort((a, b) => order[a.kind] - order[b.kind])
            .map((f) => ({
              kind: f.kind,
              file_name: f.file_name,
              records: Number(f.records),
              bytes: Number(f.bytes),
              download_url: `${baseUrl}/api/v1/scrubs/${job.id}/files/${f.kind}`,
            }))
        : [],
    calling_window: serializeCalling(job),
    exemptions: serializeExemptions(job),
  };
}

/** The user's job with its result files, or undefined (another user's job reads as absent). */
export async function getJobForUser(db: Db, { id, userId }: { id: string; userId: string }) {
  if (!isUuid(id)) return undefined;
  const job = await db.selectFrom("scrub_jobs").selectAll().where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  if (!job) return undefined;
  const files = await db.selectFrom("result_files").selectAll().where("job_id", "=", id).where("user_id", "=", userId).execute();
  return { job, files };
}

/** Newest first; `after` is the id of the last job of the previous page (keyset on created_at, id). */
export async function listJobsForUser(db: Db, { userId, limit, status, after }: { userId: string; limit: number; status?: ShownStatus; after?: string }) {
  let q = db
    .selectFrom("scrub_jobs")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1);
  // Filtered by the status the API shows (shownStatus): "retrying" is queued or running again after a lost worker.
  if (status === "retrying")
    q = q.where((eb) => eb.or([eb.and([eb("status", "=", "queued"), eb("attempts", ">", 0)]), eb.and([eb("status", "=", "running"), eb("attempts", ">", 1)])]));
  else if (status === "queued") q = q.where("status", "=", "queued").where("attempts", "=", 0);
  else if (status === "running") q = q.where("status", "=", "running").where("attempts", "<=", 1);
  else if (status) q = q.where("status", "=", status);
  if (after) {
    q = q.where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple("created_at", "id"),
        "<",
        selectFrom("scrub_jobs as c").select(["c.created_at", "c.id"]).where("c.id", "=", after).where("c.user_id", "=", userId) as never,
      ),
    );
  }
  const rows = await q.execute();
  const page = rows.slice(0, limit);
  const ids = page.map((r) => r.id);
  const files = ids.length ? await db.selectFrom("result_files").selectAll().where("job_id", "in", ids).where("user_id", "=", userId).execute() : [];
  return {
    jobs: page.map((j) => ({ job: j, files: files.filter((f) => f.job_id === j.id) })),
    nextCursor: rows.length > limit ? page[page.length - 1].id : null,
  };
}
