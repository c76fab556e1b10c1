/**
 * The Redis list store's byte formats, pure: the lookup script's packed argument and the CRC-64 that signs the
 * DUMP payloads RESTORE takes (intsets built in Node, decision 018).
 */

export const npa3 = (npa: number) => String(npa).padStart(3, "0");

/** Numbers a lookup call packs at most (packByArea's sort key holds the position in 15 bits). */
const PACK_MAX = 1 << 15;

/**
 * The lookup script's argument for numbers[ix[0..n)] (10-digit): sorted, grouped by area code, each group
 * "NPA" + count (5 digits) + the 7-digit rests as ASCII (String() and join cost ~1 µs a number). order[k] is
 * the index into `numbers` of the k-th number packed (the script answers in packed order).
 */
export function packByArea(numbers: Float64Array, ix: ArrayLike<number>): { packed: Buffer; order: Uint32Array } {
  const n = ix.length;
  if (n > PACK_MAX) throw new Error(`packByArea: ${n} numbers (at most ${PACK_MAX})`);
  // number * 2^15 + position < 2^53: one typed-array sort orders the numbers and keeps where each came from
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) keys[k] = numbers[ix[k]] * PACK_MAX + k;
  keys.sort();
  const order = new Uint32Array(n);
  const b = Buffer.allocUnsafe(n * 15);
  let o = 0;
  let countAt = -1;
  let count = 0;
  let area = -1;
  const digits = (v: number, at: number, width: number) => {
    for (let d = width - 1; d >= 0; d--) {
      b[at + d] = 48 + (v % 10);
      v = Math.floor(v / 10);
    }
  };
  for (let k = 0; k < n; k++) {
    const x = Math.floor(keys[k] / PACK_MAX);
    order[k] = ix[keys[k] - x * PACK_MAX];
    const npa = Math.floor(x / 10_000_000);
    if (npa !== area) {
      if (countAt >= 0) digits(count, countAt, 5);
      digits(npa, o, 3);
      countAt = o + 3;
      o += 8;
      count = 0;
      area = npa;
    }
    digits(x - npa * 10_000_000, o, 7);
    o += 7;
    count++;
  }
  if (countAt >= 0) digits(count, countAt, 5);
  return { packed: b.subarray(0, o), order };
}

/** CRC-64/Jones (reflected, init 0) as Redis signs DUMP payloads: two 32-bit halves per table entry. */
const CRC_LO = new Uint32Array(256);
const CRC_HI = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let lo = i;
  let hi = 0;
  for (let k = 0; k < 8; k++) {
    const bit = lo & 1;
    lo = ((lo >>> 1) | ((hi & 1) << 31)) >>> 0;
    hi = hi >>> 1;
    if (bit) {
      lo = (lo ^ 0xac4bc9b5) >>> 0;
      hi = (hi ^ 0x95ac9329) >>> 0;
    }
  }
  CRC_LO[i] = lo;
  CRC_HI[i] = hi;
}

/** Writes the CRC-64 of b[from, to) little-endian at b[to]. */
export function signPayload(b: Buffer, from: number, to: number): void {
  let lo = 0;
  let hi = 0;
  for (let i = from; i < to; i++) {
    const idx = (lo ^ b[i]) & 0xff;
    lo = ((lo >>> 8) | (hi << 24)) ^ CRC_LO[idx];
    hi = (hi >>> 8) ^ CRC_HI[idx];
  }
  b.writeUInt32LE(lo >>> 0, to);
  b.writeUInt32LE(hi >>> 0, to + 4);
}

/**
 * The restore script's records for numbers[from, to) (sorted, distinct, one area code `npa`): per NPA-NXX its 3 ASCII
 * digits, the payload's length (5 ASCII digits), and a DUMP payload of an intset of int16 line numbers — RDB type
 * 11, the members little-endian, the server's RDB version `rdb`, the CRC-64. `bytes`: room enough (the caller's count).
 */
export function intsetRecords(numbers: Float64Array, from: number, to: number, npa: number, rdb: number, bytes: number): Buffer {
  const buf = Buffer.allocUnsafe(bytes);
  let o = 0;
  for (let g = from; g < to; ) {
    const k = Math.floor(numbers[g] / 10_000);
    let e = g + 1;
    while (e < to && numbers[e] < (k + 1) * 10_000) e++;
    const n = e - g;
    const len = 8 + 2 * n;
    const nxx = k - npa * 1000;
    buf[o] = 48 + Math.floor(nxx / 100);
    buf[o + 1] = 48 + (Math.floor(nxx / 10) % 10);
    buf[o + 2] = 48 + (nxx % 10);
    const lenAt = o + 3;
    o += 8;
    const start = o;
    buf[o++] = 11; // RDB_TYPE_SET_INTSET, as a string of `len` bytes
    if (len < 64) buf[o++] = len;
    else if (len < 16384) {
      buf[o++] = 0x40 | (len >> 8);
      buf[o++] = len & 0xff;
    } else {
      buf[o++] = 0x80;
      buf.writeUInt32BE(len, o);
      o += 4;
    }
    buf.writeUInt32LE(2, o); // int16 members
    buf.writeUInt32LE(n, o + 4);
    o += 8;
    const base = k * 10_000;
    for (let t = g; t < e; t++) {
      const v = numbers[t] - base;
      buf[o++] = v & 0xff;
      buf[o++] = v >> 8;
    }
    buf[o++] = rdb & 0xff;
    buf[o++] = rdb >> 8;
    signPayload(buf, start, o);
    o += 8;
    buf.write(String(o - start).padStart(5, "0"), lenAt, "latin1");
    g = e;
  }
  return buf.subarray(0, o);
}
