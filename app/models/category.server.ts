import type { Kysely, Transaction } from "kysely";
import type { Database } from "db/schema";
import { isUuid } from "~/utils/ids";
import { CodedError } from "scrub-service/domain";

type Db = Kysely<Database> | Transaction<Database>;

export interface CategoryItem {
  id: string;
  name: string;
  description: string;
  createdAt: string;
}

/** The name is already used by another of the user's categories (names are unique per user, any case). */
export class CategoryNameTakenError extends CodedError {
  constructor(name: string) {
    super("conflict", `A category named "${name}" already exists.`, { field: "name" });
    this.name = "CategoryNameTakenError";
  }
}

/** The user's categories, by name. */
export async function listCategories(db: Db, userId: string): Promise<CategoryItem[]> {
  const rows = await db
    .selectFrom("categories")
    .select(["id", "name", "description", "created_at"])
    .where("user_id", "=", userId)
    .orderBy((eb) => eb.fn("lower", ["name"]))
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, description: r.description, createdAt: r.created_at.toISOString() }));
}

/** One of the user's categories, or undefined (another user's id gives undefined too). */
export async function getCategory(db: Db, { id, userId }: { id: string; userId: string }): Promise<CategoryItem | undefined> {
  if (!isUuid(id)) return undefined;
  const r = await db
    .selectFrom("categories")
    .select(["id", "name", "description", "created_at"])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return r && { id: r.id, name: r.name, description: r.description, createdAt: r.created_at.toISOString() };
}

export async function createCategory(db: Db, input: { userId: string; name: string; description?: string }): Promise<CategoryItem> {
  const name = input.name.trim();
  const taken = await db
    .selectFrom("categories")
    .select("id")
    .where("user_id", "=", input.userId)
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()))
    .executeTakeFirst();
  if (taken) throw new CategoryNameTakenError(name);
  try {
    const r = await db
      .insertInto("categories")
      .values({ user_id: input.userId, name, description: (input.description ?? "").trim() })
      .returning(["id", "name", "description", "created_at"])
      .executeTakeFirstOrThrow();
    return { id: r.id, name: r.name, description: r.description, createdAt: r.created_at.toISOString() };
  } catch (e) {
    // Two requests racing for the same name: the unique index (user_id, lower(name)) decides.
    if ((e as { code?: string }).code === "23505") throw new CategoryNameTakenError(name);
    throw e;
  }
}
