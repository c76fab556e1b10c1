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
import { ListStoreError, type ListSnapshot, type ListStore, type ReplaceHandle } from "./store";

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

type ScriptRedis = {
  scrubWrite(key: string, prefix: string, packed: string, op: string): Promise<number>;
  scrubLookup(marker: string, prefix: string, packed: string): Promise<string | null>;
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

export interface RedisStoreOptions {
  url: string;
  /** Key prefix (tests use a unique one per run). */
  prefix?: string;
}

export class RedisListStore implements ListStore {
  readonly kind = "redis" as const;
  readonly redis: Redis;
  readonly prefix: string;

  constructor(opts: RedisStoreOptions) {
    this.prefix = opts.prefix ?? "dps:";
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
          const parts: string[] = new Array(e - s);
          for (let i = s; i < e; i++) parts[i - s] = String(numbers[i]);
          const sp = redis as unknown as ScriptRedis;
          const answers = await call("lookup", () => sp.scrubLookup(marker, prefix, parts.join("")));
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

  private async writeSets(prefix: string, numbers: Float64Array, op: "sadd" | "srem"): Promise<void> {
    const sorted = numbers.slice().sort();
    const calls: [string, string][] = [];
    for (const [npa, g] of byArea(sorted, sorted.length)) {
      const keyPrefix = `${prefix}{${npa}}`;
      for (let s = 0; s < g.packed.length; s += SCRIPT_BATCH) calls.push([keyPrefix, g.packed.slice(s, s + SCRIPT_BATCH).join("")]);
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
      for await (const c of chunks) await this.writeSets(prefix, c, "sadd");
    } catch (e) {
      await this.deleteGeneration(listId, gen).catch(() => {});
      throw e;
    }
    return { generation: gen };
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
    await this.unlinkMatching(`${this.setPrefix(listId, gen)}*`);
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

  /** Deletes every key of this store's prefix (tests). */
  async clearAll(): Promise<void> {
    await this.unlinkMatching(`${this.prefix}*`);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
