import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { KyselyPlugin } from "kysely";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "api-lookup-caps-"));

import { availableDbKinds, useAppTestDb } from "../setup/db";
import { counterKinds, useCounters } from "../setup/call-counters";
import { makeUser } from "./helpers";
import { recordCalls, type ScrubService } from "scrub-service";
import { DEFAULT_SUBJECT, SUPPRESSION_TYPE_NAMES, type CallRecord } from "scrub-service/domain";
import { ApiError } from "~/api/api.server";
import { flushLookupUsage, recordLookupUsage } from "~/models/usage.server";
import { answerLookup, lookupInputOf, lookupResponseJson, LOOKUP_CALLS_UNAVAILABLE, parseEntries, type LookupInput } from "~/api/lookup.server";

/*
 * The call caps in the live lookup and the atomic reservation (issue #46, decision 187) on every available store:
 * the caps' edges through answerLookup over records really stored, ten racing reservations for one number, and a
 * call history that cannot be read (503, never callable).
 */

const H = 3_600_000;

/** A Wednesday at 17:00Z (noon in Miami and New York) at least two days ahead, away from the holidays. */
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
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + "Z";

/** The lists' side is beside the point here: a service that answers "on no list". */
const noLists = { lookup: async () => ({ lists: [] }) } as unknown as ScrubService;

type Result = {
  number: string;
  callableNow: boolean;
  nextCallAt: string;
  callingNote: string;
  callsLast24h: number;
  callsLast7d: number;
  reserved?: boolean;
  reservationId?: string | null;
};

function inputOf(body: Record<string, unknown>): LookupInput {
  return lookupInputOf(Buffer.from(JSON.stringify(body)));
}

for (const kind of availableDbKinds())
  for (const counterKind of counterKinds(kind)) {
    // the same edges on the database path (decision 187) and on each live counter store (decision 196)
    describe(`the lookup's call caps and reservations [${kind}, counts from ${counterKind}]`, () => {
      const { handle } = useAppTestDb(kind);
      useCounters(counterKind, handle);
      const db = () => handle().db;
      let userId: string;
      beforeAll(async () => {
        userId = await makeUser(db(), { plan: "business" });
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

      async function ask(body: Record<string, unknown>, o: { clock?: Date; db?: ReturnType<typeof db> } = {}) {
        const answered = await answerLookup({ db: o.db ?? db(), service: noLists, userId, containerId: null }, inputOf(body), o.clock);
        return JSON.parse(answered.json().toString()) as { data: Result[]; purpose: string; subject: string; caps_version: string };
      }
      const one = async (number: string, extra: Record<string, unknown> = {}) => (await ask({ numbers: [number], at: iso(T), ...extra })).data[0];

      it("Florida: with 2 calls in the last 24 hours a number is callable, with 3 it is not until the oldest leaves the window", async () => {
        const n = "3055550301";
        await calls(n, { atMs: T - 20 * H }, { atMs: T - 2 * H });
        expect(await one(n)).toMatchObject({ callableNow: true, callsLast24h: 2, callsLast7d: 2, callingNote: "" });
        await calls(n, { atMs: T - H });
        const r = await one(n);
        expect(r).toMatchObject({ callableNow: false, callsLast24h: 3, nextCallAt: iso(T + 4 * H) });
        expect(r.callingNote).toBe(`3 calls in 24 hours to Florida (Fla. Stat. § 501.616(6)(b)): next at ${iso(T + 4 * H)}`);
      });

      it("a call 24 hours and a second ago does not count", async () => {
        const n = "3055550302";
        await calls(n, { atMs: T - 24 * H - 1000 }, { atMs: T - 2 * H }, { atMs: T - H });
        expect(await one(n)).toMatchObject({ callableNow: true, callsLast24h: 2, callsLast7d: 3 });
      });

      it("texts count with calls; subjects are counted apart; purpose debt-collection ignores Florida's cap", async () => {
        const n = "3055550303";
        await calls(n, { atMs: T - 3 * H, subject: "spring" }, { atMs: T - 2 * H, subject: "spring", channel: "text" }, { atMs: T - H, subject: "spring" });
        const spring = await one(n, { subject: "spring" });
        expect(spring.callableNow).toBe(false);
        expect(spring.callingNote).toMatch(/^3 calls and texts in 24 hours to Florida on subject "spring" /);
        expect(await one(n, { subject: "autumn" })).toMatchObject({ callableNow: true, callsLast24h: 3 });
        expect(await one(n, { subject: "spring", purpose: "debt-collection" })).toMatchObject({ callableNow: true });
      });

      it("Regulation F under debt-collection: 7 calls in 7 days hold the 8th, per debt; telemarketing ignores it", async () => {
        const n = "2125550304";
        await calls(n, ...Array.from({ length: 7 }, (_, i) => ({ atMs: T - (2 + i * 20) * H, debtId: "D1" })));
        const held = await one(n, { purpose: "debt-collection", debt_id: "D1" });
        expect(held).toMatchObject({ callableNow: false, callsLast7d: 7, nextCallAt: iso(T + 46 * H) });
        expect(held.callingNote).toMatch(/^7 calls in 7 days about debt "D1" \(12 CFR 1006\.14\(b\)\(2\)\(i\)\(A\)\): next at /);
        expect(await one(n, { purpose: "debt-collection", debt_id: "D2" })).toMatchObject({ callableNow: true });
        expect(await one(n)).toMatchObject({ callableNow: true });
      });

      it("Regulation F: a conversation 6 days ago holds, 8 days ago does not", async () => {
        const six = "2125550305";
        const eight = "2125550306";
        await calls(six, { atMs: T - 6 * 24 * H, debtId: "D1", outcome: "conversation" });
        await calls(eight, { atMs: T - 8 * 24 * H, debtId: "D1", outcome: "conversation" });
        const held = await one(six, { purpose: "debt-collection", debt_id: "D1" });
        expect(held).toMatchObject({ callableNow: false, nextCallAt: iso(T + 24 * H) });
        expect(held.callingNote).toMatch(/^A telephone conversation about debt "D1" within 7 days/);
        expect(await one(eight, { purpose: "debt-collection", debt_id: "D1" })).toMatchObject({ callableNow: true, callsLast7d: 0 });
      });

      it("next_call_at is the oldest counted call + 24 h, moved to the next lawful hour when that falls at night", async () => {
        const n = "3055550307";
        // the oldest at 02:00Z (9 p.m. in Miami the evening before): it leaves the window at 9 p.m. tonight, after Florida's 8 p.m.
        const oldest = T - 15 * H;
        await calls(n, { atMs: oldest }, { atMs: T - 3 * H }, { atMs: T - H });
        const r = await one(n);
        expect(r.callableNow).toBe(false);
        // 8 a.m. in Miami the next morning: 13:00Z in winter (T + 20 h), 12:00Z in summer
        expect([iso(T + 20 * H), iso(T + 19 * H)]).toContain(r.nextCallAt);
        // the cap first, then what holds at its lift (the federal 9 p.m. and Florida's 8 p.m.)
        expect(r.callingNote).toMatch(
          new RegExp(`^3 calls in 24 hours to Florida \\(Fla\\. Stat\\. § 501\\.616\\(6\\)\\(b\\)\\): next at ${iso(oldest + 24 * H)}; `),
        );
        expect(r.callingNote).toContain("After 8 p.m. in Florida (Fla. Stat. § 501.616(6)(a))");
      });

      it("ten parallel reservations for one fresh Florida number grant exactly three", async () => {
        const n = "3055550308";
        const clock = new Date(T);
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => ask({ numbers: [n], subject: "race", reserve: true }, { clock }).then((a) => a.data[0])),
        );
        const granted = answers.filter((a) => a.reserved);
        expect(granted).toHaveLength(3);
        expect(new Set(granted.map((a) => a.reservationId)).size).toBe(3);
        for (const a of answers.filter((x) => !x.reserved)) {
          expect(a).toMatchObject({ callableNow: false, reservationId: null });
          expect(a.callingNote).toMatch(/^3 calls in 24 hours to Florida on subject "race" /);
        }
        const stored = await db()
          .selectFrom("call_records")
          .select(["id", "reserved", "outcome", "subject"])
          .where("user_id", "=", userId)
          .where("number", "=", BigInt(n))
          .execute();
        expect(stored.map((r) => [String(r.id), r.reserved, r.outcome, r.subject]).sort()).toEqual(
          granted.map((a) => [a.reservationId, true, "attempted", "race"]).sort(),
        );
        // the same numbers counted without reserving: no lock, no record
        expect((await ask({ numbers: [n], subject: "race" }, { clock })).data[0]).toMatchObject({ callsLast24h: 3 });
      });

      it("a reservation counts the plan's usage inside its transaction, its reads through it (PGlite has one connection)", async () => {
        // a customer whose usage this process has not read yet: the usage's first read happens inside the reservation
        const fresh = await makeUser(db(), { plan: "business" });
        const answered = await answerLookup(
          { db: db(), service: noLists, userId: fresh, containerId: null },
          inputOf({ numbers: ["3055550377"], reserve: true }),
          undefined,
          {
            recordUsage: (within) => recordLookupUsage(db(), { userId: fresh, amount: 1, unlimited: false, within }),
          },
        );
        expect(JSON.parse(answered.json().toString()).data[0]).toMatchObject({ reserved: true });
        await flushLookupUsage(db());
        const used = await db()
          .selectFrom("lookup_usage")
          .select((eb) => eb.fn.sum<string>("numbers").as("n"))
          .where("user_id", "=", fresh)
          .executeTakeFirst();
        expect(Number(used?.n)).toBe(1);
      }, 20_000);

      it("a reservation skips a number not callable now and answers reserved false for an invalid entry", async () => {
        const night = new Date(T + 12 * H); // 5 a.m. in Miami
        const a = await ask({ numbers: ["3055550309", "12"], reserve: true }, { clock: night });
        expect(a.data[0]).toMatchObject({ callableNow: false, reserved: false, reservationId: null, callsLast24h: 0 });
        expect(a.data[1]).toMatchObject({ reserved: false, reservationId: null, callsLast24h: null });
      });

      it("a call history that cannot be read is a 503, never callable; with reserve too", async () => {
        const failing: KyselyPlugin = {
          transformQuery(args) {
            if (JSON.stringify(args.node).includes("call_records")) throw new Error("relation call_records: connection lost");
            return args.node;
          },
          transformResult: async (args) => args.result,
        };
        const broken = db().withPlugin(failing);
        const logged = vi.spyOn(console, "error").mockImplementation(() => {});
        for (const body of [
          { numbers: ["3055550310"], at: iso(T) },
          { numbers: ["3055550310"], reserve: true },
        ]) {
          const e = await ask(body, { db: broken }).catch((x: unknown) => x);
          expect(e).toBeInstanceOf(ApiError);
          expect((e as ApiError).status).toBe(503);
          expect((e as ApiError).message).toBe(LOOKUP_CALLS_UNAVAILABLE);
        }
        expect(logged).toHaveBeenCalledTimes(2);
        logged.mockRestore();
      });
    });
  }

describe("the lookup's call fields (decision 187)", () => {
  it("reads subject, purpose, debt_id, channel and reserve; debt_id only with debt-collection, reserve not with at", () => {
    expect(inputOf({ numbers: ["3055550301"] }).calls).toEqual({ subject: "default", purpose: "telemarketing", debtId: null, channel: "call", reserve: false });
    expect(inputOf({ numbers: ["3055550301"], subject: " spring ", purpose: "debt-collection", debt_id: "A-1", channel: "text", reserve: true }).calls).toEqual(
      {
        subject: "spring",
        purpose: "debt-collection",
        debtId: "A-1",
        channel: "text",
        reserve: true,
      },
    );
    const refused = (body: Record<string, unknown>) => {
      try {
        inputOf(body);
      } catch (e) {
        return ((e as ApiError).details as { field: string }[] | undefined)?.[0]?.field;
      }
      return null;
    };
    expect(refused({ numbers: ["1"], debt_id: "A-1" })).toBe("debt_id");
    expect(refused({ numbers: ["1"], reserve: true, at: "2030-01-02T17:00:00Z" })).toBe("reserve");
    expect(refused({ numbers: ["1"], purpose: "sales" })).toBe("purpose");
    expect(refused({ numbers: ["1"], subject: "x".repeat(201) })).toBe("subject");
    expect(refused({ numbers: ["1"], channel: "fax" })).toBe("channel");
  });

  it("Oregon: three solicitations in 24 hours hold the next, unless the exemption list has a purchase within 18 months", () => {
    const n = 5035550311;
    const history = new Map([
      [n, [1, 2, 3].map((h) => ({ atMs: T - h * H, subject: "a", channel: "call" as const, outcome: "attempted" as const, debtId: null }))],
    ]);
    const answer = (record: { basis: number; day: number } | null) => {
      const records = new Map(record ? [[n, { number: n, ...record }]] : []);
      const json = lookupResponseJson(
        parseEntries([String(n)]),
        { lists: [] },
        {
          suppressionType: SUPPRESSION_TYPE_NAMES[0],
          containerId: null,
          at: T + 3 * H, // 9 or 10 a.m. in Oregon
          exemptions: { id: 1, version: 1, records },
          calls: { ask: { subject: "b", purpose: "telemarketing", debtId: null, channel: "call", reserve: false }, history },
        },
      );
      return JSON.parse(json.toString()).data[0] as Result;
    };
    const dayOf = (ms: number) => Math.floor(ms / 86_400_000);
    const held = answer(null);
    expect(held.callableNow).toBe(false);
    expect(held.callingNote).toMatch(/^3 calls in 24 hours to Oregon \(Oregon HB 3865\): next at /);
    expect(answer({ basis: 0, day: dayOf(T - 365 * 86_400_000) }).callableNow).toBe(true); // a purchase a year ago
    expect(answer({ basis: 0, day: dayOf(T - 600 * 86_400_000) }).callableNow).toBe(false); // about 20 months ago
  });
});
