/**
 * Call history in the database (decision 185), on PGlite and, with DATABASE_URL, PostgreSQL: monthly partitions made
 * on demand, repeated dialer ids ignored within and across requests, one owner's records invisible to another, a
 * reserved attempt deleted and a call made kept, and the retention job at five years ± one day.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDb, describeEachDb } from "../../../tests/setup/db";
import type { DbHandle } from "db/client";
import { createUser } from "../test/helpers";
import { deleteReservedCall, dropExpiredCalls, listNumberCalls, recordCalls } from "./store";
import { checkCallRecords, type CallRecord } from "./validate";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const DAY = 86_400_000;

function records(input: object[], nowMs = NOW): CallRecord[] {
  const r = checkCallRecords(input, nowMs);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.records;
}

async function partitions(h: DbHandle): Promise<string[]> {
  const r = await sql<{
    name: string;
  }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'call_records' order by 1`.execute(
    h.db,
  );
  return r.rows.map((x) => x.name);
}

describeEachDb("call records", (kind) => {
  let h: DbHandle;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    h = await createTestDb(kind);
    alice = await createUser(h);
    bob = await createUser(h);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("creates a month's partition when its first record arrives, and writes into it", async () => {
    expect(await partitions(h)).toEqual([]);
    const r = await recordCalls(h.db, alice, records([{ number: "2125552345", at: "2026-10-31T23:30:00-05:00", outcome: "connected" }]));
    expect(r).toMatchObject({ recorded: 1, ignored: 0 });
    // 2026-10-31 23:30 in New York is November 1 in UTC: the November partition
    expect(await partitions(h)).toEqual(["call_records_y2026m11"]);
    await recordCalls(h.db, alice, records([{ number: "2125552345", at: "2026-09-15T10:00:00Z", outcome: "attempted" }]));
    expect(await partitions(h)).toEqual(["call_records_y2026m09", "call_records_y2026m11"]);
    const inSept = await sql<{ n: string }>`select count(*)::text as n from call_records_y2026m09`.execute(h.db);
    expect(inSept.rows[0].n).toBe("1");
  });

  it("ignores a repeated dialer call id within a request and across requests", async () => {
    const one = { number: "3055552101", at: "2026-11-28T10:00:00Z", outcome: "attempted", dialer_call_id: "vd-1" };
    const first = await recordCalls(h.db, alice, records([one, { ...one, outcome: "connected" }, { ...one, dialer_call_id: "vd-2" }]));
    expect(first).toMatchObject({ recorded: 2, ignored: 1 });
    const again = await recordCalls(h.db, alice, records([one, { ...one, dialer_call_id: "vd-3" }]));
    expect(again).toMatchObject({ recorded: 1, ignored: 1 });
    // another owner's id space is its own
    expect(await recordCalls(h.db, bob, records([one]))).toMatchObject({ recorded: 1, ignored: 0 });
    const list = await listNumberCalls(h.db, alice, 3055552101, { limit: 10, offset: 0, nowMs: NOW });
    expect(list.records.map((c) => c.dialerCallId).sort()).toEqual(["vd-1", "vd-2", "vd-3"]);
    expect(list.records[0].outcome).toBe("attempted");
  });

  it("lists a number's records newest first with its 24-hour and 7-day counts, the owner's only", async () => {
    const n = "4155552123";
    await recordCalls(
      h.db,
      alice,
      records([
        { number: n, at: new Date(NOW - 2 * 3600_000).toISOString(), outcome: "attempted" },
        { number: n, at: new Date(NOW - 3 * 3600_000).toISOString(), outcome: "attempted", channel: "text" },
        { number: n, at: new Date(NOW - 3 * DAY).toISOString(), outcome: "conversation" },
        { number: n, at: new Date(NOW - 8 * DAY).toISOString(), outcome: "connected" },
      ]),
    );
    await recordCalls(h.db, bob, records([{ number: n, at: new Date(NOW - 3600_000).toISOString(), outcome: "attempted" }]));
    const page = await listNumberCalls(h.db, alice, 4155552123, { limit: 2, offset: 0, nowMs: NOW });
    expect(page.totalRecords).toBe(4);
    expect(page.records.map((r) => r.at.getTime())).toEqual([NOW - 2 * 3600_000, NOW - 3 * 3600_000]);
    expect(page.last24h).toEqual({ calls: 1, texts: 1, total: 2 });
    expect(page.last7d).toEqual({ calls: 2, texts: 1, total: 3 });
    const rest = await listNumberCalls(h.db, alice, 4155552123, { limit: 2, offset: 2, nowMs: NOW });
    expect(rest.records.map((r) => r.outcome)).toEqual(["conversation", "connected"]);
    expect((await listNumberCalls(h.db, bob, 4155552123, { limit: 10, offset: 0, nowMs: NOW })).totalRecords).toBe(1);
  });

  it("deletes a reserved attempt (its dialer id free again), keeps a call made, and never touches another owner's", async () => {
    const base = { number: "6175552100", at: "2026-11-28T11:00:00Z", outcome: "attempted" };
    const r = await recordCalls(h.db, alice, records([{ ...base, reserved: true, dialer_call_id: "res-1" }, { ...base }]));
    const [reservedId, madeId] = r.ids;
    expect(await deleteReservedCall(h.db, bob, reservedId)).toBe("not_found");
    expect(await deleteReservedCall(h.db, alice, madeId)).toBe("not_reserved");
    expect(await deleteReservedCall(h.db, alice, reservedId)).toBe("deleted");
    expect(await deleteReservedCall(h.db, alice, reservedId)).toBe("not_found");
    expect(await deleteReservedCall(h.db, alice, "abc")).toBe("not_found");
    expect(await recordCalls(h.db, alice, records([{ ...base, dialer_call_id: "res-1" }]))).toMatchObject({ recorded: 1, ignored: 0 });
  });

  it("retention: drops whole months older than five years and deletes the older rows of the cutoff's month", async () => {
    const later = Date.parse("2031-11-28T12:00:00Z"); // five years after NOW
    // records written as of their own time (the checks refuse what is already older than five years)
    await recordCalls(h.db, alice, records([{ number: "7185552199", at: "2026-11-27T12:00:00Z", outcome: "attempted", dialer_call_id: "old" }]));
    await recordCalls(h.db, alice, records([{ number: "7185552199", at: "2026-11-29T12:00:00Z", outcome: "attempted" }], NOW + 2 * DAY));
    const before = await partitions(h);
    expect(before).toContain("call_records_y2026m09");
    const r = await dropExpiredCalls(h.db, later);
    expect(r.cutoff.toISOString()).toBe("2026-11-28T12:00:00.000Z");
    expect(r.partitionsDropped).toEqual(["call_records_y2026m09"]);
    const left = await listNumberCalls(h.db, alice, 7185552199, { limit: 10, offset: 0, nowMs: later });
    // five years and one day old: gone; five years less one day: kept
    expect(left.records.map((c) => c.at.toISOString())).toEqual(["2026-11-29T12:00:00.000Z"]);
    expect(r.recordsDeleted).toBeGreaterThan(0);
    const ids = await h.db.selectFrom("call_dialer_ids").select("dialer_call_id").where("dialer_call_id", "=", "old").execute();
    expect(ids).toEqual([]);
    expect(await partitions(h)).toContain("call_records_y2026m11");
    // idempotent
    expect((await dropExpiredCalls(h.db, later)).partitionsDropped).toEqual([]);
  });
});
