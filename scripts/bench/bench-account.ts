/** A bench's customer: an active user on the premium plan with a limit no bench reaches, and one API key. */
import crypto from "node:crypto";

export async function createBenchAccount(label: string): Promise<{ userId: string; key: string }> {
  const { getDb } = await import("../../app/utils/db.server");
  const { createApiKey, createIntegration } = await import("../../app/models/integration.server");
  const db = await getDb();
  const user = await db
    .insertInto("users")
    .values({
      email: `bench-${label}-${crypto.randomBytes(4).toString("hex")}@bench.test`,
      first_name: "Bench",
      last_name: label,
      company: "",
      phone_number: "",
      password_hash: null,
      role: "NormalUser",
      status: "Active",
      email_confirmed: true,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const plan = await db.selectFrom("plans").selectAll().where("id", "=", "premium").executeTakeFirstOrThrow();
  await db
    .insertInto("transactions")
    .values({
      user_id: user.id,
      plan_id: plan.id,
      plan_name: plan.name,
      amount_cents: plan.price_cents,
      dnc_and_litigation_scrubs: 1e12,
      custom_dataset_records: 1e12,
      status: "paid",
      transfer_reference: `B-${crypto.randomBytes(4).toString("hex")}`,
      start_date: new Date(Date.now() - 3600_000),
      end_date: new Date(Date.now() + 30 * 86400_000),
      paid_at: new Date(),
    })
    .execute();
  const integration = await createIntegration(db, { userId: user.id, name: `Bench ${label}`, description: "", containerId: null, webhookUrl: null });
  const key = await createApiKey(db, { userId: user.id, integrationId: integration.id, name: "bench" });
  if ("error" in key) throw new Error(key.error);
  return { userId: user.id, key: key.key };
}
