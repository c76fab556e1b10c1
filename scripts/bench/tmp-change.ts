import { openDatabase, migrateToLatest } from "../../db/client";
import { scratchDatabase } from "./scratch";
import { ListManager } from "../../scrub-service/src/lists/manager";
import { EmbeddedListStore } from "../../scrub-service/src/lists/embedded-store";
import { newRedisStore, createUser, createContainer } from "../../scrub-service/src/test/helpers";
import { RedisListStore } from "../../scrub-service/src/lists/redis-store";
import { seededRandom } from "../../scrub-service/src/test/random";
const N = Number(process.env.N ?? 2_000_000);
const r = seededRandom(7);
function nums(n: number) {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = 2_000_000_000 + Math.floor(r() * 7_999_999_999);
  a.sort();
  let k = 0;
  for (let i = 0; i < n; i++) if (i === 0 || a[i] !== a[i - 1]) a[k++] = a[i];
  return a.subarray(0, k);
}
const db = await scratchDatabase("tc");
const handle = await openDatabase({ databaseUrl: db.url });
await migrateToLatest(handle.db);
for (const kind of (process.env.STORES ?? "embedded,redis").split(",")) {
  const store = kind === "redis" ? newRedisStore("redis") : new EmbeddedListStore();
  const m = new ListManager(handle, store, { waitMs: 0 });
  const list = await createContainer(handle, await createUser(handle), kind);
  const t = (label: string) => { const s = performance.now(); return () => console.log(kind, label, (performance.now() - s).toFixed(0), "ms"); };
  let d = t("load " + N); await m.change(list, "add", nums(N)); d();
  const add = nums(1_000_000); d = t("add 1M"); await m.change(list, "add", add); d();
  const a5 = nums(5000); const r5 = add.subarray(0, 5000);
  d = t("remove 5k"); await m.change(list, "remove", r5); d();
  d = t("add 5k"); await m.change(list, "add", a5); d();
  if (store instanceof RedisListStore) await store.clearAll();
  await store.close();
}
await handle.close();
await db.drop();
