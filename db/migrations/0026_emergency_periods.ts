import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Emergency no-call periods (issue #43, decision 181): an operator enters the states (and optionally area codes), the
// first and last day (the number's local days, both included), the declaring authority and a source URL. A removed
// period keeps its row (removed_at set): certificates name periods by id.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("emergency_periods")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("states", sql`text[]`, (c) => c.notNull().check(sql`cardinality(states) > 0`))
    .addColumn("area_codes", sql`integer[]`)
    .addColumn("first_day", "date", (c) => c.notNull())
    .addColumn("last_day", "date", (c) => c.notNull())
    .addColumn("authority", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("source_url", "text", (c) => c.notNull().check(sql`source_url ~* '^https?://'`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("created_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("removed_at", "timestamptz")
    .addColumn("removed_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addCheckConstraint("emergency_periods_days", sql`first_day <= last_day`)
    .execute();
  await db.schema.createIndex("emergency_periods_live").on("emergency_periods").columns(["last_day"]).where(sql.ref("removed_at"), "is", null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("emergency_periods").execute();
}
