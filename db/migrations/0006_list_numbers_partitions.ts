import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// list_numbers becomes a table partitioned by list (one partition `list_numbers_<id>` per list), so a list
// can be loaded in bulk into a table of its own without an index, indexed once, and swapped in (decision 018).
// The foreign key to lists is replaced by triggers on lists: a new list gets its (empty) partition, a
// deleted list's partition is dropped (was: on delete cascade). A foreign key on a partitioned table is
// validated by a scan of every partition attached (~1 s per 5M rows, holding a lock on lists).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table list_numbers rename to list_numbers_unpartitioned`.execute(db);
  await sql`alter table list_numbers_unpartitioned rename constraint list_numbers_pk to list_numbers_unpartitioned_pk`.execute(db);
  await sql`create table list_numbers (
      list_id integer not null,
      number bigint not null,
      constraint list_numbers_pk primary key (list_id, number)
    ) partition by list (list_id)`.execute(db);
  // A partition is created as a plain table whose check constraint implies the partition bound, then
  // attached: ATTACH takes only SHARE UPDATE EXCLUSIVE on list_numbers and skips its validation scan.
  await sql`create function list_numbers_attach(list integer) returns void language plpgsql as $$
    declare t text := 'list_numbers_' || list;
    begin
      if to_regclass(t) is not null then return; end if;
      execute format('create table %I (list_id integer not null, number bigint not null, constraint %I check (list_id = %s))',
        t, t || '_list', list);
      execute format('alter table list_numbers attach partition %I for values in (%s)', t, list);
    end $$`.execute(db);
  await sql`create function lists_partition_insert() returns trigger language plpgsql as $$
    begin perform list_numbers_attach(new.id); return null; end $$`.execute(db);
  await sql`create function lists_partition_delete() returns trigger language plpgsql as $$
    begin execute format('drop table if exists %I', 'list_numbers_' || old.id); return null; end $$`.execute(db);
  await sql`create trigger lists_partition_insert after insert on lists for each row execute function lists_partition_insert()`.execute(db);
  await sql`create trigger lists_partition_delete after delete on lists for each row execute function lists_partition_delete()`.execute(db);
  await sql`select list_numbers_attach(id) from lists`.execute(db);
  await sql`insert into list_numbers (list_id, number) select list_id, number from list_numbers_unpartitioned`.execute(db);
  await sql`drop table list_numbers_unpartitioned`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists lists_partition_insert on lists`.execute(db);
  await sql`drop trigger if exists lists_partition_delete on lists`.execute(db);
  await sql`drop function if exists lists_partition_insert()`.execute(db);
  await sql`drop function if exists lists_partition_delete()`.execute(db);
  await sql`alter table list_numbers rename to list_numbers_partitioned`.execute(db);
  await sql`alter table list_numbers_partitioned rename constraint list_numbers_pk to list_numbers_partitioned_pk`.execute(db);
  await db.schema
    .createTable("list_numbers")
    .addColumn("list_id", "integer", (c) => c.notNull().references("lists.id").onDelete("cascade"))
    .addColumn("number", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("list_numbers_pk", ["list_id", "number"])
    .execute();
  await sql`insert into list_numbers (list_id, number) select list_id, number from list_numbers_partitioned`.execute(db);
  await sql`drop table list_numbers_partitioned cascade`.execute(db);
  await sql`drop function if exists list_numbers_attach(integer)`.execute(db);
}
