import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// What each uploaded file was detected as (docs/decisions/105): format ("Excel workbook (.xlsx)", "CSV in a
// .gz file"; a list load keeps its format in 0007's source_format), text encoding and delimiter, recorded on
// the job / list load so the API and the CLI report them; the workbook sheet a scrub reads; and a list load mode `changes` (an FTC change list:
// additions and deletions in one load, decision 106) with `not_present`: deletions of numbers the list did not hold.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("scrub_jobs").addColumn("input_format", "text").execute();
  for (const table of ["scrub_jobs", "list_loads"]) {
    await db.schema.alterTable(table).addColumn("input_encoding", "text").execute();
    await db.schema.alterTable(table).addColumn("input_delimiter", "text").execute();
  }
  await db.schema.alterTable("scrub_jobs").addColumn("input_sheet", "text").execute();
  await db.schema
    .alterTable("list_loads")
    .addColumn("not_present", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`alter table list_loads drop constraint if exists list_loads_mode_check`.execute(db);
  await sql`alter table list_loads add constraint list_loads_mode_check check (mode in ('add','remove','replace','changes'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table list_loads drop constraint if exists list_loads_mode_check`.execute(db);
  await sql`alter table list_loads add constraint list_loads_mode_check check (mode in ('add','remove','replace'))`.execute(db);
  await db.schema.alterTable("scrub_jobs").dropColumn("input_sheet").execute();
  await db.schema.alterTable("list_loads").dropColumn("not_present").execute();
  await db.schema.alterTable("scrub_jobs").dropColumn("input_format").execute();
  for (const table of ["scrub_jobs", "list_loads"]) {
    for (const c of ["input_encoding", "input_delimiter"]) await db.schema.alterTable(table).dropColumn(c).execute();
  }
}
