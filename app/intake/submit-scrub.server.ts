import { sql, type Kysely } from "kysely";
import type { Database } from "db/schema";
import { createScrubJob, freshnessOfSuppression, readErrorMessage, ScrubOrderRefusal, US_STATES, type ScrubService } from "scrub-service";
import { evaluationInstantProblem, type ScrubOrder } from "scrub-service/domain";
import { CSV_MESSAGES } from "~/intake/purge-wizard";
import { getCategoryOption } from "~/models/purge-options.server";
import { reserveUsage } from "~/models/usage.server";
import { recordAudit } from "~/models/user.server";
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

/** A scrub order (`scrub-service/domain` order.ts, parsed by the entry: the wizard's action, the API route) and how it came. */
export interface ScrubSubmission {
  order: ScrubOrder;
  /** The order's input as stored (its path is the order's inputPath): pre-checked and counted here. */
  upload: StoredUpload;
  /** Whether the user's plan includes the state filter. */
  stateFilterAllowed: boolean;
  origin: Origin;
  /** The time the DNC registry clock is read at (tests inject it). */
  now?: Date;
}

const STATE_CODES = new Set(US_STATES.map((s) => s.code));

/** A double submit arrives within this window; the same purge started again later is a new job. */
export const DUPLICATE_WINDOW_MS = 15_000;

/**
 * Throws IntakeInputError (bad input), NoPlanError / UsageLimitError / ActiveJobsLimitError (plan), or
 * HandOffError. Returns the job id (the first job's, for a double submit from the web).
 */
export async function submitScrub(db: Kysely<Database>, service: ScrubService, input: ScrubSubmission): Promise<{ jobId: string }> {
  const { order, upload } = input;
  const { userId } = order;
  let categoryId: string | null = null;
  if (order.categoryId) {
    const c = await getCategoryOption(db, userId, order.categoryId);
    if (!c) throw new IntakeInputError("The selected category was not found. Please choose it again.", "category");
    categoryId = c.id;
  }
  // An instant means "for calls then" (decision 174): on the web and the API not before now (less the clock skew)
  // nor after the checked lists' "valid for calls until". Checked here, before the job is queued; the engine's
  // face stays permissive for the CLI's audits and plans.
  const at = order.evaluatedAt;
  if (at) {
    const now = input.now ?? new Date();
    const problem = evaluationInstantProblem(at.getTime(), { now, lists: await freshnessOfSuppression(db, order.suppressionType, now) });
    if (problem) throw new IntakeInputError(`at ${problem}`, "at", problem);
  }
  const states = order.states.filter((s) => STATE_CODES.has(s));
  if (states.length !== order.states.length) throw new IntakeInputError("Unknown state in the state filter.", "states");
  if (states.length && !input.stateFilterAllowed) throw new IntakeInputError("Your plan does not include the state filter.", "states");
  // Typed numbers were checked entry by entry where they were split; a file gets the spec's pre-check.
  const { sheet } = order;
  if (!upload.manual) await precheckUpload(service, upload, order.columnName, sheet);

  const rows = await countDataRows(service, upload, sheet);
  if (rows <= 0) throw new IntakeInputError(CSV_MESSAGES.empty);
  const started = await db
    .transaction()
    .execute(async (trx) => {
      // The same lock reserveUsage takes: a double submit waits here, then finds the first one's job.
      await sql`select id from users where id = ${userId} for update`.execute(trx);
      if (input.origin.source === "web") {
        const twin = await findDuplicateJob(trx, { ...order, upload, categoryId, states });
        if (twin) return { jobId: twin, duplicate: true };
      }
      await reserveUsage(trx, { userId, kind: "suppression", amount: rows });
      const apiKeyId = input.origin.source === "api" ? input.origin.apiKeyId : undefined;
      // The engine's intake checks, once, that the order's container and exemption list are its owner's.
      const jobId = await createScrubJob(trx, { ...order, categoryId, states, usageReserved: rows, source: input.origin.source, apiKeyId });
      await recordAudit(trx, {
        actorId: userId,
        action: "scrub.started",
        targetType: "scrub_job",
        targetId: jobId,
        details: {
          fileName: order.fileName,
          suppressionType: order.suppressionType,
          rows,
          source: input.origin.source,
          ...(sheet ? { sheet } : {}),
          ...(apiKeyId ? { apiKeyId } : {}),
          ...(order.callingWindow ? { callingWindow: true, ...(at ? { callingAt: at.toISOString() } : {}) } : {}),
          ...(order.callingWindow && order.purpose !== "telemarketing" ? { purpose: order.purpose } : {}),
          ...(order.debtColumn ? { debtColumn: order.debtColumn } : {}),
          ...(order.exemptionListId != null ? { exemptionListId: order.exemptionListId, ...(at ? { at: at.toISOString() } : {}) } : {}),
        },
      });
      return { jobId, duplicate: false };
    })
    .catch((e: unknown) => {
      if (!(e instanceof ScrubOrderRefusal)) throw e;
      throw e.field === "containerId"
        ? new IntakeInputError("The selected container was not found. Please choose it again.", "container")
        : new IntakeInputError("The selected exemption list was not found. Please choose it again.", "exemptions");
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
  input: Pick<
    ScrubOrder,
    | "userId"
    | "suppressionType"
    | "columnName"
    | "sheet"
    | "containerId"
    | "categoryId"
    | "states"
    | "callingWindow"
    | "exemptionListId"
    | "purpose"
    | "subject"
    | "debtColumn"
  > & {
    upload: StoredUpload;
  },
): Promise<string | null> {
  const recent = await db
    .selectFrom("scrub_jobs")
    .select([
      "id",
      "input_path",
      "column_name",
      "input_sheet",
      "container_id",
      "category_id",
      "states",
      "calling_window",
      "exemption_list_id",
      "call_purpose",
      "call_subject",
      "debt_column",
    ])
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
    if (j.column_name !== input.columnName || j.container_id !== input.containerId || j.category_id !== input.categoryId) continue;
    if ((j.input_sheet ?? null) !== input.sheet) continue;
    if ((j.states ?? []).join(",") !== states) continue;
    if (j.calling_window !== input.callingWindow) continue;
    if ((j.exemption_list_id ?? null) !== input.exemptionListId) continue;
    if (j.call_purpose !== input.purpose || j.call_subject !== input.subject || (j.debt_column ?? null) !== input.debtColumn) continue;
    if (j.input_path === input.upload.path) return j.id;
  }
  return null;
}
