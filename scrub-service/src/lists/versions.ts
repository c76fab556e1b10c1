/**
 * Version bookkeeping: `lists.version` names one state of a list's numbers (bumped by every change, in the
 * change's last transaction); a store copy or Bloom filter of another version is never served.
 */
import type { DbHandle } from "db/client";
import { listKindOf, type ListKind } from "../list-types";
import { ListStoreError } from "./store";

export interface ListInfo {
  id: number;
  kind: ListKind;
  userId: string | null;
  size: number;
  version: number;
  deleted: boolean;
  /** created/updated times: with id and version they name one state of the list's numbers (cache key). */
  stamp: string;
}

export async function readListInfo(handle: DbHandle, listId: number): Promise<ListInfo | null> {
  const row = await handle.db
    .selectFrom("lists")
    .select(["id", "kind", "user_id", "size", "version", "deleted_at", "created_at", "updated_at"])
    .where("id", "=", listId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    kind: listKindOf(row.kind),
    userId: row.user_id,
    size: Number(row.size),
    version: Number(row.version),
    deleted: row.deleted_at != null,
    stamp: `${new Date(row.created_at).getTime()}-${new Date(row.updated_at).getTime()}`,
  };
}

/** The lists that are not deleted, by id: their database version and size. */
export async function currentLists(handle: DbHandle): Promise<{ listId: number; kind: ListInfo["kind"]; version: number; size: number }[]> {
  const rows = await handle.db.selectFrom("lists").select(["id", "kind", "size", "version"]).where("deleted_at", "is", null).orderBy("id").execute();
  return rows.map((r) => ({ listId: r.id, kind: listKindOf(r.kind), version: Number(r.version), size: Number(r.size) }));
}

/** What reading a list's numbers at one version produced: kept when the version held, else undone. */
export interface VersionedRead {
  keep(): Promise<void>;
  undo?(): Promise<void>;
}

/**
 * Runs `read` against one version of the list: lists.version is read before and after it, and `read` runs
 * again (up to five times) when a change committed in between.
 */
export async function atOneVersion(handle: DbHandle, listId: number, read: (info: ListInfo) => Promise<VersionedRead>): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await readListInfo(handle, listId);
    if (!before) throw new ListStoreError(`List ${listId} does not exist.`);
    const result = await read(before);
    const after = await readListInfo(handle, listId);
    if (after && after.version === before.version) {
      await result.keep();
      return;
    }
    await result.undo?.();
  }
  throw new ListStoreError(`List ${listId} keeps changing; try again.`);
}
