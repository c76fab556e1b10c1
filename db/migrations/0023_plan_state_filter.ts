import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Issue 27: whether a plan includes the state filter is a column, like api_access, not a match on a feature's label.
// Existing plans get it from their feature list (a "State filter" line that is available).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("plans")
    .addColumn("state_filter", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`update plans set state_filter = exists (
      select 1 from jsonb_array_elements(features) as f
      where f->>'label' ilike '%state filter%' and coalesce((f->>'available')::boolean, true))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("plans").dropColumn("state_filter").execute();
}
