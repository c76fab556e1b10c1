/**
 * Live lookups (POST /api/v1/lookup): which lists hold each of a few numbers, answered at once. The admin
 * lists of the registry and the one user's containers are read with their versions in one query; each list's
 * store copy is read at exactly that version (one store call per list, all lists at once), so a copy that is
 * missing, being changed or stale fails the whole lookup (ListStoreError) instead of answering "not listed".
 */
import { engineConfig } from "../config";
import { ADMIN_LIST_KINDS, type ListKind } from "../list-types";
import type { ListManager } from "./manager";
import { TtlCache } from "../ttl-cache";
import type { BloomFilter } from "../worker/bloom";
import { ListStoreError, type ListSnapshot } from "./store";
import type { ListInfo } from "./versions";

export interface LookupInput {
  /** The account whose containers are checked (never another account's). */
  userId: string;
  /** Valid normalized 10-digit numbers, distinct (the caller normalizes with numbers/normalize.ts). */
  numbers: number[];
}

export interface LookupList {
  id: number;
  kind: ListKind;
  name: string;
  /** lists.version that was read. */
  version: number;
  /** Indexes into `numbers` of the numbers on this list, ascending. */
  hits: number[];
  /** The release's registry date (ISO) of an admin list with one (its freshness, decision 174); numbers on it. */
  registryDate?: string | null;
  size?: number;
  /** A container that is its owner's internal do-not-call list (decision 195): checked whatever container is chosen. */
  internal?: boolean;
}

export interface LookupAnswer {
  /** The admin lists in registry order, then the user's containers by id. */
  lists: LookupList[];
}

export const MAX_LOOKUP_NUMBERS = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkLookupInput(input: unknown): LookupInput {
  const v = input as Partial<LookupInput> | null;
  if (!v || typeof v.userId !== "string" || !UUID.test(v.userId)) throw new RangeError("userId must be a user id.");
  if (!Array.isArray(v.numbers) || v.numbers.length > MAX_LOOKUP_NUMBERS) {
    throw new RangeError(`numbers must be a list of at most ${MAX_LOOKUP_NUMBERS} numbers.`);
  }
  for (const n of v.numbers) {
    if (typeof n !== "number" || !Number.isInteger(n) || n < 2_000_000_000 || n > 9_999_999_999) throw new RangeError("numbers must be 10-digit numbers.");
  }
  return { userId: v.userId, numbers: v.numbers };
}

/** How long a lookup may use the list rows (versions, container names) read for an earlier one (decision 111). */
export const LOOKUP_LISTS_CACHE_MS = 1000;

type ListRow = {
  id: number;
  kind: ListKind;
  name: string;
  user_id: string | null;
  size: number | bigint | string;
  version: number | bigint | string;
  created_at: Date | string;
  updated_at: Date | string;
  registry_date: Date | string | null;
  internal_dnc: boolean;
};

/** Per manager, per user: the rows read last, and the manager's generation then. */
const rowCaches = new WeakMap<ListManager, TtlCache<string, { generation: number; rows: ListRow[] }>>();

async function readRows(manager: ListManager, userId: string): Promise<ListRow[]> {
  return (await manager.handle.db
    .selectFrom("lists")
    .select(["id", "kind", "name", "user_id", "size", "version", "created_at", "updated_at", "registry_date", "internal_dnc"])
    .where("deleted_at", "is", null)
    .where((eb) => eb.or([eb("kind", "in", ADMIN_LIST_KINDS), eb.and([eb("kind", "=", "container"), eb("user_id", "=", userId)])]))
    .orderBy("id")
    .execute()) as ListRow[];
}

/**
 * The admin lists and the user's containers. With a store this process fills itself (the embedded index: every
 * change goes through this manager), a dialer's hundreds of lookups a second read the rows at most once a second
 * per user, reused while no list work started or ended here since, so a change is seen at once; a container
 * created or renamed by the app shows within that second. A shared store (Redis) is read at the database's
 * version on every lookup: another scrub service may change a list, and a store behind the database must fail
 * the lookup closed, not answer at the version it still has.
 */
async function listRows(manager: ListManager, userId: string, fresh: boolean): Promise<{ rows: ListRow[]; cached: boolean }> {
  if (!manager.store.fillsOnDemand) return { rows: await readRows(manager, userId), cached: false };
  let cache = rowCaches.get(manager);
  if (!cache) rowCaches.set(manager, (cache = new TtlCache(LOOKUP_LISTS_CACHE_MS)));
  const hit = fresh ? undefined : cache.get(userId);
  if (hit && hit.generation === manager.generation) return { rows: hit.rows, cached: true };
  const generation = manager.generation;
  const rows = await readRows(manager, userId);
  cache.set(userId, { generation, rows });
  return { rows, cached: false };
}

/**
 * How long a lookup waits for the database and the list store: LOOKUP_STORE_TIMEOUT_MS, default 500 ms. A dialer
 * waits on it, so a hanging store fails the lookup closed (503) at once instead of after the client's 30 s command
 * timeout, which scrubs keep with their retries (docs/decisions/155).
 */
export function lookupTimeoutMs(): number {
  return engineConfig().LOOKUP_STORE_TIMEOUT_MS;
}

/**
 * The deadline passed because this process's event loop was late, not because the store was: the lookup's own
 * callbacks (the store's reply among them) could not run. Answered as a short "busy", never as the store's fault
 * (issue #49 item 2). `lateMs`: how long the loop was held up while the lookup waited.
 */
export class LookupBusyError extends Error {
  constructor(
    readonly lateMs: number,
    readonly limitMs: number,
  ) {
    super(`The server was busy: its event loop was ${lateMs} ms late during the lookup's ${limitMs} ms deadline (the list store was not at fault).`);
    this.name = "LookupBusyError";
  }
}

/**
 * How much of the deadline the event loop may have been held up before the expiry is put down to the loop rather
 * than the store: a quarter of it, at least 20 ms (125 ms of the default 500). Below that the store had three
 * quarters of the deadline (a healthy one answers in a millisecond) and did not answer: it is blamed. A loaded
 * machine delays a process's loop by tens of milliseconds now and then; that alone never turns a hanging store
 * into "busy".
 */
export function loopBlameMs(limitMs: number): number {
  return Math.max(20, limitMs / 4);
}

/**
 * Event-loop stalls while lookups are in flight: one 10 ms ticker for all of them (started with the first, stopped
 * with the last; ~100 callbacks a second while a dialer is busy, nothing when idle). `stalled` sums how much later
 * than due each tick ran: time the loop could not run anything, a store's reply included.
 */
const TICK_MS = 10;
const TICK_JITTER_MS = 5;
const loop = { ticker: null as NodeJS.Timeout | null, users: 0, last: 0, stalled: 0 };

function watchLoop(): () => void {
  if (loop.users++ === 0) {
    loop.last = performance.now();
    loop.ticker = setInterval(() => {
      const now = performance.now();
      const late = now - loop.last - TICK_MS;
      if (late > TICK_JITTER_MS) loop.stalled += late; // a timer's usual millisecond or two is not a stall
      loop.last = now;
    }, TICK_MS);
    loop.ticker.unref();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--loop.users === 0 && loop.ticker) {
      clearInterval(loop.ticker);
      loop.ticker = null;
    }
  };
}

/** The loop's stalls so far, the tick not yet run included. */
function stalledSoFar(): number {
  const pending = performance.now() - loop.last - TICK_MS;
  return loop.stalled + (pending > TICK_JITTER_MS ? pending : 0);
}

/**
 * Runs `work` against the lookup's deadline (`limitMs`): an answer is used only when it is handled within the
 * deadline (a dialer's bounded wait, decision 155). When the deadline passes, it asks why:
 * - the event loop was held up for at least `loopBlameMs` of the lookup's time (the deadline timer fired late,
 *   the ticker saw stalls while the lookup waited, or the answer was handled that late after the deadline):
 *   LookupBusyError with how long; the store may well have answered in time, its reply waiting behind the loop;
 * - otherwise the loop was free, and one more turn of it (setImmediate, after the I/O callbacks) still brought
 *   no answer: the store really did not answer in time, ListStoreError "did not answer the lookup within N ms".
 * The late answer or error of the abandoned work is dropped; an error of the work within the deadline is its own.
 */
export async function withLookupDeadline<T>(work: () => Promise<T>, limitMs: number): Promise<T> {
  const release = watchLoop();
  const stalledAtStart = stalledSoFar();
  const due = performance.now() + limitMs;
  /** How long the loop was held up during the lookup, when that is past the blame line; else null. */
  const heldUp = (): number | null => {
    const held = Math.max(performance.now() - due, stalledSoFar() - stalledAtStart);
    return held >= loopBlameMs(limitMs) ? Math.round(held) : null;
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const held = heldUp();
      if (held !== null) reject(new LookupBusyError(held, limitMs));
      // A reply already read from the socket is handled in this turn's poll phase, after the timers: let it win.
      else setImmediate(() => reject(new ListStoreError(`The list store did not answer the lookup within ${limitMs} ms.`)));
    }, limitMs);
  });
  let running: Promise<T>;
  try {
    running = work();
  } catch (e) {
    clearTimeout(timer);
    release();
    throw e;
  }
  running.catch(() => {}); // a late failure after the deadline answered is not news
  // An answer handled well past the deadline (the loop held it, the timer had no turn yet) is not used either.
  const answered = running.then((value) => {
    const held = performance.now() > due ? heldUp() : null;
    if (held !== null) throw new LookupBusyError(held, limitMs);
    return value;
  });
  try {
    return await Promise.race([answered, deadline]);
  } finally {
    clearTimeout(timer);
    release();
  }
}

export async function lookupNumbers(manager: ListManager, input: LookupInput): Promise<LookupAnswer> {
  return withLookupDeadline(() => lookupWithin(manager, input), lookupTimeoutMs());
}

async function lookupWithin(manager: ListManager, input: LookupInput): Promise<LookupAnswer> {
  const numbers = Float64Array.from(input.numbers);
  const first = await listRows(manager, input.userId, false);
  try {
    return await lookupAt(manager, first.rows, numbers);
  } catch (e) {
    if (!first.cached || !(e instanceof ListStoreError)) throw e;
    return lookupAt(manager, (await listRows(manager, input.userId, true)).rows, numbers);
  }
}

async function lookupAt(manager: ListManager, rows: ListRow[], numbers: Float64Array): Promise<LookupAnswer> {
  const ordered = [
    ...ADMIN_LIST_KINDS.map((kind) => {
      const row = rows.find((r) => r.kind === kind);
      if (!row) throw new ListStoreError(`The ${kind} list does not exist.`);
      return row;
    }),
    ...rows.filter((r) => r.kind === "container"),
  ];
  const lists = await Promise.all(
    ordered.map(async (r): Promise<LookupList> => {
      const info: ListInfo = {
        id: r.id,
        kind: r.kind,
        userId: r.user_id,
        size: Number(r.size),
        version: Number(r.version),
        deleted: false,
        stamp: `${new Date(r.created_at).getTime()}-${new Date(r.updated_at).getTime()}`,
      };
      const snapshot = numbers.length ? await manager.snapshotAt(info) : null;
      const hits = snapshot ? await listed(snapshot, manager.bloomAt(info), numbers) : [];
      if (r.kind === "container") return { id: r.id, kind: r.kind, name: r.name, version: info.version, hits, ...(r.internal_dnc ? { internal: true } : {}) };
      const registryDate = r.registry_date ? new Date(r.registry_date).toISOString() : null;
      return { id: r.id, kind: r.kind, name: r.name, version: info.version, hits, registryDate, size: info.size };
    }),
  );
  return { lists };
}

/**
 * Indexes of the numbers the list holds, ascending. Like a scrub, the store is asked only for the numbers the
 * list's Bloom filter of that version does not rule out (a Bloom filter has no false negatives), or for all of
 * them while this process has no such filter.
 */
async function listed(snapshot: ListSnapshot, bloom: BloomFilter | null, numbers: Float64Array): Promise<number[]> {
  let ask = numbers;
  let at: Uint32Array | null = null;
  if (bloom) {
    const maybe = new Uint8Array(numbers.length);
    bloom.hasMany(numbers, numbers.length, maybe, 1);
    let count = 0;
    for (let i = 0; i < maybe.length; i++) count += maybe[i];
    ask = new Float64Array(count);
    at = new Uint32Array(count);
    for (let i = 0, k = 0; i < maybe.length; i++) {
      if (maybe[i]) {
        ask[k] = numbers[i];
        at[k++] = i;
      }
    }
  }
  const hits: number[] = [];
  if (ask.length === 0) return hits;
  const on = await snapshot.has(ask, ask.length);
  for (let i = 0; i < on.length; i++) if (on[i]) hits.push(at ? at[i] : i);
  return hits;
}
