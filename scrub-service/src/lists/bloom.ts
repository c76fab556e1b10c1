/**
 * A Bloom filter over integer phone numbers, in a SharedArrayBuffer so every piscina worker reads the same
 * copy. m is a power of two (mask instead of modulo); k probes by double hashing of two 32-bit mixes.
 * No false negatives: a number added is always reported present. Pure (usable in workers).
 */

export interface SharedBloom {
  sab: SharedArrayBuffer;
  /** m - 1 (m = bits, a power of two). */
  mask: number;
  k: number;
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The two base hashes of a number (< 2^53). */
function hashes(x: number, out: Uint32Array): void {
  const lo = x >>> 0;
  const hi = Math.floor(x / 4294967296) >>> 0;
  const h1 = fmix32(lo ^ Math.imul(hi ^ 0x27d4eb2f, 0x9e3779b1));
  const h2 = fmix32(h1 ^ Math.imul(lo + 0x165667b1, 0x85ebca77) ^ hi) | 1;
  out[0] = h1;
  out[1] = h2;
}

export class BloomFilter {
  readonly bits: Uint32Array;
  readonly mask: number;
  readonly k: number;
  private readonly h = new Uint32Array(2);

  constructor(readonly shared: SharedBloom) {
    this.bits = new Uint32Array(shared.sab);
    this.mask = shared.mask;
    this.k = shared.k;
  }

  /** Sized for `capacity` numbers at false-positive rate `fp` (bits rounded up to a power of two). */
  static create(capacity: number, fp = 0.01): BloomFilter {
    const n = Math.max(1024, capacity);
    const want = Math.ceil((-n * Math.log(fp)) / (Math.LN2 * Math.LN2));
    let m = 1024;
    while (m < want) m *= 2;
    const k = Math.max(1, Math.min(12, Math.round((m / n) * Math.LN2)));
    return new BloomFilter({ sab: new SharedArrayBuffer(m / 8), mask: m - 1, k });
  }

  get sizeBits(): number {
    return this.mask + 1;
  }

  add(x: number): void {
    hashes(x, this.h);
    let a = this.h[0];
    const b = this.h[1];
    const bits = this.bits;
    const mask = this.mask;
    for (let i = 0; i < this.k; i++) {
      const idx = a & mask;
      bits[idx >>> 5] |= 1 << (idx & 31);
      a = (a + b) >>> 0;
    }
  }

  addAll(xs: ArrayLike<number>, count = xs.length): void {
    for (let i = 0; i < count; i++) this.add(xs[i]);
  }

  has(x: number): boolean {
    hashes(x, this.h);
    let a = this.h[0];
    const b = this.h[1];
    const bits = this.bits;
    const mask = this.mask;
    for (let i = 0; i < this.k; i++) {
      const idx = a & mask;
      if ((bits[idx >>> 5] & (1 << (idx & 31))) === 0) return false;
      a = (a + b) >>> 0;
    }
    return true;
  }
}
