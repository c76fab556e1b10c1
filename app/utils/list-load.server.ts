import fs from "node:fs";
import path from "node:path";
import type { Transaction } from "kysely";
import type { Database, ListLoadMode } from "../../db/schema";
import { reserveUsage } from "~/models/usage.server";
import { createListLoad, getScrubService } from "./scrub.server";
import { sweepStagedUploads, uploadsDir, type StoredUpload } from "./list-upload.server";
export { describeLoad } from "./list-text";

/*
 * Loading numbers into a list (a container or a DNC list) goes through the scrub service (its one normalizer,
 * list_numbers, lists.size/version, the list store and Bloom filters). The app only:
 *   1. inside a transaction: reserves container usage (customers' containers only) and inserts the list_loads row,
 *   2. after the commit: runs typed numbers synchronously (`loadNumbers`) or enqueues a file load.
 */

export type LoadSource = { kind: "manual"; numbers: string[] } | { kind: "file"; upload: StoredUpload };

export interface PlannedLoad {
  loadId: string;
  listId: number;
  mode: ListLoadMode;
  userId: string;
  source: LoadSource;
}

/** Upper bound of the numbers a load may add (what is reserved against the container limit). */
export function loadAmount(source: LoadSource): number {
  return source.kind === "manual" ? source.numbers.length : source.upload.lines;
}

/**
 * Inserts the queued load (and, when `reserve`, holds container usage for it: throws NoPlanError /
 * UsageLimitError from usage.server). Call inside `db.transaction()`.
 */
export async function planListLoad(
  trx: Transaction<Database>,
  input: { listId: number; mode: ListLoadMode; userId: string; source: LoadSource; reserve: boolean },
): Promise<PlannedLoad> {
  const amount = input.reserve ? loadAmount(input.source) : 0;
  if (input.reserve) await reserveUsage(trx, { userId: input.userId, kind: "container", amount });
  const loadId = await createListLoad(trx, {
    listId: input.listId,
    mode: input.mode,
    userId: input.userId,
    fileName: input.source.kind === "file" ? input.source.upload.fileName : "Manual entry",
    inputPath: input.source.kind === "file" ? input.source.upload.path : "",
    usageReserved: amount,
  });
  return { loadId, listId: input.listId, mode: input.mode, userId: input.userId, source: input.source };
}

export interface ManualLoadOutcome {
  added: number;
  alreadyPresent: number;
  removed: number;
  invalid: number;
  rejected: { value: string; reason: string }[];
  size: number;
}

/**
 * Runs a planned load after its transaction committed: typed numbers are loaded now (returns the counts);
 * a file is handed to the service's queue (returns null; progress is in list_loads).
 */
export async function runListLoad(load: PlannedLoad): Promise<ManualLoadOutcome | null> {
  const service = await getScrubService();
  if (load.source.kind === "file") {
    await service.enqueueListLoad(load.loadId);
    return null;
  }
  const r = await service.loadNumbers({
    listId: load.listId,
    mode: load.mode,
    numbers: load.source.numbers,
    userId: load.userId,
    loadId: load.loadId,
  });
  return { added: r.added, alreadyPresent: r.alreadyPresent, removed: r.removed, invalid: r.invalid, rejected: r.rejected, size: r.size };
}

/** Marks a load failed when it could not be started (its reserved usage is released: failed loads count 0). */
export async function failListLoad(db: import("kysely").Kysely<Database>, loadId: string, error: string): Promise<void> {
  await db
    .updateTable("list_loads")
    .set({ status: "failed", error, finished_at: new Date() })
    .where("id", "=", loadId)
    .where("status", "in", ["queued", "running"])
    .execute();
}

/**
 * Deletes the uploaded files of finished loads (completed or failed) and clears their input_path: a finished
 * load never reads its file again, and DNC files can be hundreds of MB. Only files under
 * `${DATA_DIR}/uploads/lists/` are touched. Cheap; the list pages call it on every view.
 */
export async function sweepFinishedListUploads(db: import("kysely").Kysely<Database>, limit = 100): Promise<number> {
  const root = uploadsDir("lists") + path.sep;
  const rows = await db
    .selectFrom("list_loads")
    .select(["id", "input_path"])
    .where("status", "in", ["completed", "failed"])
    .where("input_path", "<>", "")
    .limit(limit)
    .execute();
  let removed = 0;
  for (const r of rows) {
    const p = path.resolve(r.input_path);
    if (p.startsWith(root)) {
      await fs.promises.rm(p, { force: true });
      removed++;
    }
    await db.updateTable("list_loads").set({ input_path: "" }).where("id", "=", r.id).execute();
  }
  await sweepStagedUploads();
  return removed;
}
