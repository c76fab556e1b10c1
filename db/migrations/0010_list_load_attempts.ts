import type { Kysely } from "kysely";

// Frozen in time: never import app types here.
// A list load whose worker died is retried like a scrub job (decision 125): count its attempts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("list_loads")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("list_loads").dropColumn("attempts").execute();
}
