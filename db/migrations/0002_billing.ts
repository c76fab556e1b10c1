import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
export async function up(db: Kysely<any>): Promise<void> {
  // The plan catalogue. Money in integer cents (USD); limits are numbers per 30-day period.
  await db.schema
    .createTable("plans")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("USD"))
    .addColumn("period_days", "integer", (c) => c.notNull().defaultTo(30))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("suppression_limit", "bigint", (c) => c.notNull())
    .addColumn("container_limit", "bigint", (c) => c.notNull())
    .addColumn("api_access", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("popular", "boolean", (c) => c.notNull().defaultTo(false))
    // [{ "label": "...", "available": true }]
    .addColumn("features", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("archived", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  const feature = (label: string, available = true) => ({ label, available });
  const seed = [
    {
      id: "beginner",
      name: "Beginner",
      price_cents: 100_00,
      description: "For small teams getting started with list hygiene.",
      suppression_limit: 100_000,
      container_limit: 25_000,
      api_access: false,
      popular: false,
      sort_order: 1,
      features: [
        feature("DNC suppression 100,000/month"),
        feature("Duplicate suppression unlimited"),
        feature("Container 25,000 numbers/month"),
        feature("State filter"),
        feature("API integration", false),
      ],
    },
    {
      id: "business",
      name: "Business",
      price_cents: 500_00,
      description: "For growing call centers and marketing teams.",
      suppression_limit: 500_000,
      container_limit: 100_000,
      api_access: true,
      popular: true,
      sort_order: 2,
      features: [
        feature("DNC suppression 500,000/month"),
        feature("Duplicate suppression unlimited"),
        feature("Container 100,000 numbers/month"),
        feature("State filter"),
        feature("API integration"),
      ],
    },
    {
      id: "premium",
      name: "Premium",
      price_cents: 1000_00,
      description: "For high-volume operations.",
      suppression_limit: 1_000_000,
      container_limit: 1_000_000,
      api_access: true,
      popular: false,
      sort_order: 3,
      features: [
        feature("DNC suppression 1,000,000/month"),
        feature("Duplicate suppression unlimited"),
        feature("Container 1,000,000 numbers/month"),
        feature("State filter"),
        feature("API integration"),
      ],
    },
  ];
  await db
    .insertInto("plans")
    .values(seed.map((p) => ({ ...p, features: JSON.stringify(p.features) })))
    .execute();

  // Subscriptions and their payments: one row per purchase.
  // Stored status: pendingpayment (awaiting the bank transfer), paid (an admin confirmed it; the period
  // [start_date, end_date) decides whether it shows as active or expired), rejected, failed, pending.
  await db.schema
    .createTable("transactions")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("plan_id", "text", (c) => c.notNull().references("plans.id"))
    // Snapshots at purchase time: later catalogue changes do not rewrite history.
    .addColumn("plan_name", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("USD"))
    .addColumn("dnc_and_litigation_scrubs", "bigint", (c) => c.notNull())
    .addColumn("custom_dataset_records", "bigint", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('active','paid','expired','pending','pendingpayment','failed','rejected')`))
    .addColumn("payment_method", "text", (c) => c.notNull().defaultTo("bank_transfer"))
    .addColumn("transfer_reference", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("start_date", "timestamptz")
    .addColumn("end_date", "timestamptz")
    .addColumn("paid_at", "timestamptz")
    .addColumn("reviewed_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("reviewed_at", "timestamptz")
    .addColumn("review_note", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "transactions_paid_period",
      sql`status not in ('paid','active','expired') or (start_date is not null and end_date is not null and end_date > start_date)`,
    )
    .execute();
  await db.schema.createIndex("transactions_user_created").on("transactions").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("transactions_user_period").on("transactions").columns(["user_id", "start_date", "end_date"]).execute();
  await db.schema.createIndex("transactions_status").on("transactions").columns(["status", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("transactions").ifExists().execute();
  await db.schema.dropTable("plans").ifExists().execute();
}
