import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema";
import { isUuid } from "./category.server";
import { loadColumns, toLoadItem, type ListLoadItem } from "./container.server";

type Db = Kysely<Database> | Transaction<Database>;

/** The two admin lists: type 0 = Litigation Only (kind litigation), type 1 = DNC and Litigation (kind dnc). */
export interface DncList {
  id: number;
  suppressionType: 0 | 1;
  suppressionTypeName: "LitigationOnly" | "DNCAndLitigation";
  name: string;
  description: string;
  phoneCount: number;
  createdAt: string;
  updatedAt: string;
}

export function dncKind(type: 0 | 1): "litigation" | "dnc" {
  return type === 0 ? "litigation" : "dnc";
}

/** A suppression type from a URL/form ("0" or "1"), or null. */
export function parseDncType(value: unknown): 0 | 1 | null {
  return value === "0" || value === 0 ? 0 : value === "1" || value === 1 ? 1 : null;
}

const columns = ["id", "kind", "name", "description", "size", "created_at", "updated_at"] as const;

function toDncList(r: { id: number; kind: string; name: string; description: string; size: bigint; created_at: Date; updated_at: Date }): DncList {
  const type = r.kind === "litigation" ? 0 : 1;
  return {
    id: r.id,
    suppressionType: type,
    suppressionTypeName: type === 0 ? "LitigationOnly" : "DNCAndLitigation",
    name: r.name,
    description: r.description,
    phoneCount: Number(r.size),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** Both DNC lists, type 0 first. */
export async function listDncLists(db: Db): Promise<DncList[]> {
  const rows = await db.selectFrom("lists").select(columns).where("kind", "in", ["litigation", "dnc"]).execute();
  return rows.map(toDncList).sort((a, b) => a.suppressionType - b.suppressionType);
}

export async function getDncList(db: Db, type: 0 | 1): Promise<DncList | undefined> {
  const r = await db.selectFrom("lists").select(columns).where("kind", "=", dncKind(type)).executeTakeFirst();
  return r && toDncList(r);
}

export async function updateDncDescription(db: Db, type: 0 | 1, description: string): Promise<DncList | undefined> {
  const r = await db
    .updateTable("lists")
    .set({ description: description.trim(), updated_at: new Date() })
    .where("kind", "=", dncKind(type))
    .returning(columns)
    .executeTakeFirst();
  return r && toDncList(r);
}

/** A load into one of the DNC lists (undefined for container loads and unknown ids). */
export async function getDncLoad(db: Db, id: string): Promise<(ListLoadItem & { suppressionType: 0 | 1 }) | undefined> {
  if (!isUuid(id)) return undefined;
  const r = await db
    .selectFrom("list_loads")
    .innerJoin("lists", "lists.id", "list_loads.list_id")
    .select([...loadColumns, "lists.kind"])
    .where("list_loads.id", "=", id)
    .where("lists.kind", "in", ["litigation", "dnc"])
    .executeTakeFirst();
  return r && { ...toLoadItem(r), suppressionType: r.kind === "litigation" ? 0 : 1 };
}

/** The latest load of each DNC list, by list id. */
export async function latestDncLoads(db: Db): Promise<Map<number, ListLoadItem>> {
  const rows = await db
    .selectFrom("list_loads")
    .innerJoin("lists", "lists.id", "list_loads.list_id")
    .select(loadColumns)
    .distinctOn("list_loads.list_id")
    .where("lists.kind", "in", ["litigation", "dnc"])
    .orderBy("list_loads.list_id")
    .orderBy("list_loads.created_at", "desc")
    .execute();
  return new Map(rows.map((r) => [r.list_id, toLoadItem(r)]));
}
