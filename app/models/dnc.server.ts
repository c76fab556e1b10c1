import type { Kysely, Transaction } from "kysely";
import type { Database } from "db/schema";
import {
  ADMIN_LIST_KINDS,
  listTypeOfDncType,
  listTypeOfKind,
  suppressionTypesChecking,
  type AdminListKind,
  takesRegistryDate,
  type ListTone,
  type DncType,
  type StateListRule,
  type SuppressionTypeName,
} from "scrub-service/domain";
import { isUuid } from "~/utils/ids";
import { loadColumns, toLoadItem, type ListLoadItem } from "./container.server";
import { listClockOf, type StateListClock } from "./dnc-clock.server";

type Db = Kysely<Database> | Transaction<Database>;

/** The admin lists, one per list type (scrub-service/src/list-types.ts): type 0 = Litigation List, 1 = DNC List. */
export interface DncList {
  id: number;
  kind: AdminListKind;
  suppressionType: DncType;
  /** The suppression type named after the list; null for a state list (DNC and Litigation checks it). */
  suppressionTypeName: SuppressionTypeName | null;
  /** The list's name from the registry ("DNC List"), never a suppression type's. */
  name: string;
  tone: ListTone;
  /** A state list's publisher, cadence and freshness rule (decision 160); null for the others. */
  state: StateListRule | null;
  /** Loads state the day of the download they come from (the DNC list and the state lists). */
  takesRegistryDate: boolean;
  /** Labels of the suppression types whose purges check this list. */
  checkedBy: string[];
  description: string;
  /** The registry date of the list's newest download (ISO), or null. */
  registryDate: string | null;
  /** Its age against its freshness rule (the DNC list and the state lists, once loaded), or null. */
  clock: StateListClock | null;
  phoneCount: number;
  createdAt: string;
  updatedAt: string;
}

export function dncKind(type: DncType): AdminListKind {
  return listTypeOfDncType(type)!.kind;
}

/** A suppression type from a URL/form ("0", "1", …), or null. */
export function parseDncType(value: unknown): DncType | null {
  return typeof value === "string" || typeof value === "number" ? (listTypeOfDncType(value)?.type ?? null) : null;
}

const columns = ["id", "kind", "name", "description", "size", "registry_date", "created_at", "updated_at"] as const;

type DncListRow = { id: number; kind: string; name: string; description: string; size: bigint; registry_date: Date | null; created_at: Date; updated_at: Date };

function toDncList(r: DncListRow, now: Date): DncList {
  const t = listTypeOfKind(r.kind as AdminListKind);
  return {
    id: r.id,
    kind: t.kind,
    suppressionType: t.type,
    suppressionTypeName: t.suppressionType,
    name: t.name,
    tone: t.tone,
    state: "state" in t ? t.state : null,
    takesRegistryDate: takesRegistryDate(t.kind),
    registryDate: r.registry_date?.toISOString() ?? null,
    clock: listClockOf(t.kind, r.registry_date, now),
    checkedBy: suppressionTypesChecking(t.kind).map((c) => c.label),
    description: r.description,
    phoneCount: Number(r.size),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** The admin lists in DNC page order: litigation (type 0), DNC (1), then the state lists (2…). */
export async function listDncLists(db: Db): Promise<DncList[]> {
  const rows = await db.selectFrom("lists").select(columns).where("kind", "in", ADMIN_LIST_KINDS).execute();
  const now = new Date();
  return rows.map((r) => toDncList(r, now)).sort((a, b) => a.suppressionType - b.suppressionType);
}

export async function getDncList(db: Db, type: DncType): Promise<DncList | undefined> {
  const r = await db.selectFrom("lists").select(columns).where("kind", "=", dncKind(type)).executeTakeFirst();
  return r && toDncList(r, new Date());
}

export async function updateDncDescription(db: Db, type: DncType, description: string): Promise<DncList | undefined> {
  const r = await db
    .updateTable("lists")
    .set({ description: description.trim(), updated_at: new Date() })
    .where("kind", "=", dncKind(type))
    .returning(columns)
    .executeTakeFirst();
  return r && toDncList(r, new Date());
}

/** A load into one of the DNC lists (undefined for container loads and unknown ids). */
export async function getDncLoad(db: Db, id: string): Promise<(ListLoadItem & { suppressionType: DncType }) | undefined> {
  if (!isUuid(id)) return undefined;
  const r = await db
    .selectFrom("list_loads")
    .innerJoin("lists", "lists.id", "list_loads.list_id")
    .select([...loadColumns, "lists.kind"])
    .where("list_loads.id", "=", id)
    .where("lists.kind", "in", ADMIN_LIST_KINDS)
    .executeTakeFirst();
  return r && { ...toLoadItem(r), suppressionType: listTypeOfKind(r.kind as AdminListKind).type };
}

/** The latest load of each DNC list, by list id. */
export async function latestDncLoads(db: Db): Promise<Map<number, ListLoadItem>> {
  const rows = await db
    .selectFrom("list_loads")
    .innerJoin("lists", "lists.id", "list_loads.list_id")
    .select(loadColumns)
    .distinctOn("list_loads.list_id")
    .where("lists.kind", "in", ADMIN_LIST_KINDS)
    .orderBy("list_loads.list_id")
    .orderBy("list_loads.created_at", "desc")
    .execute();
  return new Map(rows.map((r) => [r.list_id, toLoadItem(r)]));
}
