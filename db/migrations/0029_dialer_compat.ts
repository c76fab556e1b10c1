import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// Dialer integrations (issue #48, decisions 189 and 190):
// - dialer_campaigns: what a dialer's campaign id means to a customer's compatible scrub: the container and the
//   exemption list it is checked against (the campaign id itself is the call-history subject). A campaign without a
//   row uses the key's integration container and no exemption list;
// - dialer_last_requests: the last request of each compatibility endpoint per customer (answered or refused, with
//   the reason), what the Integrations page's "test connection" shows. One row per (user, endpoint), overwritten.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table dialer_campaigns (
      user_id uuid not null references users(id) on delete cascade,
      campaign_id text not null check (char_length(campaign_id) between 1 and 100),
      container_id integer references lists(id) on delete set null,
      exemption_list_id integer references exemption_lists(id) on delete set null,
      updated_at timestamptz not null default now(),
      constraint dialer_campaigns_pk primary key (user_id, campaign_id)
    )`.execute(db);
  await sql`create table dialer_last_requests (
      user_id uuid not null references users(id) on delete cascade,
      endpoint text not null check (endpoint in ('scrub', 'check', 'calls')),
      at timestamptz not null default now(),
      method text not null,
      status integer not null,
      outcome text not null check (outcome in ('answered', 'refused')),
      detail text not null default '' check (char_length(detail) <= 500),
      numbers integer,
      campaign_id text check (char_length(campaign_id) <= 100),
      constraint dialer_last_requests_pk primary key (user_id, endpoint)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists dialer_last_requests`.execute(db);
  await sql`drop table if exists dialer_campaigns`.execute(db);
}
