import type { Kysely } from "kysely";

// Frozen in time: never import app types here.
// Live lookups (POST /api/v1/lookup) count against the plan's DNC suppression usage like scrubs. Usage is
// computed from rows (decision 040); one row per user and minute (or from the period's start, when a plan period
// starts within that minute) keeps the period's sum small at dialer rates (decision 111).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("lookup_usage")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("bucket_start", "timestamptz", (c) => c.notNull())
    .addColumn("requests", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("numbers", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("lookup_usage_pkey", ["user_id", "bucket_start"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("lookup_usage").execute();
}
