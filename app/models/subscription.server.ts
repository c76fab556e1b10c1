import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import type { Database } from "db/schema";
import { getPlan } from "./plan.server";
import { generateTransferReference, PlanNotFoundError } from "./transaction.server";
import { recordAudit } from "./user.server";
import { forgetLookupKeys } from "./integration.server";

/*
 * Subscriptions seen from other areas (user management): each user's active plan, a plan filter for the
 * user list, and an administrator's grant of a plan without a payment.
 */

type Db = Kysely<Database>;
const DAY_MS = 24 * 60 * 60 * 1000;

/** userId → the plan of the user's current period (users without one are absent). */
export async function activePlansForUsers(db: Db, userIds: string[], now: Date = new Date()): Promise<Map<string, { planId: string; planName: string }>> {
  const out = new Map<string, { planId: string; planName: string }>();
  if (!userIds.length) return out;
  const rows = await db
    .selectFrom("transactions")
    .select(["user_id", "plan_id", "plan_name", "start_date"])
    .where("user_id", "in", userIds)
    .where("status", "in", ["paid", "active", "expired"])
    .where("start_date", "<=", now)
    .where("end_date", ">", now)
    .orderBy("start_date", "asc")
    .execute();
  // Later-starting periods win (same rule as getPlanState).
  for (const r of rows) out.set(r.user_id, { planId: r.plan_id, planName: r.plan_name });
  return out;
}

/**
 * A where-clause for `selectFrom("users")`: users whose current plan (the latest-starting running period)
 * is `planId`, or (null) users with no running period.
 */
export function activePlanFilter(planId: string | null, now: Date = new Date()) {
  return (eb: ExpressionBuilder<Database, "users">): Expression<SqlBool> => {
    const running = (alias: "t" | "t2") =>
      eb
        .selectFrom(`transactions as ${alias}`)
        .select(sql`1`.as("one"))
        .where(`${alias}.status`, "in", ["paid", "active", "expired"])
        .where(`${alias}.start_date`, "<=", now)
        .where(`${alias}.end_date`, ">", now);
    const current = running("t").whereRef("t.user_id", "=", "users.id");
    if (planId == null) return eb.not(eb.exists(current));
    const laterOther = running("t2").whereRef("t2.user_id", "=", "t.user_id").whereRef("t2.start_date", ">", "t.start_date");
    return eb.exists(current.where("t.plan_id", "=", planId).where((w) => w.not(w.exists(laterOther))));
  };
}

/**
 * An administrator gives the user the plan for one period from now, without a payment (amount $0,
 * payment method admin_grant). Like a paid transfer, it replaces a period still running.
 * Runs inside the caller's transaction when given one (e.g. creating the user and granting together).
 */
export async function grantPlan(
  db: Db,
  input: { userId: string; planId: string; actorId: string; now?: Date },
): Promise<{ transactionId: string; startDate: Date; endDate: Date }> {
  const plan = await getPlan(db, input.planId);
  if (!plan) throw new PlanNotFoundError();
  const now = input.now ?? new Date();
  const end = new Date(now.getTime() + plan.periodDays * DAY_MS);
  const inTransaction = <T>(fn: (trx: Db) => Promise<T>) => (db.isTransaction ? fn(db) : db.transaction().execute(fn));
  const granted = await inTransaction(async (trx) => {
    // Same lock as reserveUsage and markTransactionPaid: no reservation runs against a half-switched period.
    await sql`select id from users where id = ${input.userId} for update`.execute(trx);
    await trx
      .updateTable("transactions")
      .set({ end_date: now, updated_at: now, review_note: `Replaced by ${plan.name} (granted) on ${now.toISOString().slice(0, 10)}.` })
      .where("user_id", "=", input.userId)
      .where("status", "in", ["paid", "active"])
      .where("start_date", "<", now)
      .where("end_date", ">", now)
      .execute();
    const { id } = await trx
      .insertInto("transactions")
      .values({
        user_id: input.userId,
        plan_id: plan.id,
        plan_name: plan.name,
        amount_cents: 0,
        currency: plan.currency,
        dnc_and_litigation_scrubs: plan.suppressionLimit,
        custom_dataset_records: plan.containerLimit,
        status: "paid",
        payment_method: "admin_grant",
        transfer_reference: generateTransferReference(),
        description: `${plan.name} plan, ${plan.periodDays} days, granted by an administrator`,
        start_date: now,
        end_date: end,
        paid_at: now,
        reviewed_by: input.actorId,
        reviewed_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "plan.granted",
      targetType: "transaction",
      targetId: id,
      details: { userId: input.userId, plan: plan.name, startDate: now.toISOString(), endDate: end.toISOString() },
    });
    return { transactionId: id, startDate: now, endDate: end };
  });
  forgetLookupKeys(); // the owner's plan period changed (inside a caller's transaction: bounded by the key cache's second)
  return granted;
}
