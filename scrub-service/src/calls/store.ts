/**
 * Call history in PostgreSQL or PGlite (migration 0028, decision 185): writing a request's records (a repeated dialer
 * call id is ignored), a number's records and its counts, deleting a reserved attempt never dialed, and the retention
 * job. Every query is scoped by the owner's user id. The checks are in ./validate.ts (pure).
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "db/schema";
import { createHash } from "node:crypto";
import { CodedError } from "../errors";
import { CALL_CHANNELS, CALL_OUTCOMES, monthOf, retentionCutoff, type CallChannel, type CallOutcome, type CallRecord } from "./validate";
import { buildHistoryIndex, type CallHistoryIndex, type HistoryRow } from "./history-index";
import { callCountersOf, changeCounters, counterRecordOf, COUNTER_RETAIN_MS, type CallCounterStore, type CounterRecord } from "./counters";

type Db = Kysely<Database>;

/** Creates the monthly partitions the instants fall in that do not exist yet (each in its own short transaction). */
export async function ensureCallMonths(db: Db, atMs: Iterable<number>): Promise<string[]> {
  const months = [...new Set([...atMs].map(monthOf))].sort();
  const names: string[] = [];
  for (const m of months) {
    const r = await sql<{ name: string }>`select call_records_ensure_month(${m}::date) as name`.execute(db);
    names.push(r.rows[0].name);
  }
  return names;
}

export interface RecordCallsResult {
  /** Records written. */
  recorded: number;
  /** Records whose dialer call id was already recorded (in this request or an earlier one): not written again. */
  ignored: number;
  /** The written records' ids, in request order (as text: they are bigints). */
  ids: string[];
}

const CHUNK = 1000;

/**
 * Writes checked records for one owner in one transaction: all of them or none. A dialer call id seen before (an
 * earlier request, or earlier in this one) leaves its record out and counts it as ignored, so a retry never counts twice.
 * `db` may be a transaction already open (the CLI writes a whole file in one); partitions must exist then
 * (`ensureCallMonths` first: DDL is kept out of long transactions).
 */
export async function recordCalls(
  db: Db,
  userId: string,
  records: readonly CallRecord[],
  o: {
    partitionsReady?: boolean;
    /** The counters to feed (default: the ones registered for `db`; null: none). */
    counters?: CallCounterStore | null;
    /** Told the records fed and their ids (a caller whose own transaction may still fail takes them out again). */
    onFed?: (records: CallRecord[], ids: string[]) => void;
  } = {},
): Promise<RecordCallsResult> {
  // the live counters this database's records feed (decision 196): written before the records commit
  const counters = o.counters !== undefined ? o.counters : callCountersOf(db);
  const seen = new Set<string>();
  const fresh: CallRecord[] = [];
  let ignored = 0;
  for (const r of records) {
    if (r.dialerCallId !== null) {
      if (seen.has(r.dialerCallId)) {
        ignored++;
        continue;
      }
      seen.add(r.dialerCallId);
    }
    fresh.push(r);
  }
  if (!o.partitionsReady)
    await ensureCallMonths(
      db,
      fresh.map((r) => r.atMs),
    );
  const write = async (trx: Db): Promise<RecordCallsResult> => {
    const claimed = new Set<string>();
    const withIds = fresh.filter((r) => r.dialerCallId !== null);
    for (let i = 0; i < withIds.length; i += CHUNK) {
      const rows = withIds.slice(i, i + CHUNK).map((r) => ({ user_id: userId, dialer_call_id: r.dialerCallId!, at: new Date(r.atMs) }));
      const got = await trx
        .insertInto("call_dialer_ids")
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .returning("dialer_call_id")
        .execute();
      for (const g of got) claimed.add(g.dialer_call_id);
    }
    const keep = fresh.filter((r) => r.dialerCallId === null || claimed.has(r.dialerCallId));
    ignored += fresh.length - keep.length;
    const ids: string[] = [];
    for (let i = 0; i < keep.length; i += CHUNK) {
      const rows = keep.slice(i, i + CHUNK).map((r) => ({
        user_id: userId,
        number: BigInt(r.number),
        at: new Date(r.atMs),
        subject: r.subject,
        channel: r.channel,
        outcome: r.outcome,
        debt_id: r.debtId,
        dialer_call_id: r.dialerCallId,
        reserved: r.reserved,
      }));
      const got = await trx.insertInto("call_records").values(rows).returning("id").execute();
      for (const g of got) ids.push(String(g.id));
    }
    // the counters take the records before they commit (a failure here rolls them back): a counter may hold a record
    // the database lost (stricter), never lack one it holds
    if (counters && keep.length > 0) {
      fed = { records: keep, ids };
      await feedCounters(counters, userId, keep, ids);
      o.onFed?.(keep, ids);
    }
    return { recorded: keep.length, ignored, ids };
  };
  let fed: { records: CallRecord[]; ids: string[] } | null = null;
  if (db.isTransaction) return write(db);
  try {
    return await db.transaction().execute(write);
  } catch (e) {
    // the commit failed after the counters took the records: take them out again (if this fails too, they count more)
    const f = fed as { records: CallRecord[]; ids: string[] } | null;
    if (counters && f) await unfeedCounters(counters, userId, f.records, f.ids).catch(() => {});
    throw e;
  }
}

/** Adds written records (with their ids) to the counters, whatever their state (a rebuild keeps them: merged by id). */
export async function feedCounters(counters: CallCounterStore, userId: string, records: readonly CallRecord[], ids: readonly string[]): Promise<void> {
  try {
    await feed(counters, userId, records, ids);
  } catch (e) {
    // the records roll back with this error: a 503 (the catalogue's call_counters_unavailable), the cause in the log
    throw new CodedError("call_counters_unavailable", `the call counters (${counters.kind}) did not take the records: ${(e as Error).message}`, { cause: e });
  }
}

async function feed(counters: CallCounterStore, userId: string, records: readonly CallRecord[], ids: readonly string[]): Promise<void> {
  const changes = new Map<number, { add: CounterRecord[] }>();
  const oldest = counters.now() - COUNTER_RETAIN_MS;
  records.forEach((r, i) => {
    if (r.atMs <= oldest) return; // no cap counts it: an import of older history costs the counters nothing
    let c = changes.get(r.number);
    if (!c) changes.set(r.number, (c = { add: [] }));
    c.add.push(counterRecordOf(ids[i], r));
  });
  await changeCounters(counters, userId, changes, "any");
}

/** Takes records out of the counters by id (a reservation released, a write that did not commit). */
export async function unfeedCounters(
  counters: CallCounterStore,
  userId: string,
  records: readonly { number: number }[],
  ids: readonly string[],
): Promise<void> {
  const changes = new Map<number, { drop: Set<number> }>();
  records.forEach((r, i) => {
    if (ids[i] === undefined) return;
    let c = changes.get(r.number);
    if (!c) changes.set(r.number, (c = { drop: new Set() }));
    c.drop.add(Number(ids[i]));
  });
  await changeCounters(counters, userId, changes, "any");
}

export interface StoredCall {
  id: string;
  number: string;
  at: Date;
  subject: string;
  channel: CallChannel;
  outcome: CallOutcome;
  debtId: string | null;
  dialerCallId: string | null;
  reserved: boolean;
  createdAt: Date;
}

type Row = {
  id: bigint | string | number;
  number: bigint | string | number;
  at: Date;
  subject: string;
  channel: CallChannel;
  outcome: CallOutcome;
  debt_id: string | null;
  dialer_call_id: string | null;
  reserved: boolean;
  created_at: Date;
};

const fromRow = (r: Row): StoredCall => ({
  id: String(r.id),
  number: String(r.number).padStart(10, "0"),
  at: new Date(r.at),
  subject: r.subject,
  channel: r.channel,
  outcome: r.outcome,
  debtId: r.debt_id,
  dialerCallId: r.dialer_call_id,
  reserved: r.reserved,
  createdAt: new Date(r.created_at),
});

/** Calls and texts of a number in a window, and both together. */
export interface CallCounts {
  calls: number;
  texts: number;
  total: number;
}

export interface NumberCalls {
  records: StoredCall[];
  /** Records of the number in all, for paging. */
  totalRecords: number;
  /** In the 24 hours and the 7 days up to `nowMs` (reserved attempts included: they are about to be dialled). */
  last24h: CallCounts;
  last7d: CallCounts;
}

const DAY_MS = 86_400_000;

/** One number's records of one owner, newest first (`limit` from `offset`), with its counts in the last 24 h and 7 days. */
export async function listNumberCalls(db: Db, userId: string, number: number, o: { limit: number; offset: number; nowMs: number }): Promise<NumberCalls> {
  const base = db.selectFrom("call_records").where("user_id", "=", userId).where("number", "=", BigInt(number));
  const rows = (await base.selectAll().orderBy("at", "desc").orderBy("id", "desc").limit(o.limit).offset(o.offset).execute()) as Row[];
  const since7 = new Date(o.nowMs - 7 * DAY_MS);
  const since1 = new Date(o.nowMs - DAY_MS);
  const now = new Date(o.nowMs);
  const c = await base
    .select([
      sql<string>`count(*)`.as("all"),
      sql<string>`count(*) filter (where channel = 'call' and at > ${since1} and at <= ${now})`.as("calls1"),
      sql<string>`count(*) filter (where channel = 'text' and at > ${since1} and at <= ${now})`.as("texts1"),
      sql<string>`count(*) filter (where channel = 'call' and at > ${since7} and at <= ${now})`.as("calls7"),
      sql<string>`count(*) filter (where channel = 'text' and at > ${since7} and at <= ${now})`.as("texts7"),
    ])
    .executeTakeFirstOrThrow();
  const counts = (calls: unknown, texts: unknown): CallCounts => ({ calls: Number(calls), texts: Number(texts), total: Number(calls) + Number(texts) });
  return { records: rows.map(fromRow), totalRecords: Number(c.all), last24h: counts(c.calls1, c.texts1), last7d: counts(c.calls7, c.texts7) };
}

export type DeleteCallResult = "deleted" | "not_found" | "not_reserved";

/**
 * Deletes one of the owner's records when it is a reservation (an attempt reserved at dial time and never dialled);
 * its dialer call id is released with it. Another owner's record, or none, is `not_found`; a record of a call made is
 * `not_reserved` and stays (call detail records are kept five years).
 */
export async function deleteReservedCall(db: Db, userId: string, id: string, o: { counters?: CallCounterStore | null } = {}): Promise<DeleteCallResult> {
  if (!/^\d{1,18}$/.test(id)) return "not_found";
  const counters = o.counters !== undefined ? o.counters : callCountersOf(db);
  let number: number | null = null;
  const result = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("call_records")
      .select(["id", "number", "at", "reserved", "dialer_call_id"])
      .where("id", "=", BigInt(id))
      .where("user_id", "=", userId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return "not_found";
    if (!row.reserved) return "not_reserved";
    await trx.deleteFrom("call_records").where("id", "=", BigInt(id)).where("at", "=", row.at).where("user_id", "=", userId).execute();
    if (row.dialer_call_id !== null)
      await trx.deleteFrom("call_dialer_ids").where("user_id", "=", userId).where("dialer_call_id", "=", row.dialer_call_id).execute();
    number = Number(row.number);
    return "deleted" as const;
  });
  // out of the counters once the database let it go (a failure leaves it counted: stricter, until it leaves the window)
  if (result === "deleted" && counters && number !== null) {
    await unfeedCounters(counters, userId, [{ number }], [id]).catch((e) =>
      console.warn(`[calls] released reservation ${id} stays in the call counters until it leaves the window: ${(e as Error).message}`),
    );
  }
  return result;
}

export interface CallRetentionResult {
  cutoff: Date;
  /** Whole monthly partitions detached and dropped (every record in them older than the cutoff). */
  partitionsDropped: string[];
  /** Records deleted from the month the cutoff falls in. */
  recordsDeleted: number;
}

/**
 * The retention job: records older than five years (16 CFR 310.5(a)(2) as amended in 2024) go. Whole months before the
 * cutoff's month are detached and dropped (no row-by-row delete, no bloat); in the month the cutoff falls in, the
 * older rows are deleted. Dialer call ids go with their records. Idempotent: every replica may run it.
 */
export async function dropExpiredCalls(db: Db, nowMs: number = Date.now()): Promise<CallRetentionResult> {
  const cutoff = retentionCutoff(nowMs);
  const cutoffMonth = monthOf(cutoff.getTime());
  const parts = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent
    where p.relname = 'call_records'`.execute(db);
  const partitionsDropped: string[] = [];
  for (const { name } of parts.rows) {
    const m = /^call_records_y(\d{4})m(\d{2})$/.exec(name);
    // a month that ends on or before the first of the cutoff's month holds only expired records
    if (!m || `${m[1]}-${m[2]}-01` >= cutoffMonth) continue;
    try {
      await sql`alter table call_records detach partition ${sql.id(name)}`.execute(db);
    } catch (e) {
      // another replica's housekeeping detached it first: its drop follows
      if (!(await sql`select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid where c.relname = ${name}`.execute(db)).rows.length) continue;
      throw e;
    }
    await sql`drop table if exists ${sql.id(name)}`.execute(db);
    partitionsDropped.push(name);
  }
  const deleted = await db.deleteFrom("call_records").where("at", "<", cutoff).executeTakeFirst();
  await db.deleteFrom("call_dialer_ids").where("at", "<", cutoff).execute();
  return { cutoff, partitionsDropped: partitionsDropped.sort(), recordsDeleted: Number(deleted.numDeletedRows) };
}

/** A record as the caps count it (calling/caps.ts CapRecord). */
export interface HistoryRecord {
  atMs: number;
  subject: string;
  channel: CallChannel;
  outcome: CallOutcome;
  debtId: string | null;
}

/**
 * The owner's records of these numbers after `sinceMs` (reservations included), per number: what the lookup counts
 * and evaluates the caps on (decision 187). One query over the (user_id, number, at) index.
 */
export async function callHistoryOf(db: Db, userId: string, numbers: readonly number[], sinceMs: number): Promise<Map<number, HistoryRecord[]>> {
  const out = new Map<number, HistoryRecord[]>();
  if (numbers.length === 0) return out;
  const rows = await db
    .selectFrom("call_records")
    .select(["number", "at", "subject", "channel", "outcome", "debt_id"])
    .where("user_id", "=", userId)
    .where(sql<boolean>`number = any(${sql.val(numbers.map(String))}::bigint[])`)
    .where("at", ">", new Date(sinceMs))
    .execute();
  for (const r of rows) {
    const n = Number(r.number);
    let list = out.get(n);
    if (!list) out.set(n, (list = []));
    list.push({ atMs: new Date(r.at).getTime(), subject: r.subject, channel: r.channel as CallChannel, outcome: r.outcome as CallOutcome, debtId: r.debt_id });
  }
  return out;
}

/** What a reservation records for each number granted: an attempt on this subject, channel and debt (decision 187). */
export interface ReservationKind {
  subject: string;
  channel: CallChannel;
  debtId: string | null;
}

/** The reserved attempt written for a granted number: at `atMs`, on the reservation's subject, channel and debt. */
export function reservedAttempt(number: number, atMs: number, kind: ReservationKind): CallRecord {
  return { number, atMs, subject: kind.subject, channel: kind.channel, outcome: "attempted", debtId: kind.debtId, dialerCallId: null, reserved: true };
}

export interface Reservation {
  /** The instant the counts were read and the attempts stamped (ms), taken once the locks were held. */
  nowMs: number;
  /** The numbers' records after nowMs − `windowMs`, read under the locks. */
  history: Map<number, HistoryRecord[]>;
  /** Each granted number's reserved record id. */
  ids: Map<number, string>;
}

/**
 * The atomic pre-dial step (decision 187): in one transaction, a lock per (owner, number)
 * (`pg_advisory_xact_lock(hashtext(user_id || ':' || number))`, taken in hash order so two requests never wait on each
 * other in a circle), then the clock and the numbers' records read under the locks, then `grant` decides which
 * numbers may be called now on exactly those counts, and a reserved attempt is written for each, before the locks are
 * released at commit. Two requests for one number are thus decided one after the other, the second on counts that
 * hold the first's reservation. `beforeCommit` runs last inside the transaction (its error rolls everything back).
 * PGlite has one connection: its transactions are serial already; the same code runs there.
 */
export async function reserveCalls(
  db: Db,
  userId: string,
  numbers: readonly number[],
  o: {
    kind: ReservationKind;
    windowMs: number;
    grant: (history: Map<number, HistoryRecord[]>, nowMs: number) => number[];
    /**
     * Run inside the reservation's transaction before it commits, given it (the plan's usage, decision 187). Its
     * queries must go through `trx`: on PGlite the one connection is the transaction's until it ends.
     */
    beforeCommit?: (trx: Db) => Promise<void>;
    /** The clock read once the locks are held (default Date.now; a test fixes it). */
    now?: () => number;
    /**
     * Live counters that are not ready (lost, being rebuilt: decision 196): the reserved attempts go into them before
     * the commit, and only while they are still not ready; once ready, reservations decided on them may be in flight
     * that this transaction cannot see, so it rolls back with CountersReadyError (decide again on the counters).
     */
    counters?: CallCounterStore | null;
  },
): Promise<Reservation> {
  const clock = o.now ?? Date.now;
  // the month's partition (and the next one's, should the clock cross into it) before the transaction: no DDL in it
  const t = clock();
  await ensureCallMonthsCached(db, [t, t + 3_600_000]);
  let fed: { records: CallRecord[]; ids: string[] } | null = null;
  try {
    return await db.transaction().execute(async (trx) => {
      if (numbers.length > 0) {
        await sql`select pg_advisory_xact_lock(k) from (
          select distinct hashtext(${userId} || ':' || n::text) as k from unnest(${sql.val(numbers.map(String))}::bigint[]) as n order by k
        ) as locks`.execute(trx);
      }
      const nowMs = clock();
      const history = await callHistoryOf(trx, userId, numbers, nowMs - o.windowMs);
      const granted = o.grant(history, nowMs);
      const ids = new Map<number, string>();
      if (granted.length > 0) {
        const records = granted.map((number) => reservedAttempt(number, nowMs, o.kind));
        const written = await recordCalls(trx, userId, records, { partitionsReady: true, counters: null });
        granted.forEach((n, i) => ids.set(n, written.ids[i]));
        if (o.counters) {
          fed = { records, ids: written.ids };
          const changes = new Map(records.map((r, i) => [r.number, { add: [counterRecordOf(written.ids[i], r)] }]));
          const { refused } = await changeCounters(o.counters, userId, changes, "not-ready");
          if (refused === "ready") throw new CountersReadyError();
        }
      }
      if (o.beforeCommit) await o.beforeCommit(trx);
      return { nowMs, history, ids };
    });
  } catch (e) {
    const f = fed as { records: CallRecord[]; ids: string[] } | null;
    if (o.counters && f) await unfeedCounters(o.counters, userId, f.records, f.ids).catch(() => {});
    throw e;
  }
}

/** The counters became ready while a reservation was decided on the database: decide it again on the counters. */
export class CountersReadyError extends Error {
  constructor() {
    super("the call counters became ready during a reservation decided on the database");
    this.name = "CountersReadyError";
  }
}

/** Months whose partition this process made sure of, per database (a reservation on the counters reads nothing else). */
const ensuredMonths = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * ensureCallMonths, asked of the database once per month and process: concurrent first requests of a month share one
 * call, and a "relation already exists" from another process creating it at the same instant (the function's own
 * advisory lock does not always see the other's table) is asked once more.
 */
export async function ensureCallMonthsCached(db: Db, atMs: readonly number[]): Promise<void> {
  let seen = ensuredMonths.get(db);
  if (!seen) ensuredMonths.set(db, (seen = new Map()));
  const months = seen;
  await Promise.all(
    [...new Set(atMs.map(monthOf))].map((m) => {
      let p = months.get(m);
      if (!p) {
        const ensure = () => ensureCallMonths(db, [Date.parse(`${m}T00:00:00Z`)]).then(() => undefined);
        p = ensure().catch((e: { code?: string }) => {
          if (e?.code === "42P07") return ensure();
          throw e;
        });
        p.catch(() => months.delete(m));
        months.set(m, p);
      }
      return p;
    }),
  );
}

/** Record ids taken from call_records' sequence ahead, per database: a reservation on the counters needs its ids first. */
const idPools = new WeakMap<object, { ids: string[]; filling: Promise<void> | null }>();
const ID_BLOCK = 256;

/** `n` new call record ids (the sequence asked once per ID_BLOCK ids). */
export async function takeCallIds(db: Db, n: number): Promise<string[]> {
  let pool = idPools.get(db);
  if (!pool) idPools.set(db, (pool = { ids: [], filling: null }));
  const p = pool;
  while (p.ids.length < n) {
    p.filling ??= sql<{
      id: string;
    }>`select nextval(pg_get_serial_sequence('call_records', 'id'))::text as id from generate_series(1, ${Math.max(ID_BLOCK, n)})`
      .execute(db)
      .then((r) => void p.ids.push(...r.rows.map((x) => x.id)))
      .finally(() => (p.filling = null));
    await p.filling;
  }
  return p.ids.splice(0, n);
}

/** Writes reserved attempts with the ids they were given ahead (one statement; partitions made sure of first). */
export async function insertReservedCalls(db: Db, userId: string, records: readonly CallRecord[], ids: readonly string[]): Promise<void> {
  if (records.length === 0) return;
  await ensureCallMonthsCached(
    db,
    records.map((r) => r.atMs),
  );
  await db
    .insertInto("call_records")
    .values(
      records.map((r, i) => ({
        id: BigInt(ids[i]),
        user_id: userId,
        number: BigInt(r.number),
        at: new Date(r.atMs),
        subject: r.subject,
        channel: r.channel,
        outcome: r.outcome,
        debt_id: r.debtId,
        dialer_call_id: null,
        reserved: true,
      })),
    )
    .execute();
}

const RECENT_PAGE = 20_000;

/**
 * Every owner's records after `sinceMs`, in pages by id, handed over per owner and number as the counters hold them
 * (the counters' rebuild, decision 196). Returns the records read.
 */
export async function readRecentCalls(
  db: Db,
  sinceMs: number,
  each: (owner: string, byNumber: Map<number, CounterRecord[]>) => void | Promise<void>,
): Promise<number> {
  let last = "0";
  let read = 0;
  for (;;) {
    const page = await db
      .selectFrom("call_records")
      .select(["id", "user_id", "number", "at", "subject", "channel", "outcome", "debt_id"])
      .where("at", ">", new Date(sinceMs))
      .where(sql<boolean>`id > ${last}::bigint`)
      .orderBy("id")
      .limit(RECENT_PAGE)
      .execute();
    const byOwner = new Map<string, Map<number, CounterRecord[]>>();
    for (const r of page) {
      let owner = byOwner.get(r.user_id);
      if (!owner) byOwner.set(r.user_id, (owner = new Map()));
      const n = Number(r.number);
      let list = owner.get(n);
      if (!list) owner.set(n, (list = []));
      list.push(
        counterRecordOf(String(r.id), {
          atMs: new Date(r.at).getTime(),
          subject: r.subject,
          channel: r.channel as CallChannel,
          outcome: r.outcome as CallOutcome,
          debtId: r.debt_id,
        }),
      );
    }
    for (const [owner, byNumber] of byOwner) await each(owner, byNumber);
    read += page.length;
    if (page.length < RECENT_PAGE) return read;
    last = String(page[page.length - 1].id);
  }
}

/** The call history a scrub read (decision 191): the index its rows are counted on, and what its certificate says of it. */
export interface CallHistorySnapshot {
  index: CallHistoryIndex;
  /** Records read (every one of the owner's after `since`). */
  records: number;
  /** The window's start the records lie after (ms). */
  sinceMs: number;
  /** SHA-256 (hex) of the records as `number,at,subject,channel,outcome,debt_id` lines in number and instant order. */
  sha256: string;
}

const HISTORY_PAGE = 50_000;

/**
 * Every record of the owner's after `sinceMs` (reservations included, as the lookup counts them), read once per scrub
 * in pages of 50,000 (by id, the partitions' own index), into the compact index its rows are counted on, with the
 * snapshot's SHA-256 for the certificate.
 */
export async function readCallHistory(db: Db, userId: string, sinceMs: number): Promise<CallHistorySnapshot> {
  const rows: HistoryRow[] = [];
  let last = "0";
  for (;;) {
    const page = await db
      .selectFrom("call_records")
      .select(["id", "number", "at", "subject", "channel", "outcome", "debt_id"])
      .where("user_id", "=", userId)
      .where("at", ">", new Date(sinceMs))
      .where(sql<boolean>`id > ${last}::bigint`)
      .orderBy("id")
      .limit(HISTORY_PAGE)
      .execute();
    for (const r of page) {
      rows.push({
        number: Number(r.number),
        atMs: new Date(r.at).getTime(),
        subject: r.subject,
        channel: r.channel as CallChannel,
        outcome: r.outcome as CallOutcome,
        debtId: r.debt_id,
      });
    }
    if (page.length < HISTORY_PAGE) break;
    last = String(page[page.length - 1].id);
  }
  const index = buildHistoryIndex(rows);
  return { index, records: rows.length, sinceMs, sha256: historySha256(index) };
}

/** The SHA-256 of an index's records, one line each in the index's order (number, instant), ties by the line. */
export function historySha256(index: CallHistoryIndex): string {
  const h = createHash("sha256");
  for (let i = 0; i < index.numbers.length; i++) {
    const lines: string[] = [];
    for (let k = index.starts[i]; k < index.starts[i + 1]; k++) {
      const d = index.debt[k];
      lines.push(
        [
          index.numbers[i],
          new Date(index.atMs[k]).toISOString(),
          JSON.stringify(index.subjects[index.subject[k]]),
          CALL_CHANNELS[index.channel[k]],
          CALL_OUTCOMES[index.outcome[k]],
          d < 0 ? "" : JSON.stringify(index.debts[d]),
        ].join(","),
      );
    }
    lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const l of lines) h.update(l + "\n");
  }
  return h.digest("hex");
}
