import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Issue 46 (decision 191): a scrub with calling times counts the owner's calls against the frequency caps of its
// purpose (telemarketing, or debt collection per each row's debt id read from a column), on one subject.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("scrub_jobs")
    .addColumn("call_purpose", "text", (c) =>
      c
        .notNull()
        .defaultTo("telemarketing")
        .check(sql`call_purpose in ('telemarketing', 'debt-collection')`),
    )
    .execute();
  await db.schema
    .alterTable("scrub_jobs")
    .addColumn("call_subject", "text", (c) => c.notNull().defaultTo("default"))
    .execute();
  await db.schema.alterTable("scrub_jobs").addColumn("debt_column", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("scrub_jobs").dropColumn("debt_column").execute();
  await db.schema.alterTable("scrub_jobs").dropColumn("call_subject").execute();
  await db.schema.alterTable("scrub_jobs").dropColumn("call_purpose").execute();
}
