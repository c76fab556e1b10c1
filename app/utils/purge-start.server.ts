import { unstable_parseMultipartFormData } from "@remix-run/node";
import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { createScrubJob, getScrubService, parsePhone, US_STATES, type ScrubService } from "./scrub.server";
import { CSV_MESSAGES, parseWizardState, PRECHECK_ROWS, wizardHref, type SuppressionType } from "./purge-wizard";
import {
  createCsvUploadHandler,
  deleteUpload,
  getUpload,
  sweepStaleUploads,
  UploadTooLargeError,
  type StoredUpload,
} from "./uploads.server";
import { getCategoryOption, getContainerOption, inputPathsInUse } from "~/models/purge.server";
import { getDb } from "./db.server";
import { env } from "./env.server";
import { reserveUsage } from "~/models/usage.server";
import { recordAudit, type SessionUser } from "~/models/user.server";

/** A message for the user (shown under 'Validation Error'); never a crash. */
export class PurgeInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PurgeInputError";
  }
}

export interface CsvSummary {
  headers: string[];
  hasHeader: boolean;
  rows: string[][];
  phoneColumn: string | null;
}

/** Reads the header and the first rows of an upload; throws PurgeInputError with the spec's messages. */
export async function readCsvSummary(service: ScrubService, upload: StoredUpload): Promise<CsvSummary> {
  if (upload.bytes === 0) throw new PurgeInputError(CSV_MESSAGES.empty);
  let preview: Awaited<ReturnType<ScrubService["previewCsv"]>>;
  try {
    preview = await service.previewCsv(upload.path, PRECHECK_ROWS);
  } catch {
    throw new PurgeInputError(CSV_MESSAGES.unreadable);
  }
  if (!preview.headers.length || preview.headers.every((h) => !h.trim())) {
    // A file with rows but no usable header cells, or nothing at all.
    throw new PurgeInputError(preview.rows.length ? CSV_MESSAGES.headers : CSV_MESSAGES.empty);
  }
  if (!preview.rows.length) throw new PurgeInputError(CSV_MESSAGES.empty);
  return { headers: preview.headers, hasHeader: preview.hasHeader, rows: preview.rows, phoneColumn: preview.phoneColumn };
}

/**
 * The pre-check before a CSV purge (DECISIONS: invalid numbers do not block; only a column with no phone
 * number at all in the first rows, or an unreadable file, does).
 */
export async function precheckCsv(service: ScrubService, upload: StoredUpload, column: string): Promise<CsvSummary> {
  if (!column) throw new PurgeInputError(CSV_MESSAGES.noColumn);
  const summary = await readCsvSummary(service, upload);
  const index = summary.headers.indexOf(column);
  if (index < 0) throw new PurgeInputError(CSV_MESSAGES.columnMissing(column));
  const anyPhone = summary.rows.slice(0, PRECHECK_ROWS).some((r) => parsePhone(r[index] ?? "").ok);
  if (!anyPhone) throw new PurgeInputError(CSV_MESSAGES.noPhones(column));
  return summary;
}

const STATE_CODES = new Set(US_STATES.map((s) => s.code));

export interface StartPurgeInput {
  user: SessionUser;
  upload: StoredUpload;
  suppressionType: SuppressionType;
  column: string;
  categoryId: string;
  containerId: string;
  states: string[];
  /** Whether the user's plan includes the state filter. */
  stateFilterAllowed: boolean;
}

/**
 * Reserves the plan usage and inserts the queued job in one transaction, then hands it to the scrub
 * service. Throws PurgeInputError (bad choices), NoPlanError / UsageLimitError (plan), or the service's error.
 */
export async function startPurge(db: Kysely<Database>, service: ScrubService, input: StartPurgeInput): Promise<string> {
  const { user, upload } = input;
  let categoryId: string | null = null;
  if (input.categoryId) {
    const c = await getCategoryOption(db, user.id, input.categoryId);
    if (!c) throw new PurgeInputError("The selected category was not found. Please choose it again.");
    categoryId = c.id;
  }
  let containerId: number | null = null;
  if (input.containerId) {
    const c = await getContainerOption(db, user.id, input.containerId);
    if (!c) throw new PurgeInputError("The selected container was not found. Please choose it again.");
    containerId = Number(c.id);
  }
  const states = input.states.filter((s) => STATE_CODES.has(s));
  if (states.length !== input.states.length) throw new PurgeInputError("Unknown state in the state filter.");
  if (states.length && !input.stateFilterAllowed) throw new PurgeInputError("Your plan does not include the state filter.");

  const rows = await service.countRecords(upload.path);
  const started = await db.transaction().execute(async (trx) => {
    // The same lock reserveUsage takes: a double submit waits here, then finds the first one's job.
    await sql`select id from users where id = ${user.id} for update`.execute(trx);
    const twin = await findDuplicateJob(trx, { userId: user.id, upload, suppressionType: input.suppressionType, column: input.column, containerId, categoryId, states });
    if (twin) return { jobId: twin, duplicate: true };
    await reserveUsage(trx, { userId: user.id, kind: "suppression", amount: rows });
    const id = await createScrubJob(trx, {
      userId: user.id,
      fileName: upload.originalName,
      inputPath: upload.path,
      suppressionType: input.suppressionType,
      columnName: input.column,
      containerId,
      categoryId,
      states: states.length ? states : null,
      usageReserved: rows,
      source: "web",
    });
    return { jobId: id, duplicate: false };
  });
  const { jobId } = started;
  if (started.duplicate) return jobId;
  await recordAudit(db, {
    actorId: user.id,
    action: "scrub.started",
    targetType: "scrub_job",
    targetId: jobId,
    details: { fileName: upload.originalName, suppressionType: input.suppressionType },
  });
  try {
    await service.enqueue(jobId);
  } catch (e) {
    // Never leave a job queued that nothing will run (it would hold plan usage forever).
    await db
      .updateTable("scrub_jobs")
      .set({ status: "failed", error: "Failed to process purge.", finished_at: new Date() })
      .where("id", "=", jobId)
      .where("status", "=", "queued")
      .execute();
    throw e;
  }
  return jobId;
}

export type UploadOutcome = { ok: true; redirectTo: string } | { ok: false; status: number; message: string };

/**
 * Step 4 (CSV) after the multipart body was parsed with createCsvUploadHandler: check the new file (and
 * delete it when refused), or keep the one uploaded before when no new file came.
 */
export async function handleCsvUpload(userId: string, formData: FormData): Promise<UploadOutcome> {
  const state = parseWizardState(formData);
  await sweepOldUploads(userId);
  const fileId = formData.get("file");
  if (typeof fileId === "string" && fileId) {
    const upload = await getUpload(userId, fileId);
    if (!upload) return { ok: false, status: 400, message: CSV_MESSAGES.unreadable };
    try {
      const summary = await readCsvSummary(await getScrubService(), upload);
      return {
        ok: true,
        redirectTo: wizardHref(state, { step: 5, mode: "csv", upload: upload.id, column: summary.phoneColumn ?? "", job: "" }),
      };
    } catch (e) {
      await deleteUpload(upload);
      if (e instanceof PurgeInputError) return { ok: false, status: 400, message: e.message };
      throw e;
    }
  }
  // No new file: keep the one uploaded before (going back and forth does not re-upload).
  const existing = await getUpload(userId, state.upload);
  if (existing && !existing.manual) return { ok: true, redirectTo: wizardHref(state, { step: 5, mode: "csv", job: "" }) };
  return { ok: false, status: 400, message: CSV_MESSAGES.noFile };
}

/** Parses the step-4 multipart body (streamed to disk, capped). */
export async function parseUploadForm(request: Request, userId: string): Promise<{ formData: FormData } | { status: number; message: string }> {
  if (!(request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    return { status: 400, message: CSV_MESSAGES.noFile };
  }
  // A declared body far over the cap is refused before anything is written.
  const declared = Number(request.headers.get("Content-Length") ?? "");
  const max = env().MAX_UPLOAD_BYTES;
  if (Number.isFinite(declared) && declared > max + 1024 * 1024) return { status: 413, message: new UploadTooLargeError(max).message };
  try {
    return { formData: await unstable_parseMultipartFormData(request, createCsvUploadHandler({ userId, maxBytes: max })) };
  } catch (e) {
    if (e instanceof UploadTooLargeError) return { status: 413, message: e.message };
    return { status: 400, message: CSV_MESSAGES.unreadable };
  }
}

/** Best effort: a failed sweep never fails the user's upload. */
export async function sweepOldUploads(userId: string): Promise<void> {
  try {
    const db = await getDb();
    await sweepStaleUploads(userId, (paths) => inputPathsInUse(db, paths));
  } catch (e) {
    console.warn(`[uploads] sweep failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A double submit arrives within this window; the same purge started again later is a new job. */
export const DUPLICATE_WINDOW_MS = 15_000;

/**
 * The job a double submit (a second click on Start Purging, a resent form) would duplicate: the same user's
 * job started within the last 15 s with the same choices and the same upload (a typed list is stored under
 * the form's submission id, so a resent manual form has the same upload too). Runs under the user-row lock.
 */
async function findDuplicateJob(
  db: Kysely<Database>,
  input: {
    userId: string;
    upload: StoredUpload;
    suppressionType: SuppressionType;
    column: string;
    containerId: number | null;
    categoryId: string | null;
    states: string[];
  },
): Promise<string | null> {
  const recent = await db
    .selectFrom("scrub_jobs")
    .select(["id", "input_path", "column_name", "container_id", "category_id", "states"])
    .where("user_id", "=", input.userId)
    .where("source", "=", "web")
    .where("status", "<>", "failed")
    .where("suppression_type", "=", input.suppressionType)
    .where("created_at", ">", new Date(Date.now() - DUPLICATE_WINDOW_MS))
    .orderBy("created_at", "desc")
    .limit(10)
    .execute();
  const states = input.states.join(",");
  for (const j of recent) {
    if (j.column_name !== input.column || j.container_id !== input.containerId || j.category_id !== input.categoryId) continue;
    if ((j.states ?? []).join(",") !== states) continue;
    if (j.input_path === input.upload.path) return j.id;
  }
  return null;
}
