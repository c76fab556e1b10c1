import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "kysely";
import { createTestDb, describeEachDb } from "../../tests/setup/db";
import type { DbHandle } from "../client";
import * as m0022 from "./0022_list_blocks";
import { adminListIds, createContainer, createUser, EmbeddedListStore, ListManager, readListNumbers } from "scrub-service/testing";

/*
 * Migration 0022 (decision 162): row-per-number lists become exchange blocks in place, on both databases. The test
 * goes down to list_numbers, fills a national-looking list (2M numbers on PostgreSQL; 50k on PGlite, whose
 * single-threaded inserts would take a minute), a dense one and containers, goes up again and compares every number
 * both ways; then down again restores the rows.
 */
describeEachDb("lists after migration 0022", (kind) => {
  let handle: DbHandle;
  const count = kind === "postgres" ? 2_000_000 : 50_000;
  beforeAll(async () => {
    handle = await createTestDb(kind);
  }, 240_000);
  afterAll(() => handle.close());

  // every list but the national-looking one, compared both ways in SQL (that one is compared in Node, below: two
  // EXCEPTs over 2M rows took most of this test's time)
  const diff = async (skip: number) => {
    const missing = await sql<{ n: string }>`select count(*) as n from (
        select list_id, number from expected where list_id <> ${skip}
        except select id, number from lists, list_block_numbers(id) where id <> ${skip}) d`.execute(handle.db);
    const extra = await sql<{ n: string }>`select count(*) as n from (
        select id, number from lists, list_block_numbers(id) where id <> ${skip}
        except select list_id, number from expected where list_id <> ${skip}) d`.execute(handle.db);
    return { missing: Number(missing.rows[0].n), extra: Number(extra.rows[0].n) };
  };

  it("converts every list's numbers to blocks and back, exactly", { timeout: 300_000 }, async () => {
    const db = handle.db;
    const { dnc, litigation } = await adminListIds(handle);
    const user = await createUser(handle);
    const boxA = await createContainer(handle, user, "a");
    const boxB = await createContainer(handle, user, "b");
    const empty = await createContainer(handle, user, "empty");
    await m0022.down(db);
    // the DNC list: `count` numbers spread over ~80k exchanges (arrays), the litigation list: 40 exchanges with
    // every other line (5,000 lines: bitmaps), and the edges of an exchange (line 0000 and 9999) and of the range
    await sql`insert into list_numbers (list_id, number)
      select ${sql.lit(dnc)}, 2000000000::bigint + i * 397 from generate_series(0, ${sql.lit(count - 1)}) as i`.execute(db);
    await sql`insert into list_numbers (list_id, number)
      select ${sql.lit(litigation)}, 3030000000 + e * 10000 + l * 2 from generate_series(0, 39) as e, generate_series(0, 4999) as l`.execute(db);
    await sql`insert into list_numbers (list_id, number) values
      (${sql.lit(boxA)}, 2125550000), (${sql.lit(boxA)}, 2125559999), (${sql.lit(boxA)}, 9999999999), (${sql.lit(boxA)}, 2000000000), (${sql.lit(boxB)}, 6175552111)`.execute(
      db,
    );
    // a block exactly at the boundary: 624 lines (array) and 625 lines (bitmap)
    await sql`insert into list_numbers (list_id, number)
      select ${sql.lit(boxB)}, 4045550000 + l from generate_series(0, 623) as l
      union all select ${sql.lit(boxB)}, 4045560000 + l * 3 from generate_series(0, 624) as l`.execute(db);
    await sql`create table expected as select list_id, number from list_numbers`.execute(db);
    const total = Number((await sql<{ n: string }>`select count(*) as n from expected`.execute(db)).rows[0].n);
    expect(total).toBe(count + 200_000 + 5 + 624 + 625);

    await m0022.up(db);
    expect(await sql`select to_regclass('list_numbers') as t`.execute(db).then((r) => r.rows[0])).toEqual({ t: null });
    expect(await diff(dnc)).toEqual({ missing: 0, extra: 0 });
    // the forms: the boundary blocks, the dense blocks are bitmaps, and the engine's codec reads what SQL wrote
    const forms = await sql<{ exchange: number; bytes: number }>`select exchange, length(lines) as bytes from list_blocks
      where list_id = ${boxB} order by exchange`.execute(db);
    expect(forms.rows).toEqual([
      { exchange: 404555, bytes: 1248 },
      { exchange: 404556, bytes: 1250 },
      { exchange: 617555, bytes: 2 },
    ]);
    const bitmaps = await sql<{ n: string }>`select count(*) as n from list_blocks where list_id = ${litigation} and length(lines) = 1250`.execute(db);
    expect(Number(bitmaps.rows[0].n)).toBe(40);
    const read: number[] = [];
    for await (const c of readListNumbers(handle, boxA)) read.push(...c);
    expect(read).toEqual([2000000000, 2125550000, 2125559999, 9999999999]);
    // the national-looking list, read back through the engine's codec: exactly 2,000,000,000 + 397·i, in order
    let i = 0;
    let wrong = 0;
    for await (const c of readListNumbers(handle, dnc)) for (const x of c) if (x !== 2_000_000_000 + 397 * i++) wrong++;
    expect({ read: i, wrong }).toEqual({ read: count, wrong: 0 });
    expect(await sql`select count(*)::int as n from list_blocks where list_id = ${empty}`.execute(db).then((r) => r.rows[0])).toEqual({ n: 0 });

    // the lists work on: a change through the engine, a new list gets its partition, a deleted one loses it
    const manager = new ListManager(handle, new EmbeddedListStore(), { waitMs: 0 });
    const c = await manager.change(boxA, "add", Float64Array.of(2125550000, 2125550001));
    expect(c).toMatchObject({ added: 1, alreadyPresent: 1 });
    await sql`insert into expected values (${sql.lit(boxA)}, 2125550001)`.execute(db);
    const fresh = await createContainer(handle, user, "fresh");
    expect(await sql`select to_regclass(${`list_blocks_${fresh}`})::text as t`.execute(db).then((r) => r.rows[0])).toEqual({ t: `list_blocks_${fresh}` });

    // the way back (and up again) on the smaller lists: the national-looking one was compared above
    await sql`delete from list_blocks where list_id = ${dnc}`.execute(db);
    await sql`delete from expected where list_id = ${sql.lit(dnc)}`.execute(db);
    await m0022.down(db);
    const back = await sql<{ n: string }>`select count(*) as n from (
        (select list_id, number from expected except select list_id, number from list_numbers)
        union all (select list_id, number from list_numbers except select list_id, number from expected)) d`.execute(db);
    expect(Number(back.rows[0].n)).toBe(0);
    await m0022.up(db);
    expect(await diff(dnc)).toEqual({ missing: 0, extra: 0 });
    await sql`drop table expected`.execute(db);
  });
});
