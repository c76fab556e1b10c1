import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// The scrub engine runs list loads like jobs: it needs the input file and a lease for crash recovery.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("list_loads")
    .addColumn("input_path", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("list_loads").addColumn("lease_owner", "text").execute();
  await db.schema.alterTable("list_loads").addColumn("lease_expires_at", "timestamptz").execute();
  await db.schema.alterTable("list_loads").addColumn("started_at", "timestamptz").execute();
  await sql`create index list_loads_status on list_loads (status, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists list_loads_status`.execute(db);
  for (const c of ["started_at", "lease_expires_at", "lease_owner", "input_path"]) {
    await db.schema.alterTable("list_loads").dropColumn(c).execute();
  }
}
