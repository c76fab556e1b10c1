/**
 * A list's exchange blocks in PostgreSQL / PGlite (list_blocks, the source of truth; decision 162) and its size and
 * version in `lists`: one add/remove/replace of sorted, distinct numbers. Both plans call the store's side of the
 * change (StoreChange) at the same points:
 *  - a whole list (a replace, or an add into an empty list) is built aside in a table of its own and swapped in for
 *    the list's partition in the transaction that bumps the version (PostgreSQL: one transaction, indexed once after
 *    the COPY; PGlite: the table is filled in transactions of `loadChunk` numbers, decision 017);
 *  - an add or remove rewrites only the blocks it touches (read, merged, deleted and COPYed back), unless it touches
 *    so many of the list's blocks that building the whole list aside is cheaper (PostgreSQL).
 */
import type { DbHandle } from "db/client";
import { lowerBound } from "../sorted";
import { assertBlockable, changeBlocksBoth, countExchanges, exchangesOf, overlapSorted, writeNumberBlocks, type PackedBlocks } from "../worker/exchange-blocks";
import {
  BLOCK_LINES_SQL,
  CopyRows,
  bulkTraits,
  exchangeRanges,
  partitionOf,
  readBlocksIn,
  readListBlocks,
  readListNumbers,
  vacuum,
  withBulkTransaction,
  type BulkSession,
} from "./pg-bulk";
import { changeSides, type ChangeMode, type StoreChange } from "./store";

export interface ChangeCounts {
  added: number;
  alreadyPresent: number;
  removed: number;
  size: number;
  version: number;
}

export interface BlocksChange {
  listId: number;
  mode: ChangeMode;
  /** Sorted, distinct. */
  numbers: Float64Array;
  /** The changes mode's deletions (sorted, distinct, none of them in `numbers`). */
  removals?: Float64Array;
  /** The store's side of the change. */
  copy: Pick<StoreChange, "started" | "written" | "beforeCommit">;
  /** Runs inside the last transaction, with the counts (e.g. recording the list_loads row). */
  record?: (s: BulkSession, counts: ChangeCounts) => Promise<void>;
  /** Chunked plan: some chunks committed, then the change failed (called before the version is bumped). */
  partlyWritten(): Promise<void>;
}

export interface BlocksResult {
  counts: ChangeCounts;
  /** After the change the list is exactly `numbers` (a replace, or an add into an empty list). */
  wholeList: boolean;
}

export { partitionOf };

/**
 * An add or remove touching more than this share of a list's blocks is written by building the whole list aside
 * (PostgreSQL): rewriting most rows in place costs their deletes, inserts, index entries and dead tuples.
 */
const ASIDE_SHARE = 0.25;

/** Whether an in-place change touches so many of a list's `blocks` that the list is built aside. */
function touchesMost(change: Sides, blocks: number): boolean {
  return touchedExchanges(change) > ASIDE_SHARE * blocks;
}

/** An in-place change's two sides (see changeSides). */
type Sides = { adds: Float64Array; removes: Float64Array };

/** Exchanges a change touches (at most: one touched by both sides counts twice). */
function touchedExchanges({ adds, removes }: Sides): number {
  return countExchanges(adds) + countExchanges(removes);
}

/** The change restricted to exchanges [lo, hi). */
function sidesIn({ adds, removes }: Sides, lo: number, hi: number): Sides {
  return { adds: numbersIn(adds, lo, hi), removes: numbersIn(removes, lo, hi) };
}

/** Applies both sides of a change to `old` (packed, in exchange order), every block of `old` going to `rows`. */
function applySides(old: PackedBlocks, { adds, removes }: Sides, rows: CopyRows): { added: number; removed: number } {
  return changeBlocksBoth(old, removes, adds, rows);
}

/** PGlite: an in-place change that rewrote more than this share of a list's blocks vacuums the partition after. */
const VACUUM_SHARE = 0.05;

/** The numbers (sorted) within exchanges [lo, hi). */
function numbersIn(numbers: Float64Array, lo: number, hi: number): Float64Array {
  return numbers.subarray(lowerBound(numbers, lo * 10_000), lowerBound(numbers, hi * 10_000));
}

/** Makes sure the list's partition exists (lists created with triggers off). */
async function ensurePartition(s: BulkSession, listId: number): Promise<void> {
  const r = await s.query<{ t: string | null }>("select to_regclass($1)::text as t", [partitionOf(listId)]);
  if (!r.rows[0]?.t) await s.query("select list_blocks_attach($1)", [listId]);
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
  return (await s.query(`select 1 from ${partitionOf(listId)} limit 1`)).rows.length === 0;
}

function isWholeList(mode: ChangeMode, empty: boolean, numbers: Float64Array): boolean {
  return mode === "replace" || ((mode === "add" || mode === "changes") && empty && numbers.length > 0);
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

function intArray(values: readonly number[]): string {
  return `'{${values.join(",")}}'::int[]`;
}

/**
 * A change touching at most this share of a list's blocks finds them by the key. The planner prices the key's pages
 * as uncached reads and scans the whole partition instead: 9,864 of 349,457 blocks deleted in 49–71 ms by the scan,
 * 18–27 ms by the key (decision 162, item 35). At 30,000 the scan was as fast.
 */
const KEYED_SHARE = 0.05;

/**
 * The statement that deletes and returns the blocks of `exchanges` of a list holding `blocks`, with the settings it
 * runs under (`set local`, undone by `after`).
 */
export function touchedBlocksDelete(listId: number, exchanges: readonly number[], blocks: number): { before: string[]; statement: string; after: string[] } {
  const keyed = exchanges.length <= KEYED_SHARE * blocks;
  return {
    before: keyed ? ["set local enable_seqscan = off"] : [],
    statement: `delete from ${partitionOf(listId)} where list_id = ${Number(listId)} and exchange = any(${intArray(exchanges)}) returning exchange, lines`,
    after: keyed ? ["set local enable_seqscan to default"] : [],
  };
}

/**
 * Rewrites the blocks a change touches, in place: they are deleted and read in one statement (DELETE … RETURNING),
 * changed, and COPYed back (unchanged ones too: fewer round trips than telling them apart first). `blocks`: how many
 * the list holds.
 */
async function rewriteTouched(s: BulkSession, listId: number, change: Sides, blocks: number): Promise<{ added: number; removed: number }> {
  const exchanges = [...new Set([...exchangesOf(change.removes), ...exchangesOf(change.adds)])];
  if (!exchanges.length) return { added: 0, removed: 0 };
  const { before, statement, after } = touchedBlocksDelete(listId, exchanges, blocks);
  for (const q of before) await s.query(q);
  const old = await s.readBlocks(statement);
  for (const q of after) await s.query(q);
  return s.copyBlocks(partitionOf(listId), listId, (rows) => applySides(old, change, rows));
}

/** The table a whole list is built in before it is swapped in. */
function asideOf(listId: number): string {
  return `${partitionOf(listId)}_new`;
}

async function createAside(s: BulkSession, listId: number, withKey: boolean): Promise<void> {
  const fresh = asideOf(listId);
  await s.query(`drop table if exists ${fresh}`);
  await s.query(
    `create table ${fresh} (list_id integer not null, exchange integer not null, lines bytea not null,
       constraint ${fresh}_list check (list_id = ${Number(listId)})${withKey ? `, constraint ${fresh}_pkey primary key (list_id, exchange)` : ""})`,
  );
}

/** Detaches and drops the list's partition and attaches its aside table in its place, in the caller's transaction. */
async function swapAside(s: BulkSession, listId: number): Promise<void> {
  const part = partitionOf(listId);
  const fresh = asideOf(listId);
  const old = await s.query<{ t: string | null }>("select to_regclass($1)::text as t", [part]);
  if (old.rows[0]?.t) {
    await s.query(`alter table list_blocks detach partition ${part}`);
    await s.query(`drop table ${part}`);
  }
  await s.query(`alter table ${fresh} rename to ${part}`);
  await s.query(`alter table ${part} rename constraint ${fresh}_pkey to ${part}_pkey`);
  await s.query(`alter table ${part} rename constraint ${fresh}_list to ${part}_list`);
  // the check constraint implies the partition bound: attaching needs no scan
  await s.query(`alter table list_blocks attach partition ${part} for values in (${Number(listId)})`);
}

/**
 * |stored ∩ numbers| for sorted distinct numbers, streaming the list's committed blocks (on another connection, or on
 * the session's transaction when given).
 */
async function overlapWithStored(handle: DbHandle, listId: number, numbers: Float64Array, s?: BulkSession): Promise<number> {
  let n = 0;
  for await (const c of readListNumbers(handle, listId, s)) {
    if (!c.length) continue;
    // both sorted: only the numbers within this chunk's range can meet it
    n += overlapSorted(c, numbers, lowerBound(numbers, c[0]), lowerBound(numbers, c[c.length - 1] + 1));
  }
  return n;
}

/** Writes the blocks of `numbers` (sorted, distinct) as COPY rows. */
function numberRows(numbers: Float64Array): (rows: CopyRows) => void {
  return (rows) => writeNumberBlocks(numbers, rows);
}

/**
 * The list's whole new contents built aside in one transaction: COPY without an index (of the rows `make` writes, as
 * they are made), then the key in one sorted build.
 */
async function buildAside<T>(s: BulkSession, listId: number, make: (rows: CopyRows) => T | Promise<T>): Promise<T> {
  const fresh = asideOf(listId);
  await createAside(s, listId, false);
  // FREEZE (allowed: the table is new in this transaction): rows are written frozen and all-visible
  const made = await s.copyBlocks(fresh, listId, make, { freeze: true });
  await s.query(`alter table ${fresh} add constraint ${fresh}_pkey primary key (list_id, exchange)`);
  // statistics now: a partition nobody analyzed gets plans for a guessed size. A sample of 3,000 rows (statistics
  // target 10, this transaction only) gives the row count and the exchanges' spread that the plans need; the default
  // 30,000 took 62–84 ms of a 20M-number load, this 10–17 ms.
  await s.query("set local default_statistics_target = 10");
  await s.query(`analyze ${fresh}`);
  return made;
}

/** How many blocks the list's partition holds (the planner's count after analyze, else counted). */
async function blockCount(s: BulkSession, listId: number): Promise<number> {
  const r = await s.query<{ n: number | string | null }>("select reltuples::bigint as n from pg_class where oid = to_regclass($1)", [partitionOf(listId)]);
  const n = Number(r.rows[0]?.n ?? -1);
  if (n >= 0) return n;
  return Number((await s.query<{ n: string | number }>(`select count(*) as n from ${partitionOf(listId)}`)).rows[0].n);
}

/**
 * The end of every change, in its last transaction: the store hears the counts, the list gets its size and next
 * version, the store confirms, the caller records, and last a list built aside replaces the partition (list_blocks is
 * locked only from there to the commit).
 */
async function finish(
  s: BulkSession,
  c: BlocksChange,
  sizeBefore: number,
  done: { added: number; removed: number; already: number },
  aside: boolean,
): Promise<ChangeCounts> {
  await c.copy.written({ added: done.added, removed: done.removed });
  const size = c.mode === "replace" ? c.numbers.length : sizeBefore + done.added - done.removed;
  const version = await bumpVersion(s, c.listId, size);
  await c.copy.beforeCommit();
  const counts = { added: done.added, alreadyPresent: done.already, removed: done.removed, size, version };
  if (c.record) await c.record(s, counts);
  if (aside) await swapAside(s, c.listId);
  return counts;
}

/** Writes the change: in one transaction, or in chunks when the database runs on this thread. */
export function writeBlocks(handle: DbHandle, change: BlocksChange, loadChunk: number): Promise<BlocksResult> {
  assertBlockable(change.numbers);
  if (change.removals) assertBlockable(change.removals);
  return bulkTraits(handle).runsOnThisThread && Number.isFinite(loadChunk) ? writeInChunks(handle, change, loadChunk) : writeInOneTransaction(handle, change);
}

async function writeInOneTransaction(handle: DbHandle, c: BlocksChange): Promise<BlocksResult> {
  const { listId, mode, numbers } = c;
  const sides = changeSides(mode, numbers, c.removals);
  let blocks = 0; // the list's blocks before an in-place change
  const result = await withBulkTransaction(handle, async (s) => {
    const before = await lockList(s, listId);
    await ensurePartition(s, listId);
    const empty = await isEmpty(s, listId);
    const wholeList = isWholeList(mode, empty, numbers);
    await c.copy.started({ ...before, wholeList });
    let added = 0;
    let removed = 0;
    let already = 0;
    let aside = false;
    if (wholeList) {
      // the overlap with the old list (committed and unchanged: this transaction holds the list's lock) is
      // counted on another connection while this one copies (PGlite has one: on this transaction, first)
      const onThisThread = bulkTraits(handle).runsOnThisThread;
      const overlap =
        before.size === 0
          ? Promise.resolve(0)
          : onThisThread
            ? Promise.resolve(await overlapWithStored(handle, listId, numbers, s))
            : overlapWithStored(handle, listId, numbers);
      overlap.catch(() => {});
      // (PGlite too: one transaction means no web request waits on it, and the key built once after the COPY took
      // 1.5–2.0 s of a 20M-number list against 2.5 s kept during it, decision 162 item 6b)
      await buildAside(s, listId, numberRows(numbers));
      aside = true;
      already = await overlap;
      added = numbers.length - already;
      removed = before.size - already;
    } else if (mode !== "replace" && touchesMost(sides, (blocks = await blockCount(s, listId)))) {
      // range by range: the old blocks, merged with the numbers that fall in the range, go whole to the new table as
      // they are made. This transaction's connection is busy with that COPY, so PostgreSQL's blocks are read on
      // others (committed and unchanged: this transaction holds the list's lock); PGlite's on this one, first.
      const readOn = bulkTraits(handle).runsOnThisThread ? s : undefined;
      ({ added, removed } = await buildAside(s, listId, async (rows) => {
        const done = { added: 0, removed: 0 };
        for await (const { lo, hi, blocks } of readListBlocks(handle, listId, readOn)) {
          const c = applySides(blocks, sidesIn(sides, lo, hi), rows);
          done.added += c.added;
          done.removed += c.removed;
          await rows.sent(); // at most about a range's rows wait for the server
        }
        return done;
      }));
      aside = true;
      already = sides.adds.length - added;
    } else if (mode !== "replace") {
      ({ added, removed } = await rewriteTouched(s, listId, sides, blocks));
      already = sides.adds.length - added;
    }
    return { counts: await finish(s, c, before.size, { added, removed, already }, aside), wholeList, aside };
  });
  // PGlite runs no autovacuum (see writeInChunks)
  if (bulkTraits(handle).runsOnThisThread && !result.aside && blocks > 0 && touchedExchanges(sides) > VACUUM_SHARE * blocks) {
    await vacuum(handle, partitionOf(listId)).catch(() => {});
  }
  return { counts: result.counts, wholeList: result.wholeList };
}

/** A change split at exchange boundaries into parts of about `step` numbers (its two sides counted together). */
function* partsOf({ adds, removes }: Sides, step: number): Generator<Sides> {
  let i = 0;
  let j = 0;
  while (i < adds.length || j < removes.length) {
    const i0 = i;
    const j0 = j;
    let last = 0;
    for (let n = 0; n < step && (i < adds.length || j < removes.length); n++) {
      last = j >= removes.length || (i < adds.length && adds[i] < removes[j]) ? adds[i++] : removes[j++];
    }
    // the exchange the last number taken is in ends the part, on both sides
    const end = (Math.floor(last / 10_000) + 1) * 10_000;
    while (i < adds.length && adds[i] < end) i++;
    while (j < removes.length && removes[j] < end) j++;
    yield { adds: adds.subarray(i0, i), removes: removes.subarray(j0, j) };
  }
}

/**
 * The change in transactions of about `step` numbers with a turn of the event loop between them (PGlite runs on this
 * thread; one long statement blocks every web request).
 *
 * What stays as promised:
 *  - counts are exact: the numbers are sorted and distinct, parts hold whole exchanges and are disjoint, and this
 *    list's changes are serialized by the manager's per-list lock (PGlite: one process per database);
 *  - scrubs see the old list until the end, then the new one: lists.version/size are bumped only by the last short
 *    transaction (with `record`), and the store's copy and Bloom filter of the old version are served until then;
 *  - a whole list is built in a table aside, invisible until the last transaction swaps it in: a failure or crash
 *    midway leaves the old list exactly as it was (the leftover table is dropped by the next build).
 *
 * An add or remove that fails midway (some parts committed): the load fails, `partlyWritten` drops the copies, and the
 * list's version is bumped with its real size, so the next scrub reloads exactly what the database holds. The first
 * transaction moved lists.updated_at, so Bloom filter files cached for the old state are never reused.
 */
async function writeInChunks(handle: DbHandle, c: BlocksChange, step: number): Promise<BlocksResult> {
  const { listId, mode, numbers } = c;
  const sides = changeSides(mode, numbers, c.removals);
  const single = sides.adds.length + sides.removes.length <= step && mode !== "replace";
  let before = { size: 0, version: 0 };
  let wholeList = false;
  let added = 0;
  let removed = 0;
  let already = 0;
  let aside = false; // the whole list is being built in a table aside
  let rebuild = false; // … from its blocks and an add or remove touching most of them
  let blocks = 0; // the list's blocks before the change
  let dirty = false; // some part of an in-place change committed
  try {
    if (!single) {
      await withBulkTransaction(handle, async (s) => {
        before = await lockList(s, listId);
        await ensurePartition(s, listId);
        wholeList = isWholeList(mode, await isEmpty(s, listId), numbers);
        await c.copy.started({ ...before, wholeList });
        blocks = await blockCount(s, listId);
        rebuild = !wholeList && mode !== "replace" && touchesMost(sides, blocks);
        aside = wholeList || rebuild;
        if (aside) await createAside(s, listId, true);
        // a new state of the list begins: Bloom files cached for the old state must not match it
        else await s.query("update lists set updated_at = now() where id = $1", [listId]);
      });
      await turn();
      // rebuilt aside: the old blocks range by range, each merged with its numbers, into the new table
      for (const [lo, hi] of rebuild ? exchangeRanges() : []) {
        const r = await withBulkTransaction(handle, async (s) => {
          const old = await readBlocksIn(s, listId, lo, hi);
          return s.copyBlocks(asideOf(listId), listId, (rows) => applySides(old, sidesIn(sides, lo, hi), rows));
        });
        added += r.added;
        removed += r.removed;
        await turn();
      }
      for (const part of rebuild ? [] : partsOf(wholeList ? changeSides("add", numbers) : sides, step)) {
        if (aside) {
          await withBulkTransaction(handle, (s) => s.copyBlocks(asideOf(listId), listId, numberRows(part.adds)));
        } else {
          dirty = true;
          const r = await withBulkTransaction(handle, async (s) => {
            await lockList(s, listId);
            return rewriteTouched(s, listId, part, blocks);
          });
          added += r.added;
          removed += r.removed;
        }
        await turn();
      }
      if (wholeList) {
        already = before.size > 0 ? await overlapWithStored(handle, listId, numbers) : 0;
        added = numbers.length - already;
        removed = before.size - already;
      }
    }
    // the last, short transaction: (single: the whole change) + size, version, the caller's record, the swap
    const counts = await withBulkTransaction(handle, async (s) => {
      const row = await lockList(s, listId);
      if (single) {
        before = row;
        await ensurePartition(s, listId);
        blocks = await blockCount(s, listId);
        wholeList = isWholeList(mode, await isEmpty(s, listId), numbers);
        await c.copy.started({ ...before, wholeList });
        ({ added, removed } = await rewriteTouched(s, listId, sides, blocks));
      }
      if (!wholeList) already = sides.adds.length - added;
      return finish(s, c, before.size, { added, removed, already }, aside);
    });
    // (a list that had no blocks has no old versions of them)
    if (!aside && blocks > 0 && touchedExchanges(sides) > VACUUM_SHARE * blocks) await vacuum(handle, partitionOf(listId)).catch(() => {});
    return { counts, wholeList };
  } catch (e) {
    // the table built aside was never swapped in: it goes (a crash leaves it to the next build's drop)
    if (aside) await withBulkTransaction(handle, (s) => s.query(`drop table if exists ${asideOf(listId)}`)).catch(() => {});
    if (dirty) {
      // blocks changed but the change did not finish: the database is the truth; make every copy of the old
      // version unusable and the size right, so the next scrub reloads what the table holds
      await c.partlyWritten().catch(() => {});
      await withBulkTransaction(handle, async (s) => {
        await s.query(
          `update lists set size = (select coalesce(sum(${BLOCK_LINES_SQL}), 0) from list_blocks where list_id = $1),
             version = version + 1, updated_at = now() where id = $1`,
          [listId],
        );
      }).catch(() => {});
    }
    throw e;
  }
}
