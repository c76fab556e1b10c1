import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Issue 28 (decision 162): a list is stored as exchange blocks, one row per list × NPA-NXX holding that exchange's
// line numbers, instead of one row per number. A block is the smaller of two forms (Roaring's rule for 10,000 lines):
// up to 624 lines as sorted big-endian 16-bit integers (2 bytes a line), else a 10,000-bit bitmap (1,250 bytes; line i
// is bit i of PostgreSQL's get_bit numbering: byte i >> 3, bit i & 7 from the least significant). The length tells
// the form. Partitioned by list like list_numbers was (0006): a partition per list, made and dropped by triggers on
// lists. Existing lists are converted in place by SQL (both databases), then list_numbers goes.

const BITMAP_BYTES = 1250;
const ARRAY_MAX_LINES = 624;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table list_blocks (
      list_id integer not null,
      exchange integer not null,
      lines bytea not null,
      constraint list_blocks_pk primary key (list_id, exchange)
    ) partition by list (list_id)`.execute(db);
  await sql`create function list_blocks_attach(list integer) returns void language plpgsql as $$
    declare t text := 'list_blocks_' || list;
    begin
      if to_regclass(t) is not null then return; end if;
      execute format('create table %I (list_id integer not null, exchange integer not null, lines bytea not null, constraint %I check (list_id = %s))',
        t, t || '_list', list);
      execute format('alter table list_blocks attach partition %I for values in (%s)', t, list);
    end $$`.execute(db);
  await sql`select list_blocks_attach(id) from lists`.execute(db);

  // arrays: the lines' 4-digit hex, in order
  await sql`insert into list_blocks (list_id, exchange, lines)
    select list_id, (number / 10000)::integer,
           decode(string_agg(lpad(to_hex((number % 10000)::integer), 4, '0'), '' order by number), 'hex')
    from list_numbers
    group by list_id, number / 10000
    having count(*) <= ${sql.lit(ARRAY_MAX_LINES)}`.execute(db);
  // bitmaps: each byte's bits summed, the 1,250 bytes in order (absent bytes are zero)
  await sql`with dense as (
      select list_id, number / 10000 as exchange from list_numbers
      group by list_id, number / 10000 having count(*) > ${sql.lit(ARRAY_MAX_LINES)}
    ), bytes as (
      select n.list_id, n.number / 10000 as exchange, ((n.number % 10000) / 8)::integer as b,
             sum(1 << ((n.number % 10000) % 8)::integer)::integer as v
      from list_numbers n join dense d on d.list_id = n.list_id and d.exchange = n.number / 10000
      group by 1, 2, 3
    )
    insert into list_blocks (list_id, exchange, lines)
    select d.list_id, d.exchange::integer,
           decode(string_agg(lpad(to_hex(coalesce(bytes.v, 0)), 2, '0'), '' order by g.i), 'hex')
    from dense d
    cross join generate_series(0, ${sql.lit(BITMAP_BYTES - 1)}) as g(i)
    left join bytes on bytes.list_id = d.list_id and bytes.exchange = d.exchange and bytes.b = g.i
    group by d.list_id, d.exchange`.execute(db);

  await sql`drop trigger if exists lists_partition_insert on lists`.execute(db);
  await sql`drop trigger if exists lists_partition_delete on lists`.execute(db);
  await sql`drop function if exists lists_partition_insert()`.execute(db);
  await sql`drop function if exists lists_partition_delete()`.execute(db);
  await sql`create function lists_blocks_insert() returns trigger language plpgsql as $$
    begin perform list_blocks_attach(new.id); return null; end $$`.execute(db);
  await sql`create function lists_blocks_delete() returns trigger language plpgsql as $$
    begin execute format('drop table if exists %I', 'list_blocks_' || old.id); return null; end $$`.execute(db);
  await sql`create trigger lists_blocks_insert after insert on lists for each row execute function lists_blocks_insert()`.execute(db);
  await sql`create trigger lists_blocks_delete after delete on lists for each row execute function lists_blocks_delete()`.execute(db);

  // For people and tests reading a list in SQL: `select number from list_block_numbers(7) order by number`.
  await sql`create function list_block_numbers(list integer) returns table (number bigint) language sql stable as $$
      select exchange::bigint * 10000 + get_byte(lines, 2 * k) * 256 + get_byte(lines, 2 * k + 1)
      from list_blocks, generate_series(0, length(lines) / 2 - 1) as k
      where list_id = list and length(lines) <> ${sql.lit(BITMAP_BYTES)}
      union all
      select exchange::bigint * 10000 + i
      from list_blocks, generate_series(0, ${sql.lit(BITMAP_BYTES * 8 - 1)}) as i
      where list_id = list and length(lines) = ${sql.lit(BITMAP_BYTES)} and get_bit(lines, i) = 1
    $$`.execute(db);

  await sql`drop table list_numbers cascade`.execute(db);
  await sql`drop function if exists list_numbers_attach(integer)`.execute(db);
  await sql`analyze list_blocks`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create table list_numbers (
      list_id integer not null,
      number bigint not null,
      constraint list_numbers_pk primary key (list_id, number)
    ) partition by list (list_id)`.execute(db);
  await sql`create function list_numbers_attach(list integer) returns void language plpgsql as $$
    declare t text := 'list_numbers_' || list;
    begin
      if to_regclass(t) is not null then return; end if;
      execute format('create table %I (list_id integer not null, number bigint not null, constraint %I check (list_id = %s))',
        t, t || '_list', list);
      execute format('alter table list_numbers attach partition %I for values in (%s)', t, list);
    end $$`.execute(db);
  await sql`select list_numbers_attach(id) from lists`.execute(db);
  await sql`insert into list_numbers (list_id, number) select id, number from lists, list_block_numbers(id)`.execute(db);
  await sql`drop function list_block_numbers(integer)`.execute(db);
  await sql`drop trigger if exists lists_blocks_insert on lists`.execute(db);
  await sql`drop trigger if exists lists_blocks_delete on lists`.execute(db);
  await sql`drop function if exists lists_blocks_insert()`.execute(db);
  await sql`drop function if exists lists_blocks_delete()`.execute(db);
  await sql`create function lists_partition_insert() returns trigger language plpgsql as $$
    begin perform list_numbers_attach(new.id); return null; end $$`.execute(db);
  await sql`create function lists_partition_delete() returns trigger language plpgsql as $$
    begin execute format('drop table if exists %I', 'list_numbers_' || old.id); return null; end $$`.execute(db);
  await sql`create trigger lists_partition_insert after insert on lists for each row execute function lists_partition_insert()`.execute(db);
  await sql`create trigger lists_partition_delete after delete on lists for each row execute function lists_partition_delete()`.execute(db);
  await sql`drop table list_blocks cascade`.execute(db);
  await sql`drop function if exists list_blocks_attach(integer)`.execute(db);
}
