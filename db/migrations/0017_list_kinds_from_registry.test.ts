import { afterAll, beforeAll, expect, it } from "vitest";
import { sql } from "kysely";
import { createTestDb, describeEachDb } from "../../tests/setup/db";
import type { DbHandle } from "../client";
import { LIST_TYPES } from "scrub-service/domain";

/*
 * Migration 0017: the database admits any list kind the registry may add (a new list type's migration only
 * inserts its row), still one list per admin kind and per DNC page type, and the seeded lists carry the
 * registry's names.
 */
describeEachDb("lists after migration 0017", (kind) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDb(kind);
  }, 240_000);
  afterAll(() => handle.close());

  it("the admin lists are the registry's, by kind, type and name", async () => {
    const rows = await handle.db
      .selectFrom("lists")
      .select(["kind", "suppression_type", "name"])
      .where("kind", "<>", "container")
      .orderBy("suppression_type")
      .execute();
    expect(rows).toEqual(LIST_TYPES.map((t) => ({ kind: t.kind, suppression_type: t.type, name: t.name })));
  });

  it("a third list type needs only its row; a duplicate kind or type, an admin list without a type and a malformed kind are refused", async () => {
    const insert = (kind: string, type: number | null, name = "x") =>
      sql`insert into lists (kind, suppression_type, name) values (${kind}, ${type}, ${name})`.execute(handle.db);
    // types 2…13 are the state lists' (migration 0020)
    await insert("state_xx", 50, "Another List");
    const added = await sql<{ name: string }>`select name from lists where kind = 'state_xx'`.execute(handle.db);
    expect(added.rows).toEqual([{ name: "Another List" }]);

    await expect(insert("state_xx", 51)).rejects.toThrow(/lists_one_admin_list/);
    await expect(insert("state_fl", 50)).rejects.toThrow(/lists_one_admin_type/);
    await expect(insert("state_fl", null)).rejects.toThrow(/lists_admin_list_type/);
    for (const bad of ["", "State", "1dnc", "dnc list", "a".repeat(33), "dnc;drop"]) {
      await expect(insert(bad, 9), bad).rejects.toThrow(/lists_kind_check/);
    }
  });
});
