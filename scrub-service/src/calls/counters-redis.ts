/**
 * The call counters in Redis or a Redis Cluster (decision 196), beside the list sets, through the list store's own
 * client setup (createRedisClient: one node, Sentinel's primary, or a cluster). Keys, each carrying the hash tag of one
 * of GROUPS groups, so that a number's bucket and its group's marker share one slot (one script call, one node):
 *
 *   <p>cc:{cg<g>}<owner><NPA-N>    hash: last six digits → the number's entry (counters.ts encodeEntry)
 *   <p>cm:{cg<g>}                  the group's marker: 'r' built and current, 'b' being rebuilt; missing: lost
 *
 * g is a hash of (owner, NPA-N) modulo GROUPS; a script call carries one group's marker and the buckets it touches. A
 * bucket groups an owner's numbers of one NPA-N (BUCKET_SPAN), so Redis keeps most buckets as a listpack (a few bytes
 * per field) rather than a key per number (~100 bytes of key overhead each). A bucket expires COUNTER_RETAIN_MS after
 * its last write; old records are trimmed on every write.
 *
 * A node that restarted empty or a FLUSHALL lose the markers with the counters: their numbers read as not ready, so a
 * lookup reads the database for them (correct, slower) and a rebuild from PostgreSQL is started; a decision is never
 * taken on an empty counter that should not be empty. The only scripts are a read and a compare-and-set: the caps
 * are decided in TypeScript (cappedCalling), never in Lua.
 */
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { createRedisClient, isCluster, masters, type RedisClient, type RedisTarget } from "../lists/redis-client";
import {
  COUNTER_RETAIN_MS,
  decodeEntry,
  encodeEntry,
  mergeRecords,
  nextVersion,
  RebuildGate,
  type CallCounterStore,
  type CasMode,
  type CasOp,
  type CasResult,
  type CounterEntry,
  type CounterRecord,
} from "./counters";
import { readRecentCalls } from "./store";

/**
 * Groups of buckets, each with its marker: 64 hash tags, spread over every cluster master. A lookup of many numbers
 * makes one script call per group it touches (at most 64 for 1,000 numbers), not one per bucket.
 */
export const GROUPS = 64;

/**
 * Numbers per bucket: an owner's numbers of one NPA-N (the area code and the exchange's first digit, 1,000,000
 * numbers). Per key Redis spends ~100 bytes of its own, so a bucket must hold several numbers for a number to cost
 * less than that: an owner with 10,000 numbers with history has ~3 per NPA-N, with 500,000 ~170 (NPA-NX buckets held
 * ~1 per key below ~1M numbers). The listpack limits are raised so that such buckets stay listpacks (LISTPACK_*).
 */
export const BUCKET_SPAN = 1_000_000;
/** hash-max-listpack-entries / -value raised to these on every master (once per store) before the first write. */
export const LISTPACK_ENTRIES = 1024;
export const LISTPACK_VALUE = 256;

/*
 * The scripts declare one key, the group's marker, and name the group's buckets in ARGV: ioredis routes (and, in a
 * cluster, pipelines) a call by its declared keys, which must be one slot; the buckets carry the marker's hash tag, so
 * they are in that slot too (Redis lets a script touch undeclared keys of its node, as the list store's lookup does).
 */

/**
 * KEYS[1] a group's marker; ARGV[1] the number of buckets B, ARGV[2…B+1] the buckets, then pairs (the bucket's
 * position, the field). Answers the marker ('' when lost) and each field's value (false when none).
 */
const READ_LUA = `
local out = { redis.call('get', KEYS[1]) or '' }
local b = tonumber(ARGV[1])
for i = b + 2, #ARGV, 2 do out[#out + 1] = redis.call('hget', ARGV[1 + tonumber(ARGV[i])], ARGV[i + 1]) end
return out`;

/**
 * KEYS[1] a group's marker; ARGV[1] the mode ('r' the marker must be 'r', 'n' it must not, 'a' any), ARGV[2] the
 * buckets' time to live (ms), ARGV[3] the number of buckets B, ARGV[4…B+3] the buckets, then per op: the bucket's
 * position, the field, the version read (4 bytes, '' for none) and the new value ('' deletes the field). Per op 1
 * written, 0 the version moved; -1 not ready, -2 ready (the mode).
 */
const CAS_LUA = `
local m = redis.call('get', KEYS[1])
if ARGV[1] == 'r' and m ~= 'r' then return -1 end
if ARGV[1] == 'n' and m == 'r' then return -2 end
local out = {}
local b = tonumber(ARGV[3])
for i = b + 4, #ARGV, 4 do
  local key = ARGV[3 + tonumber(ARGV[i])]
  local cur = redis.call('hget', key, ARGV[i + 1])
  if (cur and string.sub(cur, 1, 4) or '') == ARGV[i + 2] then
    if ARGV[i + 3] == '' then redis.call('hdel', key, ARGV[i + 1]) else redis.call('hset', key, ARGV[i + 1], ARGV[i + 3]) end
    redis.call('pexpire', key, ARGV[2])
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
end
return out`;

/** KEYS[1] a marker: 'b' unless it is 'r' (answers 1 when it was not ready). */
const BEGIN_LUA = `if redis.call('get', KEYS[1]) == 'r' then return 0 end redis.call('set', KEYS[1], 'b') return 1`;
/** KEYS[1] a marker: 'r' when it is still 'b' (a loss meanwhile leaves it lost). */
const FINISH_LUA = `if redis.call('get', KEYS[1]) == 'b' then redis.call('set', KEYS[1], 'r') return 1 end return 0`;

type CounterScripts = {
  callCountersReadBuffer(marker: string, ...args: string[]): Promise<(Buffer | null)[]>;
  callCountersCas(marker: string, ...args: (string | Buffer)[]): Promise<number | number[]>;
  callCountersBegin(marker: string): Promise<number>;
  callCountersFinish(marker: string): Promise<number>;
};

/** An owner's id (a UUID) as 22 characters (its 16 bytes, base64url); any other text as it is. */
function ownerTag(owner: string): string {
  const hex = owner.replace(/-/g, "");
  return /^[0-9a-f]{32}$/i.test(hex) ? Buffer.from(hex, "hex").toString("base64url") : owner;
}

/** FNV-1a of a string, for the group. */
function groupOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h % GROUPS;
}

export interface RedisCallCountersOptions {
  target: RedisTarget;
  /** The engine's key prefix (SCRUB_REDIS_PREFIX; default `dps:`). */
  prefix?: string;
  db: Kysely<Database>;
  reconnectMaxMs?: number;
  rebuildGapMs?: number;
  /** The clock old records are trimmed against (tests); default Date.now. */
  now?: () => number;
  /**
   * Whether a read that finds a group lost starts a rebuild (default true). A short-lived process (the CLI) says no:
   * it only feeds the counters, and the servers rebuild them.
   */
  autoRebuild?: boolean;
}

export class RedisCallCounters implements CallCounterStore {
  readonly kind = "redis" as const;
  readonly redis: RedisClient;
  readonly prefix: string;
  private readonly db: Kysely<Database>;
  private readonly gate: RebuildGate;
  private readonly tags = new Map<string, string>();

  readonly now: () => number;

  private readonly autoRebuild: boolean;

  constructor(o: RedisCallCountersOptions) {
    this.now = o.now ?? Date.now;
    this.autoRebuild = o.autoRebuild ?? true;
    this.prefix = o.prefix ?? "dps:";
    this.db = o.db;
    this.redis = createRedisClient(o.target, { reconnectMaxMs: o.reconnectMaxMs });
    this.redis.defineCommand("callCountersRead", { numberOfKeys: 1, lua: READ_LUA });
    this.redis.defineCommand("callCountersCas", { numberOfKeys: 1, lua: CAS_LUA });
    this.redis.defineCommand("callCountersBegin", { numberOfKeys: 1, lua: BEGIN_LUA });
    this.redis.defineCommand("callCountersFinish", { numberOfKeys: 1, lua: FINISH_LUA });
    this.gate = new RebuildGate(() => this.rebuild(), "Redis", o.rebuildGapMs);
  }

  private get scripts(): CounterScripts {
    return this.redis as unknown as CounterScripts;
  }

  private markerKey(g: number): string {
    return `${this.prefix}cm:{cg${g}}`;
  }

  /** The number's bucket key, its group's marker and its field. */
  private where(owner: string, number: number): { bucket: string; marker: string; field: string; group: number } {
    let tag = this.tags.get(owner);
    if (tag === undefined) {
      if (this.tags.size > 100_000) this.tags.clear();
      this.tags.set(owner, (tag = ownerTag(owner)));
    }
    const nx = Math.floor(number / BUCKET_SPAN);
    const g = groupOf(`${tag}${nx}`);
    return { bucket: `${this.prefix}cc:{cg${g}}${tag}${nx}`, marker: this.markerKey(g), field: String(number % BUCKET_SPAN), group: g };
  }

  /** Numbers (their indexes) by group: one script call per group, its marker first and then its buckets. */
  private byGroup(owner: string, numbers: readonly number[]): { marker: string; buckets: string[]; at: number[]; bucketOf: number[]; fields: string[] }[] {
    const out = new Map<number, { marker: string; buckets: string[]; slot: Map<string, number>; at: number[]; bucketOf: number[]; fields: string[] }>();
    numbers.forEach((n, i) => {
      const w = this.where(owner, n);
      let g = out.get(w.group);
      if (!g) out.set(w.group, (g = { marker: w.marker, buckets: [], slot: new Map(), at: [], bucketOf: [], fields: [] }));
      let b = g.slot.get(w.bucket);
      if (b === undefined) {
        g.slot.set(w.bucket, (b = g.buckets.length + 1)); // its position among the call's buckets, from 1
        g.buckets.push(w.bucket);
      }
      g.at.push(i);
      g.bucketOf.push(b);
      g.fields.push(w.field);
    });
    return [...out.values()];
  }

  async read(owner: string, numbers: readonly number[]): Promise<{ entries: CounterEntry[]; ready: boolean[] }> {
    const entries: CounterEntry[] = new Array(numbers.length);
    const ready: boolean[] = new Array(numbers.length);
    let lost = false;
    await Promise.all(
      this.byGroup(owner, numbers).map(async (g) => {
        const args: string[] = [];
        g.at.forEach((_, k) => args.push(String(g.bucketOf[k]), g.fields[k]));
        const got = await this.scripts.callCountersReadBuffer(g.marker, String(g.buckets.length), ...g.buckets, ...args);
        const isReady = got[0] !== null && got[0].toString() === "r";
        if (!isReady) lost = true;
        g.at.forEach((i, k) => {
          const v = got[k + 1];
          entries[i] = v ? decodeEntry(v) : { version: 0, records: [] };
          ready[i] = isReady;
        });
      }),
    );
    if (lost && this.rebuilding === 0 && this.autoRebuild) void this.requestRebuild();
    return { entries, ready };
  }

  private compact: Promise<void> | null = null;

  /**
   * Raises hash-max-listpack-entries and -value on every master (once per store; never lowers them), so buckets stay
   * listpacks (a few bytes per field) rather than hash tables (~90 bytes per field). A server that refuses CONFIG
   * (managed Redis) keeps working at more memory per number; the warning names redis.conf.
   */
  private ensureCompactBuckets(): Promise<void> {
    this.compact ??= (async () => {
      const nodes = isCluster(this.redis) ? await masters(this.redis) : [this.redis];
      for (const node of nodes) {
        for (const [name, want] of [
          ["hash-max-listpack-entries", LISTPACK_ENTRIES],
          ["hash-max-listpack-value", LISTPACK_VALUE],
        ] as const) {
          try {
            const [, value] = (await node.config("GET", name)) as string[];
            if (Number(value) < want) await node.config("SET", name, String(want));
          } catch (e) {
            console.warn(`[calls] Redis: ${name} could not be raised to ${want} (${(e as Error).message}); set it in redis.conf on every node.`);
          }
        }
      }
    })().catch(() => {
      this.compact = null;
    });
    return this.compact;
  }

  async cas(owner: string, ops: readonly CasOp[], mode: CasMode): Promise<CasResult[]> {
    if (!this.compact) await this.ensureCompactBuckets();
    const results: CasResult[] = new Array(ops.length);
    const m = mode === "ready" ? "r" : mode === "not-ready" ? "n" : "a";
    await Promise.all(
      this.byGroup(
        owner,
        ops.map((o) => o.number),
      ).map(async (g) => {
        const args: (string | Buffer)[] = [m, String(COUNTER_RETAIN_MS), String(g.buckets.length), ...g.buckets];
        g.at.forEach((i, k) => {
          const op = ops[i];
          const expected = op.version === 0 ? "" : Buffer.from([op.version >>> 24, (op.version >>> 16) & 255, (op.version >>> 8) & 255, op.version & 255]);
          args.push(String(g.bucketOf[k]), g.fields[k], expected, op.records.length === 0 ? "" : encodeEntry(nextVersion(op.version), op.records));
        });
        const r = await this.scripts.callCountersCas(g.marker, ...args);
        g.at.forEach((i, k) => {
          results[i] = r === -1 ? "not-ready" : r === -2 ? "ready" : (r as number[])[k] === 1 ? "ok" : "conflict";
        });
      }),
    );
    return results;
  }

  requestRebuild(): Promise<void> {
    return this.gate.request();
  }

  /**
   * Rebuilds every group that is not ready: marks it 'b', merges every record of the last COUNTER_RETAIN_MS from
   * PostgreSQL into its buckets (by id: what writers appended meanwhile stays), then marks it 'r' if nothing was lost
   * meanwhile. Writes during the rebuild go in as usual; reservations meanwhile are decided on PostgreSQL.
   */
  async rebuild(): Promise<void> {
    this.rebuilding++;
    try {
      await this.rebuildGroups();
    } finally {
      this.rebuilding--;
    }
  }

  private rebuilding = 0;

  private async rebuildGroups(): Promise<void> {
    const groups = Array.from({ length: GROUPS }, (_, g) => g);
    const began = await Promise.all(groups.map((g) => this.scripts.callCountersBegin(this.markerKey(g))));
    const building = new Set(groups.filter((g) => began[g] === 1));
    if (building.size === 0) return;
    const nowMs = this.now();
    let merged = 0;
    await readRecentCalls(this.db, nowMs - COUNTER_RETAIN_MS, async (owner, byNumber) => {
      const mine = [...byNumber].filter(([n]) => building.has(this.where(owner, n).group));
      merged += mine.length;
      await this.merge(owner, new Map(mine), nowMs);
    });
    await Promise.all([...building].map((g) => this.scripts.callCountersFinish(this.markerKey(g))));
    if (merged > 0) console.info(`[calls] call counters rebuilt in Redis from the database: ${building.size} group(s), ${merged} number(s) with records`);
  }

  /** Merges records into numbers' entries (compare-and-set, any state). */
  private async merge(owner: string, byNumber: Map<number, CounterRecord[]>, nowMs: number): Promise<void> {
    let todo = [...byNumber.keys()];
    for (let tries = 0; todo.length > 0 && tries < 100; tries++) {
      const { entries } = await this.read(owner, todo);
      const ops = todo.map((number, i) => ({ number, version: entries[i].version, records: mergeRecords(entries[i].records, byNumber.get(number)!, nowMs) }));
      const results = await this.cas(owner, ops, "any");
      todo = todo.filter((_, i) => results[i] !== "ok");
    }
  }

  /** Deletes every marker (a loss, as a flushed Redis would be; tests and `calls counters reset`). */
  async forgetMarkers(): Promise<void> {
    await Promise.all(Array.from({ length: GROUPS }, (_, g) => this.redis.del(this.markerKey(g))));
  }

  /** Deletes every counter key and marker of this prefix (tests; a loss as FLUSHALL makes one). */
  async clear(): Promise<void> {
    const nodes = isCluster(this.redis) ? await masters(this.redis) : [this.redis];
    for (const node of nodes) {
      for (const pattern of [`${this.prefix}cc:*`, `${this.prefix}cm:*`]) {
        let cursor = "0";
        do {
          const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1000);
          cursor = next;
          for (const k of keys) await node.unlink(k);
        } while (cursor !== "0");
      }
    }
  }

  /** MEMORY USAGE of every counter bucket, and the numbers (fields) they hold. */
  async usage(): Promise<{ bytes: number; numbers: number; keys: number }> {
    let bytes = 0;
    let numbers = 0;
    let count = 0;
    const nodes = isCluster(this.redis) ? await masters(this.redis) : [this.redis];
    for (const node of nodes) {
      let cursor = "0";
      do {
        const [next, keys] = await node.scan(cursor, "MATCH", `${this.prefix}cc:*`, "COUNT", 1000);
        cursor = next;
        for (const k of keys) {
          bytes += Number((await node.memory("USAGE", k, "SAMPLES", "0")) ?? 0);
          numbers += await node.hlen(k);
          count++;
        }
      } while (cursor !== "0");
    }
    return { bytes, numbers, keys: count };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
