/**
 * Embedded database (PGlite on the app's own thread): large list loads run in bounded transactions, so
 * other queries interleave with them, while counts stay exact and scrubs see the old list until the swap.
 * No timing: the proof is ordering (queries that complete while the load is still running, and what they see).
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createTestDb } from "../../../tests/setup/db";
import { createContainer, createUser } from "../test/helpers";
import { EmbeddedListStore } from "./embedded-store";
import { ListManager } from "./manager";
import { BLOCK_LINES_SQL, partitionOf, readListNumbers } from "./pg-bulk";
import type { DbHandle } from "db/client";

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

/** Numbers held by a table of blocks (0 when it does not exist). */
async function numbersIn(handle: DbHandle, table: string): Promise<number> {
  const exists = await sql<{ t: string | null }>`select to_regclass(${table})::text as t`.execute(handle.db);
  if (!exists.rows[0].t) return 0;
  const r = await sql<{ n: string | number }>`select coalesce(sum(${sql.raw(BLOCK_LINES_SQL)}), 0) as n from ${sql.table(table)}`.execute(handle.db);
  return Number(r.rows[0].n);
}

async function tableNumbers(handle: DbHandle, listId: number): Promise<number[]> {
  const out: number[] = [];
  for await (const c of readListNumbers(handle, listId)) for (const x of c) out.push(x);
  return out.sort((a, b) => a - b);
}

async function listRow(handle: DbHandle, listId: number) {
  const r = await handle.db.selectFrom("lists").select(["size", "version"]).where("id", "=", listId).executeTakeFirstOrThrow();
  return { size: Number(r.size), version: Number(r.version) };
}

describe("embedded list loads (PGlite)", () => {
  it("a large replace interleaves with other queries, which see the old list until the swap; counts are exact", { timeout: 120_000 }, async () => {
    const handle = await createTestDb("pglite");
    try {
      const store = new EmbeddedListStore();
      // parts of ~4 exchanges (≈ 2,000 numbers here): a hundred transactions, so queries meet the load midway
      const manager = new ListManager(handle, store, { waitMs: 0, loadChunk: 2_000 });
      const listId = await createContainer(handle, await createUser(handle));
      const a = numbersFrom(1, 60_000, 4_000_000);
      const b = numbersFrom(2, 200_000, 4_000_000);
      const inA = new Set(a);
      const inB = new Set(b);
      await manager.change(listId, "add", a);
      const before = await listRow(handle, listId);
      await manager.ready(listId); // index and Bloom filter of the old version in memory
      const onlyA = Float64Array.from([...a].filter((x) => !inB.has(x)).slice(0, 500));
      const onlyB = Float64Array.from([...b].filter((x) => !inA.has(x)).slice(0, 500));

      let done = false;
      const load = manager.change(listId, "replace", b).finally(() => (done = true));
      const seen: { rows: number; aside: number; size: number; version: number }[] = [];
      let servedOld = 0;
      while (!done) {
        // a web request now and then (not a busy loop that would keep the database to itself)
        await new Promise((r) => setTimeout(r, 20));
        if (done) break;
        const rows = await numbersIn(handle, partitionOf(listId));
        const aside = await numbersIn(handle, `${partitionOf(listId)}_new`);
        const row = await listRow(handle, listId);
        if (done) break;
        seen.push({ rows, aside, ...row });
        // a scrub starting now gets the old list, complete
        const ready = await manager.ready(listId);
        if (done) break;
        if (ready.info.version === before.version) {
          expect([...(await ready.snapshot!.has(onlyA, onlyA.length))].every((x) => x === 1)).toBe(true);
          expect([...(await ready.snapshot!.has(onlyB, onlyB.length))].every((x) => x === 0)).toBe(true);
          servedOld++;
        }
      }
      const counts = await load;
      // queries completed while the load was still running, and saw the new list half built aside
      expect(seen.some((o) => o.aside > 0 && o.aside < b.length)).toBe(true);
      expect(servedOld).toBeGreaterThan(0);
      // ... while the list's blocks, size and version stayed exactly those of the old list until the last transaction
      for (const o of seen) expect({ rows: o.rows, size: o.size, version: o.version }).toEqual({ rows: a.length, ...before });
      const common = b.filter((x) => inA.has(x)).length;
      expect(counts).toEqual({
        added: b.length - common,
        alreadyPresent: common,
        removed: a.length - common,
        size: b.length,
        version: before.version + 1,
      });
      expect(await tableNumbers(handle, listId)).toEqual([...b]);
      const after = await manager.ready(listId);
      expect(after.info.version).toBe(before.version + 1);
      expect([...(await after.snapshot!.has(onlyA, onlyA.length))].every((x) => x === 0)).toBe(true);
      expect([...(await after.snapshot!.has(onlyB, onlyB.length))].every((x) => x === 1)).toBe(true);
    } finally {
      await handle.close();
    }
  });

  it("chunked add/remove/replace match a reference set, with exact counts (tiny chunks)", { timeout: 120_000 }, async () => {
    const handle = await createTestDb("pglite");
    try {
      const store = new EmbeddedListStore();
      const manager = new ListManager(handle, store, { waitMs: 0, loadChunk: 7 });
      const listId = await createContainer(handle, await createUser(handle));
      const ref = new Set<number>();
      const modes = ["add", "add", "remove", "replace", "add", "remove", "replace", "replace", "remove", "add"] as const;
      for (let i = 0; i < modes.length; i++) {
        const mode = modes[i];
        const nums = numbersFrom(100 + i, i === 7 ? 0 : 5 + ((i * 13) % 60), 150);
        let added = 0;
        let already = 0;
        let removed = 0;
        if (mode === "add") {
          for (const x of nums) {
            if (ref.has(x)) already++;
            else {
              added++;
              ref.add(x);
            }
          }
        } else if (mode === "remove") {
          for (const x of nums) if (ref.delete(x)) removed++;
        } else {
          const next = new Set(nums);
          for (const x of nums) {
            if (ref.has(x)) already++;
            else added++;
          }
          for (const x of ref) if (!next.has(x)) removed++;
          ref.clear();
          for (const x of nums) ref.add(x);
        }
        const c = await manager.change(listId, mode, nums);
        expect({ mode, added: c.added, alreadyPresent: c.alreadyPresent, removed: c.removed, size: c.size }).toEqual({
          mode,
          added,
          alreadyPresent: already,
          removed,
          size: ref.size,
        });
        expect(await tableNumbers(handle, listId)).toEqual([...ref].sort((x, y) => x - y));
        const ready = await manager.ready(listId);
        if (ref.size) {
          const ask = Float64Array.from({ length: 150 }, (_, k) => 2_000_000_000 + k);
          const has = await ready.snapshot!.has(ask, ask.length);
          expect([...has]).toEqual([...ask].map((x) => (ref.has(x) ? 1 : 0)));
        }
      }
    } finally {
      await handle.close();
    }
  });

  it("a load that fails after some chunks committed leaves no stale copy: version bumped, size counted, index reloaded", { timeout: 120_000 }, async () => {
    const handle = await createTestDb("pglite");
    try {
      const store = new EmbeddedListStore();
      const manager = new ListManager(handle, store, { waitMs: 0, loadChunk: 10 });
      const listId = await createContainer(handle, await createUser(handle));
      // 200 numbers over ~200 exchanges; the 30 added touch 30 of them: an in-place change, in parts of ~10
      await manager.change(listId, "add", numbersFrom(5, 200, 10_000_000));
      const before = await listRow(handle, listId);
      await manager.ready(listId);
      const extra = numbersFrom(6, 30, 10_000_000);
      await expect(
        manager.change(listId, "add", extra, async () => {
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      const table = await tableNumbers(handle, listId);
      const row = await listRow(handle, listId);
      expect(row.version).toBe(before.version + 1);
      expect(row.size).toBe(table.length);
      expect(await store.version(listId)).toBeNull();
      const ready = await manager.ready(listId);
      const ask = Float64Array.from(table);
      expect([...(await ready.snapshot!.has(ask, ask.length))].every((x) => x === 1)).toBe(true);
      expect(ready.info.version).toBe(before.version + 1);
    } finally {
      await handle.close();
    }
  });

  it(
    "an add touching most of the list's blocks is rebuilt aside: a failure midway leaves the old list, version and copy exactly",
    { timeout: 120_000 },
    async () => {
      const handle = await createTestDb("pglite");
      try {
        const store = new EmbeddedListStore();
        const manager = new ListManager(handle, store, { waitMs: 0, loadChunk: 10 });
        const listId = await createContainer(handle, await createUser(handle));
        const a = numbersFrom(7, 300, 4_000_000); // ~400 exchanges' worth of room, 300 numbers
        await manager.change(listId, "add", a);
        const before = await listRow(handle, listId);
        await manager.ready(listId);
        const extra = numbersFrom(8, 2_000, 4_000_000); // touches far more than a quarter of the blocks
        await expect(
          manager.change(listId, "add", extra, async () => {
            throw new Error("boom");
          }),
        ).rejects.toThrow("boom");
        expect(await listRow(handle, listId)).toEqual(before);
        expect(await tableNumbers(handle, listId)).toEqual([...a]);
        expect(await numbersIn(handle, `${partitionOf(listId)}_new`)).toBe(0);
        const ready = await manager.ready(listId);
        expect(ready.info.version).toBe(before.version);
        // and the same add, not failing, gives the union with exact counts
        const inA = new Set(a);
        const fresh = [...extra].filter((x) => !inA.has(x)).length;
        const c = await manager.change(listId, "add", extra);
        expect(c).toMatchObject({ added: fresh, alreadyPresent: extra.length - fresh, size: a.length + fresh });
        expect(await tableNumbers(handle, listId)).toEqual([...new Set([...a, ...extra])].sort((x, y) => x - y));
      } finally {
        await handle.close();
      }
    },
  );
});
