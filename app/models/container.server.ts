import type { Kysely, Transaction } from "kysely";
import type { Database, JobStatus, ListLoadMode } from "db/schema";
import { shownStatus, type ShownStatus } from "scrub-service/domain";
import { isUuid } from "~/utils/ids";
import { CodedError } from "scrub-service/domain";

type Db = Kysely<Database> | Transaction<Database>;

export interface ContainerItem {
  id: number;
  name: string;
  description: string;
  categoryId: string | null;
  /** The category's name (the old client's verticalName), null when it has none. */
  categoryName: string | null;
  /** Count of numbers in the container (lists.size). */
  size: number;
  /** The customer's internal do-not-call list (its opt-outs; decision 195): checked by every purge and lookup. */
  internalDnc: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A list id from the URL or a form: a positive int32, or null (never a 500 on bad input). */
export function parseListId(value: unknown): number | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const s = String(value).trim();
  if (!/^\d{1,10}$/.test(s)) return null;
  const n = Number(s);
  return n > 0 && n <= 2_147_483_647 ? n : null;
}

function containersOf(db: Db, userId: string) {
  return ownContainers(db, userId)
    .leftJoin("categories", (j) => j.onRef("categories.id", "=", "lists.category_id").on("categories.user_id", "=", userId))
    .select([
      "lists.id",
      "lists.name",
      "lists.description",
      "lists.category_id",
      "categories.name as category_name",
      "lists.size",
      "lists.internal_dnc",
      "lists.created_at",
      "lists.updated_at",
    ]);
}

type Row = {
  id: number;
  name: string;
  description: string;
  category_id: string | null;
  category_name: string | null;
  size: bigint;
  internal_dnc: boolean;
  created_at: Date;
  updated_at: Date;
};

function toItem(r: Row): ContainerItem {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    categoryId: r.category_id,
    categoryName: r.category_name,
    size: Number(r.size),
    internalDnc: r.internal_dnc,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** The user's containers, newest first. */
export async function listContainers(db: Db, userId: string): Promise<ContainerItem[]> {
  const rows = await containersOf(db, userId).orderBy("lists.created_at", "desc").orderBy("lists.id", "desc").execute();
  return rows.map(toItem);
}

/** One of the user's containers; undefined for a missing, deleted or another user's id. */
export async function getContainer(db: Db, { id, userId }: { id: number; userId: string }): Promise<ContainerItem | undefined> {
  const r = await containersOf(db, userId).where("lists.id", "=", id).executeTakeFirst();
  return r && toItem(r);
}

/**
 * The user's own live containers, as a query to select from: the one place that says what "the user's own
 * container" is (the integration's container check and the wizard's options read it too).
 */
export function ownContainers(db: Db, userId: string) {
  return db.selectFrom("lists").where("lists.kind", "=", "container").where("lists.user_id", "=", userId).where("lists.deleted_at", "is", null);
}

/** The category does not exist or is not the user's. */
export class CategoryNotFoundError extends CodedError {
  constructor() {
    super("invalid_input", "Please choose one of your categories.", { field: "categoryId" });
    this.name = "CategoryNotFoundError";
  }
}

async function ownCategoryId(db: Db, userId: string, categoryId: string): Promise<string> {
  if (!isUuid(categoryId)) throw new CategoryNotFoundError();
  const c = await db.selectFrom("categories").select("id").where("id", "=", categoryId).where("user_id", "=", userId).executeTakeFirst();
  if (!c) throw new CategoryNotFoundError();
  return c.id;
}

export async function createContainer(db: Db, input: { userId: string; name: string; description?: string; categoryId: string }): Promise<ContainerItem> {
  const categoryId = await ownCategoryId(db, input.userId, input.categoryId);
  const { id } = await db
    .insertInto("lists")
    .values({
      kind: "container",
      user_id: input.userId,
      category_id: categoryId,
      name: input.name.trim(),
      description: (input.description ?? "").trim(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const item = await getContainer(db, { id, userId: input.userId });
  if (!item) throw new Error("container vanished after insert");
  return item;
}

/** Updates name, description and category; undefined when the container is not the user's. */
export async function updateContainer(
  db: Db,
  input: { id: number; userId: string; name: string; description?: string; categoryId: string },
): Promise<ContainerItem | undefined> {
  const categoryId = await ownCategoryId(db, input.userId, input.categoryId);
  const r = await db
    .updateTable("lists")
    .set({
      name: input.name.trim(),
      description: (input.description ?? "").trim(),
      category_id: categoryId,
      updated_at: new Date(),
    })
    .where("id", "=", input.id)
    .where("id", "in", ownContainers(db, input.userId).select("lists.id"))
    .returning("id")
    .executeTakeFirst();
  if (!r) return undefined;
  return getContainer(db, { id: r.id, userId: input.userId });
}

export interface ListLoadItem {
  id: string;
  listId: number;
  mode: ListLoadMode;
  status: ShownStatus;
  fileName: string;
  bytesTotal: number;
  bytesRead: number;
  added: number;
  alreadyPresent: number;
  removed: number;
  invalid: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** 0–100 from bytes read; 100 when completed. */
  percent: number;
}

type LoadRow = {
  id: string;
  list_id: number;
  mode: ListLoadMode;
  status: JobStatus;
  attempts: number;
  file_name: string;
  bytes_total: bigint;
  bytes_read: bigint;
  added: bigint;
  already_present: bigint;
  removed: bigint;
  invalid: bigint;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
};

export function toLoadItem(r: LoadRow): ListLoadItem {
  const total = Number(r.bytes_total);
  const read = Number(r.bytes_read);
  const percent = r.status === "completed" ? 100 : total > 0 ? Math.min(99, Math.floor((read / total) * 100)) : r.status === "running" ? 1 : 0;
  return {
    id: r.id,
    listId: r.list_id,
    mode: r.mode,
    status: shownStatus(r),
    fileName: r.file_name,
    bytesTotal: total,
    bytesRead: read,
    added: Number(r.added),
    alreadyPresent: Number(r.already_present),
    removed: Number(r.removed),
    invalid: Number(r.invalid),
    error: r.error,
    createdAt: r.created_at.toISOString(),
    finishedAt: r.finished_at ? r.finished_at.toISOString() : null,
    percent,
  };
}

/** The list_loads columns `toLoadItem` reads (containers and DNC lists alike). */
export const loadColumns = [
  "list_loads.id",
  "list_loads.list_id",
  "list_loads.mode",
  "list_loads.status",
  "list_loads.attempts",
  "list_loads.file_name",
  "list_loads.bytes_total",
  "list_loads.bytes_read",
  "list_loads.added",
  "list_loads.already_present",
  "list_loads.removed",
  "list_loads.invalid",
  "list_loads.error",
  "list_loads.created_at",
  "list_loads.finished_at",
] as const;

/** A load into one of the user's containers (undefined for anyone else's). */
export async function getContainerLoad(db: Db, { id, userId }: { id: string; userId: string }): Promise<ListLoadItem | undefined> {
  if (!isUuid(id)) return undefined;
  const r = await db
    .selectFrom("list_loads")
    .select(loadColumns)
    .where("list_loads.id", "=", id)
    .where("list_loads.list_id", "in", ownContainers(db, userId).select("lists.id"))
    .executeTakeFirst();
  return r && toLoadItem(r);
}

/** The latest load of each of the user's containers (running ones show a progress bar on the card). */
export async function latestContainerLoads(db: Db, userId: string): Promise<Map<number, ListLoadItem>> {
  const rows = await db
    .selectFrom("list_loads")
    .select(loadColumns)
    .distinctOn("list_loads.list_id")
    .where("list_loads.list_id", "in", ownContainers(db, userId).select("lists.id"))
    .orderBy("list_loads.list_id")
    .orderBy("list_loads.created_at", "desc")
    .execute();
  return new Map(rows.map((r) => [r.list_id, toLoadItem(r)]));
}
