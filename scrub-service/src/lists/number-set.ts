/**
 * A compact set of normalized 10-digit numbers (duplicate detection within a file).
 * One open-addressing table per area code (800 of them), each slot a Uint32 holding (number mod 10^7) + 1,
 * so a number costs 4 bytes at load ≤ 0.75 (≈ 5–11 bytes with growth slack), instead of ~40+ for a JS Set.
 */

/** The slot hash of a key (a 32-bit mix). */
function mix(key: number): number {
  let i = Math.imul(key ^ (key >>> 16), 0x45d9f3b);
  i = Math.imul(i ^ (i >>> 16), 0x45d9f3b);
  return (i ^ (i >>> 16)) >>> 0;
}

/** Rows whose slots are fetched together (see addMany). */
const GROUP = 256;

export class NumberSet {
  private tables: (Uint32Array | undefined)[] = new Array(1000);
  private counts = new Uint32Array(1000);
  private total = 0;

  get size(): number {
    return this.total;
  }

  /** Bytes held by the tables. */
  get bytes(): number {
    let b = 0;
    for (const t of this.tables) if (t) b += t.byteLength;
    return b;
  }

  /** Adds x; returns true if it was new, false if already present. */
  add(x: number): boolean {
    const npa = Math.floor(x / 10_000_000);
    const key = (x - npa * 10_000_000 + 1) >>> 0;
    let t = this.tables[npa];
    if (!t) t = this.tables[npa] = new Uint32Array(16);
    else if ((this.counts[npa] + 1) * 4 > t.length * 3) t = this.grow(npa, t);
    const mask = t.length - 1;
    let i = mix(key);
    for (;;) {
      i &= mask;
      const v = t[i];
      if (v === 0) {
        t[i] = key;
        this.counts[npa]++;
        this.total++;
        return true;
      }
      if (v === key) return false;
      i++;
    }
  }

  /**
   * Adds codes[0..count) in order (negative codes are skipped); out[i] = 1 when codes[i] was already
   * present (a duplicate of an earlier one), else 0. Like Bloom.hasMany, each group's slots are first
   * fetched by a tight loop of independent loads, so the cache misses overlap instead of queueing.
   */
  addMany(codes: ArrayLike<number>, count: number, out: Uint8Array): void {
    const tables = this.tables;
    const npas = new Int32Array(GROUP);
    const slots = new Int32Array(GROUP);
    for (let s = 0; s < count; s += GROUP) {
      const n = Math.min(count, s + GROUP) - s;
      for (let j = 0; j < n; j++) {
        const x = codes[s + j];
        const npa = x < 0 ? 0 : Math.floor(x / 10_000_000);
        const t = tables[npa];
        npas[j] = t ? npa : 0;
        if (!t) continue;
        const key = (x - npa * 10_000_000 + 1) >>> 0;
        slots[j] = mix(key) & (t.length - 1);
      }
      let touch = 0;
      for (let j = 0; j < n; j++) {
        const t = tables[npas[j]];
        if (t) touch |= t[slots[j]];
      }
      if (touch === -1) out[s] = 0; // uses the loads so they are not optimized away
      for (let j = 0; j < n; j++) {
        const x = codes[s + j];
        out[s + j] = x >= 0 && !this.add(x) ? 1 : 0;
      }
    }
  }

  has(x: number): boolean {
    const npa = Math.floor(x / 10_000_000);
    const t = this.tables[npa];
    if (!t) return false;
    const key = (x - npa * 10_000_000 + 1) >>> 0;
    const mask = t.length - 1;
    let i = mix(key);
    for (;;) {
      i &= mask;
      const v = t[i];
      if (v === 0) return false;
      if (v === key) return true;
      i++;
    }
  }

  private grow(npa: number, old: Uint32Array): Uint32Array {
    const t = new Uint32Array(old.length * 2);
    const mask = t.length - 1;
    for (let j = 0; j < old.length; j++) {
      const key = old[j];
      if (key === 0) continue;
      let i = mix(key);
      for (;;) {
        i &= mask;
        if (t[i] === 0) {
          t[i] = key;
          break;
        }
        i++;
      }
    }
    this.tables[npa] = t;
    return t;
  }
}
