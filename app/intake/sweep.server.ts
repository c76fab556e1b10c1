import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { clearLoadInput, finishedLoadInputs, inputPathsInUse } from "~/models/list-load.server";
import { deleteUpload, isStoredUploadPath, sweepStaleUploads } from "./upload-store.server";

/**
 * Deletes the uploaded files of finished list loads and clears their input_path: DNC files can be hundreds of
 * MB and a finished load never reads its file again. Only files of the upload store are touched. Cheap; the
 * list pages call it on every view, the housekeeping hourly.
 */
export async function releaseFinishedLoadUploads(db: Kysely<Database>, limit = 100): Promise<number> {
  let removed = 0;
  for (const load of await finishedLoadInputs(db, limit)) {
    if (isStoredUploadPath(load.inputPath)) {
      await deleteUpload({ path: load.inputPath, id: path.basename(load.inputPath, ".csv") });
      removed++;
    }
    await clearLoadInput(db, load.id);
  }
  return removed;
}

/** The hourly sweep of the upload store for every user (run by the housekeeping). Returns the files removed. */
export async function sweepUploads(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const released = await releaseFinishedLoadUploads(db, 10_000);
  const stale = await sweepStaleUploads((paths) => inputPathsInUse(db, paths), { now });
  return released + stale.length;
}
