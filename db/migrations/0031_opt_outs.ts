import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Opt-outs and the internal do-not-call list (issue #47, decision 195):
// - lists.internal_dnc: the customer's internal do-not-call list, a container created on the first opt-out and checked
//   by every scrub and lookup of its owner whatever container is chosen; at most one live one per customer;
// - opt_outs: each do-not-call request or revocation of consent received (47 CFR 64.1200(d)(3), (d)(6), (a)(10)),
//   with the instant it was received (and the offset it was said in: the day of receipt is that clock's day) and the
//   instant it took effect in the internal list (null until the list load that adds it has run). Kept five years
//   (16 CFR 310.5(a), 47 CFR 64.1200(d)(6)): the housekeeping deletes older rows. The exemption records of the number are revoked from
//   `received_at` by reading this table (decision 195), not by rewriting their generation.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table lists add column internal_dnc boolean not null default false`.execute(db);
  await sql`alter table lists add constraint lists_internal_dnc_container check (not internal_dnc or kind = 'container')`.execute(db);
  await sql`create unique index lists_one_internal_dnc on lists (user_id) where internal_dnc and deleted_at is null`.execute(db);
  await sql`create table opt_outs (
      id bigserial primary key,
      user_id uuid not null references users(id) on delete cascade,
      number bigint not null check (number between 2000000000 and 9999999999),
      received_at timestamptz not null,
      received_offset_minutes smallint not null default 0 check (received_offset_minutes between -1080 and 1080),
      honoured_at timestamptz,
      channel text not null check (channel in ('call', 'text', 'e-mail', 'web', 'in-person')),
      words text not null check (char_length(words) between 1 and 1000),
      subject text check (char_length(subject) between 1 and 200),
      source text not null check (source in ('api', 'web', 'csv')),
      created_by uuid references users(id) on delete set null,
      list_id integer references lists(id) on delete set null,
      load_id uuid,
      created_at timestamptz not null default now()
    )`.execute(db);
  // one number's opt-outs (GET ?number=, the exemption list's revocations), the dashboard's window, the retention
  await sql`create index opt_outs_number on opt_outs (user_id, number, received_at)`.execute(db);
  await sql`create index opt_outs_user_created on opt_outs (user_id, created_at)`.execute(db);
  await sql`create index opt_outs_received on opt_outs (received_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists opt_outs`.execute(db);
  await sql`drop index if exists lists_one_internal_dnc`.execute(db);
  await sql`alter table lists drop constraint if exists lists_internal_dnc_container`.execute(db);
  await sql`alter table lists drop column if exists internal_dnc`.execute(db);
}
