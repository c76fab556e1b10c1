/**
 * The list-load handler: a claimed load's file read into numbers (or an FTC change list's removals and
 * additions), applied through the list manager, and its completion (counts, provenance) recorded in the
 * manager's own transaction while the lease is this process's; a failure fails the load with the admin's words.
 * The lease queue that claims loads and keeps their leases is jobs.ts.
 */
import { sql } from "kysely";
import type { ListLoadMode } from "db/schema";
import { metrics } from "./ops/metrics";
import { numbersOfFile } from "./lists/input";
import { recordLoadProvenance } from "./lists/provenance";
import { listRegionOf, numbersInRegion, outOfRegionRefusal } from "./lists/scope";
import { isInputFormatError } from "./pipeline/input/errors";
import type { ChangeCounts } from "./lists/manager";
import type { BulkSession } from "./lists/pg-bulk";
import { ListStoreError } from "./lists/store";
import { ScrubInputError } from "./pipeline/run";
import type { RunContext } from "./run-context";

export type LoadRow = { id: string; list_id: number; mode: ListLoadMode; input_path: string };

export const INTERRUPTED_LOAD = "The list load was interrupted (the scrub service stopped). The list was not changed; load the file again.";

/** Applies one claimed load to its list (add, remove, replace, or an FTC change list) and records how it ended. */
export async function runListLoad(ctx: RunContext, load: LoadRow): Promise<void> {
  let bytes = 0;
  let loadStatus: "completed" | "failed" = "completed";
  const timer = setInterval(() => {
    void ctx.db
      .updateTable("list_loads")
      .set({ bytes_read: bytes, lease_expires_at: ctx.lease() })
      .where("id", "=", load.id)
      .where("lease_owner", "=", ctx.o.owner)
      .execute()
      .catch(() => {});
  }, ctx.progressMs);
  try {
    let file;
    try {
      file = await numbersOfFile(load.input_path, { onProgress: (b) => (bytes = b) });
    } catch (e) {
      if (isInputFormatError(e)) throw new ScrubInputError(e.message);
      if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new ScrubInputError("The uploaded file is missing.");
      throw e; // our side (disk, a bug): failureText words it for the admin, the log keeps the cause
    }
    // Canada's National DNCL holds Canadian numbers only (decision 179): others are left out and counted invalid
    const kind = (await ctx.db.selectFrom("lists").select("kind").where("id", "=", load.list_id).executeTakeFirst())?.kind ?? "";
    const region = listRegionOf(kind);
    if (region) {
      const adds = numbersInRegion(file.numbers, region);
      const dels = file.removals ? numbersInRegion(file.removals, region) : null;
      const refusal = outOfRegionRefusal(kind, adds.kept.length + (dels?.kept.length ?? 0), adds.outside + (dels?.outside ?? 0));
      if (refusal) throw new ScrubInputError(refusal);
      const outside = adds.outside + (dels?.outside ?? 0);
      file = { ...file, numbers: adds.kept, removals: dels ? dels.kept : file.removals, valid: file.valid - outside, invalid: file.invalid + outside };
    }
    const f = file;
    const complete = async (s: BulkSession, c: ChangeCounts, removed: number, notPresent: number) => {
      const r = await s.query(
        `update list_loads set status = 'completed', error = null, bytes_read = $2, bytes_total = $2, added = $3,
           already_present = $4, removed = $5, invalid = $6, not_present = $8, input_encoding = $9, input_delimiter = $10,
           finished_at = clock_timestamp(), lease_owner = null, lease_expires_at = null
         where id = $1 and lease_owner = $7`,
        [load.id, f.bytes, c.added, c.alreadyPresent + (f.valid - f.numbers.length), removed, f.invalid, ctx.o.owner, notPresent, f.encoding, f.delimiter],
      );
      if (r.rowCount === 0) throw new Error("The load's lease was lost to another process.");
      await recordLoadProvenance(s, { id: load.id, listId: load.list_id }, f, c);
    };
    if (load.mode === "changes") {
      if (f.layout !== "ftc-changes") {
        throw new ScrubInputError("The file is not an FTC change list: no record names a number with an add (A) or delete (D) indicator.");
      }
      // deletions and additions in one change: one transaction, one new version (decision 162)
      const removals = f.removals!;
      await ctx.o.manager.change(load.list_id, "changes", f.numbers, (s, c) => complete(s, c, c.removed, removals.length - c.removed), removals);
    } else {
      if (f.layout === "ftc-changes") {
        throw new ScrubInputError("This is an FTC change list (its records say add or delete): apply it as a change list, not as a list of numbers.");
      }
      await ctx.o.manager.change(load.list_id, load.mode, f.numbers, (s, c) => complete(s, c, c.removed, 0));
    }
  } catch (e) {
    if (e instanceof ListStoreError) metrics().listStoreErrors.inc();
    loadStatus = "failed";
    const msg = e instanceof ScrubInputError || e instanceof ListStoreError ? e.message : `The list load failed: ${(e as Error).message}`;
    await ctx.db
      .updateTable("list_loads")
      .set({ status: "failed", error: msg, finished_at: sql`now()`, lease_owner: null, lease_expires_at: null })
      .where("id", "=", load.id)
      .where("lease_owner", "=", ctx.o.owner)
      .execute()
      .catch(() => {});
  } finally {
    clearInterval(timer);
    const list = await ctx.db
      .selectFrom("lists")
      .select("kind")
      .where("id", "=", load.list_id)
      .executeTakeFirst()
      .catch(() => undefined);
    metrics().listLoads.inc({ list: list?.kind ?? "unknown", status: loadStatus });
  }
}
