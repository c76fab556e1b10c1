import type { ListLoadItem } from "~/models/container.server";
import { ActiveJobsLimitError, getPlanState, NoPlanError, UsageLimitError } from "~/models/usage.server";
import { ApiError, notFound, type ApiContext } from "./api.server";
import { IntakeInputError } from "~/intake/preview.server";
import { HandOffError } from "~/intake/hand-off";

/**
 * Work through the API (scrubs, container adds) counts against the same plan limits as the screens.
 * Refuses early (before the upload is read) when the account may not use the API for work:
 * no plan → 403 no_plan; a plan without API access (Beginner) → 403 api_not_in_plan.
 */
export async function requireApiWork(api: ApiContext, kind: "suppression" | "container"): Promise<void> {
  const state = await getPlanState(api.db, api.userId);
  if (state.unlimited) return;
  if (!state.plan) throw new ApiError(403, "no_plan", new NoPlanError(kind).message);
  if (!state.plan.apiAccess) {
    throw new ApiError(403, "api_not_in_plan", `Your ${state.plan.name} plan does not include API access. Upgrade under Pricing to use the API.`);
  }
}

export function fieldError(field: string, message: string): ApiError {
  return new ApiError(422, "validation_failed", `${field}: ${message}`, [{ field, message }]);
}

/**
 * The intake's refusals as API errors: bad input → 422 on its field, plan limits → 403/429, a failed
 * hand-off → 503 (the job or load is marked failed, nothing charged); anything else unchanged.
 */
export function intakeErrorToApi(e: unknown): unknown {
  // an order's container or exemption list that is not the key's account's (the intake's one check): 404
  if (e instanceof IntakeInputError && e.field === "container") return notFound("Container");
  if (e instanceof IntakeInputError && e.field === "exemptions") return notFound("Exemption list");
  if (e instanceof IntakeInputError) return fieldError(e.field, e.field === "at" ? e.message.replace(/^at /, "") : e.message);
  if (e instanceof HandOffError) {
    return new ApiError(503, "service_unavailable", e.message, { [e.kind === "scrub" ? "job_id" : "load_id"]: e.id }, { "Retry-After": "60" });
  }
  if (e instanceof NoPlanError) return new ApiError(403, "no_plan", e.message);
  if (e instanceof ActiveJobsLimitError) return new ApiError(429, "too_many_active_jobs", e.message, { limit: e.limit });
  if (e instanceof UsageLimitError) {
    return new ApiError(403, "usage_limit_exceeded", e.message, {
      limit: e.details.limit,
      used: e.details.used,
      requested: e.details.requested,
      available: e.details.available,
      period_end: e.details.periodEnd.toISOString(),
    });
  }
  return e;
}

export function serializeLoad(l: ListLoadItem) {
  return {
    id: l.id,
    container_id: l.listId,
    status: l.status,
    file_name: l.fileName,
    progress: { bytes_read: l.bytesRead, bytes_total: l.bytesTotal, percent: l.percent },
    counts: { added: l.added, already_present: l.alreadyPresent, invalid: l.invalid },
    error: l.error,
    created_at: l.createdAt,
    finished_at: l.finishedAt,
  };
}
