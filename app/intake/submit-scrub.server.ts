import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { createScrubJob, freshnessOfSuppression, readErrorMessage, US_STATES, type ScrubService } from "scrub-service";
import { evaluationInstantProblem } from "scrub-service/domain";
import type { SuppressionType } from "~/intake/purge-wizard";
import { CSV_MESSAGES } from "~/intake/purge-wizard";
import { getCategoryOption, getContainerOption } from "~/models/purge-options.server";
import { getExemptionList, parseExemptionListId } from "~/models/exemption.server";
import { reserveUsage } from "~/models/usage.server";
import { recordAudit } from "~/models/user.server";
import { staleDncRefusal } from "~/models/dnc-clock.server";
import { IntakeInputError, precheckUpload } from "./preview.server";
import { HandOffError, SCRUB_HAND_OFF_FAILED } from "./hand-off";
import type { StoredUpload } from "./upload-store.server";

/**
 * Starting a scrub, for every caller (the purge wizard, the API): pre-check, row count, plan usage reserved
 * and the job inserted in one transaction with its audit row, then the hand-off to the scrub service. When
 * the hand-off fails the job is marked failed (its reservation released) and HandOffError is thrown: the one
 * failure policy (docs/decisions/090-one-intake.md).
 */

export type Origin = { source: "web" } | { source: "api"; apiKeyId: string };

export interface ScrubSubmission {
  userId: string;
  upload: StoredUpload;
  /** The name shown for the job (defaults to the upload's). */
  fileName?: string;
  suppressionType: SuppressionType;
  /** The phone column; null lets the engine pick the file's phone column; "" means none was chosen. */
  column: string | null;
  /** The workbook sheet to read (an .xlsx); null/empty: the first. */
  sheet?: string | null;
  /** The user's category and container (ids as sent; others' are refused). */
  categoryId?: string | null;
  containerId?: string | number | null;
  states: string[];
  /** Whether the user's plan includes the state filter. */
  stateFilterAllowed: boolean;
  origin: Origin;
  /** The time the DNC registry clock is read at (tests inject it). */
  now?: Date;
  /** Add the calling-window columns to good.csv, evaluated at `at` (null: the scrub's start). Decision 131. */
  calling?: { at: Date | null } | null;
  /**
   * The user's exemption list (its id as sent; others' are refused), applied at `at` (null: the scrub's start):
   * registry-list numbers with a valid exemption then are good. Decision 161.
   */
  exemptions?: { listId: string | number; at: Date | null } | null;
}

const STATE_CODES = new Set(US_STATES.map((s) => s.code));

/** A double submit arrives within this window; the same purge started again later is a new job. */
export const DUPLICATE_WINDOW_MS = 15_000;

/**
 * Throws IntakeInputError (bad input), NoPlanError / UsageLimitError / ActiveJobsLimitError (plan), or
 * HandOffError. Returns the job id (the first job's, for a double submit from the web).
 */
export async function submitScrub(db: Kysely<Database>, service: ScrubService, input: ScrubSubmission): Promise<{ jobId: string }> {
  const { userId, upload } = input;
  let categoryId: string | null = null;
  if (input.categoryId) {
    const c = await getCategoryOption(db, userId, String(input.categoryId));
    if (!c) throw new IntakeInputError("The selected category was not found. Please choose it again.", "category");
    categoryId = c.id;
  }
  let containerId: number | null = null;
  if (input.containerId) {
    const c = await getContainerOption(db, userId, String(input.containerId));
    if (!c) throw new IntakeInputError("The selected container was not found. Please choose it again.", "container");
    containerId = Number(c.id);
  }
  let exemptionListId: number | null = null;
  if (input.exemptions) {
    const id = parseExemptionListId(input.exemptions.listId);
    const list = id ? await getExemptionList(db, { id, userId }) : undefined;
    if (!list) throw new IntakeInputError("The selected exemption list was not found. Please choose it again.", "exemptions");
    exemptionListId = list.id;
  }
  if (input.suppressionType === "DNCAndLitigation") {
    const refusal = await staleDncRefusal(db, input.now);
    if (refusal) throw new IntakeInputError(refusal, "suppressionType");
  }
  // An instant means "for calls then" (decision 174): on the web and the API not before now (less the clock skew)
  // nor after the checked lists' "valid for calls until". Checked here, before the job is queued; the engine's
  // face stays permissive for the CLI's audits and plans.
  const at = input.calling?.at ?? input.exemptions?.at ?? null;
  if (at) {
    const now = input.now ?? new Date();
    const problem = evaluationInstantProblem(at.getTime(), { now, lists: await freshnessOfSuppression(db, input.suppressionType, now) });
    if (problem) throw new IntakeInputError(problem, "at");
  }
  const states = input.states.filter((s) => STATE_CODES.has(s));
  if (states.length !== input.states.length) throw new IntakeInputError("Unknown state in the state filter.", "states");
  if (states.length && !input.stateFilterAllowed) throw new IntakeInputError("Your plan does not include the state filter.", "states");
  // Typed numbers were checked entry by entry where they were split; a file gets the spec's pre-check.
  const sheet = input.sheet || null;
  if (!upload.manual) await precheckUpload(service, upload, input.column, sheet);

  const rows = await countDataRows(service, upload, sheet);
  if (rows <= 0) throw new IntakeInputError(CSV_MESSAGES.empty);
  const fileName = input.fileName ?? upload.originalName;
  const started = await db.transaction().execute(async (trx) => {
    // The same lock reserveUsage takes: a double submit waits here, then finds the first one's job.
    await sql`select id from users where id = ${userId} for update`.execute(trx);
    if (input.origin.source === "web") {
      const twin = await findDuplicateJob(trx, {
        userId,
        upload,
        suppressionType: input.suppressionType,
        column: input.column,
        sheet,
        containerId,
        categoryId,
        states,
        callingWindow: input.calling != null,
        exemptionListId,
      });
      if (twin) return { jobId: twin, duplicate: true };
    }
    await reserveUsage(trx, { userId, kind: "suppression", amount: rows });
    const apiKeyId = input.origin.source === "api" ? input.origin.apiKeyId : undefined;
    const jobId = await createScrubJob(trx, {
      userId,
      fileName,
      inputPath: upload.path,
      suppressionType: input.suppressionType,
      columnName: input.column,
      sheet,
      containerId,
      categoryId,
      states: states.length ? states : null,
      usageReserved: rows,
      source: input.origin.source,
      apiKeyId,
      callingWindow: input.calling != null,
      callingAt: input.calling?.at ?? input.exemptions?.at ?? null,
      exemptionListId,
    });
    await recordAudit(trx, {
      actorId: userId,
      action: "scrub.started",
      targetType: "scrub_job",
      targetId: jobId,
      details: {
        fileName,
        suppressionType: input.suppressionType,
        rows,
        source: input.origin.source,
        ...(sheet ? { sheet } : {}),
        ...(apiKeyId ? { apiKeyId } : {}),
        ...(input.calling ? { callingWindow: true, ...(input.calling.at ? { callingAt: input.calling.at.toISOString() } : {}) } : {}),
        ...(exemptionListId != null ? { exemptionListId, ...(input.exemptions?.at ? { at: input.exemptions.at.toISOString() } : {}) } : {}),
      },
    });
    return { jobId, duplicate: false };
  });
  if (!started.duplicate) await handOffScrub(db, service, started.jobId);
  return { jobId: started.jobId };
}

/**
 * The plan check's count: the rows the scrub will read, decoded (a .gz inflated, a workbook converted), the
 * header row not included. A file the readers refuse while counting (a bomb) is refused here, at submission:
 * there is no fallback count that could slip past the plan's limit (docs/decisions/151).
 */
async function countDataRows(service: ScrubService, upload: StoredUpload, sheet: string | null): Promise<number> {
  try {
    return await service.countRecords(upload.path, { sheet, dataRows: true });
  } catch (e) {
    const message = readErrorMessage(e);
    if (!message) throw e;
    throw new IntakeInputError(message);
  }
}

async function handOffScrub(db: Kysely<Database>, service: ScrubService, jobId: string): Promise<void> {
  try {
    await service.enqueue(jobId);
  } catch (e) {
    console.warn(`[intake] hand-off of scrub ${jobId} failed: ${e instanceof Error ? e.message : String(e)}`);
    // Never leave a job queued that nothing may run: it would hold plan usage and a slot of active jobs.
    await db
      .updateTable("scrub_jobs")
      .set({ status: "failed", error: SCRUB_HAND_OFF_FAILED, finished_at: new Date() })
      .where("id", "=", jobId)
      .where("status", "=", "queued")
      .execute();
    throw new HandOffError("scrub", jobId, SCRUB_HAND_OFF_FAILED);
  }
}

/**
 * The job a double submit (a second click on Start Purging, a resent form) would duplicate: the same user's
 * web job started within the last 15 s with the same choices and the same upload (a typed list is stored under
 * the form's submission id, so a resent manual form has the same upload too). Runs under the user-row lock.
 */
async function findDuplicateJob(
  db: Kysely<Database>,
  input: {
    userId: string;
    upload: StoredUpload;
    suppressionType: SuppressionType;
    column: string | null;
    sheet: string | null;
    containerId: number | null;
    categoryId: string | null;
    states: string[];
    callingWindow: boolean;
    exemptionListId: number | null;
  },
): Promise<string | null> {
  const recent = await db
    .selectFrom("scrub_jobs")
    .select(["id", "input_path", "column_name", "input_sheet", "container_id", "category_id", "states", "calling_window", "exemption_list_id"])
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
    if ((j.input_sheet ?? null) !== input.sheet) continue;
    if ((j.states ?? []).join(",") !== states) continue;
    if (j.calling_window !== input.callingWindow) continue;
    if ((j.exemption_list_id ?? null) !== input.exemptionListId) continue;
    if (j.input_path === input.upload.path) return j.id;
  }
  return null;
}
