import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Issue 30 (decision 161): a customer's exemption lists (established business relationships and written consent)
// beside their containers. One row per number (its basis and date); the list's version and the SHA-256 of its
// rows change with every load. A scrub may name one list; the job keeps which and, once completed, what it let
// through.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("exemption_lists")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("size", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("version", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("sha256", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("exemption_lists_user").on("exemption_lists").columns(["user_id", "created_at"]).execute();
  await db.schema
    .createTable("exemption_records")
    .addColumn("list_id", "integer", (c) => c.notNull().references("exemption_lists.id").onDelete("cascade"))
    .addColumn("number", "bigint", (c) => c.notNull())
    .addColumn("basis", "text", (c) => c.notNull().check(sql`basis in ('purchase', 'inquiry', 'consent')`))
    .addColumn("on_date", "date", (c) => c.notNull())
    .addPrimaryKeyConstraint("exemption_records_pk", ["list_id", "number"])
    .execute();
  await db.schema
    .alterTable("scrub_jobs")
    .addColumn("exemption_list_id", "integer", (c) => c.references("exemption_lists.id").onDelete("set null"))
    .addColumn("exemption_summary", "jsonb")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("scrub_jobs").dropColumn("exemption_list_id").dropColumn("exemption_summary").execute();
  await db.schema.dropTable("exemption_records").execute();
  await db.schema.dropTable("exemption_lists").execute();
}
