/**
 * List provenance: what a completed load read and which list version it produced, recorded in the
 * transaction that applies the change (so a version never exists without its source). The registry date is
 * the one the admin stated for the download, else the load's completion time; it becomes the list's. Removing
 * numbers from the DNC list without a stated date keeps the list's registry date: a removal is no newer
 * download, and must not reset the 31-day clock.
 */
import crypto from "node:crypto";
import type { BulkSession } from "./pg-bulk";
import type { ChangeCounts } from "./manager";

export interface LoadSource {
  /** SHA-256 (hex) of the bytes received. */
  sha256: string;
  /** The format as read ("CSV (comma-separated, header row)", "typed entries", …). */
  format: string;
}

/** Typed-in numbers: the entries as received, one per line. */
export function typedEntriesSource(entries: readonly string[]): LoadSource {
  return { sha256: crypto.createHash("sha256").update(entries.join("\n")).digest("hex"), format: "typed entries" };
}

export async function recordLoadProvenance(
  s: BulkSession,
  load: { id: string; listId: number; registryDate?: Date | string | null },
  source: LoadSource,
  counts: Pick<ChangeCounts, "version" | "size">,
): Promise<void> {
  const r = await s.query<{ registry_date: Date }>(
    `update list_loads set source_sha256 = $2, source_format = $3, list_version = $4, list_size = $5,
       registry_date = coalesce($6, registry_date,
         (select l.registry_date from lists l where l.id = list_loads.list_id and l.kind = 'dnc' and list_loads.mode = 'remove'),
         finished_at, clock_timestamp())
     where id = $1 returning registry_date`,
    [load.id, source.sha256, source.format, counts.version, counts.size, load.registryDate ?? null],
  );
  if (r.rows[0]) await s.query("update lists set registry_date = $2 where id = $1", [load.listId, r.rows[0].registry_date]);
}
