/**
 * List provenance: what a completed load read and which list version it produced, recorded in the
 * transaction that applies the change (so a version never exists without its source). The registry date (the
 * list's release) is the one the admin stated for the download; it becomes the list's. Without a stated date a
 * list that takes registry dates (the federal list, each state list) keeps the release it has, whatever the mode
 * (add, remove, an FTC change list, replace): a typed number or an undated file is no newer release, and must not
 * restart the list's freshness clock nor put a release the list never had on a results screen or a certificate
 * (decision 177). Only such a list's very first load without a date, and every load of another list
 * (litigation, containers), is dated by its completion time.
 */
import crypto from "node:crypto";
import type { BulkSession } from "./pg-bulk";
import type { ChangeCounts } from "./manager";
import { appendLedger } from "../ledger/store";
import { listVersionDraft } from "../ledger/drafts";

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
         (select l.registry_date from lists l where l.id = list_loads.list_id and (l.kind = 'dnc' or l.kind like 'dnc-%')),
         finished_at, clock_timestamp())
     where id = $1 returning registry_date`,
    [load.id, source.sha256, source.format, counts.version, counts.size, load.registryDate ?? null],
  );
  if (r.rows[0]) await s.query("update lists set registry_date = $2 where id = $1", [load.listId, r.rows[0].registry_date]);
  // a customer's own list (a container, its internal do-not-call list): the version goes in its ledger (decision 197)
  const owner = await s.query<{ user_id: string; name: string; internal_dnc: boolean }>(
    "select user_id, name, internal_dnc from lists where id = $1 and kind = 'container' and user_id is not null",
    [load.listId],
  );
  const o = owner.rows[0];
  if (o) {
    const draft = listVersionDraft({
      listId: load.listId,
      name: o.name,
      internalDnc: o.internal_dnc,
      loadId: load.id,
      version: Number(counts.version),
      size: Number(counts.size),
      sourceSha256: source.sha256,
      sourceFormat: source.format,
    });
    await appendLedger({ run: (text, params) => s.query(text, params), inTransaction: true }, o.user_id, [draft]);
  }
}
