/**
 * Changes to a list's exchange blocks (decision 162) on both databases: an add or remove rewrites only the blocks it
 * touches (or, on PostgreSQL, builds the list aside when it touches most of them; on PGlite in parts of whole
 * exchanges), counts stay exact, an emptied exchange loses its row, and blocks change form at 624/625 lines.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDb, describeEachDb } from "../../../tests/setup/db";
import type { DbHandle } from "db/client";
import { seededRandom } from "../test/random";
import { blockRows, storedNumbers } from "../test/list-blocks";
import { createContainer, createUser } from "../test/helpers";
import fs from "node:fs";
import { defaultDedupeThreadPath } from "../dist-paths";
import { BloomFilter } from "../worker/bloom";
import { EmbeddedListStore } from "./embedded-store";
import { ListManager } from "./manager";
import { touchedBlocksDelete } from "./blocks";

const sorted = (xs: Iterable<number>) => Float64Array.from([...new Set(xs)].sort((a, b) => a - b));

describeEachDb("list changes as exchange blocks", (kind) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDb(kind);
  }, 120_000);
  afterAll(() => handle.close());

  // (Infinity: one transaction, as the CLI loads an embedded database it holds alone)
  for (const loadChunk of kind === "pglite" ? [50_000, 300, Infinity] : [50_000]) {
    it(`adds and removes touch only their blocks, with exact counts against a reference set (chunk ${loadChunk})`, { timeout: 120_000 }, async () => {
      const manager = new ListManager(handle, new EmbeddedListStore(), { waitMs: 0, loadChunk });
      const listId = await createContainer(handle, await createUser(handle), `spread-${loadChunk}`);
      const r = seededRandom(28 + loadChunk);
      const any = () => 2_000_000_000 + Math.floor(r() * 7_999_999_999);
      const ref = new Set<number>();
      const first = sorted(Array.from({ length: 20_000 }, any));
      await manager.change(listId, "add", first);
      for (const x of first) ref.add(x);
      const exchanges = () => new Set([...ref].map((x) => Math.floor(x / 10_000))).size;
      expect(await blockRows(handle, listId)).toBe(exchanges());

      const known = [...ref];
      // an FTC change list's two sides: deletions (some listed, some not) and additions (some listed), disjoint
      const changes = (dels: number[], adds: number[]): [Float64Array, Float64Array] => {
        const a = sorted(adds);
        const gone = new Set(a);
        return [a, sorted(dels.filter((x) => !gone.has(x)))];
      };
      const rounds: [mode: "add" | "remove" | "changes" | "replace", numbers: Float64Array, removals?: Float64Array][] = [
        ["add", sorted([...Array.from({ length: 400 }, any), ...known.slice(0, 100)])], // few blocks: rewritten in place
        ["remove", sorted([...known.slice(50, 350), ...Array.from({ length: 50 }, any)])],
        [
          "changes",
          ...changes([...known.slice(350, 500), ...Array.from({ length: 40 }, any)], [...Array.from({ length: 300 }, any), ...known.slice(600, 650)]),
        ],
        ["add", sorted(Array.from({ length: 15_000 }, any))], // most blocks: PostgreSQL builds the list aside
        ["remove", sorted(known.slice(5_000, 15_000))],
        // most blocks again, both sides (PGlite: in parts of whole exchanges across both)
        ["changes", ...changes(known.slice(1_000, 4_000), Array.from({ length: 9_000 }, any))],
        // a whole new list, overlapping the old one
        ["replace", sorted([...known.slice(0, 3_000), ...Array.from({ length: 2_000 }, any)])],
      ];
      for (const [mode, numbers, removals] of rounds) {
        let added = 0;
        let removed = 0;
        for (const x of removals ?? []) if (ref.delete(x)) removed++;
        if (mode === "replace") {
          const kept = numbers.filter((x) => ref.has(x)).length;
          removed = ref.size - kept;
          added = numbers.length - kept;
          ref.clear();
          for (const x of numbers) ref.add(x);
        }
        for (const x of mode === "replace" ? [] : numbers) {
          if (mode !== "remove" && !ref.has(x)) {
            added++;
            ref.add(x);
          }
          if (mode === "remove" && ref.delete(x)) removed++;
        }
        const version = (await handle.db.selectFrom("lists").select("version").where("id", "=", listId).executeTakeFirstOrThrow()).version;
        const c = await manager.change(listId, mode, numbers, undefined, removals);
        const adds = mode === "remove" ? 0 : numbers.length;
        expect([c.added, c.alreadyPresent, c.removed], mode).toEqual([added, adds - added, removed]);
        expect(Number(c.version), "one change, one version").toBe(Number(version) + 1);
        expect(c.size).toBe(ref.size);
        expect(await storedNumbers(handle, listId)).toEqual([...ref].sort((a, b) => a - b));
        expect(await blockRows(handle, listId)).toBe(exchanges());
        const ready = await manager.ready(listId);
        const probe = Float64Array.from(numbers.subarray(0, 500));
        expect([...(await ready.snapshot!.has(probe, probe.length))]).toEqual([...probe].map((x) => (ref.has(x) ? 1 : 0)));
      }
      // the list's size is what its blocks hold
      const held = await sql<{ n: string }>`select count(*) as n from list_block_numbers(${listId})`.execute(handle.db);
      expect(Number(held.rows[0].n)).toBe(ref.size);
    });
  }

  it("an exchange's block turns into a bitmap past 624 lines and back, and an emptied exchange loses its row", { timeout: 60_000 }, async () => {
    const manager = new ListManager(handle, new EmbeddedListStore(), { waitMs: 0 });
    const listId = await createContainer(handle, await createUser(handle), "boundary");
    const lines = (from: number, n: number) => Float64Array.from({ length: n }, (_, i) => 2_125_550_000 + from + i * 7);
    const form = async () =>
      (
        await sql<{
          exchange: number;
          bytes: number;
        }>`select exchange, length(lines) as bytes from list_blocks where list_id = ${listId} order by exchange`.execute(handle.db)
      ).rows;
    await manager.change(listId, "add", sorted([...lines(0, 624), 3_035_550_001]));
    expect(await form()).toEqual([
      { exchange: 212555, bytes: 1248 },
      { exchange: 303555, bytes: 2 },
    ]);
    await manager.change(listId, "add", lines(624 * 7, 1));
    expect(await form()).toEqual([
      { exchange: 212555, bytes: 1250 },
      { exchange: 303555, bytes: 2 },
    ]);
    await manager.change(listId, "remove", lines(0, 2));
    expect(await form()).toEqual([
      { exchange: 212555, bytes: 1246 },
      { exchange: 303555, bytes: 2 },
    ]);
    const c = await manager.change(listId, "remove", Float64Array.of(3_035_550_001));
    expect(c).toMatchObject({ removed: 1, size: 623 });
    expect(await form()).toEqual([{ exchange: 212555, bytes: 1246 }]);
    expect((await storedNumbers(handle, listId)).length).toBe(623);
  });

  it(
    "an add touching most blocks that meets a malformed block fails closed mid-COPY: the list, its version and the table are as before",
    { timeout: 60_000 },
    async () => {
      const manager = new ListManager(handle, new EmbeddedListStore(), { waitMs: 0 });
      const listId = await createContainer(handle, await createUser(handle), "bad-block");
      const r = seededRandom(2811);
      const any = () => 2_000_000_000 + Math.floor(r() * 7_999_999_998);
      // ~60k blocks: the rows made before the bad one fill more than one COPY buffer (PostgreSQL has sent them)
      const first = sorted(Array.from({ length: 60_000 }, any));
      await manager.change(listId, "add", first);
      const last = 9_999_999_999; // the last exchange: read in the last range
      await manager.change(listId, "add", Float64Array.of(last));
      const before = await handle.db.selectFrom("lists").select(["size", "version"]).where("id", "=", listId).executeTakeFirstOrThrow();
      const bad = Uint8Array.of(0x27, 0x0f, 0x00, 0x01); // lines 9999 then 1: out of order
      const setLast = (lines: Uint8Array) =>
        handle.db
          .updateTable("list_blocks")
          .set({ lines })
          .where("list_id", "=", listId)
          .where("exchange", "=", Math.floor(last / 10_000))
          .execute();
      await setLast(bad);
      // most blocks (built aside on PostgreSQL, in parts on PGlite), the bad one among them (an untouched block is copied
      // as it is)
      const adds = sorted([...Array.from({ length: 40_000 }, any), 9_999_990_005]);
      await expect(manager.change(listId, "add", adds)).rejects.toThrow(/exchange 999999 is not sorted lines/);
      expect(await handle.db.selectFrom("lists").select(["size", "version"]).where("id", "=", listId).executeTakeFirstOrThrow()).toEqual(before);
      const leftover = await sql<{ t: string | null }>`select to_regclass(${`list_blocks_${listId}_new`})::text as t`.execute(handle.db);
      expect(leftover.rows[0].t).toBeNull();
      const held = await sql<{ lines: Uint8Array }>`select lines from list_blocks where list_id = ${listId} and exchange = 999999`.execute(handle.db);
      expect([...held.rows[0].lines]).toEqual([...bad]);
      // mended, the same add goes through on the same pool
      await setLast(Uint8Array.of(0x27, 0x0f));
      const c = await manager.change(listId, "add", adds);
      const expected = new Set([...first, last, ...adds]);
      expect(c.size).toBe(expected.size);
      expect(await storedNumbers(handle, listId)).toEqual([...expected].sort((a, b) => a - b));
    },
  );

  it("a change touching few of a large list's blocks finds them by the key, not by a scan of the partition", { timeout: 60_000 }, async () => {
    const manager = new ListManager(handle, new EmbeddedListStore(), { waitMs: 0 });
    const listId = await createContainer(handle, await createUser(handle), "keyed");
    const r = seededRandom(2835);
    const any = () => 2_000_000_000 + Math.floor(r() * 7_999_999_999);
    await manager.change(listId, "add", sorted(Array.from({ length: 40_000 }, any)));
    await sql.raw(`analyze list_blocks_${listId}`).execute(handle.db);
    const blocks = Number((await sql<{ n: string }>`select count(*) as n from list_blocks where list_id = ${listId}`.execute(handle.db)).rows[0].n);
    const held = (await sql<{ exchange: number }>`select exchange from list_blocks where list_id = ${listId}`.execute(handle.db)).rows.map((x) => x.exchange);
    const plan = async (exchanges: number[]) => {
      const d = touchedBlocksDelete(listId, exchanges, blocks);
      return handle.db.transaction().execute(async (tx) => {
        for (const q of d.before) await sql.raw(q).execute(tx);
        const p = await sql.raw<{ "QUERY PLAN": string }>(`explain (costs off) ${d.statement}`).execute(tx);
        for (const q of d.after) await sql.raw(q).execute(tx);
        const seqscan = (await sql<{ enable_seqscan: string }>`show enable_seqscan`.execute(tx)).rows[0].enable_seqscan;
        return { text: p.rows.map((x) => x["QUERY PLAN"]).join("\n"), seqscan };
      });
    };
    // an FTC file's share (~3 % of the blocks): by the key, with the exchanges in the key's condition
    const few = await plan(held.filter((_, i) => i % 40 === 0));
    expect(few.text).toMatch(new RegExp(`Index Cond: \\(\\(list_id = ${listId}\\) AND \\(exchange = ANY`));
    expect(few.text).not.toMatch(/Seq Scan/);
    expect(few.seqscan, "the setting is the transaction's default again after the statement").toBe("on");
    // a fifth of them: the planner's own choice (a scan was as fast there)
    expect(
      touchedBlocksDelete(
        listId,
        held.filter((_, i) => i % 5 === 0),
        blocks,
      ).before,
    ).toEqual([]);
    // and the rewrite through that path is right
    const probe = sorted(held.filter((_, i) => i % 40 === 0).map((e) => e * 10_000 + 1));
    const before = await storedNumbers(handle, listId);
    const c = await manager.change(listId, "add", probe);
    const expected = new Set([...before, ...probe]);
    expect(c.size).toBe(expected.size);
    expect(await storedNumbers(handle, listId)).toEqual([...expected].sort((a, b) => a - b));
  });

  it("a whole list's Bloom filter is filled on the side thread during the write and answers every number", { timeout: 60_000 }, async () => {
    expect(fs.existsSync(defaultDedupeThreadPath())).toBe(true); // built by the global set-up: the thread really runs
    const manager = new ListManager(handle, new EmbeddedListStore(), { waitMs: 0, bloomThreadMin: 1 });
    const listId = await createContainer(handle, await createUser(handle), "bloom-thread");
    const r = seededRandom(1620);
    const numbers = sorted(Array.from({ length: 30_000 }, () => 2_000_000_000 + Math.floor(r() * 7_999_999_999)));
    const c = await manager.change(listId, "replace", numbers);
    const ready = await manager.ready(listId);
    expect(ready.info.version).toBe(c.version);
    const bloom = new BloomFilter(ready.bloom!);
    expect([...numbers].every((x) => bloom.has(x))).toBe(true);
    // and it is a real filter, not all ones: most numbers not on the list are ruled out
    const others = Array.from({ length: 2_000 }, () => 2_000_000_000 + Math.floor(r() * 7_999_999_999)).filter((x) => !numbers.includes(x));
    expect(others.filter((x) => bloom.has(x)).length).toBeLessThan(others.length / 10);
  });
});
