/**
 * Redis list store, on one Redis node or a Redis Cluster (decisions 011 and 112). Compact encoding: one set
 * per (list, generation, NPA-NXX), members the last 4 digits, so Redis keeps each set as an intset (2 bytes
 * per member while a set has ≤ set-max-intset-entries members). The default limit, 512, is below what a
 * national list puts in one NPA-NXX (~700 on average at 250M numbers, up to 10,000), and a set over it becomes
 * a hash table of ~50 bytes per member: before the first write the store raises the limit to 10,000 on every
 * master it writes to (decision 130, the national run). Every key that a script touches carries a hash tag,
 * so each script call stays on one cluster node:
 *
 *   <p>meta:{list:<list>}           hash {version, gen, state: ready|changing}        (the list's own slot)
 *   <p>live:{NPA}                   hash <list> → the generation served for that area code
 *   <p>n:<list>:<gen>:{NPA}NXX      set of line numbers (0–9999)
 *   <p>gencounter:<list>            generation counter
 *
 * A lookup reads an area code's sets only after checking, in the same script on the same node, that the
 * area code's `live` entry names the generation the scrub's snapshot holds. The entry is written after the
 * generation's sets on that node (and a node replicates in order), so a node that restarted empty, or a
 * replica promoted without them, answers "lost" rather than "not on the list": the scrub fails closed.
 * Older layouts (`<p>meta:<list>`, `<p>gen:<list>:<gen>`) read as no copy: the start-up check names the
 * lists stale and `npm run lists -- rebuild` writes the current layout and deletes the old keys.
 */
import type { Redis } from "ioredis";
import { createRedisClient, isCluster, keySlot, masters, nodeName, slotOwner, type RedisClient, type RedisTarget } from "./redis-client";
import {
  chunksOf,
  changeSides,
  ListStoreError,
  type ChangeMode,
  type ChangeStart,
  type CopyDetail,
  type ListSnapshot,
  type ListStore,
  type ReplaceHandle,
  type StoreChange,
} from "./store";
import { defineScrubScripts, type ScriptRedis } from "./redis-scripts";
import { isBucketSorted } from "../worker/sort-distinct";
import { memberCommands, npa3, packByArea, restoreCommands, unlinkAreaCommand } from "./redis-codec";
import { areaSlot, BulkWriter } from "./redis-bulk";

/** Line numbers an NPA-NXX set can hold: with this intset limit no set leaves the 2-byte encoding. */
export const INTSET_ENTRIES = 10_000;
/** Numbers per lookup round (a scrub batch's Bloom positives are usually fewer). */
const LOOKUP_BATCH = 20_000;
/** Script calls in flight at once for writes (they go out back to back, as a pipeline would). */
const WRITE_WINDOW = 200;
/** Area codes with a `live` entry: every three-digit code, so a missing entry always means a lost one. */
const AREA_CODES = 1000;

/** A replacement built aside, with the connection mark its writes started on (see RedisListStore.replicated). */
interface RedisReplaceHandle extends ReplaceHandle {
  connection?: number;
}

export const OLD_LAYOUT_NOTE =
  "Redis holds this list in the key layout before Redis Cluster support (decision 112); it is not used until `npm run lists -- rebuild`";

/**
 * a then b as one array: a view when b follows a in the same memory (the chunks of one sorted array, as a load's
 * are: copying them cost 160 MB of allocation for a 20M-number list), else a copy.
 */
function joined(a: Float64Array, b: Float64Array): Float64Array {
  if (a.buffer === b.buffer && a.byteOffset + a.byteLength === b.byteOffset) return new Float64Array(a.buffer, a.byteOffset, a.length + b.length);
  const out = new Float64Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

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
  /** One Redis node (REDIS_URL); or `target` for a cluster. */
  url?: string;
  target?: RedisTarget;
  /** Key prefix (tests use a unique one per run). */
  prefix?: string;
  /**
   * A generation's sets are deleted by SCAN … MATCH while Redis holds fewer keys than this, above it by
   * unlinking all 1,000,000 possible NPA-NXX names (a SCAN walks every key of the server: 1.1–1.7 s for ~700k keys,
   * the names 0.55–0.6 s; decision 162, item 37). Default 250,000.
   */
  scanBelowKeys?: number;
  /**
   * How long a change waits (Redis WAIT) for the primary's online replicas to confirm its writes before the
   * database commits it or the copy is swapped (decision 113). Default 5 s.
   */
  replicaWaitMs?: number;
  /** The client's longest pause between reconnect attempts (createRedisClient; tests that stop Redis). */
  reconnectMaxMs?: number;
}

/** One master's part of a list's copy, for `npm run lists -- status`. */
export interface RedisNodeCopy {
  node: string;
  /** Area codes (of 1,000) whose hash slots this node serves. */
  areaCodes: number;
  /** Of those, the ones whose `live` entry names the served generation (all of them when the copy is whole). */
  current: number;
}

export class RedisListStore implements ListStore {
  readonly kind = "redis" as const;
  /** One copy for every process: written by loads and `lists rebuild`, never by a scrub. */
  readonly fillsOnDemand = false;
  readonly redis: RedisClient;
  readonly target: RedisTarget;
  readonly prefix: string;
  readonly scanBelowKeys: number;
  readonly replicaWaitMs: number;
  /**
   * Connections (re)made so far: a change whose writes and WAIT were not all sent over one connection may
   * have written part of itself to a primary that is gone (a failover between them), so it fails.
   */
  private connections = 0;
  /** In-place changes begun by this process: list → token (checked when the change is marked current). */
  private readonly changeTokens = new Map<number, string>();

  constructor(opts: RedisStoreOptions) {
    this.prefix = opts.prefix ?? "dps:";
    this.scanBelowKeys = opts.scanBelowKeys ?? 250_000;
    this.replicaWaitMs = opts.replicaWaitMs ?? 5000;
    const target = opts.target ?? (opts.url ? ({ kind: "node", url: opts.url } as const) : null);
    if (!target) throw new Error("RedisListStore needs a url or a target");
    this.target = target;
    this.redis = createRedisClient(target, { reconnectMaxMs: opts.reconnectMaxMs });
    defineScrubScripts(this.redis);
    const reconnected = () => void this.connections++;
    if (isCluster(this.redis)) {
      // masters' connections only: replicas join and leave the client's pool as CLUSTER SLOTS lists them
      // (Redis 7 leaves out a replica until it has reported a replication offset), and take no writes
      const master = (node: Redis) => void (node.options.readOnly || this.connections++);
      this.redis.on("+node", master);
      this.redis.on("-node", master);
    } else {
      this.redis.on("ready", reconnected);
    }
  }

  /**
   * The connection mark a change's first write goes out on (connects first; in a cluster, masters() makes the
   * client know the masters as they are now, so a master connection made or lost after this is a real change).
   */
  async connectionMark(): Promise<number> {
    await this.call<unknown>("connect", () => (isCluster(this.redis) ? masters(this.redis) : this.redis.ping()));
    return this.connections;
  }

  /**
   * Before a change becomes visible (database commit, or the swap of a replacement): every online replica
   * of each primary confirms the writes sent so far (WAIT), over the connection those writes went out on.
   * With asynchronous replication a replica promoted later then holds them. A primary without replicas
   * has nothing to wait for (a failover then has no replica to promote). Throws ListStoreError, so the
   * change fails before anything claims it complete.
   */
  async replicated(mark: number): Promise<void> {
    const nodes = await this.call("replication", () => masters(this.redis));
    await Promise.all(nodes.map((node) => this.waitForReplicas(node)));
    if (this.connections !== mark) {
      throw new ListStoreError(
        "The connection to the list store (Redis) was made again during this list change (a failover?): part of its writes " +
          "may have gone to a primary that is no longer serving. Load it again, or rebuild with `npm run lists -- rebuild`.",
        false,
        "in-message",
      );
    }
  }

  /**
   * WAIT on one primary for its online replicas, as long as they keep catching up: a big load's sets may
   * take longer than one wait to stream, so the limit is replicaWaitMs without progress, not in total.
   */
  private async waitForReplicas(node: Redis): Promise<void> {
    const acknowledged = async () => {
      const info = await this.call("replication", () => node.info("replication"));
      // a node demoted by a failover since the client learnt the roles has no replicas of its own: the
      // writes may sit on its promoted replica, whose replicas nothing waited for
      if (!/^role:master\r?$/m.test(info)) {
        throw new ListStoreError(
          `The list store (Redis): ${nodeName(node)} is no longer a primary (a failover during this list change); ` + "it is not made current. Load it again.",
        );
      }
      return [...info.matchAll(/^slave\d+:.*state=online.*offset=(\d+)/gm)].map((m) => Number(m[1]));
    };
    const first = await acknowledged();
    const online = first.length;
    if (online === 0) return;
    let least = Math.min(...first);
    for (;;) {
      const acked = Number(await this.call("wait", () => node.wait(online, this.replicaWaitMs)));
      if (acked >= online) return;
      const now = await acknowledged();
      if (now.length < online || Math.min(...now) <= least) {
        throw new ListStoreError(
          `The list store (Redis): ${acked} of ${online} replicas of ${nodeName(node)} confirmed this list change within ` +
            `${this.replicaWaitMs} ms without catching up; it is not made current (a failover could lose it). Load it again.`,
        );
      }
      least = Math.min(...now);
    }
  }

  private get scripts(): ScriptRedis {
    return this.redis as unknown as ScriptRedis;
  }

  private metaKey(listId: number): string {
    return `${this.prefix}meta:{list:${listId}}`;
  }
  private liveKey(npa: number | string): string {
    return `${this.prefix}live:{${typeof npa === "number" ? npa3(npa) : npa}}`;
  }
  private setPrefix(listId: number, gen: number): string {
    return `${this.prefix}n:${listId}:${gen}:`;
  }
  /** Keys of the layout before decision 112 (one Redis node only). */
  private legacyMetaKey(listId: number): string {
    return `${this.prefix}meta:${listId}`;
  }
  private legacyGenKey(listId: number, gen: number): string {
    return `${this.prefix}gen:${listId}:${gen}`;
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ListStoreError) throw e;
      throw new ListStoreError(`The list store (Redis) did not answer (${what}): ${(e as Error).message}`, true);
    }
  }

  /** Runs script calls WRITE_WINDOW at a time (each routed to its slot's node); the first error fails all. */
  private async all<T>(what: string, calls: (() => Promise<T>)[]): Promise<T[]> {
    const out: T[] = [];
    for (let s = 0; s < calls.length; s += WRITE_WINDOW) {
      out.push(...(await this.call(what, () => Promise.all(calls.slice(s, s + WRITE_WINDOW).map((f) => f())))));
    }
    return out;
  }

  /** Area codes grouped by the master serving their slot (one group outside a cluster). */
  private async areaGroups(npas: Iterable<number>): Promise<number[][]> {
    if (isCluster(this.redis) && this.redis.status !== "ready") await this.call("connect", () => this.redis.ping());
    const groups = new Map<string, number[]>();
    for (const npa of npas) {
      const owner = slotOwner(this.redis, areaSlot(npa));
      let g = groups.get(owner);
      if (!g) groups.set(owner, (g = []));
      g.push(npa);
    }
    return [...groups.values()];
  }

  /** Sets, deletes or checks the `live` entries of every area code for a list (one script call per node). */
  private async live(listId: number, gen: number, op: "set" | "del" | "check"): Promise<{ npas: number[]; answer: string }[]> {
    const groups = await this.areaGroups(Array.from({ length: AREA_CODES }, (_, i) => i));
    const answers = await this.all(
      `${op} live`,
      groups.map((g) => () => this.scripts.scrubLive(this.liveKey(g[0]), this.prefix, String(listId), String(gen), op, g.map(npa3).join(""))),
    );
    return groups.map((npas, i) => ({ npas, answer: answers[i] }));
  }

  private async meta(listId: number): Promise<{ version: number | null; gen: number; state: string } | null> {
    const m = await this.call("meta", () => this.redis.hgetall(this.metaKey(listId)));
    if (!m || !m.gen) return null;
    return { version: m.version ? Number(m.version) : null, gen: Number(m.gen), state: m.state ?? "" };
  }

  /** The ready copy's version when every area code serves its generation (a lost node makes it null). */
  async version(listId: number): Promise<number | null> {
    const m = await this.meta(listId);
    if (!m || m.state !== "ready") return null;
    const live = await this.live(listId, m.gen, "check");
    return live.every((g) => !/[02]/.test(g.answer)) ? m.version : null;
  }

  /** Per master: the area codes it serves and how many of them serve the list's current generation. */
  async nodeCopies(listId: number): Promise<RedisNodeCopy[]> {
    const m = await this.meta(listId);
    const live = await this.live(listId, m?.gen ?? 0, "check");
    return live
      .map(({ npas, answer }) => ({
        node: isCluster(this.redis) ? slotOwner(this.redis, areaSlot(npas[0])) || "?" : nodeName(this.redis as Redis),
        areaCodes: npas.length,
        current: m ? [...answer].filter((c) => c === "1").length : 0,
      }))
      .sort((a, b) => a.node.localeCompare(b.node));
  }

  async describeCopy(listId: number): Promise<CopyDetail> {
    const [nodes, old] = await Promise.all([this.nodeCopies(listId), this.hasOldLayout(listId)]);
    return old ? { nodes, note: OLD_LAYOUT_NOTE } : { nodes };
  }

  /** True when the list has keys of the layout before decision 112 (they read as no copy until rebuilt). */
  async hasOldLayout(listId: number): Promise<boolean> {
    return (await this.call("meta", () => this.redis.exists(this.legacyMetaKey(listId)))) === 1;
  }

  async snapshot(listId: number, version: number): Promise<ListSnapshot> {
    const m = await this.meta(listId);
    if (!m || m.state !== "ready" || m.version !== version) {
      throw new ListStoreError(
        `The list store (Redis) has no current copy of list ${listId}: it holds ${
          !m ? "nothing" : m.state !== "ready" ? "a copy being changed" : `version ${m.version}`
        }, the database has version ${version}. Rebuild it with \`npm run lists -- rebuild\`.`,
        false,
        "in-message",
      );
    }
    const list = String(listId);
    const gen = String(m.gen);
    return {
      listId,
      version,
      // an arrow: `this` is the store, not the returned object
      has: async (numbers: Float64Array, count: number): Promise<Uint8Array> => {
        const out = new Uint8Array(count);
        for (let s = 0; s < count; s += LOOKUP_BATCH) {
          const e = Math.min(count, s + LOOKUP_BATCH);
          const parts = this.byNode(numbers, s, e);
          const answers = await this.call("lookup", () =>
            Promise.all(parts.map((p) => this.scripts.scrubLookup(this.liveKey(p.npa), this.prefix, list, gen, p.packed))),
          );
          for (let k = 0; k < parts.length; k++) {
            const a = answers[k];
            if (typeof a === "string" && a.startsWith("!R")) {
              throw new ListStoreError(`List ${listId} was replaced while this file was being scrubbed; its old copy is gone. Run the scrub again.`, true);
            }
            if (typeof a === "string" && a.startsWith("!L")) {
              throw new ListStoreError(
                `The list store (Redis) lost list ${listId}'s copy for area code ${a.slice(2)} (a node restarted empty or failed ` +
                  "over to a replica without it). Rebuild it with `npm run lists -- rebuild`.",
                false,
                "in-message",
              );
            }
            const order = parts[k].order;
            if (typeof a !== "string" || a.length !== order.length) {
              throw new ListStoreError("The list store (Redis) gave an incomplete answer.");
            }
            for (let i = 0; i < order.length; i++) if (a.charCodeAt(i) === 49) out[order[i]] = 1;
          }
        }
        return out;
      },
    };
  }

  /**
   * numbers[s, e) packed per master (one part outside a cluster): each part's script call goes to the node of
   * its first area code, which serves the others too as far as the client knows.
   */
  private byNode(numbers: Float64Array, s: number, e: number): { npa: number; packed: Buffer; order: Uint32Array }[] {
    const range = (from: number, to: number) => Uint32Array.from({ length: to - from }, (_, i) => from + i);
    if (!isCluster(this.redis)) return [{ npa: Math.floor(numbers[s] / 10_000_000), ...packByArea(numbers, range(s, e)) }];
    const owners = new Map<string, number>();
    const groupOf = new Int16Array(AREA_CODES).fill(-1);
    const sizes: number[] = [];
    const firstNpa: number[] = [];
    const groupOfNumber = new Int16Array(e - s);
    for (let i = s; i < e; i++) {
      const npa = Math.floor(numbers[i] / 10_000_000) % AREA_CODES;
      let g = groupOf[npa];
      if (g < 0) {
        const owner = slotOwner(this.redis, areaSlot(npa)) || `?${npa}`;
        let known = owners.get(owner);
        if (known === undefined) {
          owners.set(owner, (known = sizes.length));
          sizes.push(0);
          firstNpa.push(npa);
        }
        g = groupOf[npa] = known;
      }
      groupOfNumber[i - s] = g;
      sizes[g]++;
    }
    const idx = sizes.map((n) => new Uint32Array(n));
    const fill = new Array<number>(sizes.length).fill(0);
    for (let i = s; i < e; i++) {
      const g = groupOfNumber[i - s];
      idx[g][fill[g]++] = i;
    }
    return idx.map((ix, g) => ({ npa: firstNpa[g], ...packByArea(numbers, ix) }));
  }

  /** A new generation number above the served one (and above an old-layout copy's). */
  private async nextGeneration(listId: number, m: { gen: number } | null): Promise<number> {
    const counter = await this.call("generation", () => this.redis.incr(`${this.prefix}gencounter:${listId}`));
    const legacy = Number((await this.call("meta", () => this.redis.hget(this.legacyMetaKey(listId), "gen"))) ?? 0);
    const floor = Math.max(m?.gen ?? 0, legacy);
    return counter <= floor ? floor + counter : counter;
  }

  async beginChange(listId: number): Promise<void> {
    const change = `${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}`;
    this.changeTokens.set(listId, change);
    const m = await this.meta(listId);
    if (!m) {
      const gen = await this.nextGeneration(listId, null);
      await this.call("begin", () => this.redis.hset(this.metaKey(listId), { gen, version: "", state: "changing", change }));
      await this.live(listId, gen, "set");
      return;
    }
    await this.call("begin", () => this.redis.hset(this.metaKey(listId), { state: "changing", change }));
  }

  /** SADD/SREM of numbers (sorted here if they are not), one command per NPA-NXX set, in bulk (BulkWriter). */
  private async writeSets(prefix: string, numbers: Float64Array, op: "sadd" | "srem"): Promise<void> {
    let sorted = numbers;
    for (let i = 1; i < numbers.length; i++) {
      if (numbers[i] < numbers[i - 1]) {
        sorted = numbers.slice().sort();
        break;
      }
    }
    await this.bulkWrite(op, (bulk) => bulk.addAreas(sorted, (i, j, npa) => memberCommands(op === "sadd" ? "SADD" : "SREM", sorted, i, j, npa, prefix)));
  }

  /**
   * Runs `write` on a BulkWriter of its own and waits for every command's answer; on a failure, once nothing sent is
   * still unanswered, `undo` runs and the error goes on.
   */
  private async bulkWrite(what: string, write: (bulk: BulkWriter) => Promise<void>, undo?: () => Promise<void>): Promise<void> {
    const bulk = new BulkWriter(this.redis, this.prefix, what, (w, fn) => this.call(w, fn));
    try {
      await write(bulk);
      await bulk.done();
    } catch (e) {
      await bulk.settled(); // nothing lands after the undo
      await undo?.().catch(() => {});
      throw e;
    } finally {
      bulk.close();
    }
  }

  async add(listId: number, numbers: Float64Array): Promise<void> {
    const m = await this.meta(listId);
    if (!m || m.state !== "changing") throw new ListStoreError(`add to list ${listId} without beginChange`);
    await this.ensureCompactSets();
    await this.writeSets(this.setPrefix(listId, m.gen), numbers, "sadd");
  }

  async remove(listId: number, numbers: Float64Array): Promise<void> {
    const m = await this.meta(listId);
    if (!m || m.state !== "changing") throw new ListStoreError(`remove from list ${listId} without beginChange`);
    await this.writeSets(this.setPrefix(listId, m.gen), numbers, "srem");
  }

  /** `sorted`: the chunks are known to be sorted, distinct and in order (isBucketSorted): not checked again. */
  async replace(listId: number, chunks: AsyncIterable<Float64Array> | Iterable<Float64Array>, sorted = false): Promise<ReplaceHandle> {
    const connection = await this.connectionMark();
    await this.ensureCompactSets();
    const gen = await this.nextGeneration(listId, await this.meta(listId));
    const prefix = this.setPrefix(listId, gen);
    const write = async (bulk: BulkWriter) => {
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
        if (restoring && !sorted && !increasingAfter(c, last)) {
          restoring = false;
          if (pending.length) await this.writeSets(prefix, pending, "sadd");
          pending = new Float64Array(0);
        }
        if (!restoring) {
          await this.writeSets(prefix, c, "sadd");
          continue;
        }
        const data = pending.length ? joined(pending, c) : c;
        last = data[data.length - 1];
        const lastKey = Math.floor(last / 10_000);
        let cut = data.length;
        while (cut > 0 && Math.floor(data[cut - 1] / 10_000) === lastKey) cut--;
        await this.restoreSets(prefix, data.subarray(0, cut), rdb, bulk);
        pending = data.subarray(cut); // the chunks are never reused by their producers
      }
      if (pending.length) await this.restoreSets(prefix, pending, rdb, bulk);
    };
    await this.bulkWrite("restore", write, () => this.deleteGeneration(listId, gen));
    const handle: RedisReplaceHandle = { generation: gen, connection };
    return handle;
  }

  private rdb: number | null = null;
  private compactSets: Promise<void> | null = null;

  /**
   * Raises set-max-intset-entries to INTSET_ENTRIES on every master (once per store), so NPA-NXX sets stay
   * intsets at national scale. A server that refuses CONFIG (managed Redis) keeps working at ~12× the memory
   * for sets over its limit; the warning says so, and redis.conf is where to set it (replicas load sets with
   * their own limit, so it belongs in every node's configuration).
   */
  private ensureCompactSets(): Promise<void> {
    this.compactSets ??= (async () => {
      for (const node of await this.call("config", () => masters(this.redis))) {
        try {
          const [, value] = (await node.config("GET", "set-max-intset-entries")) as string[];
          if (Number(value) >= INTSET_ENTRIES) continue;
          await node.config("SET", "set-max-intset-entries", String(INTSET_ENTRIES));
        } catch (e) {
          console.warn(
            `[lists] Redis ${nodeName(node)}: set-max-intset-entries could not be raised to ${INTSET_ENTRIES} (${(e as Error).message}). ` +
              "NPA-NXX sets over the server's limit take ~50 bytes per number instead of 2; set it in redis.conf on every node.",
          );
        }
      }
    })();
    return this.compactSets;
  }

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
   * set-max-intset-entries to a hash table on load, as SADD would), sent in bulk (BulkWriter).
   */
  private async restoreSets(prefix: string, numbers: Float64Array, rdb: number, bulk: BulkWriter): Promise<void> {
    await bulk.addAreas(numbers, (i, j, npa) => restoreCommands(numbers, i, j, npa, rdb, prefix));
  }

  /**
   * Makes the copy current at `version`. A replacement is swapped in area code by area code (`live` entries
   * first: a running scrub of the old generation then fails closed), then the meta names it; the old
   * generation's sets (and an old-layout copy's) are deleted last.
   */
  async finishChange(listId: number, version: number, replaced?: ReplaceHandle): Promise<void> {
    if (!replaced) {
      const token = this.changeTokens.get(listId);
      this.changeTokens.delete(listId);
      const done = token ? await this.call("finish", () => this.scripts.scrubFinish(this.metaKey(listId), token, String(version))) : 0;
      if (done !== 1) {
        throw new ListStoreError(
          `The list store (Redis) does not hold this change of list ${listId} (its primary changed, or another change replaced it); ` +
            "its copy stays not current. Rebuild it with `npm run lists -- rebuild`.",
          false,
          "in-message",
        );
      }
      return;
    }
    // the new generation's sets are on every online replica before any `live` entry names them
    const { connection } = replaced as RedisReplaceHandle;
    if (connection !== undefined) await this.replicated(connection);
    const old = await this.meta(listId);
    await this.live(listId, replaced.generation, "set");
    await this.call("swap", () => this.redis.hset(this.metaKey(listId), { gen: replaced.generation, version, state: "ready" }));
    // an in-place change another process began on the old copy can no longer mark it current
    await this.call("swap", () => this.redis.hdel(this.metaKey(listId), "change"));
    if (old && old.gen !== replaced.generation) await this.deleteGeneration(listId, old.gen);
    await this.dropOldLayout(listId);
  }

  async abortReplace(listId: number, replaced: ReplaceHandle): Promise<void> {
    await this.deleteGeneration(listId, replaced.generation);
  }

  /** Deletes an old-layout copy (before decision 112): its marker, meta and sets. */
  private async dropOldLayout(listId: number): Promise<void> {
    const gen = Number((await this.call("meta", () => this.redis.hget(this.legacyMetaKey(listId), "gen"))) ?? 0);
    if (!gen) return;
    await this.call("delete", () => this.redis.del(this.legacyGenKey(listId, gen)));
    await this.call("delete", () => this.redis.del(this.legacyMetaKey(listId)));
    await this.deleteGeneration(listId, gen);
  }

  /**
   * Deletes a generation's sets (no `live` entry names it any more): by SCAN when Redis holds few keys, else by
   * UNLINK of every name the generation's sets can have (1M; the bulk connections carry them).
   */
  private async deleteGeneration(listId: number, gen: number): Promise<void> {
    const prefix = this.setPrefix(listId, gen);
    if ((await this.keyCount()) < this.scanBelowKeys) {
      await this.unlinkMatching(`${prefix}*`);
      return;
    }
    await this.bulkWrite("unlink", async (bulk) => {
      for (let npa = 0; npa < AREA_CODES; npa++) {
        const { buf, commands } = unlinkAreaCommand(prefix, npa);
        await bulk.add(npa, buf, commands);
      }
    });
    // the layout before decision 112 wrote area codes below 100 without leading zeros (other hash slots)
    const legacy: (() => Promise<number>)[] = [];
    for (let npa = 0; npa < 100; npa++) legacy.push(() => this.scripts.scrubUnlinkArea(`${prefix}{${npa}}`, `${prefix}{${npa}}`));
    await this.all("unlink", legacy);
  }

  /** Keys on every master. */
  private async keyCount(): Promise<number> {
    const nodes = await this.call("dbsize", () => masters(this.redis));
    const sizes = await this.call("dbsize", () => Promise.all(nodes.map((n) => n.dbsize())));
    return sizes.reduce((a, b) => a + b, 0);
  }

  /** SCAN … MATCH on every master; calls `each` with each page of keys found on that node. */
  private async scanAll(pattern: string, each: (node: Redis, keys: string[]) => Promise<void>): Promise<void> {
    for (const node of await this.call("scan", () => masters(this.redis))) {
      let cursor = "0";
      do {
        const [next, keys] = await this.call("scan", () => node.scan(cursor, "MATCH", pattern, "COUNT", 5000));
        cursor = next;
        if (keys.length) await each(node, keys);
      } while (cursor !== "0");
    }
  }

  /** Keys matching a pattern on every master (tests, status). */
  async countKeys(pattern: string): Promise<number> {
    let n = 0;
    await this.scanAll(pattern, async (_, keys) => {
      n += keys.length;
    });
    return n;
  }

  async unlinkMatching(pattern: string): Promise<number> {
    let n = 0;
    await this.scanAll(pattern, async (node, keys) => {
      // one UNLINK per hash slot: a cluster node refuses a multi-key command across slots
      const bySlot = new Map<number, string[]>();
      for (const k of keys) {
        const slot = isCluster(this.redis) ? keySlot(k) : 0;
        let g = bySlot.get(slot);
        if (!g) bySlot.set(slot, (g = []));
        g.push(k);
      }
      await this.call("unlink", () => Promise.all([...bySlot.values()].map((g) => node.unlink(...g))));
      n += keys.length;
    });
    return n;
  }

  async drop(listId: number): Promise<void> {
    const m = await this.meta(listId);
    await this.live(listId, m?.gen ?? 0, "del");
    await this.call("drop", () => this.redis.del(this.metaKey(listId)));
    await this.call("drop", () => this.redis.del(this.legacyMetaKey(listId)));
    await this.unlinkMatching(`${this.prefix}gen:${listId}:*`);
    await this.unlinkMatching(`${this.prefix}n:${listId}:*`);
  }

  /** used_memory summed over the masters. */
  async memoryBytes(): Promise<number> {
    const nodes = await this.call("info", () => masters(this.redis));
    const infos = await this.call("info", () => Promise.all(nodes.map((n) => n.info("memory"))));
    return infos.reduce((sum, info) => sum + Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0), 0);
  }

  change(listId: number, mode: ChangeMode, numbers: Float64Array, removals?: Float64Array): StoreChange {
    return new RedisChange(this, listId, mode, numbers, removals);
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

  async ping(): Promise<void> {
    await Promise.all((await masters(this.redis)).map((m) => m.ping()));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/**
 * One add/remove/replace of a Redis copy, which every process reads while the database writes:
 *  - a replace (or an add into an empty list) builds the new generation aside, from the start of the change
 *    (overlapping the database's writes), and swaps it in after the commit; the old copy is served meanwhile;
 *  - an add or remove into a current copy marks it changing first and writes in place while the database writes
 *    (removals too: until 27 Nov they waited for the database's count, ~15 ms of an FTC change file's 0.24 s); a
 *    rollback then drops the copy, so scrubs fail closed until `lists rebuild`;
 *  - a copy that was not current stays so (fail closed) until rebuilt.
 */
class RedisChange implements StoreChange {
  private building: Promise<ReplaceHandle> | null = null;
  private replaced: ReplaceHandle | undefined;
  /** The copy was current before this change (or the list was empty): it is updated in place. */
  private inPlace = false;
  private touched = false;
  private writing: Promise<void> = Promise.resolve();
  /** The connection mark the in-place writes went out on (RedisListStore.replicated). */
  private mark: number | null = null;

  /** What an in-place change adds and removes. */
  private readonly adds: Float64Array;
  private readonly removes: Float64Array;

  constructor(
    private readonly store: RedisListStore,
    private readonly listId: number,
    mode: ChangeMode,
    private readonly numbers: Float64Array,
    removals?: Float64Array,
  ) {
    ({ adds: this.adds, removes: this.removes } = changeSides(mode, numbers, removals));
    if (mode === "replace") this.buildAside();
  }

  private buildAside(): void {
    this.building = this.store.replace(this.listId, chunksOf(this.numbers), isBucketSorted(this.numbers));
    this.building.catch(() => {});
  }

  async started(start: ChangeStart): Promise<void> {
    const { store, listId } = this;
    if (start.wholeList) {
      if (!this.building) this.buildAside();
      return;
    }
    this.mark = await store.connectionMark();
    const sv = await store.version(listId);
    this.inPlace = sv === start.version || start.size === 0;
    if (this.inPlace && sv !== start.version) await store.drop(listId); // empty list: start clean
    if (this.inPlace && (this.adds.length || this.removes.length)) {
      this.touched = true;
      await store.beginChange(listId);
      this.writing = (async () => {
        for (const c of chunksOf(this.adds)) await store.add(listId, c);
        for (const c of chunksOf(this.removes)) await store.remove(listId, c);
      })();
      this.writing.catch(() => {});
    }
  }

  async written(): Promise<void> {}

  async beforeCommit(): Promise<void> {
    await this.writing;
    if (this.building) this.replaced = await this.building;
    // on the replicas before the database makes the version visible: in-place writes, and a replacement's
    // sets (finishChange waits again before its swap; then nothing is left to confirm). A replica that does
    // not confirm fails the change here, so the database keeps the old version and the old copy is served.
    const connection = (this.replaced as RedisReplaceHandle | undefined)?.connection;
    if (connection !== undefined) await this.store.replicated(connection);
    if (this.touched && this.mark !== null) await this.store.replicated(this.mark);
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
