import { type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Issue 29 (decision 131): a scrub may append calling-window columns to good.csv. The job keeps whether it was
// asked for, the instant asked for (null: the scrub's start), and once completed the summary (counts by answer and
// by time zone, the rules version, the instant used).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("scrub_jobs")
    .addColumn("calling_window", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("calling_at", "timestamptz")
    .addColumn("calling_summary", "jsonb")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("scrub_jobs").dropColumn("calling_window").dropColumn("calling_at").dropColumn("calling_summary").execute();
}
