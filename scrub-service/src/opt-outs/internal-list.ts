/**
 * The customer's internal do-not-call list (decision 195): a container flagged `internal_dnc`, created on the first
 * opt-out, at most one live per customer (a partial unique index), checked by every scrub and lookup of its owner.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "db/schema";
import { INTERNAL_DNC_LIST_NAME } from "../list-types";

type Db = Kysely<Database> | Transaction<Database>;

/** The owner's live internal do-not-call list, or null before its first opt-out. */
export async function internalDncListId(db: Db, userId: string): Promise<number | null> {
  const r = await db
    .selectFrom("lists")
    .select("id")
    .where("user_id", "=", userId)
    .where("kind", "=", "container")
    .where("internal_dnc", "=", true)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return r?.id ?? null;
}

/**
 * The owner's internal do-not-call list, created when it has none (inside the caller's transaction). Two first
 * opt-outs at once wait for each other on the owner's row, so one list is created.
 */
export async function ensureInternalDncList(trx: Transaction<Database>, userId: string): Promise<{ id: number; created: boolean }> {
  await sql`select id from users where id = ${userId} for update`.execute(trx);
  const found = await internalDncListId(trx, userId);
  if (found != null) return { id: found, created: false };
  const { id } = await trx
    .insertInto("lists")
    .values({
      kind: "container",
      user_id: userId,
      category_id: null,
      name: INTERNAL_DNC_LIST_NAME,
      description: "Opt-outs and revocations of consent (decision 195): checked by every scrub and lookup, whatever container is chosen.",
      internal_dnc: true,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id, created: true };
}
