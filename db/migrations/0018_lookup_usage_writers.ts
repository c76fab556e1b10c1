import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Live lookups are counted in each app process's memory and flushed every second (decision 111). Each process
// writes its own row per user and minute (`writer`: a random id per process) with the absolute totals it counted,
// so a flush repeated after a lost answer sets the same values again instead of adding them twice.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("lookup_usage")
    .addColumn("writer", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await sql`alter table lookup_usage drop constraint lookup_usage_pkey`.execute(db);
  await sql`alter table lookup_usage add constraint lookup_usage_pkey primary key (user_id, bucket_start, writer)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // One row per user and minute again: the writers' rows are summed, nothing is dropped.
  await sql`create temporary table lookup_usage_merged as
    select user_id, bucket_start, sum(requests)::integer as requests, sum(numbers)::bigint as numbers from lookup_usage group by 1, 2`.execute(db);
  await sql`delete from lookup_usage`.execute(db);
  await sql`alter table lookup_usage drop constraint lookup_usage_pkey`.execute(db);
  await db.schema.alterTable("lookup_usage").dropColumn("writer").execute();
  await sql`alter table lookup_usage add constraint lookup_usage_pkey primary key (user_id, bucket_start)`.execute(db);
  await sql`insert into lookup_usage (user_id, bucket_start, requests, numbers) select * from lookup_usage_merged`.execute(db);
  await sql`drop table lookup_usage_merged`.execute(db);
}
