import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { getPlan, listPlans } from "./plan.server";
import { generateTransferReference } from "./transaction.server";
import { recordAudit } from "./user.server";
import type { Db, PlanLookup } from "./user-management.server";

/*
 * User Management's bridge to the billing area: the plan catalogue for the dialog and filter, each user's
 * active plan (the same rule as usage.server.ts findActivePeriod: a paid period with start <= now < end,
 * the latest-starting one), and an admin grant of a plan (docs/decisions/031-user-invitations-and-plans.md).
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

const PAID = ["paid", "active", "expired"] as const;

async function activePlans(db: Db, userIds: string[], now: Date) {
  if (!userIds.length) return [];
  return db
    .selectFrom("transactions as t")
    .select(["t.user_id", "t.plan_id", "t.plan_name"])
    .distinctOn("t.user_id")
    .where("t.user_id", "in", userIds)
    .where("t.status", "in", PAID)
    .where("t.start_date", "<=", now)
    .where("t.end_date", ">", now)
    .orderBy("t.user_id")
    .orderBy("t.start_date", "desc")
    .execute();
}

export function planLookup(now: () => Date = () => new Date()): UserPlanLookup {
  return {
    async activePlanNames(db, userIds) {
      return new Map((await activePlans(db, userIds, now())).map((r) => [r.user_id, r.plan_name]));
    },
    async activePlanIds(db, userIds) {
      return new Map((await activePlans(db, userIds, now())).map((r) => [r.user_id, r.plan_id]));
    },
    filter(planId) {
      const at = now();
      return (eb) => {
        const active = eb
          .selectFrom("transactions as t")
          .select(sql<number>`1`.as("one"))
          .whereRef("t.user_id", "=", "users.id")
          .where("t.status", "in", PAID)
          .where("t.start_date", "<=", at)
          .where("t.end_date", ">", at);
        if (planId === null) return eb.not(eb.exists(active));
        // The user's current plan is the latest-starting active period: no later-starting active one of another plan.
        return eb.exists(
          active.where("t.plan_id", "=", planId).where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("transactions as t2")
                  .select(sql<number>`1`.as("one"))
                  .whereRef("t2.user_id", "=", "t.user_id")
                  .where("t2.status", "in", PAID)
                  .where("t2.start_date", "<=", at)
                  .where("t2.end_date", ">", at)
                  .whereRef("t2.start_date", ">", "t.start_date"),
              ),
            ),
          ),
        );
      };
    },
    async grant(db, { userId, planId, actorId }) {
      const plan = await getPlan(db as Kysely<Database>, planId);
      if (!plan) throw new Error(`Unknown plan ${planId}`);
      const start = now();
      const end = new Date(start.getTime() + plan.periodDays * 24 * 60 * 60 * 1000);
      // Same lock as reserveUsage and markTransactionPaid: no reservation runs against a half-switched period.
      await sql`select id from users where id = ${userId} for update`.execute(db);
      // A running period is replaced by the granted one (as when a paid transfer replaces it).
      const replaced = await db
        .updateTable("transactions")
        .set({
          end_date: start,
          updated_at: start,
          review_note: sql`coalesce(review_note || ' ', '') || ${`Replaced by ${plan.name} (admin grant) on ${start.toISOString().slice(0, 10)}.`}`,
        })
        .where("user_id", "=", userId)
        .where("status", "in", ["paid", "active"])
        .where("start_date", "<", start)
        .where("end_date", ">", start)
        .returning("id")
        .execute();
      const { id } = await db
        .insertInto("transactions")
        .values({
          user_id: userId,
          plan_id: plan.id,
          plan_name: plan.name,
          amount_cents: 0,
          currency: plan.currency,
          dnc_and_litigation_scrubs: plan.suppressionLimit,
          custom_dataset_records: plan.containerLimit,
          status: "paid",
          payment_method: "admin_grant",
          transfer_reference: `GRANT-${generateTransferReference().slice(4)}-${Date.now().toString(36).toUpperCase()}`,
          description: `${plan.name} plan, ${plan.periodDays} days, granted by an administrator`,
          start_date: start,
          end_date: end,
          paid_at: start,
          reviewed_by: actorId,
          reviewed_at: start,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordAudit(db as Kysely<Database>, {
        actorId,
        action: "plan.granted",
        targetType: "transaction",
        targetId: id,
        details: { userId, plan: plan.name, startDate: start.toISOString(), endDate: end.toISOString(), replaced: replaced.map((r) => r.id) },
      });
    },
  };
}
