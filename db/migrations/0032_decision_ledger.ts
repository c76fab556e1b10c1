import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// The decision ledger (issue #47, decision 197): every decision the product makes about a number for a customer (a
// scrub's outcome as one batch entry, a lookup answer, a reservation, an opt-out, an exemption list's change, a version
// of the customer's own lists) appended to a hash chain per customer; each finished UTC day the chain's head is signed
// with the certificate key and kept for good.
// - ledger_heads: one row per customer, its chain's last seq and hash; the row is locked (FOR UPDATE) by every append,
//   which serializes a customer's appends. `public_id` names the ledger in what is published (never the user id);
//   `signed_through` is the last UTC day signed: an append after it is stamped on a later day.
// - ledger_entries: the entries (`digest` = SHA-256 of the canonical entry, what its hash chains after the previous one), partitioned by month on `recorded_at` (one partition per UTC month created on demand by
//   ledger_entries_ensure_month(), as call_records in 0028); the retention job drops whole months past five years
//   (16 CFR 310.5(a)). `payload` is the entry's canonical JSON, stored as text so its bytes are the hashed ones.
// - ledger_day_heads: the signed head of each customer's chain at the end of each UTC day that had entries; never
//   dropped (the proof outlives the entries). No foreign keys to users, as scrub_certificates: evidence is kept.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table ledger_heads (
      user_id uuid primary key,
      public_id text not null unique,
      seq bigint not null default 0,
      hash text not null,
      last_at timestamptz,
      signed_through date,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create table ledger_entries (
      user_id uuid not null,
      seq bigint not null check (seq >= 1),
      recorded_at timestamptz not null,
      kind text not null check (kind in ('scrub', 'lookup', 'reservation', 'opt_out', 'opt_out_honoured', 'exemption_list', 'list_version')),
      numbers bigint[] not null default '{}',
      ref text check (char_length(ref) between 1 and 200),
      payload text not null,
      digest text not null check (digest ~ '^[0-9a-f]{64}$'),
      prev_hash text not null check (prev_hash ~ '^[0-9a-f]{64}$'),
      hash text not null check (hash ~ '^[0-9a-f]{64}$'),
      constraint ledger_entries_pk primary key (user_id, seq, recorded_at)
    ) partition by range (recorded_at)`.execute(db);
  // a number's entries (the dossier), and a customer's entries in a window (the export)
  await sql`create index ledger_entries_numbers on ledger_entries using gin (numbers)`.execute(db);
  await sql`create index ledger_entries_user_at on ledger_entries (user_id, recorded_at)`.execute(db);
  await sql`create table ledger_day_heads (
      user_id uuid not null,
      day date not null,
      seq bigint not null,
      hash text not null check (hash ~ '^[0-9a-f]{64}$'),
      signed_at timestamptz not null,
      key_id text not null,
      signature text not null,
      constraint ledger_day_heads_pk primary key (user_id, day)
    )`.execute(db);
  await sql`create index ledger_day_heads_day on ledger_day_heads (day)`.execute(db);
  // One partition per month: ledger_entries_yYYYYmMM for [first of the month, first of the next) in UTC (as 0028's
  // call_records_ensure_month; an advisory lock makes two writers of a new month wait for each other).
  await sql`create function ledger_entries_ensure_month(month date) returns text language plpgsql as $$
    declare
      first date := date_trunc('month', month)::date;
      t text := 'ledger_entries_y' || to_char(first, 'YYYY') || 'm' || to_char(first, 'MM');
    begin
      if to_regclass(t) is not null then return t; end if;
      perform pg_advisory_xact_lock(4700047);
      if to_regclass(t) is not null then return t; end if;
      execute format('create table %I partition of ledger_entries for values from (%L) to (%L)',
        t, (first::text || ' 00:00:00+00'), ((first + interval '1 month')::date::text || ' 00:00:00+00'));
      return t;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists ledger_entries_ensure_month(date)`.execute(db);
  await sql`drop table if exists ledger_day_heads`.execute(db);
  await sql`drop table if exists ledger_entries cascade`.execute(db);
  await sql`drop table if exists ledger_heads`.execute(db);
}
