/**
 * This process's Bloom filter of each list, tagged with the list's version (a filter of another version is
 * never served), and its file in DATA_DIR/cache. Scrubs share a filter's memory with the workers.
 */
import { BloomFilter } from "../worker/bloom";
import { fillOnSideThreads } from "./bloom-thread";
import type { CacheFiles } from "./cache-files";
import { chunksOf, type ChangeMode } from "./store";
import type { ListInfo } from "./versions";

export class ListBlooms {
  private filters = new Map<number, { version: number; bloom: BloomFilter; capacity: number }>();

  constructor(
    private readonly fp: number,
    private readonly files: CacheFiles | null,
  ) {}

  /** The filter of exactly this version, or null. */
  get(listId: number, version: number): BloomFilter | null {
    const b = this.filters.get(listId);
    return b && b.version === version ? b.bloom : null;
  }

  forget(listId: number): void {
    this.filters.delete(listId);
  }

  /** An empty filter for a list of `size` numbers (room to grow by a quarter before it is rebuilt). */
  create(size: number): BloomFilter {
    return BloomFilter.create(capacityFor(size), this.fp);
  }

  /** Serves `bloom` (made by `create(info.size)` and filled) for `info.version`. */
  set(info: Pick<ListInfo, "id" | "version" | "size">, bloom: BloomFilter): void {
    this.filters.set(info.id, { version: info.version, bloom, capacity: capacityFor(info.size) });
  }

  /** Reads the filter of `info`'s version from its cache file; false when there is none. */
  async readFile(info: ListInfo): Promise<boolean> {
    if (!this.files) return false;
    const bloom = this.create(info.size);
    if (!(await this.files.readBloom(this.files.bloomFile(info, bloom), bloom))) return false;
    this.set(info, bloom);
    return true;
  }

  /** A new filter for `info` filled with every number of the list (the caller serves it once the version held). */
  async fill(info: ListInfo, numbers: AsyncIterable<Float64Array> | Iterable<Float64Array>): Promise<BloomFilter> {
    const bloom = this.create(info.size);
    for await (const c of numbers) bloom.addAll(c);
    return bloom;
  }

  /** Writes the filter served for `info.version` to its cache file. */
  async save(info: ListInfo): Promise<void> {
    const bloom = this.get(info.id, info.version);
    if (bloom && this.files) await this.files.writeBloom(info, bloom);
  }

  /**
   * The filter of a whole new list (`numbers`, sorted and distinct), filled on side threads while the caller
   * writes the database and the store; `follow` serves it once the change committed.
   */
  async fillAside(numbers: Float64Array): Promise<BloomFilter> {
    const bloom = this.create(numbers.length);
    await fillOnSideThreads(bloom, numbers);
    return bloom;
  }

  /**
   * After a change committed: the filter follows it (or is dropped, to be rebuilt on next use). `filled`: the whole
   * list's filter from fillAside.
   */
  follow(listId: number, mode: ChangeMode, numbers: Float64Array, size: number, version: number, wholeList: boolean, filled?: BloomFilter): void {
    const b = this.filters.get(listId);
    if (wholeList) {
      // the whole list is `numbers`: built from memory (and saved by the caller), instead of from the
      // database by the first scrub (20M numbers: ~5 s here, ~15–19 s there)
      let bloom = filled;
      if (!bloom) {
        bloom = this.create(size);
        for (const c of chunksOf(numbers)) bloom.addAll(c);
      }
      this.set({ id: listId, version, size }, bloom);
    } else if (b && b.version === version - 1 && size <= b.capacity) {
      if (mode === "add" || mode === "changes") b.bloom.addAll(numbers);
      b.version = version; // removals leave extra bits: more positives for the store, never misses
    } else {
      this.filters.delete(listId);
    }
  }
}

/**
 * The smallest filter's capacity: a list of fewer numbers still costs a filter of this many (~12 KB). Small, so
 * that a scrub service may hold one for every container its lookups and scrubs touch; a small list that grows
 * past it gets a new filter, which for so few numbers is quick to build.
 */
export const MIN_BLOOM_CAPACITY = 10_000;

function capacityFor(size: number): number {
  return Math.max(Math.ceil(size * 1.25), MIN_BLOOM_CAPACITY);
}
