import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { isUuid } from "~/utils/ids";
import { ownContainers } from "./container.server";

/** The purge wizard's choices: the user's categories and containers, and whether their plan includes the state filter. */

export interface Option {
  id: string;
  name: string;
}

/** The user's categories for wizard step 2. */
export async function listCategoryOptions(db: Kysely<Database>, userId: string): Promise<Option[]> {
  const rows = await db.selectFrom("categories").select(["id", "name"]).where("user_id", "=", userId).orderBy("name").execute();
  return rows.map((r) => ({ id: r.id, name: r.name }));
}

/** The user's live containers for wizard step 3 (optionally only those of a category). */
export async function listContainerOptions(
  db: Kysely<Database>,
  userId: string,
  opts: { categoryId?: string } = {},
): Promise<(Option & { size: number; categoryId: string | null })[]> {
  let q = ownContainers(db, userId).select(["id", "name", "size", "category_id"]);
  if (opts.categoryId) q = q.where("category_id", "=", opts.categoryId);
  const rows = await q.orderBy("created_at", "desc").execute();
  return rows.map((r) => ({ id: String(r.id), name: r.name, size: Number(r.size), categoryId: r.category_id }));
}

export async function getCategoryOption(db: Kysely<Database>, userId: string, id: string): Promise<Option | undefined> {
  if (!isUuid(id)) return undefined;
  return db.selectFrom("categories").select(["id", "name"]).where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
}

export async function getContainerOption(db: Kysely<Database>, userId: string, id: string): Promise<Option | undefined> {
  if (!/^\d{1,9}$/.test(id)) return undefined;
  const row = await ownContainers(db, userId).select(["id", "name"]).where("id", "=", Number(id)).executeTakeFirst();
  return row ? { id: String(row.id), name: row.name } : undefined;
}

/** Whether the user may use the state filter: unlimited roles always, others when their plan lists it. */
export async function stateFilterAllowed(db: Kysely<Database>, state: { unlimited: boolean; plan: { id: string } | null }): Promise<boolean> {
  if (state.unlimited) return true;
  if (!state.plan) return false;
  const row = await db.selectFrom("plans").select("state_filter").where("id", "=", state.plan.id).executeTakeFirst();
  return row?.state_filter === true;
}
