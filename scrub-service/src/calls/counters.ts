/**
 * Live call counters beside the lists (issue #46, decision 196): per (owner, number) the records the caps count over
 * their longest window, held where the lists live (the embedded index's process, Redis, Redis Cluster), so that a live
 * lookup counts calls and a reservation is decided without reading PostgreSQL. PostgreSQL stays the record (five
 * years); the counters are a copy written before PostgreSQL commits and rebuilt from it after a loss.
 *
 * One interface, a compare-and-set per number: a store keeps, per (owner, number), a version and the records; `cas`
 * writes a number's new records only when its version is still the one read. Everything else — trimming, merging by
 * record id, the decision (`cappedCalling`, through the caller's `grant`) — is done here in TypeScript, the same for
 * every store. A store also says whether it can be trusted (`ready`: built from PostgreSQL and not lost since); a
 * number it cannot vouch for reads as `null` and the caller falls back to the database.
 */
import { DEFAULT_SUBJECT, CALL_CHANNELS, CALL_OUTCOMES, type CallChannel, type CallOutcome } from "./validate";
import { LONGEST_CAP_WINDOW_MS } from "../calling/caps";
import type { HistoryRecord } from "./store";

/** How long a record is kept: the longest cap window of the rule data, plus a day for clocks ahead and lookups `at` later. */
export const COUNTER_RETAIN_MS = LONGEST_CAP_WINDOW_MS + 86_400_000;

/** A record as the counters hold it: its subject and debt as 32-bit keys (0: the default subject / no debt). */
export interface CounterRecord {
  /** call_records.id (below 2^53). */
  id: number;
  atMs: number;
  channel: number;
  outcome: number;
  subjectKey: number;
  debtKey: number;
}

/** A number's counters: its version (0: nothing stored) and its records, oldest first. */
export interface CounterEntry {
  version: number;
  records: CounterRecord[];
}

/** One compare-and-set: the number's new records (empty: delete it) if its version is still `version`. */
export interface CasOp {
  number: number;
  version: number;
  records: CounterRecord[];
}

/**
 * What a write requires of the store's state: `ready` (a decision taken on the counters: they must be built and not
 * lost), `not-ready` (a reservation decided on PostgreSQL while the counters are being rebuilt: refused once they are
 * ready, since reservations decided on the counters may then be in flight), `any` (a record written, no decision).
 */
export type CasMode = "ready" | "not-ready" | "any";

/** ok; conflict (the version moved: read again); not-ready / ready (the store's state is not what the mode needs). */
export type CasResult = "ok" | "conflict" | "not-ready" | "ready";

export interface CallCounterStore {
  readonly kind: "embedded" | "redis";
  /** The store's clock (ms): what it trims old records against (tests set it; default Date.now). */
  now(): number;
  /**
   * Per number (in order): its entry, and whether the store vouches for it (`ready`: built from PostgreSQL and not
   * lost since; false while never built, lost or being rebuilt: a decision then reads the database).
   */
  read(owner: string, numbers: readonly number[]): Promise<{ entries: CounterEntry[]; ready: boolean[] }>;
  /** Compare-and-set per op, in order. */
  cas(owner: string, ops: readonly CasOp[], mode: CasMode): Promise<CasResult[]>;
  /**
   * Starts a rebuild from PostgreSQL of whatever is not ready (at most one at a time in this process, not more often
   * than every few seconds); resolves when it ended. Never throws (a failed rebuild is logged and tried again later).
   */
  requestRebuild(): Promise<void>;
  /** Rebuilds now (what requestRebuild runs); throws on failure. */
  rebuild(): Promise<void>;
  /** Bytes the counters use, the numbers they hold and the keys (Redis buckets) they are in (Redis: MEMORY USAGE of each). */
  usage(): Promise<{ bytes: number; numbers: number; keys: number }>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------- keys of subjects and debts

/** FNV-1a over the UTF-8 bytes, never 0. Two subjects with one key count together: the stricter reading. */
export function textKey(text: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, "utf8")) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h === 0 ? 1 : h;
}

export const subjectKeyOf = (subject: string): number => (subject === DEFAULT_SUBJECT ? 0 : textKey(subject));
export const debtKeyOf = (debtId: string | null): number => (debtId === null ? 0 : textKey(debtId));

/**
 * The records as the caps read them (calling/caps.ts), for a next call on `ask`'s subject and debt: a record on the
 * same subject (debt) key carries the asked text, any other a text that differs from it. The caps only ever compare
 * subjects and debts for equality, so they decide exactly as on PostgreSQL's texts (but for a 2^-32 collision, which
 * counts a record more, never less).
 */
export function historyRecordsOf(records: readonly CounterRecord[], ask: { subject: string; debtId: string | null }): HistoryRecord[] {
  const sk = subjectKeyOf(ask.subject);
  const dk = debtKeyOf(ask.debtId);
  return records.map((r) => ({
    atMs: r.atMs,
    subject: r.subjectKey === sk ? ask.subject : r.subjectKey === 0 ? DEFAULT_SUBJECT : `\u0000${r.subjectKey}`,
    channel: CALL_CHANNELS[r.channel] as CallChannel,
    outcome: CALL_OUTCOMES[r.outcome] as CallOutcome,
    debtId: r.debtKey === 0 ? null : r.debtKey === dk ? ask.debtId : `\u0000${r.debtKey}`,
  }));
}

export function counterRecordOf(
  id: number | string,
  r: { atMs: number; subject: string; channel: CallChannel; outcome: CallOutcome; debtId: string | null },
): CounterRecord {
  return {
    id: Number(id),
    atMs: r.atMs,
    channel: CALL_CHANNELS.indexOf(r.channel),
    outcome: CALL_OUTCOMES.indexOf(r.outcome),
    subjectKey: subjectKeyOf(r.subject),
    debtKey: debtKeyOf(r.debtId),
  };
}

// ---------------------------------------------------------------- the compact encoding

/*
 * A number's value: its version (4 bytes, big-endian), then per record, oldest first:
 *   flags (1 byte: bit 0 text, bits 1–2 outcome, bit 3 a subject key follows, bit 4 a debt key follows),
 *   the instant in ms (6 bytes), the id as a varint (LEB128), the subject key (4), the debt key (4).
 * A call on the default subject without a debt is 11–13 bytes; three of them and the version about 40.
 */
export function encodeEntry(version: number, records: readonly CounterRecord[]): Buffer {
  const out = Buffer.allocUnsafe(4 + records.length * 27);
  out.writeUInt32BE(version >>> 0, 0);
  let o = 4;
  for (const r of records) {
    out[o++] = (r.channel & 1) | ((r.outcome & 3) << 1) | (r.subjectKey !== 0 ? 8 : 0) | (r.debtKey !== 0 ? 16 : 0);
    out.writeUIntBE(r.atMs, o, 6);
    o += 6;
    let id = r.id;
    while (id >= 0x80) {
      out[o++] = (id % 0x80) | 0x80;
      id = Math.floor(id / 0x80);
    }
    out[o++] = id;
    if (r.subjectKey !== 0) o = out.writeUInt32BE(r.subjectKey, o);
    if (r.debtKey !== 0) o = out.writeUInt32BE(r.debtKey, o);
  }
  return out.subarray(0, o);
}

export function decodeEntry(b: Buffer): CounterEntry {
  const version = b.readUInt32BE(0);
  const records: CounterRecord[] = [];
  let o = 4;
  while (o < b.length) {
    const f = b[o++];
    const atMs = b.readUIntBE(o, 6);
    o += 6;
    let id = 0;
    let mul = 1;
    for (;;) {
      const x = b[o++];
      id += (x & 0x7f) * mul;
      if (x < 0x80) break;
      mul *= 0x80;
    }
    let subjectKey = 0;
    let debtKey = 0;
    if (f & 8) {
      subjectKey = b.readUInt32BE(o);
      o += 4;
    }
    if (f & 16) {
      debtKey = b.readUInt32BE(o);
      o += 4;
    }
    records.push({ id, atMs, channel: f & 1, outcome: (f >> 1) & 3, subjectKey, debtKey });
  }
  return { version, records };
}

/** The next version after `v` (never 0, which means "nothing stored"). */
export const nextVersion = (v: number): number => (v >= 0xffffffff ? 1 : v + 1);

// ---------------------------------------------------------------- changes through compare-and-set

/** `records` without those at or before `nowMs − COUNTER_RETAIN_MS`, with `add` merged in by id, oldest first. */
export function mergeRecords(records: readonly CounterRecord[], add: readonly CounterRecord[], nowMs: number, drop?: ReadonlySet<number>): CounterRecord[] {
  const oldest = nowMs - COUNTER_RETAIN_MS;
  const byId = new Map<number, CounterRecord>();
  for (const r of records) if (r.atMs > oldest && !drop?.has(r.id)) byId.set(r.id, r);
  for (const r of add) if (r.atMs > oldest && !drop?.has(r.id)) byId.set(r.id, r);
  return [...byId.values()].sort((a, b) => a.atMs - b.atMs || a.id - b.id);
}

const MAX_TRIES = 100;

/** A short random pause before another try (a conflict means another writer just wrote that number). */
const pause = (tries: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(20, tries)));

/**
 * Applies a change to each number's records through compare-and-set, reading again after a conflict, until every
 * number took it. Returns the numbers the store's state refused (`not-ready` / `ready`, per `mode`), or [] when done.
 * Records are merged by id, so writing the same record twice keeps it once.
 */
export async function changeCounters(
  store: CallCounterStore,
  owner: string,
  changes: Map<number, { add?: CounterRecord[]; drop?: Set<number> }>,
  mode: CasMode,
  nowMs = store.now(),
): Promise<{ refused: CasResult | null }> {
  let todo = [...changes.keys()];
  for (let tries = 0; todo.length > 0; tries++) {
    if (tries >= MAX_TRIES) throw new Error(`call counters: ${todo.length} number(s) still conflicting after ${MAX_TRIES} tries`);
    if (tries > 0) await pause(tries);
    const { entries } = await store.read(owner, todo);
    const ops: CasOp[] = todo.map((number, i) => {
      const c = changes.get(number)!;
      return { number, version: entries[i].version, records: mergeRecords(entries[i].records, c.add ?? [], nowMs, c.drop) };
    });
    const results = await store.cas(owner, ops, mode);
    const refused = results.find((r) => r === "not-ready" || r === "ready");
    if (refused) return { refused };
    todo = todo.filter((_, i) => results[i] === "conflict");
  }
  return { refused: null };
}

// ---------------------------------------------------------------- the registry (which store a database's records feed)

const registry = new WeakMap<object, CallCounterStore>();

/** Makes `store` the counters every record written through `db` feeds (recordCalls, deleteReservedCall, imports). */
export function useCallCounters(db: object, store: CallCounterStore | null): void {
  if (store) registry.set(db, store);
  else registry.delete(db);
}

/** The counters fed by records written through `db`, or null (PostgreSQL alone: the database path, decision 187). */
export function callCountersOf(db: object): CallCounterStore | null {
  return registry.get(db) ?? null;
}

/**
 * Calls `rebuild` for requestRebuild: one at a time, not within `minGapMs` of the last attempt's end, never throwing.
 */
export class RebuildGate {
  private running: Promise<void> | null = null;
  private lastEnd = -Infinity;
  constructor(
    private readonly rebuild: () => Promise<void>,
    private readonly what: string,
    readonly minGapMs = 5000,
  ) {}
  request(): Promise<void> {
    if (this.running) return this.running;
    if (performance.now() - this.lastEnd < this.minGapMs) return Promise.resolve();
    this.running = this.rebuild()
      .catch((e) => console.warn(`[calls] the ${this.what} call counters could not be rebuilt from the database (tried again later): ${(e as Error).message}`))
      .finally(() => {
        this.running = null;
        this.lastEnd = performance.now();
      });
    return this.running;
  }
}
