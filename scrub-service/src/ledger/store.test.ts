/**
 * The decision ledger in the database (decision 197), on PGlite and, with DATABASE_URL, PostgreSQL: appends chained per
 * customer (concurrent ones serialized by the head row's lock), the daily signing, an export that verifies against the
 * published key, and each tampering with the stored rows (an entry changed, deleted, two reordered, a head forged)
 * failing the export's verification; the queue of lookup answers; retention at exactly five years, heads kept.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDb, describeEachDb } from "../../../tests/setup/db";
import type { DbHandle } from "db/client";
import { createUser } from "../test/helpers";
import { newSigningKey } from "../certificate/sign";
import { verifyLedgerExport, type LedgerDraft } from "./chain";
import { appendLedger, dropExpiredLedger, exportLedger, ledgerEntriesOfNumber, publishedDayHeads, signLedgerDays } from "./store";
import { LedgerQueue } from "./buffer";

const key = newSigningKey().key;
const keys = new Map([[key.id, key.publicKey]]);
const draft = (n: number, words = "dnc"): LedgerDraft => ({ kind: "lookup", numbers: [n], ref: null, payload: { suppressed_by: words } });
const at = (iso: string) => ({ now: new Date(iso) });

describeEachDb("decision ledger", (kind) => {
  let h: DbHandle;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    h = await createTestDb(kind);
    alice = await createUser(h);
    bob = await createUser(h);
    // three days of alice's entries: 2, 2 and 1
    await appendLedger(h.db, alice, [draft(2125550101), draft(2125550102)], at("2026-11-24T10:00:00Z"));
    await appendLedger(h.db, alice, [draft(2125550103)], at("2026-11-25T10:00:00Z"));
    await appendLedger(h.db, alice, [draft(2125550101, "litigation")], at("2026-11-25T23:59:59.999Z"));
    await appendLedger(h.db, alice, [draft(2125550104)], at("2026-11-26T08:00:00Z"));
    await appendLedger(h.db, bob, [draft(3055550100)], at("2026-11-25T12:00:00Z"));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const signedExport = async (userId = alice) => {
    const doc = await exportLedger(h.db, userId, "2026-11-24", "2026-11-26", new Date("2026-11-27T12:00:00Z"));
    return doc!;
  };

  it("chains each customer's entries from seq 1, in a monthly partition, and finds a number's entries", async () => {
    const rows = await h.db.selectFrom("ledger_entries").select(["user_id", "seq"]).orderBy("user_id").orderBy("seq").execute();
    expect(rows.filter((r) => r.user_id === alice).map((r) => Number(r.seq))).toEqual([1, 2, 3, 4, 5]);
    expect(rows.filter((r) => r.user_id === bob).map((r) => Number(r.seq))).toEqual([1]);
    const parts = await sql<{ n: string }>`select count(*)::text as n from ledger_entries_y2026m11`.execute(h.db);
    expect(parts.rows[0].n).toBe("6");
    const of = await ledgerEntriesOfNumber(h.db, alice, 2125550101, Date.parse("2026-11-01"), Date.parse("2026-12-01"));
    expect(of.map((e) => [e.seq, e.payload])).toEqual([
      [1, { suppressed_by: "dnc" }],
      [4, { suppressed_by: "litigation" }],
    ]);
    expect(await ledgerEntriesOfNumber(h.db, bob, 2125550101, 0, Date.parse("2027-01-01"))).toEqual([]);
  });

  it("signs each finished day's head once, and stamps a later append after the last signed day", async () => {
    const r = await signLedgerDays(h.db, key, new Date("2026-11-27T00:10:00Z"));
    expect(r.signed).toBe(4); // alice's 24th, 25th, 26th; bob's 25th
    expect((await signLedgerDays(h.db, key, new Date("2026-11-27T01:10:00Z"))).signed).toBe(0);
    const heads = await publishedDayHeads(h.db, { day: "2026-11-25" });
    expect(heads).toHaveLength(2);
    expect(heads.every((x) => x.ledger.startsWith("lg_") && !JSON.stringify(x).includes(alice))).toBe(true);
    const aliceHeads = (await signedExport()).dayHeads;
    expect(aliceHeads.map((x) => [x.day, x.seq])).toEqual([
      ["2026-11-24", 2],
      ["2026-11-25", 4],
      ["2026-11-26", 5],
    ]);
    // a process whose clock still says the 26th appends after the 26th was signed: stamped on the 27th
    const [late] = await appendLedger(h.db, alice, [draft(2125550105)], at("2026-11-26T23:00:00Z"));
    expect(late.at).toBe("2026-11-27T00:00:00.000Z");
  });

  it("exports a window that verifies against the published key, and shows another customer nothing of it", async () => {
    const doc = await signedExport();
    const v = verifyLedgerExport(doc, keys);
    expect(v.checks.filter((c) => !c.ok)).toEqual([]);
    expect(doc.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    const window = (await exportLedger(h.db, alice, "2026-11-25", "2026-11-25"))!;
    expect(window.anchor?.day).toBe("2026-11-24");
    expect(window.entries.map((e) => e.seq)).toEqual([3, 4]);
    expect(verifyLedgerExport(window, keys).ok).toBe(true);
    const bobs = await signedExport(bob);
    expect(bobs.ledger).not.toBe(doc.ledger);
    expect(bobs.entries.map((e) => e.numbers)).toEqual([["3055550100"]]);
  });

  // each tampering is done in a transaction that is rolled back after the export is taken
  const tampered = async (change: (trx: typeof h.db) => Promise<unknown>) => {
    let doc: Awaited<ReturnType<typeof signedExport>> | null = null;
    await h.db
      .transaction()
      .execute(async (trx) => {
        await change(trx);
        doc = (await exportLedger(trx, alice, "2026-11-24", "2026-11-26"))!;
        throw new Error("rollback");
      })
      .catch((e) => {
        if ((e as Error).message !== "rollback") throw e;
      });
    const v = verifyLedgerExport(doc!, keys);
    expect(v.ok).toBe(false);
    return v.checks.filter((c) => !c.ok).map((c) => c.detail);
  };

  it("fails the export's verification when a stored entry was changed, deleted or two reordered, or a head forged", async () => {
    expect(
      (await tampered((trx) => sql`update ledger_entries set payload = '{"suppressed_by":null}' where user_id = ${alice} and seq = 3`.execute(trx)))[0],
    ).toMatch(/^Entry 3 was changed/);
    expect((await tampered((trx) => sql`update ledger_entries set numbers = '{2125559999}' where user_id = ${alice} and seq = 1`.execute(trx)))[0]).toMatch(
      /^Entry 1 was changed/,
    );
    expect((await tampered((trx) => sql`delete from ledger_entries where user_id = ${alice} and seq = 2`.execute(trx)))[0]).toBe(
      "Entry 2 is missing: after entry 1 comes entry 3 (deleted).",
    );
    expect(
      (
        await tampered(async (trx) => {
          await sql`update ledger_entries set seq = 100 where user_id = ${alice} and seq = 3`.execute(trx);
          await sql`update ledger_entries set seq = 3 where user_id = ${alice} and seq = 4`.execute(trx);
          await sql`update ledger_entries set seq = 4 where user_id = ${alice} and seq = 100`.execute(trx);
        })
      ).join("\n"),
    ).toMatch(/Entry 3 does not link|Entry 3 was changed/);
    expect(
      (
        await tampered((trx) =>
          sql`update ledger_day_heads set hash = (select hash from ledger_entries where user_id = ${alice} and seq = 1), seq = 1 where user_id = ${alice} and day = '2026-11-24'`.execute(
            trx,
          ),
        )
      )[0],
    ).toMatch(/^The day head of 2026-11-24 \(seq 1\) does not match its Ed25519 signature/);
    // untouched, it still verifies
    expect(verifyLedgerExport(await signedExport(), keys).ok).toBe(true);
  });

  it("appends concurrent answers of one customer one after the other through the queue", async () => {
    const carol = await createUser(h);
    const q = new LedgerQueue({ flushMs: 10_000 });
    for (let i = 0; i < 30; i++) q.add(h.db, carol, () => draft(2125551000 + i));
    q.add(h.db, bob, () => null); // an answer that makes no entry
    await Promise.all([q.flush(), appendLedger(h.db, carol, [draft(2125552000, "opt-out")]), q.flush()]);
    const rows = await h.db.selectFrom("ledger_entries").select(["seq"]).where("user_id", "=", carol).orderBy("seq").execute();
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(q.appended).toBe(30);
    const doc = (await exportLedger(h.db, carol, "2026-01-01", "2099-12-31"))!;
    expect(verifyLedgerExport(doc, keys).checks.find((c) => c.subject === "chain")?.ok).toBe(true);
  });

  it("drops a month of entries exactly five years after it ended, and keeps the signed heads", async () => {
    const parts = async () =>
      (
        await sql<{
          name: string;
        }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'ledger_entries' order by 1`.execute(
          h.db,
        )
      ).rows.map((r) => r.name);
    expect(await parts()).toContain("ledger_entries_y2026m11");
    // November 2026 ended on 2026-12-01T00:00Z: a millisecond before five years after, it stays
    expect((await dropExpiredLedger(h.db, Date.parse("2031-11-30T23:59:59.999Z"))).partitionsDropped).toEqual([]);
    expect((await dropExpiredLedger(h.db, Date.parse("2031-12-01T00:00:00.000Z"))).partitionsDropped).toEqual(["ledger_entries_y2026m11"]);
    expect(await parts()).not.toContain("ledger_entries_y2026m11");
    expect((await publishedDayHeads(h.db, { from: "2026-11-24", to: "2026-11-26" })).length).toBe(4);
    // the chain goes on from the kept head
    const [next] = await appendLedger(h.db, bob, [draft(3055550101)], at("2031-12-01T00:00:01Z"));
    expect(next.seq).toBe(2);
    // an export of the whole span is anchored on the head of the last dropped entry, and verifies
    const after = (await exportLedger(h.db, bob, "2026-01-01", "2031-12-31"))!;
    expect(after.anchor).toMatchObject({ day: "2026-11-25", seq: 1 });
    expect(after.entries.map((e) => e.seq)).toEqual([2]);
    expect(verifyLedgerExport(after, keys).checks.filter((c) => !c.ok)).toEqual([]);
  });
});
