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
import { BloomFilter, type SharedBloom } from "./bloom";
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
}

const CHUNK = 1_000_000;

/**
 * list_numbers.list_id references lists: PostgreSQL checks that per row (an RI trigger), which made COPY
 * ~3x slower (2M rows: 14.5 s vs 5 s). The list row is locked FOR UPDATE in this transaction, so the
 * reference holds; skip the per-row checks when the role may (superuser/replication), else keep them.
 */
async function skipForeignKeyChecks(s: BulkSession): Promise<void> {
  await s.query("savepoint scrub_fk");
  try {
    await s.query("set local session_replication_role = replica");
    await s.query("release savepoint scrub_fk");
  } catch {
    await s.query("rollback to savepoint scrub_fk");
  }
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

  constructor(
    readonly handle: DbHandle,
    readonly store: ListStore,
    opts: ListManagerOptions = {},
  ) {
    this.waitMs = opts.waitMs ?? 20_000;
    this.bloomFp = opts.bloomFp ?? 0.01;
    this.cacheDir = opts.cacheDir ?? null;
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
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await this.info(listId);
      if (!before) throw new ListStoreError(`List ${listId} does not exist.`);
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
    return path.join(this.cacheDir, `bloom-${info.id}-v${info.version}-${info.stamp}-m${bloom.sizeBits}-k${bloom.k}.bin`);
  }

  /** Builds the Bloom filter straight from the database stream (no copy of the list held in memory). */
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
      for await (const c of readListNumbers(this.handle, listId)) bloom.addAll(c);
      const after = await this.info(listId);
      if (after && after.version === before.version) {
        this.blooms.set(listId, { version: before.version, bloom, capacity });
        if (file) {
          try {
            fs.mkdirSync(path.dirname(file), { recursive: true });
            for (const old of fs.readdirSync(path.dirname(file))) {
              if (old.startsWith(`bloom-${listId}-v`)) fs.rmSync(path.join(path.dirname(file), old), { force: true });
            }
            const tmp = `${file}.${process.pid}.tmp`;
            fs.writeFileSync(tmp, new Uint8Array(bloom.shared.sab));
            fs.renameSync(tmp, file);
          } catch {
            /* a cache only */
          }
        }
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
          await skipForeignKeyChecks(s);
          const oldSize = Number(row.size);
          if (redis && mode !== "replace") {
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
          if (mode === "add") {
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
              await s.copyNumbers("list_numbers", listId, numbers);
              added = numbers.length;
            } else {
              await stage();
              added = (
                await s.query(
                  "insert into list_numbers (list_id, number) select list_id, number from scrub_stage order by number on conflict do nothing",
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
            await s.copyNumbers("list_numbers", listId, numbers);
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
          const cur = await this.store.version(listId);
          if (mode === "replace" || cur !== counts.version - 1) {
            // a copy of another version (or a replace): reload wholesale on next use if not replaced here
            if (mode === "replace") {
              const h = await this.store.replace(listId, chunksOf(numbers));
              await this.store.finishChange(listId, counts.version, h);
            } else {
              await this.store.drop(listId);
            }
          } else {
            await this.store.beginChange(listId);
            if (mode === "add") await this.store.add(listId, numbers);
            else await this.store.remove(listId, numbers);
            await this.store.finishChange(listId, counts.version);
          }
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
      const b = this.blooms.get(listId);
      if (mode === "replace") {
        this.buildBloom(listId, counts.version, counts.size, chunksOf(numbers));
      } else if (b && b.version === counts.version - 1 && counts.size <= b.capacity) {
        if (mode === "add") b.bloom.addAll(numbers);
        b.version = counts.version; // removals leave extra bits: more positives for the store, never misses
      } else {
        this.blooms.delete(listId);
      }
      return counts;
    });
  }
}
