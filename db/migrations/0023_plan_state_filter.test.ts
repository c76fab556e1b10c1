import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDb, describeEachDb } from "../../tests/setup/db";
import type { DbHandle } from "../client";
import * as m0023 from "./0023_plan_state_filter";
import { stateFilterAllowed } from "../../app/models/purge-options.server";

/* Migration 0023: a plan's state filter is a column, filled from its feature list; the wizard's gate reads it. */
describeEachDb("plans after migration 0023", (kind) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDb(kind);
  }, 240_000);
  afterAll(() => handle.close());

  it('takes the state filter from an available "State filter" feature, and the gate follows the column', async () => {
    const db = handle.db;
    const plan = (id: string, features: { label: string; available?: boolean }[]) =>
      db
        .insertInto("plans")
        .values({ id, name: id, price_cents: 1, suppression_limit: 1, container_limit: 1, features: JSON.stringify(features) })
        .execute();
    await plan("no-states", [{ label: "API integration" }]);
    await plan("states-off", [{ label: "State filter", available: false }]);
    await plan("states-on", [{ label: "state filter (50 states)" }]);
    await m0023.down(db);
    await m0023.up(db);
    const rows = await db.selectFrom("plans").select(["id", "state_filter"]).orderBy("id").execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.state_filter]))).toEqual({
      beginner: true,
      business: true,
      premium: true,
      "no-states": false,
      "states-off": false,
      "states-on": true,
    });
    const gate = (id: string | null) => stateFilterAllowed(db, { unlimited: false, plan: id ? { id } : null });
    expect([await gate("states-on"), await gate("states-off"), await gate(null)]).toEqual([true, false, false]);
    expect(await stateFilterAllowed(db, { unlimited: true, plan: null })).toBe(true);
    // a label no longer decides: renaming the feature changes nothing
    await db
      .updateTable("plans")
      .set({ features: JSON.stringify([{ label: "Filter by state" }]) })
      .where("id", "=", "states-on")
      .execute();
    expect(await gate("states-on")).toBe(true);
  });
});
