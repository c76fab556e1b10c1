import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { KyselyPlugin } from "kysely";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "api-lookup-counters-"));

import { availableDbKinds, useAppTestDb } from "../setup/db";
import { counterKinds, dropCounters, makeCounters, type CounterKind } from "../setup/call-counters";
import { makeUser } from "./helpers";
import {
  deleteReservedCall,
  EmbeddedCallCounters,
  recordCalls,
  RedisCallCounters,
  useCallCounters,
  type CallCounterStore,
  type ScrubService,
} from "scrub-service";
import { DEFAULT_SUBJECT, type CallRecord } from "scrub-service/domain";
import { ApiError } from "~/api/api.server";
import { answerLookup, lookupInputOf, LOOKUP_CALLS_UNAVAILABLE } from "~/api/lookup.server";

/*
 * The live call counters beside the lists (issue #46, decision 196) on each store: a lookup that reads no call record
 * from the database, ten racing reservations through two clients (two app processes) granting exactly three, a lost
 * store that reads the database (never "fresh") until it is rebuilt, a store that does not answer (503), a released
 * reservation and a repeated dialer call id, and the memory a number with a history takes in Redis.
 */

const H = 3_600_000;
const noLists = { lookup: async () => ({ lists: [] }) } as unknown as ScrubService;
/** Noon in Miami on a weekday (callable unless a cap holds), the clock every answer here is asked at. */
function aWednesdayNoon(): number {
  const d = new Date(Date.now() + 2 * 86_400_000);
  d.setUTCHours(17, 0, 0, 0);
  for (;;) {
    const md = d.toISOString().slice(5, 10);
    const holiday = md >= "12-20" || md <= "01-03" || (md >= "07-01" && md <= "07-07") || (md >= "11-20" && md <= "11-30") || (md >= "05-24" && md <= "06-01");
    if (d.getUTCDay() === 3 && !holiday) return d.getTime();
    d.setUTCDate(d.getUTCDate() + 1);
  }
}
const T = aWednesdayNoon();
const clock = new Date(T);

type Result = { callableNow: boolean; callsLast24h: number; reserved?: boolean; reservationId?: string | null; callingNote: string };

/** Fails every SELECT that reads call_records: an answer given through it read no call record from the database. */
const noHistoryReads: KyselyPlugin = {
  transformQuery(args) {
    if (args.node.kind === "SelectQueryNode" && JSON.stringify(args.node).includes('"call_records"')) throw new Error("the lookup read call_records");
    return args.node;
  },
  transformResult: async (args) => args.result,
};

const stores = availableDbKinds().flatMap((db) => counterKinds(db).map((counters) => ({ db, counters })));

for (const { db: dbKind, counters: kind } of stores.filter((s) => s.counters !== "database")) {
  describe(`live call counters [${dbKind}, ${kind}]`, () => {
    const { handle } = useAppTestDb(dbKind);
    const db = () => handle().db;
    let store: CallCounterStore;
    let userId: string;
    beforeAll(async () => {
      store = makeCounters(kind, handle(), { now: () => T })!;
      useCallCounters(db(), store);
      await store.rebuild();
      userId = await makeUser(db(), { plan: "business" });
    });
    afterAll(async () => {
      useCallCounters(db(), null);
      await dropCounters(store);
    });

    const calls = (number: string, ...records: (Partial<CallRecord> & { atMs: number })[]) =>
      recordCalls(
        db(),
        userId,
        records.map((r) => ({
          number: Number(number),
          subject: DEFAULT_SUBJECT,
          channel: "call" as const,
          outcome: "attempted" as const,
          debtId: null,
          dialerCallId: null,
          reserved: false,
          ...r,
        })),
      );
    async function ask(body: Record<string, unknown>, o: { counters?: CallCounterStore | null; db?: ReturnType<typeof db> } = {}) {
      const answered = await answerLookup(
        { db: o.db ?? db(), service: noLists, userId, containerId: null, counters: o.counters === undefined ? store : o.counters },
        lookupInputOf(Buffer.from(JSON.stringify(body))),
        clock,
      );
      return JSON.parse(answered.json().toString()) as { data: Result[] };
    }
    const reserve = (n: string, counters?: CallCounterStore) => ask({ numbers: [n], subject: "race", reserve: true }, { counters }).then((a) => a.data[0]);
    const storedOf = async (n: string) =>
      (await db().selectFrom("call_records").select(["id"]).where("user_id", "=", userId).where("number", "=", BigInt(n)).execute())
        .map((r) => String(r.id))
        .sort();
    const counted = async (n: string) => (await store.read(userId, [Number(n)])).entries[0].records.map((r) => String(r.id)).sort();

    it("a lookup and a reservation count from the counters: no call record is read from the database", async () => {
      const n = "3055550401";
      await calls(n, { atMs: T - 3 * H }, { atMs: T - 2 * H });
      const blind = db().withPlugin(noHistoryReads);
      expect((await ask({ numbers: [n] }, { db: blind })).data[0]).toMatchObject({ callableNow: true, callsLast24h: 2 });
      const third = (await ask({ numbers: [n], reserve: true }, { db: blind })).data[0];
      expect(third).toMatchObject({ reserved: true, callsLast24h: 2 });
      const fourth = (await ask({ numbers: [n], reserve: true }, { db: blind })).data[0];
      expect(fourth).toMatchObject({ reserved: false, callableNow: false, callsLast24h: 3 });
      // the database path (no counters) agrees, and so do the records: the counters hold exactly PostgreSQL's
      expect((await ask({ numbers: [n] }, { counters: null })).data[0]).toMatchObject({ callableNow: false, callsLast24h: 3 });
      expect(await counted(n)).toEqual(await storedOf(n));
    });

    it("ten parallel reservations for one fresh Florida number grant exactly three (two clients for Redis)", async () => {
      const n = "3055550402";
      // a second client on the same keys: what a second app process holds
      const other = store instanceof RedisCallCounters ? makeCounters(kind, handle(), { prefix: store.prefix, now: () => T })! : store;
      try {
        const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => reserve(n, i % 2 ? other : store)));
        const granted = answers.filter((a) => a.reserved);
        expect(granted).toHaveLength(3);
        expect(granted.map((a) => a.reservationId).sort()).toEqual(await storedOf(n));
        expect(await counted(n)).toEqual(await storedOf(n));
        for (const a of answers.filter((x) => !x.reserved)) expect(a.callingNote).toMatch(/^3 calls in 24 hours to Florida on subject "race" /);
      } finally {
        if (other !== store) await other.close();
      }
    });

    it("a released reservation leaves the counters; a repeated dialer call id is counted once", async () => {
      const n = "3055550403";
      const a = await reserve(n);
      expect(a.reserved).toBe(true);
      expect(await counted(n)).toEqual([a.reservationId]);
      expect(await deleteReservedCall(db(), userId, a.reservationId!)).toBe("deleted");
      expect(await counted(n)).toEqual([]);
      expect((await ask({ numbers: [n] })).data[0].callsLast24h).toBe(0);
      await calls(n, { atMs: T - H, dialerCallId: "vici-1" });
      await calls(n, { atMs: T - H, dialerCallId: "vici-1" });
      expect(await counted(n)).toHaveLength(1);
      expect(await counted(n)).toEqual(await storedOf(n));
    });

    it("a lost store reads the database until it is rebuilt (never fresh), and races stay exact meanwhile", async () => {
      const held = "3055550404";
      await calls(held, { atMs: T - 3 * H }, { atMs: T - 2 * H }, { atMs: T - H });
      expect((await ask({ numbers: [held] })).data[0]).toMatchObject({ callableNow: false, callsLast24h: 3 });
      // the loss: a flushed Redis (every key of ours, markers too), a restarted process's empty memory
      if (store instanceof RedisCallCounters) await store.clear();
      else (store as EmbeddedCallCounters).lose();
      expect((await store.read(userId, [Number(held)])).ready).toEqual([false]);
      expect((await ask({ numbers: [held] })).data[0]).toMatchObject({ callableNow: false, callsLast24h: 3 });
      // reservations while it is lost or being rebuilt (the read above started a rebuild): the database decides
      const fresh = "3055550405";
      const answers = await Promise.all(Array.from({ length: 10 }, () => reserve(fresh)));
      expect(answers.filter((a) => a.reserved)).toHaveLength(3);
      await store.requestRebuild();
      await store.rebuild();
      expect((await store.read(userId, [Number(held)])).ready).toEqual([true]);
      expect(await counted(held)).toEqual(await storedOf(held));
      expect(await counted(fresh)).toEqual(await storedOf(fresh));
      expect((await reserve(fresh)).reserved).toBe(false);
      expect(await storedOf(fresh)).toHaveLength(3);
    });
  });
}

const redisKinds = availableDbKinds()
  .flatMap((db) => counterKinds(db).map((counters) => ({ db, counters })))
  .filter((s): s is { db: (typeof s)["db"]; counters: Extract<CounterKind, "redis" | "cluster"> } => s.counters === "redis" || s.counters === "cluster");

for (const { db: dbKind, counters: kind } of redisKinds) {
  describe(`live call counters in Redis [${dbKind}, ${kind}]`, () => {
    const { handle } = useAppTestDb(dbKind);
    let userId: string;
    beforeAll(async () => {
      userId = await makeUser(handle().db, { plan: "business" });
    });

    it("a store that does not answer fails the lookup closed (503), with reserve too, and refuses call records (503)", async () => {
      const down = new RedisCallCounters({ target: { kind: "node", url: "redis://127.0.0.1:1" }, prefix: "down:", db: handle().db, reconnectMaxMs: 20 });
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      try {
        for (const body of [{ numbers: ["3055550410"] }, { numbers: ["3055550410"], reserve: true }]) {
          const e = await answerLookup(
            { db: handle().db, service: noLists, userId, containerId: null, counters: down },
            lookupInputOf(Buffer.from(JSON.stringify(body))),
            clock,
          ).catch((x: unknown) => x);
          expect(e).toBeInstanceOf(ApiError);
          expect((e as ApiError).status).toBe(503);
          expect((e as ApiError).message).toBe(LOOKUP_CALLS_UNAVAILABLE);
        }
        expect(await handle().db.selectFrom("call_records").select("id").where("user_id", "=", userId).execute()).toEqual([]);
        // a call record is not written while the counters cannot take it (PostgreSQL would hold one they lack): 503
        const record = {
          number: 3055550411,
          atMs: T - H,
          subject: DEFAULT_SUBJECT,
          channel: "call" as const,
          outcome: "attempted" as const,
          debtId: null,
          dialerCallId: "d-1",
          reserved: false,
        };
        const refused = await recordCalls(handle().db, userId, [record], { counters: down }).catch((x: unknown) => x);
        expect(refused).toMatchObject({ code: "call_counters_unavailable" });
        expect(await handle().db.selectFrom("call_records").select("id").where("user_id", "=", userId).execute()).toEqual([]);
        expect(await handle().db.selectFrom("call_dialer_ids").select("dialer_call_id").where("user_id", "=", userId).execute()).toEqual([]);
      } finally {
        logged.mockRestore();
        await down.close();
      }
    });

    it("memory per number with a typical history (three records) is printed: ≤ 100 bytes where leads share buckets", async () => {
      const store = makeCounters(kind, handle(), { now: () => T }) as RedisCallCounters;
      useCallCounters(handle().db, store);
      try {
        await store.rebuild();
        // a dialer's leads, three calls each (one on a campaign's subject): 1,000 numbers in 40 area codes (25 per NPA-N
        // bucket), then 1,000 spread over the country (random area codes and exchanges: about one per bucket)
        let x = 196;
        const rnd = (n: number) => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) % n;
        const historyOf = (numbers: number[]): CallRecord[] =>
          numbers.flatMap((number) =>
            [3, 30, 100].map((h, k) => ({
              number,
              atMs: T - h * H,
              subject: k === 2 ? "spring" : DEFAULT_SUBJECT,
              channel: "call" as const,
              outcome: "attempted" as const,
              debtId: null,
              dialerCallId: null,
              reserved: false,
            })),
          );
        const dense = Array.from({ length: 1000 }, (_, i) => (201 + (i % 40)) * 10_000_000 + 2_000_000 + i * 997);
        const sparse = Array.from({ length: 1000 }, () => (201 + rnd(780)) * 10_000_000 + (2 + rnd(8)) * 1_000_000 + rnd(1_000_000));
        await recordCalls(handle().db, userId, historyOf(dense));
        const d = await store.usage();
        await recordCalls(handle().db, userId, historyOf(sparse));
        const all = await store.usage();
        const s = { bytes: all.bytes - d.bytes, numbers: all.numbers - d.numbers, keys: all.keys - d.keys };
        expect([d.numbers, all.numbers]).toEqual([1000, 2000]);
        const per = (u: { bytes: number; numbers: number; keys: number }) =>
          `${(u.bytes / u.numbers).toFixed(1)} bytes (${u.numbers} numbers in ${u.keys} buckets)`;
        console.log(`[counters] Redis (${kind}) MEMORY USAGE per number with 3 records: leads in 40 area codes ${per(d)}; spread over the country ${per(s)}`);
        // the goal (≤ 100 bytes) holds where an owner's numbers share buckets; one number alone in its bucket carries the key
        expect(d.bytes / d.numbers).toBeLessThanOrEqual(100);
        expect(s.bytes / s.numbers).toBeLessThanOrEqual(200);
      } finally {
        useCallCounters(handle().db, null);
        await dropCounters(store);
      }
    }, 30_000);
  });
}
