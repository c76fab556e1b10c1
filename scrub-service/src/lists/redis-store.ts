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

const PIPELINE = 2000;

function keyParts(x: number): [key: string, member: number] {
  const npa = Math.floor(x / 10_000_000);
  const rest = x - npa * 10_000_000;
  const nxx = Math.floor(rest / 10_000);
  return [`{${npa}}${nxx}`, rest - nxx * 10_000];
}

/** Groups numbers by bucket key: key → members. */
function byKey(numbers: Float64Array, count = numbers.length): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    const [k, member] = keyParts(numbers[i]);
    let a = m.get(k);
    if (!a) m.set(k, (a = []));
    a.push(member);
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
        if (count === 0) return out;
        // index of each number within its key group, to map answers back
        const groups = new Map<string, { members: number[]; idx: number[] }>();
        for (let i = 0; i < count; i++) {
          const [k, member] = keyParts(numbers[i]);
          let g = groups.get(k);
          if (!g) groups.set(k, (g = { members: [], idx: [] }));
          g.members.push(member);
          g.idx.push(i);
        }
        const entries = [...groups.entries()];
        for (let s = 0; s < entries.length; s += PIPELINE) {
          const part = entries.slice(s, s + PIPELINE);
          const p = redis.pipeline();
          p.exists(marker);
          for (const [k, g] of part) p.smismember(prefix + k, ...g.members);
          const res = await call("lookup", () => p.exec());
          if (!res) throw new ListStoreError("The list store (Redis) did not answer (lookup).");
          for (const [err] of res) if (err) throw new ListStoreError(`The list store (Redis) failed a lookup: ${err.message}`);
          if (res[0][1] !== 1) {
            throw new ListStoreError(
              `List ${listId} was replaced while this file was being scrubbed; its old copy is gone. Run the scrub again.`,
            );
          }
          for (let j = 0; j < part.length; j++) {
            const answers = res[j + 1][1] as number[];
            const idx = part[j][1].idx;
            for (let t = 0; t < idx.length; t++) if (answers[t] === 1) out[idx[t]] = 1;
          }
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
    const groups = [...byKey(numbers).entries()];
    for (let s = 0; s < groups.length; s += PIPELINE) {
      const p = this.redis.pipeline();
      for (const [k, members] of groups.slice(s, s + PIPELINE)) p[op](prefix + k, ...members);
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
