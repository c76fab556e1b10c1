import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { listPlans, type Plan } from "./plan.server";
import { listPendingForUser } from "./transaction.server";
import { getPlanState } from "./usage.server";
import { safeRedirectPath } from "~/utils/safe-redirect-path";

/** What the no-plan gate (the subscription dialog on /containers and /purge) shows. Plain JSON. */
export interface PlanGateData {
  plans: Plan[];
  pending: Array<{ id: string; planName: string; amountCents: number; transferReference: string; createdAt: string }>;
  /** where the confirm flow returns to, e.g. "/containers?dialog=create-container" */
  redirectTo: string;
}

/**
 * null when the user may use containers and purge (unlimited role or an active plan); otherwise the
 * data for `<NoPlanGate gate={…} />`. Call it in the page's loader after requireUser.
 */
export async function getPlanGate(db: Kysely<Database>, userId: string, redirectTo: string): Promise<PlanGateData | null> {
  const state = await getPlanState(db, userId);
  if (state.hasAccess) return null;
  const [plans, pending] = await Promise.all([listPlans(db), listPendingForUser(db, userId)]);
  return {
    plans,
    pending: pending.map((t) => ({
      id: t.id,
      planName: t.planName,
      amountCents: t.amountCents,
      transferReference: t.transferReference,
      createdAt: t.createdAt.toISOString(),
    })),
    redirectTo: safeRedirectPath(redirectTo, "/dashboard"),
  };
}
