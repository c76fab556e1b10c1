import { type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Issue 45 (decision 183): scrub_jobs.calling_at has held the evaluation instant of the calling columns and of the
// exemptions alike since 0021; it is named for what it holds. A rename: the values, the rows and any index stay.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("scrub_jobs").renameColumn("calling_at", "evaluated_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("scrub_jobs").renameColumn("evaluated_at", "calling_at").execute();
}
