import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Call history (issue #46, decision 185): a customer's calls and texts, kept five years (16 CFR 310.5(a)(2) as
// amended in 2024). call_records is partitioned by range on `at`, one partition per calendar month (UTC), created on
// demand by call_records_ensure_month() before a month's first row is written; retention detaches and drops whole
// months. The same DDL runs on PostgreSQL and PGlite (PostgreSQL 17 in WASM; declarative partitioning works there).
// A dialer's own call id is unique per user: a partitioned table's unique keys must include `at`, so the ids live in
// call_dialer_ids (one row per user and id, not partitioned), claimed before a record is written.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table call_records (
      id bigserial not null,
      user_id uuid not null references users(id) on delete cascade,
      number bigint not null check (number between 2000000000 and 9999999999),
      at timestamptz not null,
      subject text not null default 'default' check (char_length(subject) between 1 and 200),
      channel text not null check (channel in ('call', 'text')),
      outcome text not null check (outcome in ('attempted', 'connected', 'conversation')),
      debt_id text check (char_length(debt_id) between 1 and 200),
      dialer_call_id text check (char_length(dialer_call_id) between 1 and 200),
      reserved boolean not null default false,
      created_at timestamptz not null default now(),
      constraint call_records_pk primary key (id, at)
    ) partition by range (at)`.execute(db);
  // counting a number's calls in a window, and one record by id (DELETE /api/v1/calls/{id})
  await sql`create index call_records_count on call_records (user_id, number, at)`.execute(db);
  await sql`create index call_records_id on call_records (id)`.execute(db);
  await sql`create table call_dialer_ids (
      user_id uuid not null references users(id) on delete cascade,
      dialer_call_id text not null,
      at timestamptz not null,
      constraint call_dialer_ids_pk primary key (user_id, dialer_call_id)
    )`.execute(db);
  await sql`create index call_dialer_ids_at on call_dialer_ids (at)`.execute(db);
  // One partition per month: call_records_yYYYYmMM for [first of the month, first of the next) in UTC. An advisory
  // lock makes two writers of a new month wait for each other instead of failing on "already exists".
  await sql`create function call_records_ensure_month(month date) returns text language plpgsql as $$
    declare
      first date := date_trunc('month', month)::date;
      t text := 'call_records_y' || to_char(first, 'YYYY') || 'm' || to_char(first, 'MM');
    begin
      if to_regclass(t) is not null then return t; end if;
      perform pg_advisory_xact_lock(4600046);
      if to_regclass(t) is not null then return t; end if;
      execute format('create table %I partition of call_records for values from (%L) to (%L)',
        t, (first::text || ' 00:00:00+00'), ((first + interval '1 month')::date::text || ' 00:00:00+00'));
      return t;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists call_records_ensure_month(date)`.execute(db);
  await sql`drop table if exists call_dialer_ids`.execute(db);
  await sql`drop table if exists call_records cascade`.execute(db);
}
