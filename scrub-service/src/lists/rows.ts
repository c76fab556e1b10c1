/**
 * A list's rows in PostgreSQL / PGlite (list_numbers, the source of truth) and its size and version in
 * `lists`: one add/remove/replace of sorted, distinct numbers, written in one transaction, or on a
 * database that runs on this thread (PGlite) in transactions of `loadChunk` numbers (decision 017).
 * Both plans call the store's side of the change (StoreChange) at the same points.
 */
import type { DbHandle } from "../../../db/client";
import { bulkTraits, partitionOf, withBulkTransaction, type BulkSession } from "./pg-bulk";
import { buildAside, swapPartition } from "./rows-bulk";
import type { ChangeMode, StoreChange } from "./store";

export interface ChangeCounts {
  added: number;
  alreadyPresent: number;
  removed: number;
  size: number;
  version: number;
}

export interface RowsChange {
  listId: number;
  mode: ChangeMode;
  /** Sorted, distinct. */
  numbers: Float64Array;
  /** The store's side of the change. */
  copy: Pick<StoreChange, "started" | "written" | "beforeCommit">;
  /** Runs inside the last transaction, with the counts (e.g. recording the list_loads row). */
  record?: (s: BulkSession, counts: ChangeCounts) => Promise<void>;
  /** Chunked plan: some chunks committed, then the change failed (called before the version is bumped). */
  partlyWritten(): Promise<void>;
}

export interface RowsResult {
  counts: ChangeCounts;
  /** After the change the list is exactly `numbers` (a replace, or an add into an empty list). */
  wholeList: boolean;
}

export { partitionOf };

/** Makes sure the list's partition exists (lists created before 0006's trigger, or with triggers off). */
async function ensurePartition(s: BulkSession, listId: number): Promise<void> {
  const r = await s.query<{ t: string | null }>("select to_regclass($1)::text as t", [partitionOf(listId)]);
  if (!r.rows[0]?.t) await s.query("select list_numbers_attach($1)", [listId]);
}

/** Locks the list's row for this transaction: its size and version before the change. */
async function lockList(s: BulkSession, listId: number): Promise<{ size: number; version: number }> {
  const row = (
    await s.query<{ size: string | bigint; version: string | bigint; deleted_at: unknown }>(
      "select size, version, deleted_at from lists where id = $1 for update",
      [listId],
    )
  ).rows[0];
  if (!row || row.deleted_at) throw new Error(`List ${listId} does not exist.`);
  return { size: Number(row.size), version: Number(row.version) };
}

async function isEmpty(s: BulkSession, listId: number): Promise<boolean> {
  return (await s.query("select 1 from list_numbers where list_id = $1 limit 1", [listId])).rows.length === 0;
}

function isWholeList(mode: ChangeMode, empty: boolean, numbers: Float64Array): boolean {
  return mode === "replace" || (mode === "add" && empty && numbers.length > 0);
}

async function stage(s: BulkSession, listId: number, numbers: Float64Array): Promise<void> {
  await s.query("create temp table if not exists scrub_stage (list_id integer, number bigint) on commit drop");
  await s.query("truncate scrub_stage");
  await s.copyNumbers("scrub_stage", listId, numbers);
}

/** Inserts numbers (COPY straight into the partition when the list has no rows yet); returns how many were new. */
async function insertNumbers(s: BulkSession, listId: number, numbers: Float64Array, empty: boolean): Promise<number> {
  if (empty) {
    await s.copyNumbers(partitionOf(listId), listId, numbers);
    return numbers.length;
  }
  await stage(s, listId, numbers);
  return (
    await s.query(
      `insert into ${partitionOf(listId)} (list_id, number) select list_id, number from scrub_stage order by number on conflict do nothing`,
    )
  ).rowCount;
}

/** Deletes numbers by primary key (a join with an unanalyzed temp table may scan the whole list). */
async function deleteNumbers(s: BulkSession, listId: number, numbers: Float64Array): Promise<number> {
  return (
    await s.query("delete from list_numbers where list_id = $1 and number = any($2::bigint[])", [
      listId,
      `{${Array.prototype.join.call(numbers, ",")}}`,
    ])
  ).rowCount;
}

/**
 * Deletes staged numbers by primary-key probes: one index probe per staged number, whatever the list's size.
 * Left to itself the planner joins the unanalyzed temp table by hashing the whole list, a sequential scan that
 * grows with the list: at 20M numbers the two plans tie (1M removed in 8.4–9.7 s either way, decision 130); at a
 * national 250M the scan alone reads 12× the rows.
 */
async function deleteStaged(s: BulkSession, listId: number, numbers: Float64Array): Promise<number> {
  await stage(s, listId, numbers);
  await s.query("set local enable_hashjoin = off");
  await s.query("set local enable_mergejoin = off");
  const removed = (await s.query("delete from list_numbers l using scrub_stage s where l.list_id = $1 and l.number = s.number", [listId])).rowCount;
  await s.query("set local enable_hashjoin = on");
  await s.query("set local enable_mergejoin = on");
  return removed;
}

async function bumpVersion(s: BulkSession, listId: number, size: number): Promise<number> {
  const v = await s.query<{ version: string | bigint }>(
    "update lists set size = $2, version = version + 1, updated_at = now() where id = $1 returning version",
    [listId, size],
  );
  return Number(v.rows[0].version);
}

/** Lets queued queries and requests run between two transactions. */
function turn(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

/** Writes the change: in one transaction, or in chunks when the database runs on this thread. */
export function writeRows(handle: DbHandle, change: RowsChange, loadChunk: number): Promise<RowsResult> {
  return bulkTraits(handle).runsOnThisThread && Number.isFinite(loadChunk)
    ? writeInChunks(handle, change, loadChunk)
    : writeInOneTransaction(handle, change);
}

async function writeInOneTransaction(handle: DbHandle, c: RowsChange): Promise<RowsResult> {
  const { listId, mode, numbers } = c;
  return withBulkTransaction(handle, async (s) => {
    const before = await lockList(s, listId);
    await ensurePartition(s, listId);
    const empty = await isEmpty(s, listId);
    const wholeList = isWholeList(mode, empty, numbers);
    await c.copy.started({ ...before, wholeList });
    // Bulk (decision 018): built aside, indexed once, swapped in at the end.
    const bulk = wholeList && bulkTraits(handle).buildsAside;
    let added = 0;
    let removed = 0;
    let already = 0;
    if (bulk) {
      ({ already, removed } = await buildAside(handle, s, listId, numbers, before.size));
      added = numbers.length - already;
    } else if (mode === "add") {
      added = await insertNumbers(s, listId, numbers, empty);
      already = numbers.length - added;
    } else if (mode === "remove") {
      removed = await deleteStaged(s, listId, numbers);
    } else {
      await stage(s, listId, numbers);
      const r = await s.query<{ n: string | number | bigint }>(
        "select count(*) as n from list_numbers l join scrub_stage s on l.number = s.number where l.list_id = $1",
        [listId],
      );
      already = Number(r.rows[0].n);
      const old = (await s.query("delete from list_numbers where list_id = $1", [listId])).rowCount;
      await s.copyNumbers(partitionOf(listId), listId, numbers);
      added = numbers.length - already;
      removed = old - already;
    }
    await c.copy.written({ added, removed });
    const size = mode === "replace" ? numbers.length : before.size + added - removed;
    const version = await bumpVersion(s, listId, size);
    await c.copy.beforeCommit();
    const counts = { added, alreadyPresent: already, removed, size, version };
    if (c.record) await c.record(s, counts);
    // the new partition replaces the old one last: list_numbers is locked only from here to commit
    if (bulk) await swapPartition(s, listId);
    return { counts, wholeList };
  });
}

/**
 * The change in transactions of `step` numbers with a turn of the event loop between them (PGlite runs on
 * this thread; one long statement blocks every web request).
 *
 * What stays as promised:
 *  - counts are exact: the numbers are sorted and distinct, chunks are disjoint, and this list's changes are
 *    serialized by the manager's per-list lock (PGlite: one process per database);
 *  - scrubs see the old list until the end, then the new one: lists.version/size are bumped only by the
 *    last short transaction (with `record`), and the store's copy and Bloom filter of the old version are
 *    served until then and swapped right after it (anything that would rebuild them from the database
 *    meanwhile waits on the manager's per-list lock);
 *  - replace inserts the new numbers first, then deletes the old ones that are not in the new list, so
 *    at every moment the table holds a superset of the old list (phase 1) or of the new one (phase 2).
 *
 * A failure midway (some chunks committed): the load fails, `partlyWritten` drops the copies, and the list's
 * version is bumped with its real size, so the next scrub reloads exactly what the database holds (a
 * superset of the old or the new list, never less for replace). A crash midway leaves the same superset;
 * the first transaction moved lists.updated_at, so Bloom filter files cached for the old state are never reused.
 */
async function writeInChunks(handle: DbHandle, c: RowsChange, step: number): Promise<RowsResult> {
  const { listId, mode, numbers } = c;
  const single = numbers.length <= step && mode !== "replace";
  let before = { size: 0, version: 0 };
  let empty = false;
  let wholeList = false;
  let added = 0;
  let removed = 0;
  let dirty = false; // some chunk committed
  try {
    if (!single) {
      await withBulkTransaction(handle, async (s) => {
        before = await lockList(s, listId);
        await ensurePartition(s, listId);
        empty = await isEmpty(s, listId);
        wholeList = isWholeList(mode, empty, numbers);
        await c.copy.started({ ...before, wholeList });
        // a new state of the list's rows begins: Bloom files cached for the old state must not match it
        await s.query("update lists set updated_at = now() where id = $1", [listId]);
      });
      await turn();
      for (let at = 0; at < numbers.length; at += step) {
        const part = numbers.subarray(at, Math.min(numbers.length, at + step));
        dirty = true;
        const n = await withBulkTransaction(handle, async (s) => {
          await lockList(s, listId);
          // add / replace phase 1: insert the (new) numbers
          return mode === "remove" ? deleteNumbers(s, listId, part) : insertNumbers(s, listId, part, empty);
        });
        if (mode === "remove") removed += n;
        else added += n;
        await turn();
      }
      if (mode === "replace" && !empty) removed = await deleteOthers(handle, listId, numbers, step, () => (dirty = true));
    }
    // the last, short transaction: (single chunk: the whole change) + size, version, the caller's record
    const counts = await withBulkTransaction(handle, async (s) => {
      const row = await lockList(s, listId);
      if (single) {
        before = row;
        empty = await isEmpty(s, listId);
        wholeList = isWholeList(mode, empty, numbers);
        await c.copy.started({ ...before, wholeList });
        if (mode === "add" && numbers.length) {
          added = await insertNumbers(s, listId, numbers, empty);
        } else if (mode === "remove" && numbers.length) {
          removed = await deleteStaged(s, listId, numbers);
        }
      }
      await c.copy.written({ added, removed });
      const already = mode === "remove" ? 0 : numbers.length - added;
      const size = mode === "replace" ? numbers.length : before.size + added - removed;
      const version = await bumpVersion(s, listId, size);
      await c.copy.beforeCommit();
      const result = { added, alreadyPresent: already, removed, size, version };
      if (c.record) await c.record(s, result);
      return result;
    });
    return { counts, wholeList };
  } catch (e) {
    if (dirty) {
      // rows changed but the change did not finish: the database's rows are the truth; make every copy of
      // the old version unusable and the size right, so the next scrub reloads what the table holds
      await c.partlyWritten().catch(() => {});
      await withBulkTransaction(handle, async (s) => {
        await s.query(
          `update lists set size = (select count(*) from list_numbers where list_id = $1), version = version + 1,
             updated_at = now() where id = $1`,
          [listId],
        );
      }).catch(() => {});
    }
    throw e;
  }
}

/** Replace phase 2: walks the list's rows in order and deletes those not in `numbers` (sorted); returns how many. */
async function deleteOthers(handle: DbHandle, listId: number, numbers: Float64Array, step: number, deleting: () => void): Promise<number> {
  let removed = 0;
  let after = -1;
  let j = 0; // position in numbers
  for (;;) {
    const got = await withBulkTransaction(handle, async (s) => {
      await lockList(s, listId);
      const r = await s.query<{ number: string | bigint }>(
        "select number from list_numbers where list_id = $1 and number > $2 order by number limit $3",
        [listId, after, step],
      );
      const rows = new Float64Array(r.rows.length);
      for (let i = 0; i < rows.length; i++) rows[i] = Number(r.rows[i].number);
      if (!rows.length) return { n: 0, last: after, removed: 0 };
      const drop = new Float64Array(rows.length);
      let d = 0;
      for (let i = 0; i < rows.length; i++) {
        const x = rows[i];
        while (j < numbers.length && numbers[j] < x) j++;
        if (j >= numbers.length || numbers[j] !== x) drop[d++] = x;
      }
      let del = 0;
      if (d) {
        deleting();
        del = await deleteNumbers(s, listId, drop.subarray(0, d));
      }
      return { n: rows.length, last: rows[rows.length - 1], removed: del };
    });
    removed += got.removed;
    after = got.last;
    await turn();
    if (got.n < step) return removed;
  }
}
