/**
 * Redis bytes per list number, on one node (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES), through
 * the list store itself (decision 112): used_memory summed over the masters before and after writing one
 * list of BENCH_NUMBERS numbers (default 2,000,000) at the national registry's density (BENCH_PER_EXCHANGE
 * numbers per NPA-NXX, default 400, spread over every area code in use so every master holds some).
 * Prints the figures; asserts nothing. Run it on a Redis nobody else is writing to, or the delta is noise.
 *   REDIS_CLUSTER_NODES=127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103 npm run bench:redis-memory
 */
import crypto from "node:crypto";
import { describeRedisTarget, masters, nodeName, redisTargetFromEnv } from "../src/lists/redis-client";
import { RedisListStore } from "../src/lists/redis-store";
import { AREA_CODE_STATES } from "../src/numbers/area-codes";

const total = Number(process.env.BENCH_NUMBERS ?? 2_000_000);
const perExchange = Number(process.env.BENCH_PER_EXCHANGE ?? 400);

function numbers(): Float64Array {
  const areas = [...AREA_CODE_STATES.keys()].sort((a, b) => a - b);
  const exchanges = Math.ceil(total / perExchange);
  const out: number[] = [];
  // exchange k: area code k mod |areas|, NXX 200 + k / |areas|; members every (10000 / perExchange)th line
  const step = Math.floor(10_000 / perExchange);
  for (let k = 0; k < exchanges && out.length < total; k++) {
    const npa = areas[k % areas.length];
    const nxx = 200 + Math.floor(k / areas.length);
    for (let line = 0; line < 10_000 && out.length < total && line / step < perExchange; line += step) {
      out.push(npa * 1e7 + nxx * 1e4 + line);
    }
  }
  return Float64Array.from(out.sort((a, b) => a - b));
}

async function main(): Promise<void> {
  const target = redisTargetFromEnv();
  if (!target) throw new Error("Set REDIS_CLUSTER_NODES or REDIS_URL.");
  const store = new RedisListStore({ target, prefix: `bench:${crypto.randomBytes(4).toString("hex")}:` });
  try {
    const list = numbers();
    const before = await store.memoryBytes();
    const started = Date.now();
    const h = await store.replace(1, [list]);
    await store.finishChange(1, 1, h);
    const seconds = (Date.now() - started) / 1000;
    const after = await store.memoryBytes();
    const perNode = await Promise.all((await masters(store.redis)).map(async (n) => ({ node: nodeName(n), keys: await n.dbsize() })));
    const result = {
      store: describeRedisTarget(target),
      numbers: list.length,
      perExchange,
      bytesPerNumber: Number(((after - before) / list.length).toFixed(2)),
      usedMemoryDelta: after - before,
      writeSeconds: seconds,
      masters: perNode,
      copy: await store.nodeCopies(1),
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await store.clearAll();
    await store.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
