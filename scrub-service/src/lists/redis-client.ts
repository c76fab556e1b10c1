/**
 * The one place that makes a Redis client for the list store (app, scrub service, CLI, scripts):
 *   REDIS_CLUSTER_NODES=host:port,host:port,…  → ioredis Cluster (a Redis Cluster; the nodes are seeds)
 *   REDIS_SENTINELS=host:port,… + REDIS_SENTINEL_NAME=name
 *                                               → the primary of a primary/replica set that Redis Sentinel
 *                                                 watches (ioredis `sentinels` + `name`; decision 113)
 *   REDIS_URL=redis://…                         → one Redis node
 * The first one set wins, in that order. Entries of REDIS_CLUSTER_NODES / REDIS_SENTINELS may also be
 * redis:// URLs; the first one's user name and password are used for every node (for Sentinel: for the
 * Redis nodes; REDIS_SENTINEL_PASSWORD, if set, for the Sentinels themselves).
 */
import { engineConfig, type EngineConfig } from "../config";
import { Cluster, Redis } from "ioredis";

type HostPort = { host: string; port: number };

export type RedisTarget =
  | { kind: "node"; url: string }
  | { kind: "cluster"; nodes: HostPort[]; username?: string; password?: string }
  | { kind: "sentinel"; sentinels: HostPort[]; name: string; username?: string; password?: string; sentinelPassword?: string };

/** host:port entries (or redis:// URLs), with the first URL's credentials; `what` names the variable in errors. */
function parseHostList(text: string, what: string): { nodes: HostPort[]; username?: string; password?: string } {
  const nodes: HostPort[] = [];
  let username: string | undefined;
  let password: string | undefined;
  for (const raw of text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    let host: string;
    let port: number;
    if (raw.includes("://")) {
      const u = new URL(raw);
      host = u.hostname;
      port = Number(u.port || 6379);
      if (nodes.length === 0) {
        username = u.username ? decodeURIComponent(u.username) : undefined;
        password = u.password ? decodeURIComponent(u.password) : undefined;
      }
    } else {
      const at = raw.lastIndexOf(":");
      host = at > 0 ? raw.slice(0, at).replace(/^\[|\]$/g, "") : raw;
      port = at > 0 ? Number(raw.slice(at + 1)) : 6379;
    }
    if (!host || !Number.isInteger(port) || port <= 0 || port > 65535) {
      throw new Error(`${what}: "${raw}" is not host:port.`);
    }
    nodes.push({ host, port });
  }
  if (nodes.length === 0) throw new Error(`${what} is set but names no node (host:port,host:port,…).`);
  return { nodes, username, password };
}

export type RedisClient = Redis | Cluster;

/** Parses REDIS_CLUSTER_NODES; throws a message naming the bad entry. */
export function parseClusterNodes(text: string): Extract<RedisTarget, { kind: "cluster" }> {
  return { kind: "cluster", ...parseHostList(text, "REDIS_CLUSTER_NODES") };
}

/** Parses REDIS_SENTINELS (the Sentinels, not the Redis nodes) and the watched primary's name. */
export function parseSentinels(text: string, name: string | undefined, sentinelPassword?: string): Extract<RedisTarget, { kind: "sentinel" }> {
  if (!name) throw new Error("REDIS_SENTINELS is set but REDIS_SENTINEL_NAME (the primary's name in `sentinel monitor`) is not.");
  const { nodes, username, password } = parseHostList(text, "REDIS_SENTINELS");
  return { kind: "sentinel", sentinels: nodes, name, username, password, sentinelPassword: sentinelPassword || undefined };
}

/** The list store's Redis from the environment, or null (embedded index). */
export function redisTargetFromEnv(
  env: Partial<
    Pick<EngineConfig, "REDIS_URL" | "REDIS_CLUSTER_NODES" | "REDIS_SENTINELS" | "REDIS_SENTINEL_NAME" | "REDIS_SENTINEL_PASSWORD">
  > = engineConfig(),
): RedisTarget | null {
  if (env.REDIS_CLUSTER_NODES) return parseClusterNodes(env.REDIS_CLUSTER_NODES);
  if (env.REDIS_SENTINELS) return parseSentinels(env.REDIS_SENTINELS, env.REDIS_SENTINEL_NAME, env.REDIS_SENTINEL_PASSWORD);
  if (env.REDIS_URL) return { kind: "node", url: env.REDIS_URL };
  return null;
}

/** For logs: where the lists live, never a password. */
export function describeRedisTarget(t: RedisTarget): string {
  if (t.kind === "cluster") return `Redis Cluster (${t.nodes.map((n) => `${n.host}:${n.port}`).join(", ")})`;
  if (t.kind === "sentinel") return `Redis Sentinel "${t.name}" (${t.sentinels.map((n) => `${n.host}:${n.port}`).join(", ")})`;
  try {
    return `Redis at ${new URL(t.url).host}`;
  } catch {
    return "Redis";
  }
}

export interface RedisClientOptions {
  /**
   * The longest pause between two reconnect attempts (default: ioredis's own). While Redis is down a command
   * fails once its one retry's reconnect attempt has failed, so with the default a command waits up to ~10 s;
   * tests that stop Redis on purpose set a few milliseconds. One node and Sentinel (a cluster refreshes its
   * slots instead).
   */
  reconnectMaxMs?: number;
}

/**
 * A client that fails rather than waits: one retry per command, 3 s to connect, 30 s per command; in a
 * cluster, a lost node's commands are retried through up to 16 redirections/refreshes (about 2 s) and then
 * fail, so a scrub fails closed instead of hanging.
 */
export function createRedisClient(t: RedisTarget, o: RedisClientOptions = {}): RedisClient {
  // ioredis's own reconnect pauses unless a cap is given (tests: a Redis they stopped is found down in
  // milliseconds; the same commands fail the same way, only sooner)
  const reconnect = o.reconnectMaxMs === undefined ? {} : { retryStrategy: (times: number) => Math.min(times * 50, o.reconnectMaxMs!) };
  const common = { maxRetriesPerRequest: 1, connectTimeout: 3000, commandTimeout: 30_000 };
  const client: RedisClient =
    t.kind === "node"
      ? new Redis(t.url, { ...common, ...reconnect, lazyConnect: false, enableOfflineQueue: true })
      : t.kind === "sentinel"
        ? new Redis({
            ...common,
            ...reconnect,
            sentinels: t.sentinels,
            name: t.name,
            role: "master",
            username: t.username,
            password: t.password,
            sentinelPassword: t.sentinelPassword,
            sentinelCommandTimeout: 3000,
            // a promoted replica is learnt from the Sentinels' +switch-master, not only at the next error
            failoverDetector: true,
            enableOfflineQueue: true,
          })
        : new Cluster(t.nodes, {
            redisOptions: { ...common, username: t.username, password: t.password },
            enableOfflineQueue: true,
            enableAutoPipelining: true,
            maxRedirections: 16,
            retryDelayOnFailover: 100,
            retryDelayOnClusterDown: 100,
            retryDelayOnTryAgain: 100,
            slotsRefreshTimeout: 2000,
            scaleReads: "master",
          });
  // Errors surface on commands (a scrub then fails closed); don't crash on the connection event.
  client.on("error", () => {});
  return client;
}

export function isCluster(c: RedisClient): c is Cluster {
  return c instanceof Cluster;
}

/**
 * Every master (the one node outside a cluster): SCAN, DBSIZE, INFO and WAIT run on each. In a cluster each
 * one is asked its ROLE: ioredis learns roles only from a MOVED or an error, so after a failover this client
 * has not run into yet it still names the demoted master (now a replica: a WAIT there finds no replicas to
 * wait for, an UNLINK is refused with MOVED) and not its promoted replica. Then the slot map is read again.
 */
export async function masters(c: RedisClient): Promise<Redis[]> {
  if (!isCluster(c)) return [c];
  if (c.status !== "ready") await c.ping(); // queued until the slots are known
  const roles = await Promise.all(
    c.nodes("master").map((n) =>
      n.role().then(
        (r) => r[0],
        () => "unknown",
      ),
    ),
  );
  if (roles.some((r) => r !== "master")) {
    await new Promise<void>((resolve, reject) => c.refreshSlotsCache((e) => (e ? reject(e) : resolve())));
  }
  const m = c.nodes("master");
  if (m.length === 0) throw new Error("the Redis Cluster has no reachable master");
  return m;
}

/** host:port of a node connection (through Sentinel: the primary it is connected to now). */
export function nodeName(r: Redis): string {
  const s = r.stream as { remoteAddress?: string; remotePort?: number } | undefined;
  if (r.options.sentinels && s?.remoteAddress) return `${s.remoteAddress}:${s.remotePort}`;
  return `${r.options.host}:${r.options.port}`;
}

/** CRC16/XMODEM as Redis Cluster hashes keys (slot = crc16(tag) mod 16384). */
const CRC16 = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  let c = i << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
  CRC16[i] = c & 0xffff;
}

/** The hash slot of a key's tag (the text between the first { and the next }), or of the whole key. */
export function keySlot(key: string): number {
  const open = key.indexOf("{");
  if (open >= 0) {
    const close = key.indexOf("}", open + 1);
    if (close > open + 1) key = key.slice(open + 1, close);
  }
  let crc = 0;
  for (const b of Buffer.from(key)) crc = ((crc << 8) & 0xffff) ^ CRC16[((crc >> 8) ^ b) & 0xff];
  return crc & 0x3fff;
}

/**
 * The master serving each hash slot as the client last learnt it ("" outside a cluster, or when not known
 * yet). A stale answer only makes a script touch a key its node does not hold, which Redis refuses.
 */
export function slotOwner(c: RedisClient, slot: number): string {
  if (!isCluster(c)) return "";
  return c.slots[slot]?.[0] ?? "";
}
