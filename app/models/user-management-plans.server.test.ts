import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { listUsers } from "./user-management.server";
import { planCatalogue, planLookup } from "./user-management-plans.server";
import { findActivePeriod } from "./usage.server";

const { handle } = useAppTestDb();
const db = () => handle().db;

async function user(email: string) {
  const row = await db()
    .insertInto("users")
    .values({ email, first_name: "P", last_name: "L", company: "", phone_number: "", password_hash: "x", role: "NormalUser", status: "Active" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

describe("User Management plans bridge", () => {
  it("lists the real catalogue, grants a plan as an active period, and a later grant replaces it", async () => {
    expect(await planCatalogue(db())).toEqual([
      { id: "beginner", name: "Beginner" },
      { id: "business", name: "Business" },
      { id: "premium", name: "Premium" },
    ]);
    const admin = await user("grant-admin@example.com");
    const a = await user("grant-a@example.com");
    const b = await user("grant-b@example.com");
    const t0 = new Date("2026-11-01T00:00:00Z");
    const t1 = new Date("2026-11-05T00:00:00Z");
    await db()
      .transaction()
      .execute((trx) => planLookup(() => t0).grant(trx, { userId: a, planId: "business", actorId: admin }));
    await db()
      .transaction()
      .execute((trx) => planLookup(() => t1).grant(trx, { userId: a, planId: "premium", actorId: admin }));

    const at = (d: Date) => planLookup(() => d);
    const later = new Date("2026-11-10T00:00:00Z");
    expect(await at(later).activePlanNames(db(), [a, b])).toEqual(new Map([[a, "Premium"]]));
    expect(await at(later).activePlanIds(db(), [a])).toEqual(new Map([[a, "premium"]]));
    // Between the two grants the first one was active.
    expect(await at(new Date("2026-11-03T00:00:00Z")).activePlanIds(db(), [a])).toEqual(new Map([[a, "business"]]));
    // The usage model sees the same period.
    const period = await findActivePeriod(db(), a, later);
    expect(period?.planId).toBe("premium");
    expect(period?.startDate).toEqual(t1);
    expect(period?.endDate).toEqual(new Date(t1.getTime() + 30 * 86_400_000));
    // After the period: No Plan.
    expect(await at(new Date("2026-12-31T00:00:00Z")).activePlanNames(db(), [a])).toEqual(new Map());

    const filters = { search: "grant-", status: "" as const, page: 1 };
    const emails = async (plan: string, d: Date) => (await listUsers(db(), { ...filters, plan }, at(d))).users.map((u) => u.email).sort();
    expect(await emails("premium", later)).toEqual(["grant-a@example.com"]);
    expect(await emails("business", later)).toEqual([]);
    expect(await emails("none", later)).toEqual(["grant-admin@example.com", "grant-b@example.com"]);
    expect(await emails("", later)).toHaveLength(3);

    const rows = await db().selectFrom("transactions").selectAll().where("user_id", "=", a).orderBy("start_date").execute();
    expect(rows.map((r) => [r.plan_id, r.status, r.payment_method, r.amount_cents])).toEqual([
      ["business", "paid", "admin_grant", 0],
      ["premium", "paid", "admin_grant", 0],
    ]);
    expect(rows[0].end_date).toEqual(t1);
    const audit = await db().selectFrom("audit_log").select(["action", "actor_id"]).where("action", "=", "plan.granted").execute();
    expect(audit).toEqual([
      { action: "plan.granted", actor_id: admin },
      { action: "plan.granted", actor_id: admin },
    ]);
  });
});
