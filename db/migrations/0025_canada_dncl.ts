import type { Kysely } from "kysely";

// Frozen in time: never import app types here.
// Canada's National Do Not Call List (decision 179): one admin list, kind `dnc-ca`, DNC page type 14 as in the
// registry (scrub-service/src/list-types.ts). The kind check (0020) already admits it; the row gets its empty
// list_numbers partition from the lists insert trigger (0006).
const KIND = "dnc-ca";

export async function up(db: Kysely<any>): Promise<void> {
  await db
    .insertInto("lists")
    .values({ kind: KIND, suppression_type: 14, name: "Canada National DNCL", description: "Canada's National Do Not Call List (CRTC)" })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("lists").where("kind", "=", KIND).execute();
}
