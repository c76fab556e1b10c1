import type { ListLoadItem } from "~/models/container.server";
import { getPlanState, NoPlanError } from "~/models/usage.server";
import { ApiError, type ApiContext } from "./api.server";

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
