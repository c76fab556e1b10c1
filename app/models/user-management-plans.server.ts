import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { listPlans } from "./plan.server";
import { activePlanFilter, activePlansForUsers, grantPlan } from "./subscription.server";
import type { Db, PlanLookup } from "./user-management.server";

/*
 * User Management's view of the billing area: the plan catalogue for the dialog and filter, each user's
 * active plan and an admin grant — all delegated to subscription.server.ts, the one place those rules live
 * (docs/decisions/031-user-invitations-and-plans.md).
 */

export interface CataloguePlan {
  id: string;
  name: string;
}

export interface UserPlanLookup extends PlanLookup {
  activePlanIds(db: Db, userIds: string[]): Promise<Map<string, string>>;
  /** Gives the user an active period of the plan, starting now (an admin grant: amount 0, audited). */
  grant(db: Db, input: { userId: string; planId: string; actorId: string }): Promise<void>;
}

export async function planCatalogue(db: Db): Promise<CataloguePlan[]> {
  return (await listPlans(db as Kysely<Database>)).map((p) => ({ id: p.id, name: p.name }));
}

export function planLookup(now: () => Date = () => new Date()): UserPlanLookup {
  const active = async (db: Db, userIds: string[]) => activePlansForUsers(db as Kysely<Database>, userIds, now());
  return {
    async activePlanNames(db, userIds) {
      return new Map([...(await active(db, userIds))].map(([id, p]) => [id, p.planName]));
    },
    async activePlanIds(db, userIds) {
      return new Map([...(await active(db, userIds))].map(([id, p]) => [id, p.planId]));
    },
    filter(planId) {
      return activePlanFilter(planId, now());
    },
    async grant(db, input) {
      await grantPlan(db as Kysely<Database>, { ...input, now: now() });
    },
  };
}
