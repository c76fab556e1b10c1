import type { Kysely } from "kysely";
import { callFileHeader, CallFileError, importCallFile, listNumberCalls, type CallFileMapping, type NumberCalls } from "scrub-service";
import type { CallRecordError } from "scrub-service/domain";
import type { Database } from "~/utils/db.server";
import { deleteUpload, type StoredUpload } from "./upload-store.server";

/*
 * The Call History screen's door to the engine's call-history import and queries (issue #46, decisions 185 and 189):
 * the same reader and column names as `npm run calls -- import`, all or nothing. An upload whose header cannot be
 * mapped by its names is kept (the upload store's own sweep removes it after a day) so that a second post names the
 * columns; every other outcome deletes it.
 */

/** What the screen says of a VICIdial export sent without a zone (the engine's message names the CLI's --tz). */
export const VICIDIAL_NEEDS_ZONE =
  "This is a VICIdial vicidial_log export: its call_date is the dialer server's local time without an offset. Choose the dialer server's time zone and upload it again; nothing was recorded.";

export type CallImportOutcome =
  | { kind: "done"; recorded: number; ignored: number; rows: number; format: "csv" | "vicidial" }
  | { kind: "bad_rows"; errors: CallRecordError[]; total: number }
  | { kind: "map"; uploadId: string; fileName: string; columns: string[]; message: string | null }
  | { kind: "refused"; message: string };

/** Imports a stored upload for `userId` (all or nothing). */
export async function importCallUpload(
  db: Kysely<Database>,
  o: { userId: string; upload: StoredUpload; zone: string | null; mapping?: CallFileMapping },
): Promise<CallImportOutcome> {
  let keep = false;
  try {
    const r = await importCallFile(db, { path: o.upload.path, userId: o.userId, zone: o.zone, mapping: o.mapping });
    if ("errors" in r) return { kind: "bad_rows", errors: r.errors, total: r.total };
    return { kind: "done", recorded: r.recorded, ignored: r.ignored, rows: r.rows, format: r.format };
  } catch (e) {
    if (e instanceof CallFileError) {
      if (e.code === "vicidial_needs_zone") return { kind: "refused", message: VICIDIAL_NEEDS_ZONE };
      if (e.code === "bad_zone") return { kind: "refused", message: "Choose a time zone from the list." };
      const columns = (await callFileHeader(o.upload.path).catch(() => null)) ?? [];
      if (columns.length === 0) return { kind: "refused", message: "The file is empty." };
      keep = true;
      return {
        kind: "map",
        uploadId: o.upload.id,
        fileName: o.upload.originalName,
        columns,
        message: e.code === "bad_mapping" ? "Choose the number and instant columns (and the outcome, unless every row is a VICIdial export's)." : null,
      };
    }
    console.error(e);
    return { kind: "refused", message: "The file could not be read as CSV, XLSX, .gz or .zip; nothing was recorded." };
  } finally {
    if (!keep) await deleteUpload(o.upload).catch(() => {});
  }
}

/** One number's records of this user, newest first, a page at a time, with its counts in the last 24 hours and 7 days. */
export function numberCallHistory(db: Kysely<Database>, userId: string, number: number, page: { limit: number; offset: number }): Promise<NumberCalls> {
  return listNumberCalls(db, userId, number, { ...page, nowMs: Date.now() });
}
