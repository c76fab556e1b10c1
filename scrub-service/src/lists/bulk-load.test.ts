/**
 * Bulk list loads (decisions 018, 162): a replace, or an add into an empty list, fills a new table of exchange
 * blocks aside (on PostgreSQL without an index, indexed once) and swaps it in for the list's partition of
 * list_blocks. Counts stay exact, readers see the old list until commit, a failure leaves the old partition as it was.
 * The count contract also runs on PGlite (its paths differ, the answers must not).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableDbKinds, createTestDb, type TestDbKind } from "../../../tests/setup/db";
import type { DbHandle } from "db/client";
import { createContainer, createUser, newRedisStore, storeKinds, type StoreKind } from "../test/helpers";
import { EmbeddedListStore } from "./embedded-store";
import { ListManager } from "./manager";
import { partitionOf } from "./blocks";
import { readListNumbers } from "./pg-bulk";
import { masters, nodeName } from "./redis-client";
import { INTSET_ENTRIES, RedisListStore } from "./redis-store";
import type { ListStore } from "./store";

/** Loads of tens of thousands of numbers; each Redis generation swap SCANs the shared keyspace (~1–3 s). */
const LOAD_TIMEOUT = 180_000;

/** Deterministic distinct sorted numbers. */
function numbersFrom(seed: number, count: number, spread: number): Float64Array {
  let s = seed >>> 0;
  const set = new Set<number>();
  while (set.size < count) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    set.add(2_000_000_000 + (s % spread));
  }
  return Float64Array.from([...set].sort((a, b) => a - b));
}

async function tableNumbers(handle: DbHandle, listId: number): Promise<Float64Array> {
  const out: number[] = [];
  for await (const c of readListNumbers(handle, listId)) for (const x of c) out.push(x);
  return Float64Array.from(out.sort((a, b) => a - b));
}

async function listRow(handle: DbHandle, listId: number) {
  const r = await handle.db.selectFrom("lists").select(["size", "version"]).where("id", "=", listId).executeTakeFirstOrThrow();
  return { size: Number(r.size), version: Number(r.version) };
}

/** How many numbers the list's committed blocks hold, counted by SQL (migration 0022's list_block_numbers). */
async function rowCount(handle: DbHandle, listId: number): Promise<number> {
  const r = await sql<{ n: string | number }>`select count(*) as n from list_block_numbers(${listId})`.execute(handle.db);
  return Number(r.rows[0].n);
}

function expectSame(a: Float64Array, b: Float64Array): void {
  expect(a.length).toBe(b.length);
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
  expect(diff).toBe(0);
}

function newStore(kind: StoreKind): ListStore {
  return kind === "embedded" ? new EmbeddedListStore() : newRedisStore(kind);
}

async function closeStore(store: ListStore): Promise<void> {
  if (store instanceof RedisListStore) await store.clearAll();
  await store.close();
}

/** Expected counts of replacing `from` by `to`. */
function replaceCounts(from: Float64Array, to: Float64Array) {
  const old = new Set(from);
  const both = [...to].filter((x) => old.has(x)).length;
  return { added: to.length - both, alreadyPresent: both, removed: from.length - both, size: to.length };
}

function sample(a: Float64Array, notIn: Float64Array, n: number): Float64Array {
  const skip = new Set(notIn);
  return Float64Array.from([...a].filter((x) => !skip.has(x)).slice(0, n));
}

for (const dbKind of availableDbKinds()) {
  for (const storeKind of storeKinds) {
    describe(`list loads in bulk [${dbKind}, ${storeKind}]`, () => {
      let handle: DbHandle;
      beforeAll(async () => {
        handle = await createTestDb(dbKind as TestDbKind);
      });
      afterAll(async () => {
        await handle?.close();
      });

      it(
        "adds into an empty list and replaces by overlapping lists (large and small) with exact counts",
        async () => {
          const store = newStore(storeKind);
          try {
            const manager = new ListManager(handle, store, { waitMs: 0 });
            const user = await createUser(handle);
            const listId = await createContainer(handle, user);
            const other = await createContainer(handle, user, "other");
            const o = numbersFrom(9, 5_000, 3_000_000);
            await manager.change(other, "add", o);

            // a replace counts the overlap by streaming the old list's blocks (decision 162) whatever its size;
            // these sizes fill most of 200 exchanges (bitmaps) and leave a few sparse (arrays)
            const a = numbersFrom(1, 30_000, 2_000_000);
            const c1 = await manager.change(listId, "add", a);
            expect(c1).toMatchObject({ added: a.length, alreadyPresent: 0, removed: 0, size: a.length });
            expectSame(await tableNumbers(handle, listId), a);

            // a larger replace, overlapping the list
            const b = numbersFrom(2, 52_000, 2_000_000);
            const c2 = await manager.change(listId, "replace", b);
            expect(c2).toMatchObject(replaceCounts(a, b));
            expect(c2.alreadyPresent).toBeGreaterThan(0);
            expect(c2.removed).toBeGreaterThan(0);
            expectSame(await tableNumbers(handle, listId), b);
            expect(await listRow(handle, listId)).toEqual({ size: b.length, version: c2.version });

            // small replace, half of it from the current list
            const c = Float64Array.from([...b.slice(0, 1_000), ...numbersFrom(3, 1_000, 2_000_000)].sort((x, y) => x - y));
            const cDistinct = Float64Array.from(new Set(c));
            const c3 = await manager.change(listId, "replace", cDistinct);
            expect(c3).toMatchObject(replaceCounts(b, cDistinct));
            expectSame(await tableNumbers(handle, listId), cDistinct);

            // an add into the non-empty list (touching most of its blocks); counts still exact
            const d = numbersFrom(4, 3_000, 2_000_000);
            const inC = new Set(cDistinct);
            const fresh = [...d].filter((x) => !inC.has(x)).length;
            const c4 = await manager.change(listId, "add", d);
            expect(c4).toMatchObject({ added: fresh, alreadyPresent: d.length - fresh, removed: 0, size: cDistinct.length + fresh });

            // scrubs see the new list, the other list is untouched
            const ready = await manager.ready(listId);
            const gone = sample(b, cDistinct, 300);
            const here = sample(cDistinct, new Float64Array(0), 300);
            expect([...(await ready.snapshot!.has(gone, gone.length))].filter((x) => x === 1).length).toBe([...gone].filter((x) => new Set(d).has(x)).length);
            expect([...(await ready.snapshot!.has(here, here.length))].every((x) => x === 1)).toBe(true);
            expectSame(await tableNumbers(handle, other), o);
          } finally {
            await closeStore(store);
          }
        },
        LOAD_TIMEOUT,
      );

      if (dbKind === "postgres") {
        it(
          "during a replace, other connections and scrubs see the old list until commit",
          async () => {
            const store = newStore(storeKind);
            try {
              const manager = new ListManager(handle, store, { waitMs: 0 });
              const listId = await createContainer(handle, await createUser(handle));
              const a = numbersFrom(11, 40_000, 1_000_000);
              const b = numbersFrom(12, 60_000, 1_000_000);
              await manager.change(listId, "add", a);
              const before = await listRow(handle, listId);
              await manager.ready(listId);
              const onlyA = sample(a, b, 200);
              const onlyB = sample(b, a, 200);
              let seen: { rows: number; version: number; oldHits: number; newHits: number } | null = null;
              // `record` runs in the load's transaction after the new table is built, before the swap
              const counts = await manager.change(listId, "replace", b, async () => {
                const snap = await store.snapshot(listId, before.version);
                seen = {
                  rows: await rowCount(handle, listId),
                  version: (await listRow(handle, listId)).version,
                  oldHits: [...(await snap.has(onlyA, onlyA.length))].filter((x) => x === 1).length,
                  newHits: [...(await snap.has(onlyB, onlyB.length))].filter((x) => x === 1).length,
                };
              });
              expect(seen).toEqual({ rows: a.length, version: before.version, oldHits: onlyA.length, newHits: 0 });
              expect(counts.version).toBe(before.version + 1);
              expect(await rowCount(handle, listId)).toBe(b.length);
              const ready = await manager.ready(listId);
              expect(ready.info.version).toBe(counts.version);
              expect([...(await ready.snapshot!.has(onlyB, onlyB.length))].every((x) => x === 1)).toBe(true);
              expect([...(await ready.snapshot!.has(onlyA, onlyA.length))].every((x) => x === 0)).toBe(true);
            } finally {
              await closeStore(store);
            }
          },
          LOAD_TIMEOUT,
        );

        it(
          "a replace or a first add that fails midway leaves the old partition, version and store copy intact",
          async () => {
            const store = newStore(storeKind);
            try {
              const manager = new ListManager(handle, store, { waitMs: 0 });
              const user = await createUser(handle);
              const listId = await createContainer(handle, user);
              const a = numbersFrom(21, 30_000, 1_000_000);
              const b = numbersFrom(22, 60_000, 1_000_000);
              await manager.change(listId, "add", a);
              const before = await listRow(handle, listId);
              await manager.ready(listId);
              await expect(
                manager.change(listId, "replace", b, async () => {
                  throw new Error("the load's lease was lost");
                }),
              ).rejects.toThrow("lease was lost");
              expect(await listRow(handle, listId)).toEqual(before);
              expectSame(await tableNumbers(handle, listId), a);
              // the table built aside went with the rollback
              const leftover = await sql<{ t: string | null }>`select to_regclass(${`${partitionOf(listId)}_new`})::text as t`.execute(handle.db);
              expect(leftover.rows[0].t).toBeNull();
              const ready = await manager.ready(listId);
              expect(ready.info.version).toBe(before.version);
              const onlyA = sample(a, b, 200);
              expect([...(await ready.snapshot!.has(onlyA, onlyA.length))].every((x) => x === 1)).toBe(true);

              // a first add into an empty list that fails: still empty, and the next attempt works
              const empty = await createContainer(handle, user, "empty");
              const emptyBefore = await listRow(handle, empty);
              await expect(
                manager.change(empty, "add", b, async () => {
                  throw new Error("no");
                }),
              ).rejects.toThrow("no");
              expect(await listRow(handle, empty)).toEqual(emptyBefore);
              expect(await rowCount(handle, empty)).toBe(0);
              const ok = await manager.change(empty, "add", b);
              expect(ok).toMatchObject({ added: b.length, alreadyPresent: 0, size: b.length });
              expect(await rowCount(handle, empty)).toBe(b.length);
            } finally {
              await closeStore(store);
            }
          },
          LOAD_TIMEOUT,
        );
      }
    });
  }
}

describe("list_blocks partitions", () => {
  it("a new list gets its own partition, a deleted list's partition goes with it", async () => {
    const handle = await createTestDb();
    try {
      const user = await createUser(handle);
      const listId = await createContainer(handle, user);
      const manager = new ListManager(handle, new EmbeddedListStore(), { waitMs: 0 });
      await manager.change(listId, "add", numbersFrom(31, 1_000, 1_000_000));
      const parts = async () =>
        (await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid`.execute(handle.db)).rows.map(
          (r) => r.name,
        );
      expect(await parts()).toContain(partitionOf(listId));
      await handle.db.deleteFrom("users").where("id", "=", user).execute(); // cascades to the list
      expect(await parts()).not.toContain(partitionOf(listId));
      expect(await rowCount(handle, listId)).toBe(0);
    } finally {
      await handle.close();
    }
  });
});

for (const kind of storeKinds.filter((k) => k !== "embedded") as ("redis" | "cluster")[]) {
  describe(`Redis copies written whole [${kind}]`, () => {
    it(
      "a replaced generation's sets are all deleted, by SCAN and by enumerating the NPA-NXX names",
      async () => {
        for (const scanBelowKeys of [Number.MAX_SAFE_INTEGER, 0]) {
          const store = newRedisStore(kind, { scanBelowKeys });
          try {
            const a = numbersFrom(41, 20_000, 3_000_000_000);
            const b = numbersFrom(42, 20_000, 3_000_000_000);
            const first = await store.replace(7, [a.subarray(0, 7_000), a.subarray(7_000)]);
            await store.finishChange(7, 1, first);
            const countKeys = (gen: number) => store.countKeys(`${store.prefix}n:7:${gen}:*`);
            expect(await countKeys(first.generation)).toBeGreaterThan(1_000);
            const second = await store.replace(7, [b]);
            await store.finishChange(7, 2, second);
            expect(await countKeys(first.generation)).toBe(0);
            const snap = await store.snapshot(7, 2);
            const probe = Float64Array.from([...a.subarray(0, 500), ...b.subarray(0, 500)]);
            const inB = new Set(b);
            const got = await snap.has(probe, probe.length);
            expect([...got].map((x, i) => x === (inB.has(probe[i]) ? 1 : 0)).every(Boolean)).toBe(true);
          } finally {
            await store.clearAll();
            await store.close();
          }
        }
      },
      LOAD_TIMEOUT,
    );

    it(
      "keeps an NPA-NXX set of up to 10,000 numbers as a 2-byte intset, raising a lower server limit first",
      async () => {
        const store = newRedisStore(kind);
        try {
          for (const node of await masters(store.redis)) await node.config("SET", "set-max-intset-entries", "512");
          // a whole NPA-NXX (10,000 numbers), one of 700 (a national list's average), one of 3
          const full = Array.from({ length: 10_000 }, (_, i) => 2_125_550_000 + i);
          const average = Array.from({ length: 700 }, (_, i) => 3_034_560_000 + i * 13);
          const numbers = Float64Array.from([...full, ...average, 4_045_670_001, 4_045_670_002, 4_045_670_003]);
          const h = await store.replace(9, [numbers.subarray(0, 6_000), numbers.subarray(6_000)]);
          await store.finishChange(9, 1, h);
          for (const node of await masters(store.redis)) {
            expect((await node.config("GET", "set-max-intset-entries"))[1], nodeName(node)).toBe(String(INTSET_ENTRIES));
          }
          // after an add too (SADD into an existing set converts on the way past the limit)
          const add = Float64Array.from(Array.from({ length: 900 }, (_, i) => 5_056_780_000 + i));
          const change = store.change(9, "add", add);
          await change.started({ size: numbers.length, version: 1, wholeList: false });
          await change.written({ added: add.length, removed: 0 });
          await change.beforeCommit();
          await change.committed(2);
          for (const [key, members] of [
            ["{212}555", 10_000],
            ["{303}456", 700],
            ["{505}678", 900],
          ] as const) {
            const name = `${store.prefix}n:9:${h.generation}:${key}`;
            expect([await store.redis.scard(name), await store.redis.object("ENCODING", name)]).toEqual([members, "intset"]);
            expect(Number(await store.redis.memory("USAGE", name))).toBeLessThan(4 * members);
          }
          const probe = Float64Array.from([2_125_550_000, 2_125_559_999, 3_034_560_013, 3_034_560_014, 5_056_780_899, 5_056_780_900]);
          expect([...(await (await store.snapshot(9, 2)).has(probe, probe.length))]).toEqual([1, 1, 1, 0, 1, 0]);
        } finally {
          await store.clearAll();
          await store.close();
        }
      },
      LOAD_TIMEOUT,
    );
  });
}
