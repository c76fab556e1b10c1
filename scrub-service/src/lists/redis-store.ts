/**
 * Redis list store. Compact encoding: one set per (list, generation, NPA-NXX), members the last 4 digits,
 * so Redis keeps each set as an intset (2 bytes per member while a set has ≤ set-max-intset-entries
 * members, 512 by default). Keys are hash-tagged by area code ({NPA}) so Redis Cluster puts a batch's
 * lookups on few nodes.
 *
 *   <p>meta:<list>                 hash {version, gen, state: ready|changing}
 *   <p>gen:<list>:<gen>            "1" while that generation is served (a scrub's snapshot checks it)
 *   <p>n:<list>:<gen>:{NPA}NXX     set of line numbers (0–9999)
 */
import { Redis } from "ioredis";
import {
  chunksOf,
  ListStoreError,
  type ChangeMode,
  type ChangeStart,
  type ListSnapshot,
  type ListStore,
  type ReplaceHandle,
  type StoreChange,
} from "./store";

/** Numbers per script call (one area code per call: one hash slot, so Redis Cluster routes it whole). */
const SCRIPT_BATCH = 5000;
/** Numbers per lookup call (a scrub batch's Bloom positives are usually fewer). */
const LOOKUP_BATCH = 20_000;

/**
 * Applies SADD/SREM for numbers of one area code: ARGV[1] key prefix ending in {NPA}, ARGV[2] the 7-digit
 * rests (NXX + line) packed, sorted, ARGV[3] 'sadd' | 'srem'. One call replaces thousands of commands.
 */
const WRITE_LUA = `
local p, s, op = ARGV[1], ARGV[2], ARGV[3]
local n = #s / 7
local cur, members = nil, {}
for i = 0, n - 1 do
  local nxx = string.sub(s, i * 7 + 1, i * 7 + 3)
  if nxx ~= cur or #members >= 4000 then
    if cur then redis.call(op, p .. cur, unpack(members)) end
    cur, members = nxx, {}
  end
  members[#members + 1] = tonumber(string.sub(s, i * 7 + 4, i * 7 + 7))
end
if cur then redis.call(op, p .. cur, unpack(members)) end
return n`;

/**
 * Membership of many numbers in one call: KEYS[1] the generation marker (nil when the generation is gone),
 * ARGV[1] the set key prefix, ARGV[2] packed 10-digit numbers; answers a string of '0'/'1'. One call per
 * batch: per-area-code calls cost ioredis ~14 µs and ~1 KB of garbage each (800 per batch). The keys it
 * builds span area codes (slots), which a single Redis node serves; a Redis Cluster deployment would split
 * the calls by the {NPA} tag again (decision 011).
 */
const LOOKUP_LUA = `
if redis.call('exists', KEYS[1]) == 0 then return false end
local p, s = ARGV[1], ARGV[2]
local n = #s / 10
local out = {}
for i = 0, n - 1 do
  local o = i * 10
  out[i + 1] = redis.call('sismember', p .. '{' .. string.sub(s, o + 1, o + 3) .. '}' .. string.sub(s, o + 4, o + 6), tonumber(string.sub(s, o + 7, o + 10)))
end
return table.concat(out)`;

/**
 * Creates whole sets from DUMP payloads: ARGV[1] key prefix ending in {NPA}, ARGV[2] records of NXX
 * (3 characters), payload length (5 digits), payload. One call per area code (one hash slot) instead of
 * one RESTORE command per set: ioredis spent ~14 µs per command.
 */
const RESTORE_LUA = `
local p, s = ARGV[1], ARGV[2]
local at, n = 1, 0
while at <= #s do
  local len = tonumber(string.sub(s, at + 3, at + 7))
  redis.call('restore', p .. string.sub(s, at, at + 2), 0, string.sub(s, at + 8, at + 7 + len), 'REPLACE')
  at = at + 8 + len
  n = n + 1
end
return n`;

/** Unlinks every possible NPA-NXX set under one area code's prefix (ARGV[1], ending in {NPA}): 1,000 names. */
const UNLINK_AREA_LUA = `
local p = ARGV[1]
local names = {}
for nxx = 0, 999 do names[nxx + 1] = p .. string.format('%03d', nxx) end
return redis.call('unlink', unpack(names))`;

type ScriptRedis = {
  scrubUnlinkArea(key: string, prefix: string): Promise<number>;
  scrubRestore(key: string, prefix: string, records: Buffer): Promise<number>;
  scrubWrite(key: string, prefix: string, packed: string | Buffer, op: string): Promise<number>;
  scrubLookup(marker: string, prefix: string, packed: Buffer): Promise<string | null>;
};

/** Groups numbers by area code: npa → packed 7-digit rests, with the original indexes. */
function byArea(numbers: Float64Array, count: number): Map<number, { packed: string[]; idx: number[] }> {
  const m = new Map<number, { packed: string[]; idx: number[] }>();
  for (let i = 0; i < count; i++) {
    const x = numbers[i];
    const npa = Math.floor(x / 10_000_000);
    let g = m.get(npa);
    if (!g) m.set(npa, (g = { packed: [], idx: [] }));
    g.packed.push(String(x - npa * 10_000_000).padStart(7, "0"));
    g.idx.push(i);
  }
  return m;
}

/** numbers[from, to) (10-digit) as ASCII digits, 10 bytes each: String() and join cost ~1 µs a number. */
function packDigits(numbers: Float64Array, from: number, to: number): Buffer {
  const b = Buffer.allocUnsafe((to - from) * 10);
  let o = 0;
  for (let i = from; i < to; i++) {
    const x = numbers[i];
    let hi = Math.floor(x / 100_000); // first 5 digits (int32)
    let lo = x - hi * 100_000; // last 5
    for (let k = 4; k >= 0; k--) {
      b[o + k] = 48 + (hi % 10);
      hi = (hi / 10) | 0;
      b[o + 5 + k] = 48 + (lo % 10);
      lo = (lo / 10) | 0;
    }
    o += 10;
  }
  return b;
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
function signPayload(b: Buffer, from: number, to: number): void {
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

/** Restore script: bytes of records per call, calls and bytes per pipeline. */
const RESTORE_BYTES = 1 << 20;
const RESTORE_CALLS = 100;
const RESTORE_PIPELINE_BYTES = 8 << 20;

/** True when c is strictly increasing and above `after` (sorted, distinct, continuing the previous chunk). */
function increasingAfter(c: Float64Array, after: number): boolean {
  let prev = after;
  for (let i = 0; i < c.length; i++) {
    if (!(c[i] > prev)) return false;
    prev = c[i];
  }
  return true;
}

export interface RedisStoreOptions {
  url: string;
  /** Key prefix (tests use a unique one per run). */
  prefix?: string;
  /**
   * A generation's sets are deleted by SCAN … MATCH while Redis holds fewer keys than this, above it by
   * unlinking all 1,000,000 possible NPA-NXX names (a SCAN walks every key of the server: ~13 s for ~1.5M keys
   * on the shared Redis here, the names ~1 s).
   */
  scanBelowKeys?: number;
}

export class RedisListStore implements ListStore {
  readonly kind = "redis" as const;
  /** One copy for every process: written by loads and `lists rebuild`, never by a scrub. */
  readonly fillsOnDemand = false;
  readonly redis: Redis;
  readonly prefix: string;
  readonly scanBelowKeys: number;

  constructor(opts: RedisStoreOptions) {
    this.prefix = opts.prefix ?? "dps:";
    this.scanBelowKeys = opts.scanBelowKeys ?? 1_000_000;
    this.redis = new Redis(opts.url, {
      lazyConnect: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 3000,
      commandTimeout: 30_000,
      enableOfflineQueue: true,
    });
    // Errors surface on commands (a scrub then fails closed); don't crash on the connection event.
    this.redis.on("error", () => {});
    this.redis.defineCommand("scrubWrite", { numberOfKeys: 1, lua: WRITE_LUA });
    this.redis.defineCommand("scrubLookup", { numberOfKeys: 1, lua: LOOKUP_LUA });
    this.redis.defineCommand("scrubRestore", { numberOfKeys: 1, lua: RESTORE_LUA });
    this.redis.defineCommand("scrubUnlinkArea", { numberOfKeys: 1, lua: UNLINK_AREA_LUA });
  }

  private metaKey(listId: number): string {
    return `${this.prefix}meta:${listId}`;
  }
  private genKey(listId: number, gen: number): string {
    return `${this.prefix}gen:${listId}:${gen}`;
  }
  private setPrefix(listId: number, gen: number): string {
    return `${this.prefix}n:${listId}:${gen}:`;
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ListStoreError) throw e;
      throw new ListStoreError(`The list store (Redis) did not answer (${what}): ${(e as Error).message}`);
    }
  }

  private async meta(listId: number): Promise<{ version: number | null; gen: number; state: string } | null> {
    const m = await this.call("meta", () => this.redis.hgetall(this.metaKey(listId)));
    if (!m || !m.gen) return null;
    return { version: m.version ? Number(m.version) : null, gen: Number(m.gen), state: m.state ?? "" };
  }

  async version(listId: number): Promise<number | null> {
    const m = await this.meta(listId);
    if (!m || m.state !== "ready") return null;
    return m.version;
  }

  async snapshot(listId: number, version: number): Promise<ListSnapshot> {
    const m = await this.meta(listId);
    if (!m || m.state !== "ready" || m.version !== version) {
      throw new ListStoreError(
        `The list store (Redis) has no current copy of list ${listId}: it holds ${
          !m ? "nothing" : m.state !== "ready" ? "a copy being changed" : `version ${m.version}`
        }, the database has version ${version}. Rebuild it with \`npm run lists -- rebuild\`.`,
      );
    }
    const gen = m.gen;
    const marker = this.genKey(listId, gen);
    const prefix = this.setPrefix(listId, gen);
    const redis = this.redis;
    const call = this.call.bind(this);
    return {
      listId,
      version,
      async has(numbers: Float64Array, count: number): Promise<Uint8Array> {
        const out = new Uint8Array(count);
        for (let s = 0; s < count; s += LOOKUP_BATCH) {
          const e = Math.min(count, s + LOOKUP_BATCH);
          const packed = packDigits(numbers, s, e);
          const sp = redis as unknown as ScriptRedis;
          const answers = await call("lookup", () => sp.scrubLookup(marker, prefix, packed));
          if (answers === null) {
            throw new ListStoreError(
              `List ${listId} was replaced while this file was being scrubbed; its old copy is gone. Run the scrub again.`,
            );
          }
          if (typeof answers !== "string" || answers.length !== e - s) throw new ListStoreError("The list store (Redis) gave an incomplete answer.");
          for (let i = s; i < e; i++) if (answers.charCodeAt(i - s) === 49) out[i] = 1;
        }
        return out;
      },
    };
  }

  async beginChange(listId: number): Promise<void> {
    const m = await this.meta(listId);
    if (!m) {
      await this.call("begin", () =>
        this.redis
          .multi()
          .hset(this.metaKey(listId), { gen: 1, version: "", state: "changing" })
          .set(this.genKey(listId, 1), "1")
          .exec(),
      );
      return;
    }
    await this.call("begin", () => this.redis.hset(this.metaKey(listId), { state: "changing" }));
  }

  /**
   * SADD/SREM of numbers through the write script, one call per area code (≤ SCRIPT_BATCH numbers). The
   * packed 7-digit rests are written as ASCII straight into a Buffer (no string per number: byArea's
   * strings and their garbage cost ~6 s of a 20M-number load). Input is normally sorted already.
   */
  private async writeSets(prefix: string, numbers: Float64Array, op: "sadd" | "srem"): Promise<void> {
    let sorted = numbers;
    for (let i = 1; i < numbers.length; i++) {
      if (numbers[i] < numbers[i - 1]) {
        sorted = numbers.slice().sort();
        break;
      }
    }
    const calls: [string, Buffer][] = [];
    for (let i = 0; i < sorted.length; ) {
      const npa = Math.floor(sorted[i] / 10_000_000);
      const base = npa * 10_000_000;
      const limit = base + 10_000_000;
      let j = i;
      while (j < sorted.length && j - i < SCRIPT_BATCH && sorted[j] < limit) j++;
      const packed = Buffer.allocUnsafe((j - i) * 7);
      for (let k = i, o = 0; k < j; k++, o += 7) {
        let r = (sorted[k] - base) | 0;
        for (let d = 6; d >= 0; d--) {
          const q = (r / 10) | 0;
          packed[o + d] = 48 + r - q * 10;
          r = q;
        }
      }
      calls.push([`${prefix}{${npa}}`, packed]);
      i = j;
    }
    for (let s = 0; s < calls.length; s += 200) {
      const p = this.redis.pipeline();
      const sp = p as unknown as ScriptRedis;
      for (const [k, packed] of calls.slice(s, s + 200)) sp.scrubWrite(k, k, packed, op);
      const res = await this.call(op, () => p.exec());
      for (const [err] of res ?? []) if (err) throw new ListStoreError(`The list store (Redis) failed ${op}: ${err.message}`);
    }
  }

  async add(listId: number, numbers: Float64Array): Promise<void> {
    const m = await this.meta(listId);
    if (!m || m.state !== "changing") throw new ListStoreError(`add to list ${listId} without beginChange`);
    await this.writeSets(this.setPrefix(listId, m.gen), numbers, "sadd");
  }

  async remove(listId: number, numbers: Float64Array): Promise<void> {
    const m = await this.meta(listId);
    if (!m || m.state !== "changing") throw new ListStoreError(`remove from list ${listId} without beginChange`);
    await this.writeSets(this.setPrefix(listId, m.gen), numbers, "srem");
  }

  async replace(listId: number, chunks: AsyncIterable<Float64Array> | Iterable<Float64Array>): Promise<ReplaceHandle> {
    const generation = await this.call("replace", () => this.redis.incr(`${this.prefix}gencounter:${listId}`));
    const m = await this.meta(listId);
    // generations must not collide with the served one
    const gen = m && generation <= m.gen ? m.gen + generation : generation;
    if (m && gen <= m.gen) throw new ListStoreError("generation clash");
    const prefix = this.setPrefix(listId, gen);
    try {
      const rdb = await this.rdbVersion();
      // Sorted, distinct input (every caller's): each set of the new generation is written whole with
      // RESTORE of an intset payload built here, so Redis does no per-number work (the write script cost
      // Redis ~1.9 µs of CPU per number). The last NPA-NXX group of a chunk waits for the next chunk, as the
      // group may continue there. Input that is not sorted and distinct falls back to the script (SADD
      // merges, and no RESTORE follows it).
      let restoring = rdb > 0;
      let pending: Float64Array = new Float64Array(0);
      let last = -1;
      for await (const c of chunks) {
        if (!c.length) continue;
        if (restoring && !increasingAfter(c, last)) {
          restoring = false;
          if (pending.length) await this.writeSets(prefix, pending, "sadd");
          pending = new Float64Array(0);
        }
        if (!restoring) {
          await this.writeSets(prefix, c, "sadd");
          continue;
        }
        let data = c;
        if (pending.length) {
          data = new Float64Array(pending.length + c.length);
          data.set(pending);
          data.set(c, pending.length);
        }
        last = data[data.length - 1];
        const lastKey = Math.floor(last / 10_000);
        let cut = data.length;
        while (cut > 0 && Math.floor(data[cut - 1] / 10_000) === lastKey) cut--;
        await this.restoreSets(prefix, data.subarray(0, cut), rdb);
        pending = data.slice(cut);
      }
      if (pending.length) await this.restoreSets(prefix, pending, rdb);
    } catch (e) {
      await this.deleteGeneration(listId, gen).catch(() => {});
      throw e;
    }
    return { generation: gen };
  }

  private rdb: number | null = null;

  /** The server's DUMP format version (read once from a probe key); 0 when its DUMP is not as expected. */
  private async rdbVersion(): Promise<number> {
    if (this.rdb != null) return this.rdb;
    const key = `${this.prefix}probe:${process.pid}:${Date.now()}`;
    const d = await this.call("dump", async () => {
      await this.redis.sadd(key, 1, 2);
      try {
        return await this.redis.dumpBuffer(key);
      } finally {
        await this.redis.del(key);
      }
    });
    // type 11 (intset), length 12, int16 encoding, 2 members, then the version (2 bytes) and CRC (8 bytes)
    const ok = d && d.length === 24 && d[0] === 11 && d[1] === 12 && d.readUInt32LE(2) === 2 && d.readUInt32LE(6) === 2;
    this.rdb = ok ? d.readUInt16LE(14) : 0;
    return this.rdb;
  }

  /**
   * Creates the NPA-NXX sets of sorted, distinct numbers (each group complete) with RESTORE … REPLACE of a
   * DUMP payload: an intset of int16 line numbers (what SADD builds; Redis converts a set over
   * set-max-intset-entries to a hash table on load, as SADD would).
   */
  private async restoreSets(prefix: string, numbers: Float64Array, rdb: number): Promise<void> {
    let i = 0;
    while (i < numbers.length) {
      // one pipeline of script calls, each one area code's records (≤ RESTORE_BYTES)
      const calls: [string, Buffer][] = [];
      let total = 0;
      while (i < numbers.length && calls.length < RESTORE_CALLS && total < RESTORE_PIPELINE_BYTES) {
        const npa = Math.floor(numbers[i] / 10_000_000);
        const end = (npa + 1) * 10_000_000;
        let j = i;
        let bytes = 0;
        while (j < numbers.length && numbers[j] < end && bytes < RESTORE_BYTES) {
          const k = Math.floor(numbers[j] / 10_000);
          let e = j + 1;
          while (e < numbers.length && numbers[e] < (k + 1) * 10_000) e++;
          bytes += 8 + 1 + 5 + 8 + 2 * (e - j) + 2 + 8;
          j = e;
        }
        const buf = Buffer.allocUnsafe(bytes);
        let o = 0;
        for (let g = i; g < j; ) {
          const k = Math.floor(numbers[g] / 10_000);
          let e = g + 1;
          while (e < j && numbers[e] < (k + 1) * 10_000) e++;
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
        calls.push([`${prefix}{${npa}}`, buf.subarray(0, o)]);
        total += o;
        i = j;
      }
      const p = this.redis.pipeline();
      const sp = p as unknown as ScriptRedis;
      for (const [k, records] of calls) sp.scrubRestore(k, k, records);
      const res = await this.call("restore", () => p.exec());
      for (const [err] of res ?? []) if (err) throw new ListStoreError(`The list store (Redis) failed a restore: ${err.message}`);
    }
  }

  async finishChange(listId: number, version: number, replaced?: ReplaceHandle): Promise<void> {
    if (!replaced) {
      await this.call("finish", () => this.redis.hset(this.metaKey(listId), { version, state: "ready" }));
      return;
    }
    const old = await this.meta(listId);
    await this.call("swap", () =>
      this.redis
        .multi()
        .set(this.genKey(listId, replaced.generation), "1")
        .hset(this.metaKey(listId), { gen: replaced.generation, version, state: "ready" })
        .exec(),
    );
    if (old && old.gen !== replaced.generation) await this.deleteGeneration(listId, old.gen);
  }

  async abortReplace(listId: number, replaced: ReplaceHandle): Promise<void> {
    await this.deleteGeneration(listId, replaced.generation);
  }

  /** Deletes a generation: its marker first (running snapshots then fail closed), then its sets. */
  private async deleteGeneration(listId: number, gen: number): Promise<void> {
    await this.call("delete", () => this.redis.del(this.genKey(listId, gen)));
    const keys = await this.call("dbsize", () => this.redis.dbsize());
    if (keys < this.scanBelowKeys) {
      await this.unlinkMatching(`${this.setPrefix(listId, gen)}*`);
      return;
    }
    const prefix = this.setPrefix(listId, gen);
    for (let npa = 0; npa < 1000; npa += 100) {
      const p = this.redis.pipeline();
      const sp = p as unknown as ScriptRedis;
      for (let a = npa; a < npa + 100; a++) sp.scrubUnlinkArea(`${prefix}{${a}}`, `${prefix}{${a}}`);
      const res = await this.call("unlink", () => p.exec());
      for (const [err] of res ?? []) if (err) throw new ListStoreError(`The list store (Redis) failed to delete: ${err.message}`);
    }
  }

  async unlinkMatching(pattern: string): Promise<number> {
    let cursor = "0";
    let n = 0;
    do {
      const [next, keys] = await this.call("scan", () => this.redis.scan(cursor, "MATCH", pattern, "COUNT", 5000));
      cursor = next;
      if (keys.length) {
        await this.call("unlink", () => this.redis.unlink(...keys));
        n += keys.length;
      }
    } while (cursor !== "0");
    return n;
  }

  async drop(listId: number): Promise<void> {
    await this.call("drop", () => this.redis.del(this.metaKey(listId)));
    await this.unlinkMatching(`${this.prefix}gen:${listId}:*`);
    await this.unlinkMatching(`${this.prefix}n:${listId}:*`);
  }

  async memoryBytes(): Promise<number> {
    const info = await this.call("info", () => this.redis.info("memory"));
    const m = /used_memory:(\d+)/.exec(info);
    return m ? Number(m[1]) : 0;
  }

  change(listId: number, mode: ChangeMode, numbers: Float64Array): StoreChange {
    return new RedisChange(this, listId, mode, numbers);
  }

  /** Redis cannot hand a copy back cheaply: the Bloom filter is built from the database. */
  numbersOf(): null {
    return null;
  }

  /** The copy lives in Redis; nothing is saved on disk. */
  async saveCopy(): Promise<boolean> {
    return false;
  }

  async loadCopy(): Promise<boolean> {
    return false;
  }

  /** Deletes every key of this store's prefix (tests). */
  async clearAll(): Promise<void> {
    await this.unlinkMatching(`${this.prefix}*`);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/**
 * One add/remove/replace of a Redis copy, which every process reads while the database writes:
 *  - a replace (or an add into an empty list) builds the new generation aside, from the start of the change
 *    (overlapping the database's writes), and swaps it in after the commit; the old copy is served meanwhile;
 *  - an add or remove into a current copy marks it changing first and writes in place (an add while the
 *    database copies, a remove after the database counted removals); a rollback then drops the copy, so
 *    scrubs fail closed until `lists rebuild`;
 *  - a copy that was not current stays so (fail closed) until rebuilt.
 */
class RedisChange implements StoreChange {
  private building: Promise<ReplaceHandle> | null = null;
  private replaced: ReplaceHandle | undefined;
  /** The copy was current before this change (or the list was empty): it is updated in place. */
  private inPlace = false;
  private touched = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: RedisListStore,
    private readonly listId: number,
    private readonly mode: ChangeMode,
    private readonly numbers: Float64Array,
  ) {
    if (mode === "replace") this.buildAside();
  }

  private buildAside(): void {
    this.building = this.store.replace(this.listId, chunksOf(this.numbers));
    this.building.catch(() => {});
  }

  async started(start: ChangeStart): Promise<void> {
    const { store, listId } = this;
    if (start.wholeList) {
      if (!this.building) this.buildAside();
      return;
    }
    const sv = await store.version(listId);
    this.inPlace = sv === start.version || start.size === 0;
    if (this.inPlace && sv !== start.version) await store.drop(listId); // empty list: start clean
    if (this.mode === "add" && this.inPlace && this.numbers.length) {
      this.touched = true;
      await store.beginChange(listId);
      this.writing = (async () => {
        for (const c of chunksOf(this.numbers)) await store.add(listId, c);
      })();
      this.writing.catch(() => {});
    }
  }

  async written({ removed }: { added: number; removed: number }): Promise<void> {
    if (this.mode !== "remove" || !this.inPlace || !removed) return;
    this.touched = true;
    await this.store.beginChange(this.listId);
    for (const c of chunksOf(this.numbers)) await this.store.remove(this.listId, c);
  }

  async beforeCommit(): Promise<void> {
    await this.writing;
    if (this.building) this.replaced = await this.building;
  }

  async committed(version: number): Promise<void> {
    if (this.replaced) {
      await this.store.finishChange(this.listId, version, this.replaced);
    } else if (this.inPlace) {
      if (!this.touched) await this.store.beginChange(this.listId);
      await this.store.finishChange(this.listId, version);
    }
  }

  async failed(): Promise<void> {
    if (this.building && !this.replaced) this.replaced = await this.building.catch(() => undefined);
    if (this.replaced) await this.store.abortReplace(this.listId, this.replaced).catch(() => {});
    // the copy was touched but the database did not commit: dropped, so scrubs fail closed until rebuilt
    if (this.touched) await this.store.drop(this.listId).catch(() => {});
  }
}
