/**
 * Lists for scrubbing and loading: makes sure the Bloom filter and the list store hold the database's
 * current version of a list (failing closed when they can't), and applies add/remove/replace to
 * PostgreSQL (source of truth, COPY), the list store and the Bloom filter.
 *
 * Change protocol (so a crash never leaves a store copy that looks current but is not):
 *  1. database transaction: lock the list row, COPY the numbers, apply, bump lists.version;
 *  2. Redis add/remove: copy marked "changing" before it is touched (inside 1, before commit);
 *     replace: the new copy is built aside under a new generation before 1;
 *  3. after commit: the copy is marked current at the new version (replace: swapped atomically).
 *  A failure between the steps leaves the copy not current → scrubs fail closed until `lists rebuild`.
 */
import fs from "node:fs";
import path from "node:path";
import type { DbHandle } from "../../../db/client";
import { BLOOM_LAYOUT, BloomFilter, type SharedBloom } from "./bloom";
import { EmbeddedListStore } from "./embedded-store";
import { readListNumbers, withBulkTransaction, type BulkSession } from "./pg-bulk";
import { ListStoreError, type ListSnapshot, type ListStore, type ReplaceHandle } from "./store";

export interface ListInfo {
  id: number;
  kind: "litigation" | "dnc" | "container";
  userId: string | null;
  size: number;
  version: number;
  deleted: boolean;
  /** created/updated times: with id and version they name one state of the list's numbers (cache key). */
  stamp: string;
}

export interface ReadyList {
  info: ListInfo;
  bloom: SharedBloom | null;
  snapshot: ListSnapshot | null;
}

export interface ChangeCounts {
  added: number;
  alreadyPresent: number;
  removed: number;
  size: number;
  version: number;
}

export interface ListManagerOptions {
  /** How long a scrub waits for a list copy that is being changed before failing closed. */
  waitMs?: number;
  bloomFp?: number;
  /** Directory for cached Bloom filter files (DATA_DIR/cache); none = no cache. */
  cacheDir?: string;
  /**
   * Embedded database (PGlite, which runs on this process's thread): numbers per list-load transaction.
   * A load is applied in transactions of this many numbers, yielding to the event loop between them, so
   * web requests interleave with a large load instead of waiting for one long statement. Infinity: the whole
   * change in one transaction (the behaviour before chunking; benchmarks compare the two).
   */
  loadChunk?: number;
}

const CHUNK = 1_000_000;

/** Numbers up to which a replace counts the overlap with the old list by primary-key lookups. */
const LOOKUP_OVERLAP = 200_000;

/** A list's partition of list_numbers (migration 0006 creates one per list). */
export function partitionOf(listId: number): string {
  return `list_numbers_${Number(listId)}`;
}

/** Makes sure the list's partition exists (lists created before 0006's trigger, or with triggers off). */
async function ensurePartition(s: BulkSession, listId: number): Promise<void> {
  const r = await s.query<{ t: string | null }>("select to_regclass($1)::text as t", [partitionOf(listId)]);
  if (!r.rows[0]?.t) await s.query("select list_numbers_attach($1)", [listId]);
}

/** |stored ∩ numbers| for sorted distinct numbers, streaming the list's committed rows in key order. */
async function overlapWithStored(handle: DbHandle, listId: number, numbers: Float64Array): Promise<number> {
  let j = 0;
  let n = 0;
  for await (const c of readListNumbers(handle, listId)) {
    for (let i = 0; i < c.length; i++) {
      const x = c[i];
      while (j < numbers.length && numbers[j] < x) j++;
      if (j < numbers.length && numbers[j] === x) n++;
    }
  }
  return n;
}

function chunksOf(a: Float64Array): Float64Array[] {
  const out: Float64Array[] = [];
  for (let s = 0; s < a.length; s += CHUNK) out.push(a.subarray(s, Math.min(a.length, s + CHUNK)));
  return out;
}

export class ListManager {
  private blooms = new Map<number, { version: number; bloom: BloomFilter; capacity: number }>();
  private locks = new Map<number, Promise<unknown>>();
  readonly waitMs: number;
  readonly bloomFp: number;
  readonly cacheDir: string | null;
  readonly loadChunk: number;

  constructor(
    readonly handle: DbHandle,
    readonly store: ListStore,
    opts: ListManagerOptions = {},
  ) {
    this.waitMs = opts.waitMs ?? 20_000;
    this.bloomFp = opts.bloomFp ?? 0.01;
    this.cacheDir = opts.cacheDir ?? null;
    this.loadChunk = Math.max(1, opts.loadChunk ?? 50_000);
  }

  /** Runs fn alone for this list within this process. */
  private exclusive<T>(listId: number, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(listId) ?? Promise.resolve();
    const run = prev.catch(() => {}).then(fn);
    this.locks.set(listId, run);
    return run.finally(() => {
      if (this.locks.get(listId) === run) this.locks.delete(listId);
    });
  }

  async info(listId: number): Promise<ListInfo | null> {
    const row = await this.handle.db
      .selectFrom("lists")
      .select(["id", "kind", "user_id", "size", "version", "deleted_at", "created_at", "updated_at"])
      .where("id", "=", listId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      kind: row.kind,
      userId: row.user_id,
      size: Number(row.size),
      version: Number(row.version),
      deleted: row.deleted_at != null,
      stamp: `${new Date(row.created_at).getTime()}-${new Date(row.updated_at).getTime()}`,
    };
  }

  async adminListId(kind: "litigation" | "dnc"): Promise<number> {
    const row = await this.handle.db.selectFrom("lists").select("id").where("kind", "=", kind).executeTakeFirst();
    if (!row) throw new Error(`The ${kind} list does not exist.`);
    return row.id;
  }

  /** Reads a list's numbers from the database at one version (retrying when it changes meanwhile). */
  private async readConsistent(listId: number): Promise<{ version: number; size: number; chunks: Float64Array[] }> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await this.info(listId);
      if (!before) throw new ListStoreError(`List ${listId} does not exist.`);
      const chunks: Float64Array[] = [];
      for await (const c of readListNumbers(this.handle, listId)) chunks.push(c);
      const after = await this.info(listId);
      if (after && after.version === before.version) return { version: before.version, size: before.size, chunks };
    }
    throw new ListStoreError(`List ${listId} keeps changing; try again.`);
  }

  /**
   * Fills the embedded index and the Bloom filter in one pass over the database's stream of the list
   * (bounded memory: the index's own 4 B/number plus one chunk), at one consistent version.
   */
  private async loadEmbedded(listId: number): Promise<void> {
    const store = this.store as EmbeddedListStore;
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await this.info(listId);
      if (!before) throw new ListStoreError(`List ${listId} does not exist.`);
      // A copy saved for exactly this version (by this or another process): no numbers read from the database.
      const indexFile = this.indexFile(before);
      if (indexFile && store.loadCopy(listId, before.version, indexFile)) {
        const after = await this.info(listId);
        if (after && after.version === before.version) return; // ready() reads or builds the Bloom filter
        await store.drop(listId);
        continue;
      }
      const capacity = Math.max(Math.ceil(before.size * 1.25), 100_000);
      const bloom = BloomFilter.create(capacity, this.bloomFp);
      const handle = this.handle;
      async function* stream() {
        for await (const c of readListNumbers(handle, listId)) {
          bloom.addAll(c);
          yield c;
        }
      }
      const replaced = await this.store.replace(listId, stream());
      const after = await this.info(listId);
      if (after && after.version === before.version) {
        await this.store.finishChange(listId, before.version, replaced);
        this.blooms.set(listId, { version: before.version, bloom, capacity });
        await this.saveCaches(listId);
        return;
      }
      await this.store.abortReplace(listId, replaced);
    }
    throw new ListStoreError(`List ${listId} keeps changing; try again.`);
  }

  /** A Bloom filter file cached for (list, version): any process on this disk reuses it. */
  private bloomFile(info: ListInfo, bloom: BloomFilter): string | null {
    if (!this.cacheDir) return null;
    // The stamp (created/updated times, bumped with the version) tells apart lists of other databases
    // that share this disk and happen to have the same id and version.
    return path.join(this.cacheDir, `bloom-${info.id}-v${info.version}-${info.stamp}-m${bloom.sizeBits}-k${bloom.k}-${BLOOM_LAYOUT}.bin`);
  }

  /** The embedded index's copy of (list, version) saved on disk (see bloomFile for the stamp). */
  private indexFile(info: ListInfo): string | null {
    if (!this.cacheDir) return null;
    return path.join(this.cacheDir, `index-${info.id}-v${info.version}-${info.stamp}.bin`);
  }

  /** Writes a cache file whole (temp + rename) and removes the list's older ones; a failure only loses the cache. */
  private async writeCache(file: string, listPrefix: string, write: (tmp: string) => Promise<unknown>): Promise<void> {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      for (const old of fs.readdirSync(path.dirname(file))) {
        if (old.startsWith(listPrefix)) fs.rmSync(path.join(path.dirname(file), old), { force: true });
      }
      const tmp = `${file}.${process.pid}.tmp`;
      await write(tmp);
      fs.renameSync(tmp, file);
    } catch {
      /* a cache only */
    }
  }

  private async writeBloomCache(info: ListInfo, bloom: BloomFilter): Promise<void> {
    const file = this.bloomFile(info, bloom);
    if (file) await this.writeCache(file, `bloom-${info.id}-v`, (tmp) => fs.promises.writeFile(tmp, new Uint8Array(bloom.shared.sab)));
  }

  private async writeIndexCache(info: ListInfo): Promise<void> {
    const file = this.indexFile(info);
    const store = this.store;
    if (file && store instanceof EmbeddedListStore) await this.writeCache(file, `index-${info.id}-v`, (tmp) => store.saveCopy(info.id, info.version, tmp));
  }

  /**
   * After a change: the new version's Bloom filter (and, embedded, the index copy) are saved, so the next
   * process (a CLI scrub, a restarted server) neither rebuilds the filter from the database nor reads the
   * list back out of PGlite (decision 019).
   */
  private async saveCaches(listId: number): Promise<void> {
    if (!this.cacheDir) return;
    const info = await this.info(listId);
    if (!info) return;
    if (this.store instanceof EmbeddedListStore && (await this.store.version(listId)) === info.version) await this.writeIndexCache(info);
    const b = this.blooms.get(listId);
    if (b && b.version === info.version) await this.writeBloomCache(info, b.bloom);
  }

  /**
   * Builds the Bloom filter from the embedded index's current copy, or else straight from the database
   * stream (no copy of the list held in memory).
   */
  private async streamBloom(listId: number): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await this.info(listId);
      if (!before) throw new ListStoreError(`List ${listId} does not exist.`);
      const capacity = Math.max(Math.ceil(before.size * 1.25), 100_000);
      const bloom = BloomFilter.create(capacity, this.bloomFp);
      const file = this.bloomFile(before, bloom);
      if (file && fs.existsSync(file) && fs.statSync(file).size === bloom.bits.byteLength) {
        // The file was written whole (temp + rename) for exactly this version of the list.
        const fh = await fs.promises.open(file, "r");
        try {
          await fh.read(new Uint8Array(bloom.shared.sab), 0, bloom.bits.byteLength, 0);
        } finally {
          await fh.close();
        }
        this.blooms.set(listId, { version: before.version, bloom, capacity });
        return;
      }
      const fromIndex = this.store instanceof EmbeddedListStore && (await this.store.version(listId)) === before.version;
      const source = fromIndex ? (this.store as EmbeddedListStore).numbersOf(listId) : readListNumbers(this.handle, listId);
      for await (const c of source) bloom.addAll(c);
      const after = await this.info(listId);
      if (after && after.version === before.version) {
        this.blooms.set(listId, { version: before.version, bloom, capacity });
        if (file) await this.writeBloomCache(before, bloom);
        return;
      }
    }
    throw new ListStoreError(`List ${listId} keeps changing; try again.`);
  }

  private buildBloom(listId: number, version: number, size: number, chunks: Float64Array[]): BloomFilter {
    const capacity = Math.max(Math.ceil(size * 1.25), 100_000);
    const bloom = BloomFilter.create(capacity, this.bloomFp);
    for (const c of chunks) bloom.addAll(c);
    this.blooms.set(listId, { version, bloom, capacity });
    return bloom;
  }

  /**
   * The list ready for a scrub at the database's current version: its Bloom filter and a store snapshot.
   * Throws ListStoreError (the scrub fails closed) when the store cannot serve that version.
   */
  async ready(listId: number): Promise<ReadyList> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const info = await this.info(listId);
      if (!info || info.deleted) throw new ListStoreError(`The list ${listId} no longer exists.`);
      if (info.size === 0 && info.version >= 1) {
        // nothing to suppress; still require no change in flight on the store side for non-empty copies
        return { info, bloom: null, snapshot: null };
      }
      let storeVersion = await this.store.version(listId);
      if (storeVersion !== info.version && this.store.kind === "embedded") {
        await this.exclusive(listId, async () => {
          if ((await this.store.version(listId)) === (await this.info(listId))?.version) return;
          await this.loadEmbedded(listId);
        });
        storeVersion = await this.store.version(listId);
      }
      if (storeVersion === info.version) {
        let b = this.blooms.get(listId);
        if (!b || b.version !== info.version) {
          await this.exclusive(listId, async () => {
            const cur = this.blooms.get(listId);
            if (cur && cur.version === info.version) return;
            await this.streamBloom(listId);
          });
          b = this.blooms.get(listId);
        }
        if (b && b.version === info.version) {
          const snapshot = await this.store.snapshot(listId, info.version);
          return { info, bloom: b.bloom.shared, snapshot };
        }
      }
      if (Date.now() >= deadline) {
        throw new ListStoreError(
          `The list store has no current copy of the ${info.kind === "container" ? `container ${listId}` : `${info.kind} list`} ` +
            `(store version ${storeVersion ?? "missing"}, database version ${info.version}). ` +
            `Rebuild it with \`npm run lists -- rebuild\` and run the scrub again.`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Status of every list: database version vs the store's. */
  async status(): Promise<{ listId: number; kind: ListInfo["kind"]; version: number; size: number; storeVersion: number | null }[]> {
    const rows = await this.handle.db
      .selectFrom("lists")
      .select(["id", "kind", "size", "version"])
      .where("deleted_at", "is", null)
      .orderBy("id")
      .execute();
    const out = [];
    for (const r of rows) {
      out.push({
        listId: r.id,
        kind: r.kind,
        version: Number(r.version),
        size: Number(r.size),
        storeVersion: await this.store.version(r.id),
      });
    }
    return out;
  }

  /** Reloads the store's copy (and this process's Bloom filter) of a list from the database. */
  async rebuild(listId: number): Promise<void> {
    if (this.store.kind === "embedded") return this.exclusive(listId, () => this.loadEmbedded(listId));
    await this.exclusive(listId, async () => {
      const { version, size, chunks } = await this.readConsistent(listId);
      const handle = await this.store.replace(listId, chunks);
      await this.store.finishChange(listId, version, handle);
      this.buildBloom(listId, version, size, chunks);
    });
  }

  /**
   * Applies numbers (sorted, distinct) to a list: add, remove, or replace the whole list.
   */
  async change(
    listId: number,
    mode: "add" | "remove" | "replace",
    numbers: Float64Array,
    /** Runs inside the same database transaction (e.g. recording the list_loads row's counts). */
    record?: (s: BulkSession, counts: ChangeCounts) => Promise<void>,
  ): Promise<ChangeCounts> {
    return this.exclusive(listId, async () => {
      if (this.handle.driver.kind === "pglite" && this.store.kind === "embedded" && Number.isFinite(this.loadChunk)) {
        return this.changeEmbeddedChunked(listId, mode, numbers, record);
      }
      const redis = this.store.kind === "redis";
      let replaced: ReplaceHandle | undefined;
      let touched = false;
      /** The Redis copy was current before this change (or the list was empty): it is updated in place. */
      let wasCurrent = false;
      // Replace: the new Redis copy is built aside while PostgreSQL swaps the rows.
      let building: Promise<ReplaceHandle> | null = null;
      if (redis && mode === "replace") {
        building = this.store.replace(listId, chunksOf(numbers));
        building.catch(() => {});
      }
      let counts: ChangeCounts;
      try {
        counts = await withBulkTransaction(this.handle, async (s) => {
          const row = (
            await s.query<{ size: string | bigint; version: string | bigint; deleted_at: unknown }>(
              "select size, version, deleted_at from lists where id = $1 for update",
              [listId],
            )
          ).rows[0];
          if (!row || row.deleted_at) throw new Error(`List ${listId} does not exist.`);
          await ensurePartition(s, listId);
          const oldSize = Number(row.size);
          // Bulk (decision 018): PostgreSQL, a replace or an add into an empty list.
          const bulk =
            this.handle.driver.kind === "pg" &&
            numbers.length > 0 &&
            (mode === "replace" ||
              (mode === "add" && (await s.query("select 1 from list_numbers where list_id = $1 limit 1", [listId])).rows.length === 0));
          if (redis && mode !== "replace" && !bulk) {
            const sv = await this.store.version(listId);
            wasCurrent = sv === Number(row.version) || oldSize === 0;
            if (wasCurrent && sv !== Number(row.version)) await this.store.drop(listId); // empty list: start clean
          }
          let added = 0;
          let removed = 0;
          let already = 0;
          const stage = async () => {
            await s.query("create temp table if not exists scrub_stage (list_id integer, number bigint) on commit drop");
            await s.query("truncate scrub_stage");
            await s.copyNumbers("scrub_stage", listId, numbers);
          };
          if (bulk) {
            // Built aside, indexed once, swapped in (decision 018). Redis builds its new copy aside meanwhile.
            if (redis && !building) {
              building = this.store.replace(listId, chunksOf(numbers));
              building.catch(() => {});
            }
            ({ already, removed } = await this.bulkLoad(s, listId, numbers, oldSize));
            added = numbers.length - already;
          } else if (mode === "add") {
            // Redis is written while PostgreSQL copies (the copy is marked "changing" first, so a
            // rollback leaves it not current and it is dropped below).
            let redisWrite: Promise<void> = Promise.resolve();
            if (redis && wasCurrent && numbers.length) {
              touched = true;
              await this.store.beginChange(listId);
              redisWrite = (async () => {
                for (const c of chunksOf(numbers)) await this.store.add(listId, c);
              })();
              redisWrite.catch(() => {});
            }
            const any = (await s.query("select 1 from list_numbers where list_id = $1 limit 1", [listId])).rows.length > 0;
            if (!any) {
              await s.copyNumbers(partitionOf(listId), listId, numbers);
              added = numbers.length;
            } else {
              await stage();
              added = (
                await s.query(
                  `insert into ${partitionOf(listId)} (list_id, number) select list_id, number from scrub_stage order by number on conflict do nothing`,
                )
              ).rowCount;
            }
            already = numbers.length - added;
            await redisWrite;
          } else if (mode === "remove") {
            await stage();
            removed = (
              await s.query(
                "delete from list_numbers l using scrub_stage s where l.list_id = $1 and l.number = s.number",
                [listId],
              )
            ).rowCount;
            if (redis && wasCurrent && removed) {
              touched = true;
              await this.store.beginChange(listId);
              for (const c of chunksOf(numbers)) await this.store.remove(listId, c);
            }
          } else {
            await stage();
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
          const size = mode === "replace" ? numbers.length : oldSize + added - removed;
          const v = await s.query<{ version: string | bigint }>(
            "update lists set size = $2, version = version + 1, updated_at = now() where id = $1 returning version",
            [listId, size],
          );
          if (building) replaced = await building;
          const result = { added, alreadyPresent: already, removed, size, version: Number(v.rows[0].version) };
          if (record) await record(s, result);
          // the new partition replaces the old one last: list_numbers is locked only from here to commit
          if (bulk) await this.swapPartition(s, listId);
          return result;
        });
      } catch (e) {
        if (building && !replaced) replaced = await building.catch(() => undefined);
        if (replaced) await this.store.abortReplace(listId, replaced).catch(() => {});
        // Redis was touched but the database rolled back: drop the copy so scrubs fail closed until rebuilt.
        if (touched) await this.store.drop(listId).catch(() => {});
        throw e;
      }
      // After commit: the store copy and the Bloom filter become current.
      try {
        if (this.store.kind === "embedded") {
          await this.applyEmbedded(listId, mode, numbers, counts);
        } else if (replaced) {
          await this.store.finishChange(listId, counts.version, replaced);
        } else if (wasCurrent) {
          if (!touched) await this.store.beginChange(listId);
          await this.store.finishChange(listId, counts.version);
        }
        // else: the store's copy was already not current; it stays so (fail closed) until rebuilt
      } catch (e) {
        await this.store.drop(listId).catch(() => {});
        throw e;
      }
      this.applyBloom(listId, mode, numbers, counts);
      await this.saveCaches(listId);
      return counts;
    });
  }

  /**
   * Bulk load (PostgreSQL; a replace, or an add into an empty list): the numbers go into a new table
   * without an index (COPY, binary), which then gets its primary key in one sorted build — COPY into the
   * indexed table was capped at ~470k rows/s by index maintenance, the build aside runs at ~1.2M rows/s.
   * The table's check constraint implies the partition bound, so attaching it needs no scan. Inside the
   * caller's transaction, which holds the list's row lock; `swapPartition` puts it in place.
   * Returns the exact counts: already = |old ∩ new|, removed = old − already.
   */
  private async bulkLoad(s: BulkSession, listId: number, numbers: Float64Array, oldSize: number): Promise<{ already: number; removed: number }> {
    const fresh = `${partitionOf(listId)}_new`;
    await s.query(`drop table if exists ${fresh}`);
    await s.query(
      `create table ${fresh} (list_id integer not null, number bigint not null, constraint ${fresh}_list check (list_id = ${Number(listId)}))`,
    );
    // The overlap with the old rows (committed, unchanged: this transaction holds the list's lock): small
    // loads look each number up by primary key; large ones stream the old list on another connection while
    // this one copies, and merge (both sorted).
    let overlap: Promise<number> = Promise.resolve(0);
    if (oldSize > 0 && numbers.length > LOOKUP_OVERLAP) {
      overlap = overlapWithStored(this.handle, listId, numbers);
      overlap.catch(() => {});
    }
    // FREEZE (allowed: the table is new in this transaction): rows are written frozen and all-visible, so
    // the first reader does not rewrite every page to set hint bits, and index-only scans work at once.
    await s.copyNumbers(fresh, listId, numbers, { freeze: true });
    await s.query(`alter table ${fresh} add constraint ${fresh}_pkey primary key (list_id, number)`);
    // statistics now (a sample): a partition nobody analyzed gets plans for ~100k rows (hash joins over 20M)
    await s.query(`analyze ${fresh}`);
    let already = 0;
    if (oldSize > 0 && numbers.length <= LOOKUP_OVERLAP) {
      const r = await s.query<{ n: string | number | bigint }>(
        `select count(*) as n from ${fresh} f join list_numbers l on l.list_id = $1 and l.number = f.number`,
        [listId],
      );
      already = Number(r.rows[0].n);
    } else {
      already = await overlap;
    }
    return { already, removed: oldSize - already };
  }

  /** Detaches and drops the list's old partition and attaches the one `bulkLoad` built, in the caller's transaction. */
  private async swapPartition(s: BulkSession, listId: number): Promise<void> {
    const part = partitionOf(listId);
    const fresh = `${part}_new`;
    const old = await s.query<{ t: string | null }>("select to_regclass($1)::text as t", [part]);
    if (old.rows[0]?.t) {
      await s.query(`alter table list_numbers detach partition ${part}`);
      await s.query(`drop table ${part}`);
    }
    await s.query(`alter table ${fresh} rename to ${part}`);
    await s.query(`alter table ${part} rename constraint ${fresh}_pkey to ${part}_pkey`);
    await s.query(`alter table ${part} rename constraint ${fresh}_list to ${part}_list`);
    await s.query(`alter table list_numbers attach partition ${part} for values in (${Number(listId)})`);
  }

  /** After commit: the embedded index's copy becomes the committed version (swapped in one step). */
  private async applyEmbedded(listId: number, mode: "add" | "remove" | "replace", numbers: Float64Array, counts: ChangeCounts): Promise<void> {
    const { version } = counts;
    const cur = await this.store.version(listId);
    // an add into an empty list holds exactly `numbers` (sorted, distinct): built like a replace
    const wholeList = mode === "replace" || (mode === "add" && counts.size === counts.added);
    if (wholeList || cur !== version - 1) {
      // a copy of another version (or a replace): reload wholesale on next use if not replaced here
      if (wholeList) {
        const h = await this.store.replace(listId, chunksOf(numbers));
        await this.store.finishChange(listId, version, h);
      } else {
        await this.store.drop(listId);
      }
    } else {
      await this.store.beginChange(listId);
      if (mode === "add") await this.store.add(listId, numbers);
      else await this.store.remove(listId, numbers);
      await this.store.finishChange(listId, version);
    }
  }

  /** After commit: this process's Bloom filter follows the change (or is dropped, to be rebuilt). */
  private applyBloom(listId: number, mode: "add" | "remove" | "replace", numbers: Float64Array, counts: ChangeCounts): void {
    const b = this.blooms.get(listId);
    if (mode === "replace" || (mode === "add" && counts.size === counts.added)) {
      // the whole list is `numbers` (a replace, or an add into an empty list): built now from memory and
      // saved, instead of from the database by the first scrub (20M numbers: ~5 s here, ~15–19 s there)
      this.buildBloom(listId, counts.version, counts.size, chunksOf(numbers));
    } else if (b && b.version === counts.version - 1 && counts.size <= b.capacity) {
      if (mode === "add") b.bloom.addAll(numbers);
      b.version = counts.version; // removals leave extra bits: more positives for the store, never misses
    } else {
      this.blooms.delete(listId);
    }
  }

  /**
   * Embedded database (PGlite runs on this thread; one long statement blocks every web request): the
   * change is applied in transactions of `loadChunk` numbers with a turn of the event loop between them.
   *
   * What stays as promised:
   *  - counts are exact: the numbers are sorted and distinct, chunks are disjoint, and this list's changes
   *    are serialized by `exclusive` (PGlite: one process per database);
   *  - scrubs see the old list until the end, then the new one: lists.version/size are bumped only by the
   *    last short transaction (with `record`), and the in-memory index and Bloom filter of the old version are
   *    served until then and swapped right after it (anything that would rebuild them from the database
   *    meanwhile waits on `exclusive`);
   *  - replace inserts the new numbers first, then deletes the old ones that are not in the new list, so
   *    at every moment the table holds a superset of the old list (phase 1) or of the new one (phase 2).
   *
   * A failure midway (some chunks committed): the load fails, the list's version is bumped with its real
   * size and the index is dropped, so the next scrub reloads exactly what the database holds (a superset of
   * the old or the new list, never less for replace). A crash midway leaves the same superset; the first
   * transaction moved lists.updated_at, so Bloom filter files cached for the old state are never reused.
   */
  private async changeEmbeddedChunked(
    listId: number,
    mode: "add" | "remove" | "replace",
    numbers: Float64Array,
    record?: (s: BulkSession, counts: ChangeCounts) => Promise<void>,
  ): Promise<ChangeCounts> {
    const step = this.loadChunk;
    const turn = () => new Promise<void>((r) => setImmediate(r));
    const lockList = async (s: BulkSession) => {
      const row = (
        await s.query<{ size: string | bigint; version: string | bigint; deleted_at: unknown }>(
          "select size, version, deleted_at from lists where id = $1 for update",
          [listId],
        )
      ).rows[0];
      if (!row || row.deleted_at) throw new Error(`List ${listId} does not exist.`);
      return row;
    };
    const stage = async (s: BulkSession, part: Float64Array) => {
      await s.query("create temp table if not exists scrub_stage (list_id integer, number bigint) on commit drop");
      await s.query("truncate scrub_stage");
      await s.copyNumbers("scrub_stage", listId, part);
    };
    // one chunk's numbers by the primary key (a join with an unanalyzed temp table may scan the whole list)
    const deleteSome = async (s: BulkSession, part: Float64Array) =>
      (
        await s.query("delete from list_numbers where list_id = $1 and number = any($2::bigint[])", [
          listId,
          `{${Array.prototype.join.call(part, ",")}}`,
        ])
      ).rowCount;
    const single = numbers.length <= step && mode !== "replace";
    let oldSize = 0;
    let empty = false;
    let added = 0;
    let removed = 0;
    let dirty = false; // some chunk committed
    try {
      if (!single) {
        await withBulkTransaction(this.handle, async (s) => {
          const row = await lockList(s);
          await ensurePartition(s, listId);
          oldSize = Number(row.size);
          empty = (await s.query("select 1 from list_numbers where list_id = $1 limit 1", [listId])).rows.length === 0;
          // a new state of the list's rows begins: Bloom files cached for the old state must not match it
          await s.query("update lists set updated_at = now() where id = $1", [listId]);
        });
        await turn();
        // add / replace phase 1: insert the (new) numbers chunk by chunk
        if (mode !== "remove") {
          for (let at = 0; at < numbers.length; at += step) {
            const part = numbers.subarray(at, Math.min(numbers.length, at + step));
            dirty = true;
            added += await withBulkTransaction(this.handle, async (s) => {
              await lockList(s);
              if (empty) {
                await s.copyNumbers(partitionOf(listId), listId, part);
                return part.length;
              }
              await stage(s, part);
              return (
                await s.query(
                  `insert into ${partitionOf(listId)} (list_id, number) select list_id, number from scrub_stage order by number on conflict do nothing`,
                )
              ).rowCount;
            });
            await turn();
          }
        }
        if (mode === "remove") {
          for (let at = 0; at < numbers.length; at += step) {
            const part = numbers.subarray(at, Math.min(numbers.length, at + step));
            dirty = true;
            removed += await withBulkTransaction(this.handle, async (s) => {
              await lockList(s);
              return deleteSome(s, part);
            });
            await turn();
          }
        }
        if (mode === "replace" && !empty) {
          // phase 2: walk the list's rows in order, delete those not in the new list
          let after = -1;
          let j = 0; // position in numbers (sorted)
          for (;;) {
            const got = await withBulkTransaction(this.handle, async (s) => {
              await lockList(s);
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
                dirty = true;
                del = await deleteSome(s, drop.subarray(0, d));
              }
              return { n: rows.length, last: rows[rows.length - 1], removed: del };
            });
            removed += got.removed;
            after = got.last;
            await turn();
            if (got.n < step) break;
          }
        }
      }
      // the last, short transaction: (single chunk: the whole change) + size, version, the caller's record
      const counts = await withBulkTransaction(this.handle, async (s) => {
        const row = await lockList(s);
        if (single) {
          oldSize = Number(row.size);
          if (mode === "add" && numbers.length) {
            await stage(s, numbers);
            added = (
              await s.query(
                `insert into ${partitionOf(listId)} (list_id, number) select list_id, number from scrub_stage order by number on conflict do nothing`,
              )
            ).rowCount;
          } else if (mode === "remove" && numbers.length) {
            await stage(s, numbers);
            removed = (
              await s.query("delete from list_numbers l using scrub_stage s where l.list_id = $1 and l.number = s.number", [listId])
            ).rowCount;
          }
        }
        const already = mode === "remove" ? 0 : numbers.length - added;
        const size = mode === "replace" ? numbers.length : oldSize + added - removed;
        const v = await s.query<{ version: string | bigint }>(
          "update lists set size = $2, version = version + 1, updated_at = now() where id = $1 returning version",
          [listId, size],
        );
        const result = { added, alreadyPresent: already, removed, size, version: Number(v.rows[0].version) };
        if (record) await record(s, result);
        return result;
      });
      dirty = false;
      try {
        await this.applyEmbedded(listId, mode, numbers, counts);
      } catch (e) {
        await this.store.drop(listId).catch(() => {});
        throw e;
      }
      this.applyBloom(listId, mode, numbers, counts);
      await this.saveCaches(listId);
      return counts;
    } catch (e) {
      if (dirty) {
        // rows changed but the change did not finish: the database's rows are the truth; make every copy of
        // the old version unusable and the size right, so the next scrub reloads what the table holds
        this.blooms.delete(listId);
        await this.store.drop(listId).catch(() => {});
        await withBulkTransaction(this.handle, async (s) => {
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
}
