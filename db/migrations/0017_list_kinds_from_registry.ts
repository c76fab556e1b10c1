import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// The list-type registry (scrub-service/src/list-types.ts) is the one place that knows the admin list kinds
// (decision 126). The database no longer repeats them: `lists.kind` is any short lower-case word, an admin
// list (every kind but 'container') carries its DNC page type, and there is at most one list per admin kind and
// per type. A new list type's migration only inserts its `lists` row. The two admin lists get the names of the
// lists themselves ("DNC List"), not of the suppression types that check them ("DNC and Litigation").
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table lists drop constraint if exists lists_kind_check`.execute(db);
  await sql`alter table lists add constraint lists_kind_check check (kind ~ '^[a-z][a-z0-9_]{0,31}$')`.execute(db);
  await sql`alter table lists add constraint lists_admin_list_type check (kind = 'container' or suppression_type is not null)`.execute(db);
  await sql`drop index if exists lists_one_admin_list`.execute(db);
  await sql`create unique index lists_one_admin_list on lists (kind) where kind <> 'container'`.execute(db);
  await sql`create unique index lists_one_admin_type on lists (suppression_type) where kind <> 'container'`.execute(db);
  await sql`update lists set name = 'Litigation List' where kind = 'litigation' and name = 'Litigation Only'`.execute(db);
  await sql`update lists set name = 'DNC List' where kind = 'dnc' and name = 'DNC and Litigation'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update lists set name = 'Litigation Only' where kind = 'litigation' and name = 'Litigation List'`.execute(db);
  await sql`update lists set name = 'DNC and Litigation' where kind = 'dnc' and name = 'DNC List'`.execute(db);
  await sql`drop index if exists lists_one_admin_type`.execute(db);
  await sql`drop index if exists lists_one_admin_list`.execute(db);
  await sql`create unique index lists_one_admin_list on lists (kind) where kind in ('litigation','dnc')`.execute(db);
  await sql`alter table lists drop constraint if exists lists_admin_list_type`.execute(db);
  await sql`alter table lists drop constraint if exists lists_kind_check`.execute(db);
  await sql`alter table lists add constraint lists_kind_check check (kind in ('litigation','dnc','container'))`.execute(db);
}
