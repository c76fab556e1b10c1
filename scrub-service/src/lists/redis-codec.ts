/**
 * The Redis list store's byte formats, pure: the lookup script's packed argument, and RESTORE commands of DUMP payloads
 * (intsets built in Node, decision 018) with the CRC-64 that signs them.
 */
import { exchangeRunEnd } from "../worker/exchange-blocks";

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

/**
 * CRC-64/Jones (reflected, init 0) as Redis signs DUMP payloads, two 32-bit halves per table entry, read eight bytes
 * at a time ("slicing by 8": table k is the CRC of a byte followed by k zero bytes). Byte at a time it cost ~170 ms of
 * a 20M-number load's 46 MB of payloads.
 */
const CRC_LO = new Uint32Array(8 * 256);
const CRC_HI = new Uint32Array(8 * 256);
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
for (let t = 1; t < 8; t++) {
  for (let i = 0; i < 256; i++) {
    const lo = CRC_LO[(t - 1) * 256 + i];
    const hi = CRC_HI[(t - 1) * 256 + i];
    const idx = lo & 0xff;
    CRC_LO[t * 256 + i] = (((lo >>> 8) | (hi << 24)) ^ CRC_LO[idx]) >>> 0;
    CRC_HI[t * 256 + i] = ((hi >>> 8) ^ CRC_HI[idx]) >>> 0;
  }
}

/** The CRC-64 of b[from, to) as [low, high] 32-bit halves. */
export function crc64(b: Uint8Array, from: number, to: number): [number, number] {
  crcInto(b, from, to, CRC_OUT);
  return [CRC_OUT[0], CRC_OUT[1]];
}

/** Writes the CRC-64 of b[from, to) little-endian at b[to]. */
export function signPayload(b: Buffer, from: number, to: number): void {
  crcInto(b, from, to, CRC_OUT); // no array per payload: a 20M-number list has 349k of them
  b.writeUInt32LE(CRC_OUT[0], to);
  b.writeUInt32LE(CRC_OUT[1], to + 4);
}

const CRC_OUT = new Uint32Array(2);

function crcInto(b: Uint8Array, from: number, to: number, out: Uint32Array): void {
  let lo = 0;
  let hi = 0;
  let i = from;
  for (; i + 8 <= to; i += 8) {
    const a = lo ^ (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24));
    const c = hi ^ (b[i + 4] | (b[i + 5] << 8) | (b[i + 6] << 16) | (b[i + 7] << 24));
    const t7 = 7 * 256 + (a & 0xff);
    const t6 = 6 * 256 + ((a >>> 8) & 0xff);
    const t5 = 5 * 256 + ((a >>> 16) & 0xff);
    const t4 = 4 * 256 + (a >>> 24);
    const t3 = 3 * 256 + (c & 0xff);
    const t2 = 2 * 256 + ((c >>> 8) & 0xff);
    const t1 = 256 + ((c >>> 16) & 0xff);
    const t0 = c >>> 24;
    lo = CRC_LO[t7] ^ CRC_LO[t6] ^ CRC_LO[t5] ^ CRC_LO[t4] ^ CRC_LO[t3] ^ CRC_LO[t2] ^ CRC_LO[t1] ^ CRC_LO[t0];
    hi = CRC_HI[t7] ^ CRC_HI[t6] ^ CRC_HI[t5] ^ CRC_HI[t4] ^ CRC_HI[t3] ^ CRC_HI[t2] ^ CRC_HI[t1] ^ CRC_HI[t0];
  }
  for (; i < to; i++) {
    const idx = (lo ^ b[i]) & 0xff;
    lo = ((lo >>> 8) | (hi << 24)) ^ CRC_LO[idx];
    hi = (hi >>> 8) ^ CRC_HI[idx];
  }
  out[0] = lo;
  out[1] = hi;
}

/**
 * The setKey of area code `npa`, whose numbers numbers[from, to) (sorted) must all be: a command writer sizes its
 * buffer for one area code's sets (mostSets) instead of counting them in a pass of its own.
 */
function areaSetKey(writer: string, numbers: Float64Array, from: number, to: number, npa: number, keyPrefix: string): Buffer {
  if (to > from && (Math.floor(numbers[from] / 1e7) !== npa || Math.floor(numbers[to - 1] / 1e7) !== npa)) {
    throw new RangeError(`${writer} takes the numbers of area code ${npa} only.`); // sorted: the ends tell
  }
  return setKey(keyPrefix, npa);
}

/** The most NPA-NXX sets `count` numbers of one area code can fall in (it has 1,000 exchanges). */
const mostSets = (count: number) => Math.min(count, 1000);

/** A set's key: `keyPrefix` + "{NPA}" + NXX, its last three bytes rewritten per exchange (keyForExchange). */
function setKey(keyPrefix: string, npa: number): Buffer {
  return Buffer.from(`${keyPrefix}{${npa3(npa)}}000`, "latin1");
}

/** Writes exchange `k`'s NXX into the last three bytes of a setKey. */
function keyForExchange(key: Buffer, k: number): Buffer {
  const nxx = k % 1000;
  const at = key.length - 3;
  key[at] = 48 + Math.floor(nxx / 100);
  key[at + 1] = 48 + (Math.floor(nxx / 10) % 10);
  key[at + 2] = 48 + (nxx % 10);
  return key;
}

const UNLINK_AREA_HEAD = Buffer.from("*1001\r\n$6\r\nUNLINK\r\n", "latin1");

/**
 * One UNLINK of all 1,000 NPA-NXX set names one area code can have under `keyPrefix` (a generation's sets), as RESP.
 * The names are written here: the script that built them in Lua cost Redis ~0.7 µs a name, 0.72 s for a generation,
 * whether its sets existed or not (decision 162, item 37).
 */
export function unlinkAreaCommand(keyPrefix: string, npa: number): { buf: Buffer; commands: number } {
  const key = setKey(keyPrefix, npa);
  const len = Buffer.from(`$${key.length}\r\n`, "latin1");
  const buf = Buffer.allocUnsafe(UNLINK_AREA_HEAD.length + 1000 * (len.length + key.length + 2));
  let o = UNLINK_AREA_HEAD.copy(buf, 0);
  for (let nxx = 0; nxx < 1000; nxx++) {
    o += len.copy(buf, o);
    o += keyForExchange(key, npa * 1000 + nxx).copy(buf, o);
    buf[o++] = 13;
    buf[o++] = 10;
  }
  return { buf, commands: 1 };
}

/**
 * Writes at buf[o] the DUMP payload of the set of numbers[g, e) (one exchange `k`): an intset of int16 line numbers —
 * RDB type 11, the members little-endian, the server's RDB version `rdb`, the CRC-64. Returns the end.
 */
function writeIntsetPayload(buf: Buffer, o: number, numbers: Float64Array, g: number, e: number, k: number, rdb: number): number {
  const n = e - g;
  const len = 8 + 2 * n;
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
  return o + 8;
}

/** Bytes of a DUMP payload of n members at most (type, length, intset header, members, version, CRC). */
const payloadBytes = (n: number) => 1 + 5 + 8 + 2 * n + 2 + 8;

/** ASCII decimal of v (≥ 0) at buf[o]; returns the end. */
function writeDecimal(buf: Buffer, o: number, v: number): number {
  const digits = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10_000 ? 4 : v < 100_000 ? 5 : String(v).length;
  for (let d = digits - 1; d >= 0; d--) {
    buf[o + d] = 48 + (v % 10);
    v = Math.floor(v / 10);
  }
  return o + digits;
}

const RESTORE_HEAD = Buffer.from("*5\r\n$7\r\nRESTORE\r\n$");
const RESTORE_TTL = Buffer.from("\r\n$1\r\n0\r\n$");
const RESTORE_TAIL = Buffer.from("\r\n$7\r\nREPLACE\r\n");

/**
 * `RESTORE key 0 payload REPLACE` as RESP for each NPA-NXX set of numbers[from, to) (sorted, distinct, one area code
 * `npa`): key = keyPrefix + "{NPA}" + NXX, payload writeIntsetPayload's. One buffer; `commands` of them, one per set.
 */
export function restoreCommands(
  numbers: Float64Array,
  from: number,
  to: number,
  npa: number,
  rdb: number,
  keyPrefix: string,
): { buf: Buffer; commands: number } {
  const key = areaSetKey("restoreCommands", numbers, from, to, npa, keyPrefix);
  // each length as ASCII with its CRLF: at most 8 bytes
  const most = mostSets(to - from);
  const perSet = RESTORE_HEAD.length + 8 + key.length + RESTORE_TTL.length + 8 + RESTORE_TAIL.length;
  const buf = Buffer.allocUnsafe(most * (perSet + payloadBytes(0)) + 2 * (to - from));
  let o = 0;
  let sets = 0;
  for (let g = from; g < to; sets++) {
    const k = Math.floor(numbers[g] / 10_000);
    const e = exchangeRunEnd(numbers, g, to);
    keyForExchange(key, k);
    o += RESTORE_HEAD.copy(buf, o);
    o = writeDecimal(buf, o, key.length);
    buf[o++] = 13;
    buf[o++] = 10;
    o += key.copy(buf, o);
    o += RESTORE_TTL.copy(buf, o);
    // the payload's length is known before it is written: type, its length's encoding, then 8 + 2n + 10 bytes
    const n = e - g;
    const len = 8 + 2 * n;
    o = writeDecimal(buf, o, 1 + (len < 64 ? 1 : len < 16384 ? 2 : 5) + len + 10);
    buf[o++] = 13;
    buf[o++] = 10;
    o = writeIntsetPayload(buf, o, numbers, g, e, k, rdb);
    o += RESTORE_TAIL.copy(buf, o);
    g = e;
  }
  return { buf: buf.subarray(0, o), commands: sets };
}

/** Lines per SADD/SREM command at most (a dense exchange's 10,000 in three). */
const MEMBERS_PER_COMMAND = 4000;

/**
 * `SADD|SREM key line…` as RESP for numbers[from, to) (sorted, one area code `npa`): one command per NPA-NXX (at most
 * MEMBERS_PER_COMMAND lines), key = keyPrefix + "{NPA}" + NXX, each line as a decimal integer without leading zeros
 * (so Redis keeps it in the set's intset). One buffer; `commands` commands.
 */
export function memberCommands(
  op: "SADD" | "SREM",
  numbers: Float64Array,
  from: number,
  to: number,
  npa: number,
  keyPrefix: string,
): { buf: Buffer; commands: number } {
  const key = areaSetKey("memberCommands", numbers, from, to, npa, keyPrefix);
  const head = Buffer.from(`\r\n$4\r\n${op}\r\n$`, "latin1");
  // every set takes one command more than its full commands of MEMBERS_PER_COMMAND lines
  const most = mostSets(to - from) + Math.floor((to - from) / MEMBERS_PER_COMMAND);
  // per command: *N, $4 SADD, $len key (each with CRLF); per line: $n, the digits (each with CRLF)
  const buf = Buffer.allocUnsafe(most * (8 + 10 + 8 + key.length + 2) + (to - from) * 10);
  let o = 0;
  let commands = 0;
  for (let g = from; g < to;) {
    const k = Math.floor(numbers[g] / 10_000);
    const e = exchangeRunEnd(numbers, g, to);
    keyForExchange(key, k);
    const base = k * 10_000;
    for (let s = g; s < e; s += MEMBERS_PER_COMMAND, commands++) {
      const t = Math.min(e, s + MEMBERS_PER_COMMAND);
      buf[o++] = 42; // *
      o = writeDecimal(buf, o, 2 + t - s);
      o += head.copy(buf, o);
      o = writeDecimal(buf, o, key.length);
      buf[o++] = 13;
      buf[o++] = 10;
      o += key.copy(buf, o);
      buf[o++] = 13;
      buf[o++] = 10;
      for (let i = s; i < t; i++) {
        const line = numbers[i] - base;
        buf[o++] = 36; // $
        buf[o++] = 48 + (line < 10 ? 1 : line < 100 ? 2 : line < 1000 ? 3 : 4);
        buf[o++] = 13;
        buf[o++] = 10;
        o = writeDecimal(buf, o, line);
        buf[o++] = 13;
        buf[o++] = 10;
      }
    }
    g = e;
  }
  return { buf: buf.subarray(0, o), commands };
}
