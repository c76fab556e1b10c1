/**
 * Lists for scrubbing and loading: makes sure the Bloom filter and the list store hold the database's
 * current version of a list (failing closed when they can't), and applies add/remove/replace to the
 * database (source of truth), the list store and the Bloom filter, the same way for every store and database:
 *
 *   blocks.ts      PostgreSQL / PGlite writes of exchange blocks (one transaction, or chunks on PGlite; whole lists built aside)
 *   store.ts       the store's side of a change (StoreChange), implemented by redis-store.ts and embedded-store.ts
 *   blooms.ts      this process's Bloom filters by version; cache-files.ts their files and the store's saved copies
 *   versions.ts    lists.version bookkeeping: list info, reading at one version
 *
 * Change protocol (so a crash never leaves a store copy that looks current but is not):
 *  1. database transaction(s): lock the list row, write the numbers, bump lists.version last;
 *  2. the store's copy is either built aside (served old copy untouched) or marked changing before it is
 *     touched (Redis), or changed only after the commit (the embedded index, this process's memory);
 *  3. after commit: the copy is marked current at the new version.
 *  A failure between the steps leaves the copy not current → scrubs fail closed until it is rebuilt.
 */
import type { DbHandle } from "db/client";
import type { AdminListKind } from "../list-types";
import type { BloomFilter, SharedBloom } from "../worker/bloom";
import { ListBlooms } from "./blooms";
import { CacheFiles } from "./cache-files";
import { readListNumbers, type BulkSession } from "./pg-bulk";
import { writeBlocks, type ChangeCounts } from "./blocks";
import { ListStoreError, type ChangeMode, type CopyDetail, type ListSnapshot, type ListStore, type StoreChange } from "./store";
import { atOneVersion, currentLists, readListInfo, type ListInfo } from "./versions";

export type { ChangeCounts } from "./blocks";
export type { ListInfo } from "./versions";

export interface ReadyList {
  info: ListInfo;
  bloom: SharedBloom | null;
  snapshot: ListSnapshot | null;
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
  /** Whole lists of at least this many numbers get their Bloom filter filled on side threads (below: here, quickly). */
  bloomThreadMin?: number;
}

export class ListManager {
  private locks = new Map<number, Promise<unknown>>();
  private readonly blooms: ListBlooms;
  private readonly files: CacheFiles | null;
  readonly waitMs: number;
  readonly bloomFp: number;
  readonly cacheDir: string | null;
  readonly loadChunk: number;
  readonly bloomThreadMin: number;

  constructor(
    readonly handle: DbHandle,
    readonly store: ListStore,
    opts: ListManagerOptions = {},
  ) {
    this.waitMs = opts.waitMs ?? 20_000;
    this.bloomFp = opts.bloomFp ?? 0.01;
    this.cacheDir = opts.cacheDir ?? null;
    this.loadChunk = Math.max(1, opts.loadChunk ?? 50_000);
    this.bloomThreadMin = opts.bloomThreadMin ?? 1_000_000;
    this.files = this.cacheDir ? new CacheFiles(this.cacheDir) : null;
    this.blooms = new ListBlooms(this.bloomFp, this.files);
  }

  /**
   * Moves whenever work on a list (a change, a rebuild, a fill) starts or ends in this process: what was read
   * about the lists before is to be read again once it moved (the live lookup's list rows, lookup.ts).
   */
  get generation(): number {
    return this.workSeen;
  }
  private workSeen = 0;

  /** Runs fn alone for this list within this process. */
  private exclusive<T>(listId: number, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(listId) ?? Promise.resolve();
    const run = prev
      .catch(() => {})
      .then(() => {
        this.workSeen++;
        return fn();
      });
    this.locks.set(listId, run);
    return run.finally(() => {
      this.workSeen++;
      if (this.locks.get(listId) === run) this.locks.delete(listId);
    });
  }

  info(listId: number): Promise<ListInfo | null> {
    return readListInfo(this.handle, listId);
  }

  async adminListId(kind: AdminListKind): Promise<number> {
    const row = await this.handle.db.selectFrom("lists").select("id").where("kind", "=", kind).executeTakeFirst();
    if (!row) throw new Error(`The ${kind} list does not exist.`);
    return row.id;
  }

  /**
   * Fills the store's copy and the Bloom filter in one pass over the database's stream of the list
   * (bounded memory: the store's own copy plus one chunk), at one consistent version; a copy the store saved
   * on this disk for exactly that version is served instead of reading the numbers.
   */
  private fillFromDatabase(listId: number): Promise<void> {
    return atOneVersion(this.handle, listId, async (info) => {
      if (this.files && (await this.store.loadCopy(listId, info.version, this.files.copyFile(info)))) {
        return { keep: async () => {}, undo: () => this.store.drop(listId) }; // ready() reads or builds the Bloom filter
      }
      const bloom = this.blooms.create(info.size);
      const handle = this.handle;
      async function* stream() {
        for await (const c of readListNumbers(handle, listId)) {
          bloom.addAll(c);
          yield c;
        }
      }
      const replaced = await this.store.replace(listId, stream());
      return {
        keep: async () => {
          await this.store.finishChange(listId, info.version, replaced);
          this.blooms.set(info, bloom);
          await this.saveCaches(listId);
        },
        undo: () => this.store.abortReplace(listId, replaced),
      };
    });
  }

  /**
   * Serves the list's Bloom filter at the current version: from its cache file, else built from the store's
   * copy when the store can read it back, else straight from the database stream (no copy held in memory).
   */
  private loadBloom(listId: number): Promise<void> {
    return atOneVersion(this.handle, listId, async (info) => {
      if (await this.blooms.readFile(info)) return { keep: async () => {} };
      const bloom = await this.blooms.fill(info, this.store.numbersOf(listId, info.version) ?? readListNumbers(this.handle, listId));
      return {
        keep: async () => {
          this.blooms.set(info, bloom);
          await this.blooms.save(info);
        },
      };
    });
  }

  /**
   * After a change: the new version's Bloom filter and the store's copy (when it keeps copies on disk) are
   * saved, so the next process neither rebuilds the filter from the database nor reads the list back out
   * of PGlite (decision 019).
   */
  private async saveCaches(listId: number): Promise<void> {
    if (!this.files) return;
    const info = await this.info(listId);
    if (!info) return;
    await this.files.writeCopy(info, (file) => this.store.saveCopy(listId, info.version, file));
    await this.blooms.save(info);
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
      if (storeVersion !== info.version && this.store.fillsOnDemand) {
        await this.exclusive(listId, async () => {
          if ((await this.store.version(listId)) === (await this.info(listId))?.version) return;
          await this.fillFromDatabase(listId);
        });
        storeVersion = await this.store.version(listId);
      }
      if (storeVersion === info.version) {
        if (!this.blooms.get(listId, info.version)) {
          await this.exclusive(listId, async () => {
            if (!this.blooms.get(listId, info.version)) await this.loadBloom(listId);
          });
        }
        const bloom = this.blooms.get(listId, info.version);
        if (bloom) {
          const snapshot = await this.store.snapshot(listId, info.version);
          return { info, bloom: bloom.shared, snapshot };
        }
      }
      if (Date.now() >= deadline) {
        throw new ListStoreError(
          `The list store has no current copy of the ${info.kind === "container" ? `container ${listId}` : `${info.kind} list`} ` +
            `(store version ${storeVersion ?? "missing"}, database version ${info.version}). ` +
            `Rebuild it with \`npm run lists -- rebuild\` and run the scrub again.`,
          false,
          "in-message",
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /**
   * A reader of exactly `info.version` of the list for a live lookup, without waiting: the store's copy at that
   * version (filled from the database first when the store fills on demand), or null when the list is empty.
   * Throws ListStoreError when the store cannot serve that version (missing, changing, stale, unreachable).
   */
  async snapshotAt(info: ListInfo): Promise<ListSnapshot | null> {
    if (info.size === 0 && info.version >= 1) return null;
    try {
      return await this.store.snapshot(info.id, info.version);
    } catch (e) {
      if (!(e instanceof ListStoreError) || !this.store.fillsOnDemand) throw e;
    }
    await this.exclusive(info.id, async () => {
      if ((await this.store.version(info.id)) !== info.version) await this.fillFromDatabase(info.id);
    });
    return this.store.snapshot(info.id, info.version);
  }

  /**
   * This process's Bloom filter of exactly `info.version` (what a live lookup asks before the store, as a scrub
   * does), or null. A missing one starts loading in the background (its cache file, else the list's numbers), so
   * later lookups skip the store for the numbers it rules out; until then they ask the store for all.
   */
  bloomAt(info: ListInfo): BloomFilter | null {
    const bloom = this.blooms.get(info.id, info.version);
    if (bloom || this.bloomLoads.has(info.id)) return bloom;
    const load = this.exclusive(info.id, async () => {
      if (!this.blooms.get(info.id, info.version)) await this.loadBloom(info.id);
    })
      .catch((e) => console.warn(`[lists] the Bloom filter of list ${info.id} could not be loaded for lookups: ${(e as Error).message}`))
      .finally(() => this.bloomLoads.delete(info.id));
    this.bloomLoads.set(info.id, load);
    return null;
  }
  private bloomLoads = new Map<number, Promise<void>>();

  /** Frees this process's Bloom filter of a list; the next scrub (or lookup, in the background) loads it again. */
  dropBloom(listId: number): void {
    this.blooms.forget(listId);
  }

  /** Status of every list: database version vs the store's. */
  async status(): Promise<({ listId: number; kind: ListInfo["kind"]; version: number; size: number; storeVersion: number | null } & CopyDetail)[]> {
    const out = [];
    for (const l of await currentLists(this.handle)) {
      out.push({ ...l, storeVersion: await this.store.version(l.listId), ...(await this.store.describeCopy?.(l.listId)) });
    }
    return out;
  }

  /** Reloads the store's copy (and this process's Bloom filter) of a list from the database. */
  rebuild(listId: number): Promise<void> {
    return this.exclusive(listId, () => this.fillFromDatabase(listId));
  }

  /**
   * Applies numbers (sorted, distinct) to a list: add, remove, or replace the whole list. One path for every
   * store and database: the blocks are written by blocks.ts, which calls the store's side of the change at
   * fixed points; then the Bloom filter follows and the caches are saved.
   */
  async change(
    listId: number,
    mode: ChangeMode,
    numbers: Float64Array,
    /** Runs inside the last database transaction (e.g. recording the list_loads row's counts). */
    record?: (s: BulkSession, counts: ChangeCounts) => Promise<void>,
    /** The changes mode's deletions (sorted, distinct, none of them in `numbers`). */
    removals?: Float64Array,
  ): Promise<ChangeCounts> {
    return this.exclusive(listId, async () => {
      const copy = this.store.change(listId, mode, numbers, removals);
      // a whole large list's Bloom filter is filled on side threads while the database and the store are written
      let bloomAside: Promise<BloomFilter> | null = null;
      const hooks: Pick<StoreChange, "started" | "written" | "beforeCommit"> = {
        started: (start) => {
          if (start.wholeList && numbers.length >= this.bloomThreadMin) {
            bloomAside = this.blooms.fillAside(numbers);
            bloomAside.catch(() => {});
          }
          return copy.started(start);
        },
        written: (counts) => copy.written(counts),
        beforeCommit: () => copy.beforeCommit(),
      };
      let written;
      try {
        written = await writeBlocks(
          this.handle,
          {
            listId,
            mode,
            numbers,
            removals,
            copy: hooks,
            record,
            partlyWritten: async () => {
              this.blooms.forget(listId);
              await this.store.drop(listId);
            },
          },
          this.loadChunk,
        );
      } catch (e) {
        await copy.failed().catch(() => {});
        throw e;
      }
      const { counts, wholeList } = written;
      try {
        await copy.committed(counts.version);
      } catch (e) {
        // committed in the database but not in the store: no copy, so scrubs fail closed until rebuilt
        await this.store.drop(listId).catch(() => {});
        throw e;
      }
      // a thread that failed leaves the filter to be filled here
      const filled = bloomAside ? await (bloomAside as Promise<BloomFilter>).catch(() => undefined) : undefined;
      this.blooms.follow(listId, mode, numbers, counts.size, counts.version, wholeList, filled);
      await this.saveCaches(listId);
      return counts;
    });
  }
}
