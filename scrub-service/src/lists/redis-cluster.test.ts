/**
 * The Redis list store on a Redis Cluster (decision 112): REDIS_CLUSTER_NODES, as `scripts/redis-cluster.sh
 * start` prints it and .ci/run exports it. The oracle, bulk-load, service, FTC and crash-recovery suites run
 * against the cluster too when it is set; this file is the one that fails CI when it is not.
 */
import { afterEach, describe, expect, it } from "vitest";
import { skipWithout } from "../../../tests/setup/services";
import { newRedisStore, REDIS_CLUSTER_NODES } from "../test/helpers";
import { keySlot, masters, nodeName, slotOwner } from "./redis-client";
import type { RedisListStore } from "./redis-store";

const first = REDIS_CLUSTER_NODES?.split(",")[0]?.trim();
const noCluster = await skipWithout("redis-cluster.test.ts", [
  { kind: "tcp", name: "a Redis Cluster (REDIS_CLUSTER_NODES; scripts/redis-cluster.sh start)", url: first ? `redis://${first}` : "" },
]);

/** Distinct sorted numbers over many area codes (every master serves some). */
function spread(seed: number, count: number): Float64Array {
  let s = seed >>> 0;
  const set = new Set<number>();
  while (set.size < count) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    set.add(2_000_000_000 + (s % 7_999_999_999));
  }
  return Float64Array.from([...set].sort((a, b) => a - b));
}

const ones = (a: Uint8Array) => [...a].filter((x) => x === 1).length;

describe.skipIf(noCluster)("Redis list store on a Redis Cluster", () => {
  let store: RedisListStore | undefined;
  afterEach(async () => {
    await store?.clearAll();
    await store?.close();
    store = undefined;
  });

  it("answers readiness's ping only through every master", async () => {
    store = newRedisStore("cluster");
    await expect(store.ping()).resolves.toBeUndefined();
    const asked: string[] = [];
    for (const m of await masters(store.redis)) {
      const ping = m.ping.bind(m);
      (m as unknown as { ping: () => Promise<string> }).ping = () => (asked.push(nodeName(m)), ping());
    }
    await store.ping();
    expect(asked.sort()).toEqual((await masters(store.redis)).map(nodeName).sort());
    expect(asked.length).toBeGreaterThanOrEqual(3);
  });

  it("spreads a list over every master, answers lookups split per node exactly, and reports each master", async () => {
    store = newRedisStore("cluster");
    const listed = spread(1, 30_000);
    const h = await store.replace(7, [listed.subarray(0, 10_000), listed.subarray(10_000)]);
    await store.finishChange(7, 1, h);
    expect(await store.version(7)).toBe(1);

    const nodes = await store.nodeCopies(7);
    const names = (await masters(store.redis)).map(nodeName).sort();
    expect(names.length).toBeGreaterThanOrEqual(3);
    expect(nodes.map((n) => n.node)).toEqual(names);
    expect(nodes.reduce((a, n) => a + n.areaCodes, 0)).toBe(1000);
    for (const n of nodes) expect([n.node, n.current]).toEqual([n.node, n.areaCodes]);
    for (const node of await masters(store.redis)) {
      expect(await node.dbsize(), nodeName(node)).toBeGreaterThan(0);
    }

    // half listed, half not, in one batch that spans every node
    const others = spread(2, 30_000).filter((x) => !listed.includes(x));
    const probe = Float64Array.from([...listed.subarray(0, 5_000), ...others.subarray(0, 5_000)]);
    const got = await (await store.snapshot(7, 1)).has(probe, probe.length);
    expect([...got.subarray(0, 5_000)].every((x) => x === 1)).toBe(true);
    expect(ones(got.subarray(5_000))).toBe(0);

    // in place: add and remove, then the next version
    await store.beginChange(7);
    await store.add(7, others.subarray(0, 100));
    await store.remove(7, listed.subarray(0, 100));
    await store.finishChange(7, 2);
    const now = await (await store.snapshot(7, 2)).has(probe, probe.length);
    expect(ones(now.subarray(0, 100))).toBe(0);
    expect(ones(now.subarray(100, 5_000))).toBe(4_900);
    expect(ones(now.subarray(5_000, 5_100))).toBe(100);
    expect(ones(now.subarray(5_100))).toBe(0);
  });

  it("a replaced copy and a master that lost its keys both fail lookups closed, never 'not listed'", async () => {
    store = newRedisStore("cluster");
    const a = spread(3, 20_000);
    const h1 = await store.replace(8, [a]);
    await store.finishChange(8, 1, h1);
    const old = await store.snapshot(8, 1);
    const h2 = await store.replace(8, [a.subarray(0, 10_000)]);
    await store.finishChange(8, 2, h2);
    await expect(old.has(a, 1_000)).rejects.toThrow(/replaced while this file was being scrubbed/);
    await expect(store.snapshot(8, 1)).rejects.toThrow(/no current copy/);

    // One master loses this store's keys, as a master restarted without persistence would.
    const snap = await store.snapshot(8, 2);
    const victim = (await masters(store.redis))[0];
    let cursor = "0";
    do {
      const [next, keys] = await victim.scan(cursor, "MATCH", `${store.prefix}*`, "COUNT", 5000);
      cursor = next;
      for (const k of keys) await victim.unlink(k);
    } while (cursor !== "0");
    const lostHere = (x: number) => slotOwner(store!.redis, keySlot(`{${String(Math.floor(x / 1e7))}}`)) === nodeName(victim);
    const onVictim = a.subarray(0, 10_000).filter(lostHere);
    const elsewhere = a.subarray(0, 10_000).filter((x) => !lostHere(x));
    expect(onVictim.length).toBeGreaterThan(0);
    await expect(snap.has(onVictim, onVictim.length)).rejects.toThrow(/lost list 8's copy for area code \d{3}.*npm run lists -- rebuild/);
    expect(ones(await snap.has(elsewhere, elsewhere.length))).toBe(elsewhere.length);
    expect(await store.version(8)).toBeNull();
  });
});
