import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import Papa from "papaparse";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "batch-vs-lookup-"));

import { createTestDb, type TestDbKind } from "../setup/db";
import { answerLookup, lookupInputOf } from "~/api/lookup.server";
import { adminListIds, cleanupService, createContainer, createUser, startService, tmpDir, type StoreKind } from "scrub-service/testing";
import type { InProcessScrubService } from "scrub-service/in-process";
import { createExemptionList, createScrubJob, loadExemptions, readExemptionRows, recordCalls, useCallCounters, type CallCounterStore } from "scrub-service";
import { dropCounters, makeCounters } from "../setup/call-counters";
import { checkCallRecords } from "scrub-service/domain";
import type { DbHandle } from "db/client";

/*
 * Issue #45, decision 182: the batch path and the live lookup give the same answer for every number, because both
 * ask the engine's one decision (scrub-service/src/decision/decide.ts). fast-check draws the numbers of each run
 * (valid ones in New York, Texas, Pennsylvania, Louisiana, Oregon, Florida, Canada and a toll-free one, on random
 * lists; invalid entries), the suppression type, whether the customer's container is chosen, an exemption record per
 * number (each basis, dated around the federal and state windows' edges, some after the instant) and the instant
 * (around 8 a.m., noon, 8 p.m. and 9 p.m. in each US mainland zone, on any day of a month holding Sundays,
 * Christmas, New Year's Day and Martin Luther King Jr. Day). Each run scrubs the numbers as a customer's job does
 * (the in-process service, calling times and the exemption list on) and asks the lookup (the function behind
 * POST /api/v1/lookup, asked at that instant) and requires, per number: the outcome (good, bad, invalid), the
 * reason, the number as E.164 (the files' phone_e164, decision 184), the exemption (basis, date, until), for bad
 * numbers why their record did not apply (bad.csv's exemption cell, the lookup's exemptionNote), and for good numbers
 * the time zones, callable now, next call, next call in local time (next_call_local / nextCallLocal) and calling note. On the embedded defaults (PGlite + embedded index) always, and on PostgreSQL + Redis when
 * DATABASE_URL / REDIS_URL are set (CI sets both).
 *
 * Each run also draws a call history per number (issue #46, decision 191: calls and texts, each outcome, on two
 * subjects and two debts, around the 24-hour and 7-day edges, some a minute after the instant), a purpose
 * (telemarketing or debt collection, the rows' debt id from a column) and a subject: good rows' calls_24h and calls_7d
 * must be the lookup's callsLast24h and callsLast7d, and the caps' answers (callable now, next call, note) the same.
 *
 * The lists are fresh at each instant (release RELEASE, instants within 30 days of it): while a checked list is
 * stale the lookup says `stale_list` where a scrub is refused or warns in its certificate (decision 174), by design.
 */

const combos: { db: TestDbKind; store: StoreKind }[] = [
  { db: "pglite", store: "embedded" },
  ...(process.env.DATABASE_URL || process.env.REDIS_URL
    ? [{ db: (process.env.DATABASE_URL ? "postgres" : "pglite") as TestDbKind, store: (process.env.REDIS_URL ? "redis" : "embedded") as StoreKind }]
    : []),
];

const DAY = 86_400_000;
/** Every list's release: the instants run over the 30 days after it (Sundays, Christmas, New Year, MLK Day 2026-01-19). */
const RELEASE = Date.parse("2025-12-20T00:00:00Z");

/** Area codes per place, and the state list of its state (null: none in the registry). */
const PLACES = [
  { npa: 212, list: null }, // New York, Eastern
  { npa: 512, list: "dnc-tx" }, // Texas, Central: 12-month purchase window, no inquiry exemption
  { npa: 215, list: "dnc-pa" }, // Pennsylvania: Saturday and Sunday hours
  { npa: 504, list: "dnc-la" }, // Louisiana: no Sunday calls, state holidays
  { npa: 503, list: null }, // Oregon, Pacific: until 8 p.m.
  { npa: 305, list: "dnc-fl" }, // Florida: until 8 p.m.
  { npa: 416, list: "dnc-ca" }, // Toronto: the CRTC's hours, Canada's list
  { npa: 800, list: null }, // toll-free: no time zone, the strictest reading
] as const;

const INVALID = ["123", "2125550142", "not a phone", "+44 20 7946 0958", "0000000000"];

/** Local 8:00, 9:00, 12:00, 20:00, 21:00 (and 10:00, 18:00, 21:30 for Canada's weekend and weekday ends) in UTC-5 … UTC-8, as seconds of the UTC day. */
const EDGES = [...new Set([5, 6, 7, 8].flatMap((off) => [8, 9, 10, 12, 18, 20, 21, 21.5].map((h) => (((h + off) % 24) * 3600) | 0)))];

const instantArb = fc
  .tuple(
    fc.integer({ min: 0, max: 29 }),
    fc.oneof(
      fc.tuple(fc.constantFrom(...EDGES), fc.integer({ min: -2, max: 1 })).map(([e, d]) => e + d),
      fc.integer({ min: 0, max: 86_399 }),
    ),
  )
  .map(([day, second]) => RELEASE + DAY + day * DAY + ((second + 86_400) % 86_400) * 1000);

const BASES = ["purchase", "inquiry", "consent"] as const;
/** A record's date relative to the instant: around each window's edge (3, 6, 12, 18 months back), or anywhere, or after it. */
const recordArb = fc.record({
  basis: fc.constantFrom(...BASES),
  monthsBack: fc.constantFrom(0, 2, 3, 6, 12, 18, 24),
  daysOff: fc.integer({ min: -2, max: 2 }),
});

/** true with this percentage. */
const chance = (percent: number) => fc.integer({ min: 0, max: 99 }).map((x) => x < percent);

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function recordDate(atMs: number, r: { monthsBack: number; daysOff: number }): string {
  const d = new Date(atMs);
  const back = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - r.monthsBack, d.getUTCDate()));
  return isoDay(back.getTime() + r.daysOff * DAY);
}

interface Answer {
  outcome: "good" | "bad" | "invalid";
  reason: string | null;
  /** The number read, E.164: the files' phone_e164, the lookup's number (decision 184). */
  e164: string | null;
  exempt: string | null;
  /** Why a listed number's record did not apply: bad.csv's exemption cell, the lookup's exemptionNote (decision 184). */
  exemptionNote?: string | null;
  zones?: string;
  callableNow?: boolean;
  nextCallAt?: string;
  nextCallLocal?: string;
  note?: string;
  /** good.csv's calls_24h / calls_7d, the lookup's callsLast24h / callsLast7d (decision 191). */
  calls24h?: number;
  calls7d?: number;
}

/** A call record relative to the instant. */
interface DrawnCall {
  secondsAgo: number;
  channel: "call" | "text";
  outcome: "attempted" | "connected" | "conversation";
  subject: string | null;
  debt: string | null;
}

const HOUR_S = 3600;
/** Around the caps' edges (24 hours, 7 days), inside them, or a minute after the instant (a dialer's clock). */
const callArb = fc.record({
  secondsAgo: fc.oneof(
    fc.tuple(fc.constantFrom(24 * HOUR_S, 7 * 24 * HOUR_S, 6 * 24 * HOUR_S), fc.integer({ min: -1, max: 1 })).map(([e, d]) => e + d),
    fc.integer({ min: 60, max: 23 * HOUR_S }),
    fc.integer({ min: 60, max: 7 * 24 * HOUR_S + 100 }),
    fc.constant(-60),
  ),
  channel: fc.constantFrom("call" as const, "call" as const, "text" as const),
  outcome: fc.constantFrom("attempted" as const, "connected" as const, "conversation" as const),
  subject: fc.constantFrom(null, null, "spring"),
  debt: fc.constantFrom(null, "A-1", "A-1", "B-2"),
});

function readCsv(file: string): Record<string, string>[] {
  return Papa.parse<Record<string, string>>(fs.readFileSync(file, "utf8"), { header: true, skipEmptyLines: true }).data;
}

describe.each(combos)("batch and lookup give one answer: $db + $store", ({ db, store }) => {
  let handle: DbHandle;
  let svc: InProcessScrubService;
  let userId: string;
  let container: number;
  let dir: string;
  /** The numbers the runs draw from, with the lists each is on. */
  const pool: { number: string; lists: string[] }[] = [];

  beforeAll(async () => {
    handle = await createTestDb(db);
    dir = tmpDir("batch-vs-lookup");
    svc = await startService(handle, store, { dataDir: dir });
    userId = await createUser(handle);
    container = await createContainer(handle, userId, "Do not call (ours)");
    // the pool's memberships, drawn once per store by fast-check (its own seed: the same pool on every store)
    const memberships = fc.sample(
      fc.array(fc.record({ litigation: chance(15), dnc: chance(70), state: chance(60), container: chance(20) }), {
        minLength: 5,
        maxLength: 5,
      }),
      { numRuns: PLACES.length, seed: 182 },
    );
    PLACES.forEach((p, i) =>
      memberships[i].forEach((m, j) => {
        const canadian = p.list === "dnc-ca";
        const lists = [
          ...(m.litigation ? ["litigation"] : []),
          ...(m.dnc && !canadian ? ["dnc"] : []),
          ...(m.state && p.list ? [p.list] : []),
          ...(m.container ? ["container"] : []),
        ];
        pool.push({ number: `${p.npa}555${2100 + i * 10 + j}`, lists });
      }),
    );
    const ids = await adminListIds(handle);
    const listIds = new Map<string, number>([
      ["litigation", ids.litigation],
      ["dnc", ids.dnc],
      ["container", container],
    ]);
    for (const kind of ["dnc-tx", "dnc-pa", "dnc-la", "dnc-fl", "dnc-ca"] as const) {
      listIds.set(kind, (await handle.db.selectFrom("lists").select("id").where("kind", "=", kind).executeTakeFirstOrThrow()).id);
    }
    for (const [kind, listId] of listIds) {
      const numbers = pool.filter((p) => p.lists.includes(kind)).map((p) => p.number);
      if (!numbers.length) continue;
      await svc.loadNumbers({
        listId,
        mode: "add",
        numbers,
        ...(kind === "container" ? { userId } : {}),
        ...(kind.startsWith("dnc") ? { registryDate: new Date(RELEASE) } : {}),
      });
    }
  });

  let counters: CallCounterStore | null = null;

  afterAll(async () => {
    if (handle) useCallCounters(handle.db, null);
    await dropCounters(counters);
    if (svc) await cleanupService(svc);
    await handle?.close();
  });

  let run = 0;
  async function answersOf(c: {
    entries: string[];
    records: Map<string, { basis: string; date: string }>;
    suppressionType: "DNCAndLitigation" | "LitigationOnly";
    withContainer: boolean;
    at: number;
    calls: Map<string, DrawnCall[]>;
    purpose: "telemarketing" | "debt-collection";
    subject: string | null;
  }): Promise<{ batch: Answer[]; lookup: Answer[] }> {
    run++;
    // this run's call history only (the owner's records of earlier runs deleted), a minute past the instant at most
    await handle.db.deleteFrom("call_records").where("user_id", "=", userId).execute();
    // live counters (decision 196) of the store beside these lists, on the run's clock, fed by the records written
    // below: the lookup answered from them must be the lookup answered from the database, number for number
    await dropCounters(counters);
    counters = makeCounters(store === "redis" ? "redis" : "embedded", handle, { now: () => c.at });
    useCallCounters(handle.db, counters);
    await counters!.rebuild();
    const drawn = [...c.calls].flatMap(([number, calls]) =>
      calls.map((x) => ({
        number,
        at: new Date(c.at - x.secondsAgo * 1000).toISOString(),
        channel: x.channel,
        outcome: x.outcome,
        ...(x.subject ? { subject: x.subject } : {}),
        ...(x.debt ? { debt_id: x.debt } : {}),
      })),
    );
    if (drawn.length) {
      const checked = checkCallRecords(drawn, c.at);
      if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
      await recordCalls(handle.db, userId, checked.records);
    }
    const list = await createExemptionList(handle.db, { userId, name: `run ${run}` });
    const text = [...c.records].map(([n, r]) => `${n},${r.basis},${r.date}`).join("\n");
    // records may be dated after the instant (they must not apply): the upload day is after every one
    if (c.records.size) {
      const rows = await readExemptionRows({ text }, new Date(c.at + 400 * DAY));
      await loadExemptions(handle.db, { listId: list.id, userId, mode: "replace", rows });
    }

    // the batch: a customer's scrub, calling times and the exemption list on, evaluated at the instant
    const input = path.join(dir, `run-${run}.csv`);
    // every row's debt id is the one the lookup is asked about (the lookup takes one debt_id per request)
    fs.writeFileSync(input, ["id,phone,account", ...c.entries.map((e, i) => `r${i},${e},A-1`)].join("\n") + "\n");
    const jobId = await createScrubJob(handle.db, {
      userId,
      fileName: `run-${run}.csv`,
      inputPath: input,
      suppressionType: c.suppressionType,
      containerId: c.withContainer ? container : null,
      exemptionListId: list.id,
      callingWindow: true,
      evaluatedAt: new Date(c.at),
      purpose: c.purpose,
      subject: c.subject ?? undefined,
      debtColumn: c.purpose === "debt-collection" ? "account" : null,
    });
    await svc.enqueue(jobId);
    expect(await svc.waitFor("job", jobId)).toBe("completed");
    const files = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", jobId).execute();
    const rowsOf = (kind: string) => readCsv(files.find((f) => f.kind === kind)!.path);
    const batch: Answer[] = new Array(c.entries.length);
    const row = (r: Record<string, string>) => Number(r.id.slice(1));
    for (const r of rowsOf("good")) {
      batch[row(r)] = {
        outcome: "good",
        reason: null,
        e164: r.phone_e164 || null,
        exempt: r.exemption || null,
        zones: r.time_zone,
        callableNow: r.callable_now === "yes",
        nextCallAt: r.next_call_at,
        nextCallLocal: r.next_call_local,
        note: r.calling_note,
        calls24h: Number(r.calls_24h),
        calls7d: Number(r.calls_7d),
      };
    }
    for (const r of rowsOf("bad"))
      batch[row(r)] = { outcome: "bad", reason: r.reason, e164: r.phone_e164 || null, exempt: null, exemptionNote: r.exemption || null };
    for (const r of rowsOf("invalid")) batch[row(r)] = { outcome: "invalid", reason: r.reason, e164: r.phone_e164 || null, exempt: null };

    // the lookup: the function behind POST /api/v1/lookup, asked at the same instant
    const body = {
      numbers: c.entries,
      suppression_type: c.suppressionType,
      container_id: c.withContainer ? container : null,
      exemptions: list.id,
      at: new Date(c.at).toISOString().replace(/\.\d{3}Z$/, "Z"),
      purpose: c.purpose,
      ...(c.subject ? { subject: c.subject } : {}),
      ...(c.purpose === "debt-collection" ? { debt_id: "A-1" } : {}),
    };
    const answered = await answerLookup(
      { db: handle.db, service: svc, userId, containerId: null, counters: null },
      lookupInputOf(Buffer.from(JSON.stringify(body))),
      new Date(c.at),
    );
    const json = JSON.parse(answered.json().toString("utf8"));
    const counted = await answerLookup(
      { db: handle.db, service: svc, userId, containerId: null, counters },
      lookupInputOf(Buffer.from(JSON.stringify(body))),
      new Date(c.at),
    );
    expect(JSON.parse(counted.json().toString("utf8")).data).toEqual(json.data);
    expect(json.stale_lists).toEqual([]);
    const lookup: Answer[] = json.data.map((d: any): Answer => {
      if (!d.valid) return { outcome: "invalid", reason: d.message, e164: null, exempt: null };
      const e164 = `+1${d.number}`;
      if (d.suppressed) return { outcome: "bad", reason: d.suppressed_by, e164, exempt: null, exemptionNote: d.exemptionNote };
      return {
        outcome: "good",
        reason: null,
        e164,
        exempt: d.exempt ? `${d.exempt.basis} ${d.exempt.date}${d.exempt.until ? `, exempt until ${d.exempt.until}` : ""}` : null,
        zones: d.timeZones.join("|"),
        callableNow: d.callableNow,
        nextCallAt: d.nextCallAt,
        nextCallLocal: d.nextCallLocal ?? "",
        note: d.callingNote,
        calls24h: d.callsLast24h,
        calls7d: d.callsLast7d,
      };
    });
    return { batch, lookup };
  }

  it("for random numbers, lists, records and instants", { timeout: 240_000 }, async () => {
    const caseArb = fc
      .record({
        picked: fc.subarray(pool, { minLength: 4, maxLength: 24 }),
        invalid: fc.subarray(INVALID, { maxLength: 3 }),
        suppressionType: fc.constantFrom("DNCAndLitigation" as const, "DNCAndLitigation" as const, "LitigationOnly" as const),
        withContainer: fc.boolean(),
        at: instantArb,
        records: fc.array(fc.option(recordArb, { freq: 4 }), { minLength: 24, maxLength: 24 }),
        calls: fc.array(fc.array(callArb, { maxLength: 9 }), { minLength: 24, maxLength: 24 }),
        purpose: fc.constantFrom("telemarketing" as const, "telemarketing" as const, "debt-collection" as const),
        subject: fc.constantFrom(null, "spring"),
      })
      .chain((c) =>
        fc
          .shuffledSubarray([...c.picked.map((p) => p.number), ...c.invalid], { minLength: c.picked.length + c.invalid.length })
          .map((entries) => ({ ...c, entries })),
      );
    let exempted = 0;
    let good = 0;
    let notApplied = 0;
    let capped = 0;
    let counted = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const records = new Map<string, { basis: string; date: string }>();
        c.picked.forEach((p, i) => {
          const r = c.records[i];
          if (r) records.set(p.number, { basis: r.basis, date: recordDate(c.at, r) });
        });
        const calls = new Map<string, DrawnCall[]>();
        c.picked.forEach((p, i) => {
          if (c.calls[i].length) calls.set(p.number, c.calls[i]);
        });
        const { batch, lookup } = await answersOf({
          entries: c.entries,
          records,
          suppressionType: c.suppressionType,
          withContainer: c.withContainer,
          at: c.at,
          calls,
          purpose: c.purpose,
          subject: c.subject,
        });
        expect(batch.every(Boolean)).toBe(true);
        const rows = c.entries.map((e, i) => ({ entry: e, batch: batch[i], lookup: lookup[i] }));
        expect(
          rows.filter((r) => JSON.stringify(r.batch) !== JSON.stringify(r.lookup)),
          `at ${new Date(c.at).toISOString()}, ${c.suppressionType}, container ${c.withContainer}`,
        ).toEqual([]);
        exempted += batch.filter((b) => b.exempt).length;
        good += batch.filter((b) => b.outcome === "good").length;
        notApplied += batch.filter((b) => b.exemptionNote).length;
        capped += batch.filter((b) => b.note && / calls? (and texts )?in (24 hours|7 days)|telephone conversation/.test(b.note)).length;
        counted += batch.filter((b) => (b.calls7d ?? 0) > 0).length;
      }),
      { numRuns: 20, seed: 45, endOnFailure: true },
    );
    // the runs reached the cases that matter (a fixed seed: the same cases every time)
    expect(exempted).toBeGreaterThan(0);
    expect(good).toBeGreaterThan(0);
    expect(notApplied).toBeGreaterThan(0);
    // and the calls: good rows with records, and some held by a cap
    expect(counted).toBeGreaterThan(0);
    expect(capped).toBeGreaterThan(0);
  });
});
