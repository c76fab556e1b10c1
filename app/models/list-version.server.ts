import type { Kysely, Transaction } from "kysely";
import type { Database, ListLoadMode } from "db/schema";

type Db = Kysely<Database> | Transaction<Database>;

/** One version of a list: the completed load that produced it and its provenance (decision 110). */
export interface ListVersion {
  loadId: string;
  listId: number;
  version: number;
  mode: ListLoadMode;
  fileName: string;
  sourceSha256: string;
  sourceFormat: string;
  /** The registry date stated for a DNC download, else the load time. */
  registryDate: string | null;
  loadedAt: string;
  loadedBy: string | null;
  added: number;
  removed: number;
  alreadyPresent: number;
  invalid: number;
  size: number;
}

/** The newest `limit` versions of each list, newest first (versions from before provenance began are absent). */
export async function listVersions(db: Db, listIds: number[], limit = 5): Promise<Map<number, ListVersion[]>> {
  const map = new Map<number, ListVersion[]>();
  const perList = await Promise.all(listIds.map((id) => versionRows(db, id, limit)));
  for (const [i, rows] of perList.entries()) map.set(listIds[i], rows.map(toVersion));
  return map;
}

function versionRows(db: Db, listId: number, limit: number) {
  return db
    .selectFrom("list_loads")
    .leftJoin("users", "users.id", "list_loads.user_id")
    .select([
      "list_loads.id",
      "list_loads.list_id",
      "list_loads.list_version",
      "list_loads.mode",
      "list_loads.file_name",
      "list_loads.source_sha256",
      "list_loads.source_format",
      "list_loads.registry_date",
      "list_loads.finished_at",
      "list_loads.created_at",
      "list_loads.added",
      "list_loads.removed",
      "list_loads.already_present",
      "list_loads.invalid",
      "list_loads.list_size",
      "users.email",
    ])
    .where("list_loads.list_id", "=", listId)
    .where("list_loads.status", "=", "completed")
    .where("list_loads.list_version", "is not", null)
    .orderBy("list_loads.list_version", "desc")
    .limit(limit)
    .execute();
}

function toVersion(r: Awaited<ReturnType<typeof versionRows>>[number]): ListVersion {
  return {
    loadId: r.id,
    listId: r.list_id,
    version: Number(r.list_version),
    mode: r.mode,
    fileName: r.file_name,
    sourceSha256: r.source_sha256 ?? "",
    sourceFormat: r.source_format ?? "",
    registryDate: r.registry_date ? r.registry_date.toISOString() : null,
    loadedAt: (r.finished_at ?? r.created_at).toISOString(),
    loadedBy: r.email,
    added: Number(r.added),
    removed: Number(r.removed),
    alreadyPresent: Number(r.already_present),
    invalid: Number(r.invalid),
    size: Number(r.list_size ?? 0),
  };
}
