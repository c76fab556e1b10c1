/**
 * A compact set of normalized 10-digit numbers (duplicate detection within a file).
 * One open-addressing table per area code (1000 of them), each slot a Uint32 holding (number mod 10^7) + 1,
 * so a number costs 4 bytes at load ≤ 0.75 (≈ 5–11 bytes with growth slack), instead of ~40+ for a JS Set.
 */

/** The slot hash of a key (a 32-bit mix). */
function mix(key: number): number {
  let i = Math.imul(key ^ (key >>> 16), 0x45d9f3b);
  i = Math.imul(i ^ (i >>> 16), 0x45d9f3b);
  return (i ^ (i >>> 16)) >>> 0;
}

/**
 * Rows whose slots are fetched together (see addMany). A set of millions of numbers is tens of MB, so nearly
 * every new number's slot is a cache miss: 32 independent loads keep many misses in flight (decision 090).
 */
const GROUP = 32;
const FIRST_SIZE = 16;
const EMPTY = new Uint32Array(0);

export class NumberSet {
  private readonly tables: Uint32Array[] = new Array<Uint32Array>(1000).fill(EMPTY);
  /** A table grows when its count reaches its limit (0 for a table not yet allocated). */
  private readonly limits = new Int32Array(1000);
  private readonly counts = new Int32Array(1000);
  private total = 0;
  private readonly groupNpa = new Int32Array(GROUP);
  private readonly groupKey = new Int32Array(GROUP);
  private readonly groupHash = new Int32Array(GROUP);
  /** Counts nothing useful: it consumes addMany's loads so they are not optimized away. */
  private touched = 0;

  get size(): number {
    return this.total;
  }

  /** Bytes held by the tables. */
  get bytes(): number {
    let b = 0;
    for (const t of this.tables) b += t.byteLength;
    return b;
  }

  /** Adds x; returns true if it was new, false if already present. */
  add(x: number): boolean {
    const npa = Math.floor(x / 10_000_000);
    const key = x - npa * 10_000_000 + 1;
    return this.insert(npa, key, mix(key));
  }

  /**
   * Adds codes[0..count) in order (negative codes are skipped); out[i] = 1 when codes[i] was already
   * present (a duplicate of an earlier one), else 0. Like Bloom.hasMany, each group's slots are first
   * fetched by a tight loop of independent loads, so the cache misses overlap instead of queueing.
   */
  addMany(codes: ArrayLike<number>, count: number, out: Uint8Array): void {
    const tables = this.tables;
    const npas = this.groupNpa;
    const keys = this.groupKey;
    const hashes = this.groupHash;
    let touch = 0;
    for (let s = 0; s < count; s += GROUP) {
      const n = Math.min(GROUP, count - s);
      for (let j = 0; j < n; j++) {
        const x = codes[s + j];
        if (x < 0) {
          npas[j] = -1;
          continue;
        }
        const npa = Math.floor(x / 10_000_000);
        const key = x - npa * 10_000_000 + 1;
        const h = mix(key);
        npas[j] = npa;
        keys[j] = key;
        hashes[j] = h;
        const t = tables[npa];
        if (t.length) touch ^= t[h & (t.length - 1)];
      }
      for (let j = 0; j < n; j++) out[s + j] = npas[j] >= 0 && !this.insert(npas[j], keys[j], hashes[j]) ? 1 : 0;
    }
    if (touch === -1) this.touched++;
  }

  has(x: number): boolean {
    const npa = Math.floor(x / 10_000_000);
    const t = this.tables[npa];
    if (!t.length) return false;
    const key = x - npa * 10_000_000 + 1;
    const mask = t.length - 1;
    for (let i = mix(key); ; i++) {
      i &= mask;
      const v = t[i];
      if (v === 0) return false;
      if (v === key) return true;
    }
  }

  /** Puts `key` (with slot hash `h`) in area code `npa`'s table; false when it was there already. */
  private insert(npa: number, key: number, h: number): boolean {
    let t = this.tables[npa];
    if (this.counts[npa] >= this.limits[npa]) t = this.grow(npa, t);
    const mask = t.length - 1;
    for (let i = h; ; i++) {
      i &= mask;
      const v = t[i];
      if (v === 0) {
        t[i] = key;
        this.counts[npa]++;
        this.total++;
        return true;
      }
      if (v === key) return false;
    }
  }

  private grow(npa: number, old: Uint32Array): Uint32Array {
    const t = new Uint32Array(old.length ? old.length * 2 : FIRST_SIZE);
    const mask = t.length - 1;
    for (let j = 0; j < old.length; j++) {
      const key = old[j];
      if (key === 0) continue;
      for (let i = mix(key); ; i++) {
        i &= mask;
        if (t[i] === 0) {
          t[i] = key;
          break;
        }
      }
    }
    this.tables[npa] = t;
    this.limits[npa] = (t.length * 3) >> 2;
    return t;
  }
}
