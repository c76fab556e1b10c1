/**
 * Embedded list store (no REDIS_URL): per list, per area code, a sorted Uint32Array of the 7-digit rests
 * (4 bytes per number). Copies are immutable: a change builds new arrays and swaps them, so a running
 * scrub reads a consistent copy. Filled from PostgreSQL by the ListManager (it is a cache in memory).
 */
import fs from "node:fs";
import {
  chunksOf,
  ListStoreError,
  splitNumber,
  changeSides,
  type ChangeMode,
  type ChangeStart,
  type ListSnapshot,
  type ListStore,
  type ReplaceHandle,
  type StoreChange,
} from "./store";

/** Cache file: magic, checksum, 1000 counts (u32 each), then every area code's sorted rests. */
const FILE_MAGIC = 0x31584449; // "IDX1"
const HEADER_WORDS = 2 + 1000;

/**
 * Adler-32 over 32-bit words: a = 1 + Σ words, b = Σ a, both mod 65521. The sums are reduced every 1,024
 * words instead of every word (same result: below 2^53 they stay exact), ~3× faster at 20M words.
 */
export function checksum(words: Uint32Array, from: number): number {
  let a = 1;
  let b = 0;
  for (let i = from; i < words.length;) {
    const end = Math.min(words.length, i + 1024);
    for (; i < end; i++) {
      a += words[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

interface Copy {
  version: number | null;
  byNpa: (Uint32Array | undefined)[];
}

/** The first index in a[lo, hi) (sorted) whose value is ≥ v, or hi. */
function lowerBound(a: Uint32Array, v: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Area codes with fewer rests than this are searched whole (their exchange index would outweigh them). */
const EXCHANGE_INDEX_MIN = 256;
/** Exchange indexes of area codes' arrays (copies are immutable, so an array's index never changes). */
const exchangeIndexes = new WeakMap<Uint32Array, Uint32Array>();

/**
 * Where each exchange (NXX, the rest's first three digits) starts in an area code's sorted rests: index k
 * for NXX k, 1001 entries. A lookup then searches its exchange's few dozen rests instead of the whole area
 * code: at 20M listed numbers, ~45,000 rests per area code and ~10 cache misses per binary search, the
 * scrub's lookups on the main thread took about twice as long (decision 090).
 */
function exchangeIndex(a: Uint32Array): Uint32Array {
  let d = exchangeIndexes.get(a);
  if (d) return d;
  d = new Uint32Array(1001);
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    const nxx = Math.floor(a[i] / 10_000);
    while (k <= nxx) d[k++] = i;
  }
  while (k <= 1000) d[k++] = a.length;
  exchangeIndexes.set(a, d);
  return d;
}

/** Groups numbers by area code into sorted distinct Uint32Arrays. */
function group(chunks: Iterable<Float64Array>): (Uint32Array | undefined)[] {
  const counts = new Uint32Array(1000);
  const all: Float64Array[] = [];
  for (const c of chunks) {
    all.push(c);
    for (let i = 0; i < c.length; i++) counts[Math.floor(c[i] / 10_000_000)]++;
  }
  const out: (Uint32Array | undefined)[] = new Array(1000);
  const fill = new Uint32Array(1000);
  for (let n = 0; n < 1000; n++) if (counts[n]) out[n] = new Uint32Array(counts[n]);
  for (const c of all) {
    for (let i = 0; i < c.length; i++) {
      const [npa, rest] = splitNumber(c[i]);
      out[npa]![fill[npa]++] = rest;
    }
  }
  for (let n = 0; n < 1000; n++) {
    const a = out[n];
    if (!a) continue;
    a.sort();
    let w = 0;
    for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[i - 1]) a[w++] = a[i];
    out[n] = w === a.length ? a : a.slice(0, w);
  }
  return out;
}

/** Per-area-code arrays of a strictly increasing chunk (no sort, no second copy). */
function groupSorted(c: Float64Array): (Uint32Array | undefined)[] {
  const out: (Uint32Array | undefined)[] = new Array(1000);
  let i = 0;
  while (i < c.length) {
    const npa = Math.floor(c[i] / 10_000_000);
    let j = i;
    while (j < c.length && Math.floor(c[j] / 10_000_000) === npa) j++;
    const a = new Uint32Array(j - i);
    const base = npa * 10_000_000;
    for (let k = i; k < j; k++) a[k - i] = c[k] - base;
    out[npa] = a;
    i = j;
  }
  return out;
}

function mergeSorted(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let w = 0;
  while (i < a.length || j < b.length) {
    let v: number;
    if (j >= b.length || (i < a.length && a[i] < b[j])) v = a[i++];
    else if (i >= a.length || b[j] < a[i]) v = b[j++];
    else {
      v = a[i++];
      j++;
    }
    out[w++] = v;
  }
  return w === out.length ? out : out.slice(0, w);
}

function subtractSorted(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length);
  let j = 0;
  let w = 0;
  for (let i = 0; i < a.length; i++) {
    while (j < b.length && b[j] < a[i]) j++;
    if (j < b.length && b[j] === a[i]) continue;
    out[w++] = a[i];
  }
  return out.slice(0, w);
}

/** Every number of a copy, by area code. */
function* numbersOfCopy(copy: Copy): Generator<Float64Array> {
  for (let n = 0; n < 1000; n++) {
    const a = copy.byNpa[n];
    if (!a) continue;
    const out = new Float64Array(a.length);
    const base = n * 10_000_000;
    for (let i = 0; i < a.length; i++) out[i] = base + a[i];
    yield out;
  }
}

export class EmbeddedListStore implements ListStore {
  readonly kind = "embedded" as const;
  /** A cache in this process's memory: the process fills it from the database when a scrub needs it. */
  readonly fillsOnDemand = true;
  /** The served copy of each list (immutable arrays). */
  private copies = new Map<number, Copy>();
  /** Copy being changed (add/remove), swapped in by finishChange. */
  private staged = new Map<number, (Uint32Array | undefined)[]>();
  private pending = new Map<number, { generation: number; byNpa: (Uint32Array | undefined)[] }>();
  private nextGen = 1;
  /** For tests: make the store unreachable. */
  failing = false;

  async version(listId: number): Promise<number | null> {
    if (this.staged.has(listId)) return null;
    return this.copies.get(listId)?.version ?? null;
  }

  async snapshot(listId: number, version: number): Promise<ListSnapshot> {
    if (this.failing) throw new ListStoreError("The embedded list index is unavailable.");
    const copy = this.copies.get(listId);
    if (!copy || copy.version !== version || this.staged.has(listId)) {
      throw new ListStoreError(`The list index has no current copy of list ${listId} version ${version}.`);
    }
    const byNpa = copy.byNpa;
    /** This snapshot's exchange indexes, by area code (looked up in exchangeIndexes once each). */
    const indexes: (Uint32Array | null | undefined)[] = new Array(1000);
    return {
      listId,
      version,
      // an arrow: `this` is the store, not the returned object
      has: async (numbers: Float64Array, count: number): Promise<Uint8Array> => {
        if (this.failing) throw new ListStoreError("The embedded list index is unavailable.");
        const out = new Uint8Array(count);
        for (let i = 0; i < count; i++) {
          const x = numbers[i];
          const npa = Math.floor(x / 10_000_000);
          const a = byNpa[npa];
          if (!a) continue;
          const rest = x - npa * 10_000_000;
          let d = indexes[npa];
          if (d === undefined) d = indexes[npa] = a.length < EXCHANGE_INDEX_MIN ? null : exchangeIndex(a);
          let lo = 0;
          let hi = a.length;
          if (d) {
            const nxx = Math.floor(rest / 10_000);
            lo = d[nxx];
            hi = d[nxx + 1];
          }
          const p = lowerBound(a, rest, lo, hi);
          if (p < hi && a[p] === rest) out[i] = 1;
        }
        return out;
      },
    };
  }

  async beginChange(listId: number): Promise<void> {
    if (!this.staged.has(listId)) this.staged.set(listId, (this.copies.get(listId)?.byNpa ?? new Array(1000)).slice());
  }

  async add(listId: number, numbers: Float64Array): Promise<void> {
    await this.beginChange(listId);
    const byNpa = this.staged.get(listId)!;
    const add = group([numbers]);
    for (let n = 0; n < 1000; n++) {
      const b = add[n];
      if (!b) continue;
      const a = byNpa[n];
      byNpa[n] = a ? mergeSorted(a, b) : b;
    }
  }

  async remove(listId: number, numbers: Float64Array): Promise<void> {
    await this.beginChange(listId);
    const byNpa = this.staged.get(listId)!;
    const rem = group([numbers]);
    for (let n = 0; n < 1000; n++) {
      const b = rem[n];
      const a = byNpa[n];
      if (a && b) byNpa[n] = subtractSorted(a, b);
    }
  }

  /**
   * Builds the new copy chunk by chunk: sorted chunks (the database's, or a sorted file's) go straight into
   * per-area-code arrays, so only the final arrays (4 B/number) and one chunk are held, never the whole
   * list as doubles. Unsorted chunks are grouped on their own first.
   */
  async replace(listId: number, chunks: AsyncIterable<Float64Array> | Iterable<Float64Array>): Promise<ReplaceHandle> {
    const byNpa: (Uint32Array | undefined)[] = new Array(1000);
    for await (const chunk of chunks) {
      let sorted = true;
      for (let i = 1; i < chunk.length; i++) {
        if (chunk[i] <= chunk[i - 1]) {
          sorted = false;
          break;
        }
      }
      const part = sorted ? groupSorted(chunk) : group([chunk]);
      for (let n = 0; n < 1000; n++) {
        const b = part[n];
        if (!b) continue;
        const a = byNpa[n];
        byNpa[n] = a ? mergeSorted(a, b) : b;
      }
    }
    const generation = this.nextGen++;
    this.pending.set(listId, { generation, byNpa });
    return { generation };
  }

  async finishChange(listId: number, version: number, replaced?: ReplaceHandle): Promise<void> {
    if (replaced) {
      const p = this.pending.get(listId);
      if (!p || p.generation !== replaced.generation) throw new ListStoreError(`Replacement of list ${listId} was lost.`);
      this.pending.delete(listId);
      this.staged.delete(listId);
      this.copies.set(listId, { version, byNpa: p.byNpa });
      return;
    }
    const byNpa = this.staged.get(listId) ?? this.copies.get(listId)?.byNpa ?? new Array(1000);
    this.staged.delete(listId);
    this.copies.set(listId, { version, byNpa });
  }

  async abortReplace(listId: number, replaced: ReplaceHandle): Promise<void> {
    if (this.pending.get(listId)?.generation === replaced.generation) this.pending.delete(listId);
  }

  async drop(listId: number): Promise<void> {
    this.copies.delete(listId);
    this.staged.delete(listId);
    this.pending.delete(listId);
  }

  /**
   * The copy is this process's memory, which nobody reads before the database commits: the change is
   * applied after the commit (built whole from the numbers when they are the whole list). A copy of another
   * version than the one changed is dropped, and filled from the database on next use.
   */
  change(listId: number, mode: ChangeMode, numbers: Float64Array, removals?: Float64Array): StoreChange {
    const { adds, removes } = changeSides(mode, numbers, removals);
    let start: ChangeStart | null = null;
    const idle = async () => {};
    return {
      started: async (s) => {
        start = s;
      },
      written: idle,
      beforeCommit: idle,
      committed: async (version) => {
        if (start?.wholeList) {
          await this.finishChange(listId, version, await this.replace(listId, chunksOf(numbers)));
        } else if (!start || (await this.version(listId)) !== start.version) {
          await this.drop(listId);
        } else {
          await this.beginChange(listId);
          if (removes.length) await this.remove(listId, removes);
          if (adds.length) await this.add(listId, adds);
          await this.finishChange(listId, version);
        }
      },
      failed: idle,
    };
  }

  /**
   * Writes the served copy of a list to `file` (the caller writes a temp name and renames it, so a reader
   * never sees half a file): the next process serves this version without reading 20M numbers back out of
   * PGlite (decision 019).
   */
  async saveCopy(listId: number, version: number, file: string): Promise<boolean> {
    const copy = this.copies.get(listId);
    if (!copy || copy.version !== version) return false;
    let total = 0;
    for (const a of copy.byNpa) if (a) total += a.length;
    const words = new Uint32Array(HEADER_WORDS + total);
    words[0] = FILE_MAGIC;
    let at = HEADER_WORDS;
    for (let n = 0; n < 1000; n++) {
      const a = copy.byNpa[n];
      if (!a) continue;
      words[2 + n] = a.length;
      words.set(a, at);
      at += a.length;
    }
    words[1] = checksum(words, 2);
    await fs.promises.writeFile(file, words);
    return true;
  }

  /**
   * Serves `version` of a list from a file written by saveCopy. False (nothing changed) when the file is
   * missing, truncated or fails its checksum: the caller then reads the list from the database.
   */
  async loadCopy(listId: number, version: number, file: string): Promise<boolean> {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      return false;
    }
    if (bytes.length % 4 !== 0 || bytes.length < HEADER_WORDS * 4) return false;
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    if (words[0] !== FILE_MAGIC) return false;
    let total = 0;
    for (let n = 0; n < 1000; n++) total += words[2 + n];
    if (words.length !== HEADER_WORDS + total || checksum(words, 2) !== words[1]) return false;
    const byNpa: (Uint32Array | undefined)[] = new Array(1000);
    let at = HEADER_WORDS;
    for (let n = 0; n < 1000; n++) {
      const c = words[2 + n];
      if (!c) continue;
      byNpa[n] = words.subarray(at, at + c);
      at += c;
    }
    this.staged.delete(listId);
    this.pending.delete(listId);
    this.copies.set(listId, { version, byNpa });
    return true;
  }

  /** Every number of the served copy at `version`, by area code (for building its Bloom filter). */
  numbersOf(listId: number, version: number): Iterable<Float64Array> | null {
    const copy = this.copies.get(listId);
    if (!copy || copy.version !== version || this.staged.has(listId)) return null;
    return numbersOfCopy(copy);
  }

  async memoryBytes(): Promise<number> {
    let b = 0;
    for (const c of this.copies.values()) for (const a of c.byNpa) if (a) b += a.byteLength;
    return b;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.copies.clear();
    this.staged.clear();
    this.pending.clear();
  }
}
