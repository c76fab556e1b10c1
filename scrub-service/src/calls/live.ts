/**
 * The live lookup's call history and reservation on the counters (decision 196), falling back to the database
 * (decision 187) for whatever the counters cannot vouch for. The decision stays the caller's `grant` (the one decision,
 * cappedCalling); the counters only make the read and the check-and-record atomic per number:
 *
 *   read every number's records and version → grant (the decision) → compare-and-set a reserved attempt per granted
 *   number (the version unchanged, else read it again and decide again) → the attempts written to PostgreSQL with
 *   the ids taken ahead; if that fails they are taken out of the counters again and the request fails (503).
 *
 * A counter may thus hold an attempt PostgreSQL lost (a crash between the two, an undo that failed): the number looks
 * called once more than it was, for at most the window. It never lacks one PostgreSQL holds.
 */
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { changeCounters, counterRecordOf, historyRecordsOf, mergeRecords, type CallCounterStore, type CounterEntry } from "./counters";
import {
  callHistoryOf,
  CountersReadyError,
  insertReservedCalls,
  reserveCalls,
  reservedAttempt,
  takeCallIds,
  type HistoryRecord,
  type Reservation,
  type ReservationKind,
} from "./store";
import type { CallRecord } from "./validate";
import { lookupTimeoutMs, withLookupDeadline } from "../lists/lookup";

type Db = Kysely<Database>;

/** A counter store's answer within the lookup's deadline (LOOKUP_STORE_TIMEOUT_MS): a hanging store fails closed. */
function inTime<T>(work: () => Promise<T>): Promise<T> {
  return withLookupDeadline(work, lookupTimeoutMs());
}

/**
 * The owner's records of these numbers after `sinceMs`, as the caps read them for a next call on `ask`'s subject and
 * debt: from the counters, and from the database for the numbers they cannot vouch for (lost or being rebuilt: a
 * rebuild is under way). Without counters: the database (callHistoryOf). A store that does not answer throws.
 */
export async function liveHistoryOf(
  db: Db,
  counters: CallCounterStore | null,
  userId: string,
  numbers: readonly number[],
  sinceMs: number,
  ask: { subject: string; debtId: string | null },
): Promise<Map<number, HistoryRecord[]>> {
  if (!counters || numbers.length === 0) return callHistoryOf(db, userId, numbers, sinceMs);
  const { entries, ready } = await inTime(() => counters.read(userId, numbers));
  const out = new Map<number, HistoryRecord[]>();
  const unsure: number[] = [];
  numbers.forEach((n, i) => {
    if (!ready[i]) return void unsure.push(n);
    const records = entries[i].records.filter((r) => r.atMs > sinceMs);
    if (records.length > 0) out.set(n, historyRecordsOf(records, ask));
  });
  if (unsure.length > 0) for (const [n, records] of await callHistoryOf(db, userId, unsure, sinceMs)) out.set(n, records);
  return out;
}

export interface LiveReserveOptions {
  kind: ReservationKind;
  windowMs: number;
  grant: (history: Map<number, HistoryRecord[]>, nowMs: number) => number[];
  /** Run once the attempts are held, before they are written (the plan's usage); its error releases them. */
  beforeCommit?: (db: Db) => Promise<void>;
  now?: () => number;
}

/**
 * The pre-dial step on the counters when they can vouch for every number asked, else on the database (its advisory
 * locks, the attempts also put into the counters while they are not ready). Without counters: the database alone.
 */
export async function reserveLive(
  db: Db,
  counters: CallCounterStore | null,
  userId: string,
  numbers: readonly number[],
  o: LiveReserveOptions,
): Promise<Reservation> {
  if (!counters) return reserveCalls(db, userId, numbers, o);
  for (let attempt = 0; ; attempt++) {
    const done = await reserveOnCounters(db, counters, userId, numbers, o);
    if (done) return done;
    try {
      return await reserveCalls(db, userId, numbers, { ...o, counters });
    } catch (e) {
      // the counters became ready meanwhile: decide again on them
      if (e instanceof CountersReadyError && attempt < 5) continue;
      throw e;
    }
  }
}

const MAX_TRIES = 200;

/** The reservation on the counters, or null when they cannot vouch for a number (nothing reserved then). */
async function reserveOnCounters(
  db: Db,
  counters: CallCounterStore,
  userId: string,
  numbers: readonly number[],
  o: LiveReserveOptions,
): Promise<Reservation | null> {
  const clock = o.now ?? counters.now;
  const nowMs = clock();
  const ask = { subject: o.kind.subject, debtId: o.kind.debtId };
  const read = await inTime(() => counters.read(userId, numbers));
  if (read.ready.some((r) => !r)) return null;
  const entries = new Map<number, CounterEntry>(numbers.map((n, i) => [n, read.entries[i]]));
  const held = new Map<number, string>();
  const spareIds: string[] = [];
  const historyOf = (): Map<number, HistoryRecord[]> => {
    const h = new Map<number, HistoryRecord[]>();
    for (const [n, e] of entries) {
      const records = e.records.filter((r) => r.atMs > nowMs - o.windowMs);
      if (records.length > 0) h.set(n, historyRecordsOf(records, ask));
    }
    return h;
  };
  const attempt = (number: number): CallRecord => reservedAttempt(number, nowMs, o.kind);
  const release = async () => {
    if (held.size === 0) return;
    const drop = new Map([...held].map(([n, id]) => [n, { drop: new Set([Number(id)]) }]));
    await changeCounters(counters, userId, drop, "any").catch(() => {});
  };
  let history = historyOf();
  try {
    for (let tries = 0; ; tries++) {
      if (tries >= MAX_TRIES) throw new Error(`call counters: a reservation still conflicting after ${MAX_TRIES} tries`);
      // the one decision on the counts as read (numbers already held keep the counts they were decided on)
      const todo = o.grant(history, nowMs).filter((n) => !held.has(n));
      if (todo.length === 0) break;
      if (spareIds.length < todo.length) spareIds.push(...(await takeCallIds(db, todo.length - spareIds.length)));
      const ids = spareIds.splice(0, todo.length);
      const ops = todo.map((n, i) => ({
        number: n,
        version: entries.get(n)!.version,
        records: mergeRecords(entries.get(n)!.records, [counterRecordOf(ids[i], attempt(n))], nowMs),
      }));
      const results = await inTime(() => counters.cas(userId, ops, "ready"));
      const conflicts: number[] = [];
      todo.forEach((n, i) => {
        if (results[i] === "ok") held.set(n, ids[i]);
        else {
          spareIds.push(ids[i]);
          if (results[i] === "conflict") conflicts.push(n);
        }
      });
      if (results.some((r) => r === "not-ready")) {
        await release();
        return null;
      }
      if (conflicts.length === 0) break;
      // another writer took these numbers meanwhile: read them again, decide again
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(5, tries + 1)));
      const again = await inTime(() => counters.read(userId, conflicts));
      if (again.ready.some((r) => !r)) {
        await release();
        return null;
      }
      conflicts.forEach((n, i) => entries.set(n, again.entries[i]));
      history = historyOf();
    }
    // the usage, then the record (PostgreSQL, five years): either failing releases the attempts held
    await o.beforeCommit?.(db);
    const granted = [...held.keys()];
    await insertReservedCalls(
      db,
      userId,
      granted.map(attempt),
      granted.map((n) => held.get(n)!),
    );
  } catch (e) {
    await release();
    throw e;
  }
  return { nowMs, history, ids: held };
}
