import { sql, type Kysely } from "kysely";

// Frozen in time: never import app types here.
// The state do-not-call lists (decision 160): one admin list per state that keeps its own, kind `dnc-` + the
// lower-case postal code, DNC page types 2…13 as in the registry (scrub-service/src/list-types.ts). A kind may
// now hold a hyphen. Each new row gets its empty list_numbers partition from the lists insert trigger (0006).
const STATES: [kind: string, type: number, name: string, description: string][] = [
  ["dnc-co", 2, "Colorado DNC List", "Colorado No-Call List (Colorado Public Utilities Commission)"],
  ["dnc-fl", 3, "Florida DNC List", "Florida Do Not Call List (Department of Agriculture and Consumer Services)"],
  ["dnc-in", 4, "Indiana DNC List", "Indiana Do Not Call List (Attorney General)"],
  ["dnc-la", 5, "Louisiana DNC List", "Louisiana Do Not Call Program (Public Service Commission)"],
  ["dnc-ma", 6, "Massachusetts DNC List", "Massachusetts Do Not Call Registry (Office of Consumer Affairs and Business Regulation)"],
  ["dnc-mo", 7, "Missouri DNC List", "Missouri No-Call List (Attorney General)"],
  ["dnc-ms", 8, "Mississippi DNC List", "Mississippi No Call List (Public Service Commission)"],
  ["dnc-ok", 9, "Oklahoma DNC List", "Oklahoma Telemarketer Restriction Act Consumer Registry (Attorney General)"],
  ["dnc-pa", 10, "Pennsylvania DNC List", "Pennsylvania Do Not Call List (Office of Attorney General)"],
  ["dnc-tn", 11, "Tennessee DNC List", "Tennessee Do-Not-Call Register (Public Utility Commission)"],
  ["dnc-tx", 12, "Texas DNC List", "Texas No-Call List (Public Utility Commission of Texas)"],
  ["dnc-wy", 13, "Wyoming DNC List", "Wyoming do-not-call list (DMA Telephone Preference Service, under Wyoming law)"],
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table lists drop constraint if exists lists_kind_check`.execute(db);
  await sql`alter table lists add constraint lists_kind_check check (kind ~ '^[a-z][a-z0-9_-]{0,31}$')`.execute(db);
  await db
    .insertInto("lists")
    .values(STATES.map(([kind, type, name, description]) => ({ kind, suppression_type: type, name, description })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom("lists")
    .where(
      "kind",
      "in",
      STATES.map(([kind]) => kind),
    )
    .execute();
  await sql`alter table lists drop constraint if exists lists_kind_check`.execute(db);
  await sql`alter table lists add constraint lists_kind_check check (kind ~ '^[a-z][a-z0-9_]{0,31}$')`.execute(db);
}
