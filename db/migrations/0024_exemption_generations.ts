import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Issue 49 (decision 176): an exemption list's load writes its rows as a new generation beside the one readers use,
// then moves the list to it in a short transaction, so a scrub or a lookup reads the previous version while a load
// runs instead of waiting for it; `loading_since` lets one load of a list run at a time. Plans gain a limit on the
// exemption records an account holds.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence exemption_generation_seq`.execute(db);
  await db.schema
    .alterTable("exemption_lists")
    .addColumn("generation", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("loading_since", "timestamptz")
    .execute();
  await db.schema
    .alterTable("exemption_records")
    .addColumn("generation", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("exemption_records").dropConstraint("exemption_records_pk").execute();
  await db.schema.alterTable("exemption_records").addPrimaryKeyConstraint("exemption_records_pk", ["list_id", "generation", "number"]).execute();
  await db.schema
    .alterTable("plans")
    .addColumn("exemption_limit", "bigint", (c) => c.notNull().defaultTo(1_000_000))
    .execute();
  await sql`update plans set exemption_limit = case id when 'beginner' then 100000 when 'business' then 1000000 when 'premium' then 5000000 else 1000000 end`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("plans").dropColumn("exemption_limit").execute();
  await sql`delete from exemption_records r using exemption_lists l where l.id = r.list_id and r.generation <> l.generation`.execute(db);
  await db.schema.alterTable("exemption_records").dropConstraint("exemption_records_pk").execute();
  await db.schema.alterTable("exemption_records").addPrimaryKeyConstraint("exemption_records_pk", ["list_id", "number"]).execute();
  await db.schema.alterTable("exemption_records").dropColumn("generation").execute();
  await db.schema.alterTable("exemption_lists").dropColumn("generation").dropColumn("loading_since").execute();
  await sql`drop sequence exemption_generation_seq`.execute(db);
}
