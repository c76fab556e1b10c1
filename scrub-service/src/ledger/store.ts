/**
 * The decision ledger in PostgreSQL or PGlite (migration 0032, decision 197): the one append path, the daily signing of
 * each customer's head, an export of a window with its proof, and the retention job. Every query is scoped by the
 * owner's user id. The chain itself (canonical form, hashes, verification) is ./chain.ts (pure).
 *
 * An append locks the customer's `ledger_heads` row (FOR UPDATE): a customer's appends are serial, across processes.
 * It runs through whatever it is given (a Kysely handle, a transaction, or a list load's bulk session): inside a
 * caller's transaction the entry commits or rolls back with the decision it records. On PGlite (one connection) an
 * append inside a transaction must be given that transaction: every query here goes through `run`.
 */
import crypto from "node:crypto";
import { CompiledQuery, sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "db/schema";
import type { Json } from "../certificate/canonical";
import type { SigningKey } from "../certificate/sign";
import { dropMonthsBefore, ensureMonths } from "../ops/month-partitions";
import {
  chainEntries,
  entryCanonical,
  entryDigest,
  GENESIS_HASH,
  LEDGER_EXPORT_FORMAT,
  numberText,
  signDayHead,
  type LedgerDraft,
  type LedgerEntry,
  type LedgerEntryKind,
  type LedgerExport,
  type SignedDayHead,
} from "./chain";

type Db = Kysely<Database> | Transaction<Database>;
/** A parametrized SQL statement run on one session: a Kysely handle's or transaction's, or a bulk session's. */
export type RunSql = <R = Record<string, unknown>>(text: string, params: unknown[]) => Promise<{ rows: R[] }>;

export function runOf(db: Db): RunSql {
  return async <R>(text: string, params: unknown[]) => {
    const r = await db.executeQuery<R>(CompiledQuery.raw(text, params));
    return { rows: [...r.rows] };
  };
}

const DAY_MS = 86_400_000;
/** Five years (16 CFR 310.5(a), as call records and opt-outs). */
export const LEDGER_RETENTION_YEARS = 5;
const INSERT_CHUNK = 200;

const newPublicId = () => "lg_" + crypto.randomBytes(16).toString("base64url");

interface HeadRow {
  public_id: string;
  seq: string | number | bigint;
  hash: string;
  last_at: Date | string | null;
  signed_through: string | null;
}

async function lockHead(run: RunSql, userId: string): Promise<HeadRow> {
  const select = `select public_id, seq, hash, last_at, signed_through::text as signed_through from ledger_heads where user_id = $1 for update`;
  let r = await run<HeadRow>(select, [userId]);
  if (!r.rows.length) {
    await run(`insert into ledger_heads (user_id, public_id, hash) values ($1, $2, $3) on conflict (user_id) do nothing`, [
      userId,
      newPublicId(),
      GENESIS_HASH,
    ]);
    r = await run<HeadRow>(select, [userId]);
  }
  return r.rows[0];
}

/**
 * Appends the drafts to the customer's chain, in order, all recorded at one instant: now, or later when the chain's
 * last entry or its last signed day is later (the chain's instants never go back, and a signed day gets no more
 * entries). Runs in the transaction it is given (a Kysely transaction, or a bulk session's `run`), else in its own.
 */
export async function appendLedger(
  db: Db | { run: RunSql; inTransaction: true },
  userId: string,
  drafts: readonly LedgerDraft[],
  o: { now?: Date } = {},
): Promise<LedgerEntry[]> {
  if (!drafts.length) return [];
  const work = async (run: RunSql) => {
    const head = await lockHead(run, userId);
    let atMs = (o.now ?? new Date()).getTime();
    if (head.last_at) atMs = Math.max(atMs, new Date(head.last_at).getTime());
    if (head.signed_through) atMs = Math.max(atMs, Date.parse(`${head.signed_through}T00:00:00Z`) + DAY_MS);
    const at = new Date(atMs).toISOString();
    await ensureMonths(run, "ledger_entries", [atMs]);
    const entries = chainEntries({ seq: Number(head.seq), hash: head.hash }, drafts, at);
    for (let i = 0; i < entries.length; i += INSERT_CHUNK) {
      const chunk = entries.slice(i, i + INSERT_CHUNK);
      const params: unknown[] = [];
      const rows = chunk.map((e) => {
        const b = params.length;
        params.push(userId, e.seq, at, e.kind, e.numbers, e.ref, JSON.stringify(e.payload), entryDigest(entryCanonical(e)), e.prevHash, e.hash);
        return `($${b + 1}, $${b + 2}, $${b + 3}::timestamptz, $${b + 4}, $${b + 5}::bigint[], $${b + 6}, $${b + 7}, $${b + 8}, $${b + 9}, $${b + 10})`;
      });
      await run(
        `insert into ledger_entries (user_id, seq, recorded_at, kind, numbers, ref, payload, digest, prev_hash, hash) values ${rows.join(", ")}`,
        params,
      );
    }
    const last = entries[entries.length - 1];
    await run(`update ledger_heads set seq = $2, hash = $3, last_at = $4::timestamptz where user_id = $1`, [userId, last.seq, last.hash, at]);
    return entries;
  };
  if ("inTransaction" in db) return work(db.run);
  if (db.isTransaction) return work(runOf(db));
  return db.transaction().execute((trx) => work(runOf(trx)));
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface SignHeadsResult {
  /** Day heads written (customer × day). */
  signed: number;
  customers: number;
}

/**
 * The daily signing (run by the hourly housekeeping): for each customer, each finished UTC day after the last one
 * signed that has entries gets its head (the last entry recorded that day) signed with the certificate key and kept
 * in ledger_day_heads; the customer's `signed_through` moves to yesterday, so any later append is stamped today or
 * after. One short transaction per customer, its head row locked. Idempotent: a day signed twice keeps the first.
 */
export async function signLedgerDays(db: Kysely<Database>, key: SigningKey, now: Date = new Date()): Promise<SignHeadsResult> {
  const today = utcDay(now.getTime());
  const yesterday = utcDay(now.getTime() - DAY_MS);
  // customers with entries recorded after their last signed day and before today
  const due = await db
    .selectFrom("ledger_heads")
    .select("user_id")
    .where("last_at", "is not", null)
    .where(sql<boolean>`last_at >= coalesce((signed_through + 1)::timestamp at time zone 'UTC', '-infinity'::timestamptz)`)
    .where((eb) => eb.or([eb("signed_through", "is", null), eb("signed_through", "<", yesterday)]))
    .execute();
  let signed = 0;
  for (const { user_id } of due) {
    signed += await db.transaction().execute(async (trx) => {
      const run = runOf(trx);
      const head = await lockHead(run, user_id);
      const since = head.signed_through ? new Date(Date.parse(`${head.signed_through}T00:00:00Z`) + DAY_MS).toISOString() : "-infinity";
      // the last entry of each day after the last signed one, up to yesterday's end
      const days = await run<{ day: string; seq: string | number | bigint; hash: string }>(
        `select distinct on ((recorded_at at time zone 'UTC')::date) (recorded_at at time zone 'UTC')::date::text as day, seq, hash from ledger_entries
          where user_id = $1 and recorded_at >= $2::timestamptz and recorded_at < $3::timestamptz
          order by (recorded_at at time zone 'UTC')::date, seq desc`,
        [user_id, since, `${today}T00:00:00Z`],
      );
      const signedAt = now.toISOString();
      let n = 0;
      for (const d of days.rows) {
        const h = signDayHead({ ledger: head.public_id, day: d.day, seq: Number(d.seq), hash: d.hash, signedAt }, key);
        await run(
          `insert into ledger_day_heads (user_id, day, seq, hash, signed_at, key_id, signature) values ($1, $2::date, $3, $4, $5::timestamptz, $6, $7)
             on conflict (user_id, day) do nothing`,
          [user_id, h.day, h.seq, h.hash, signedAt, h.keyId, h.signature],
        );
        n++;
      }
      await run(`update ledger_heads set signed_through = $2::date where user_id = $1`, [user_id, yesterday]);
      return n;
    });
  }
  return { signed, customers: due.length };
}

type DayHeadRow = { day: string; seq: string | number | bigint; hash: string; signed_at: Date | string; key_id: string; signature: string; public_id: string };

const headOf = (r: DayHeadRow): SignedDayHead => ({
  ledger: r.public_id,
  day: r.day,
  seq: Number(r.seq),
  hash: r.hash,
  signedAt: new Date(r.signed_at).toISOString(),
  keyId: r.key_id,
  signature: r.signature,
});

function dayHeadsQuery(db: Db) {
  return db
    .selectFrom("ledger_day_heads as d")
    .innerJoin("ledger_heads as h", "h.user_id", "d.user_id")
    .select([sql<string>`d.day::text`.as("day"), "d.seq", "d.hash", "d.signed_at", "d.key_id", "d.signature", "h.public_id"]);
}

/** The signed heads of one UTC day (every ledger's, by public id: what /.well-known/ledger-heads publishes), or of one ledger. */
export async function publishedDayHeads(db: Db, o: { day?: string; ledger?: string; from?: string; to?: string }): Promise<SignedDayHead[]> {
  let q = dayHeadsQuery(db);
  if (o.day) q = q.where("d.day", "=", o.day);
  if (o.ledger) q = q.where("h.public_id", "=", o.ledger);
  if (o.from) q = q.where("d.day", ">=", o.from);
  if (o.to) q = q.where("d.day", "<=", o.to);
  const rows = (await q.orderBy("d.day").orderBy("h.public_id").execute()) as DayHeadRow[];
  return rows.map(headOf);
}

/** The customer's public ledger id (created with its first entry), or null before any. */
export async function ledgerIdOf(db: Db, userId: string): Promise<string | null> {
  return (await db.selectFrom("ledger_heads").select("public_id").where("user_id", "=", userId).executeTakeFirst())?.public_id ?? null;
}

type EntryRow = {
  seq: string | number | bigint;
  recorded_at: Date | string;
  kind: LedgerEntryKind;
  numbers: (string | number | bigint)[] | string;
  ref: string | null;
  payload: string;
  prev_hash: string;
  hash: string;
};

/** A bigint[] as the driver gives it: an array, or PostgreSQL's text form when it has no parser for it. */
function numbersOf(v: EntryRow["numbers"]): string[] {
  const list = Array.isArray(v)
    ? v
    : v
        .replace(/^\{|\}$/g, "")
        .split(",")
        .filter(Boolean);
  return list.map((n) => numberText(String(n)));
}

export const entryOfRow = (r: EntryRow): LedgerEntry => ({
  seq: Number(r.seq),
  at: new Date(r.recorded_at).toISOString(),
  kind: r.kind,
  numbers: numbersOf(r.numbers),
  ref: r.ref,
  payload: JSON.parse(r.payload) as Json,
  prevHash: r.prev_hash,
  hash: r.hash,
});

const ENTRY_COLUMNS = ["seq", "recorded_at", "kind", "numbers", "ref", "payload", "prev_hash", "hash"] as const;

/**
 * The signed head an export or a dossier starting at `from` continues from: the latest head of a day before it; or,
 * when the retention job has dropped the entries after that head, the head of the last dropped entry (every day with
 * entries has one, and heads are never dropped). Null when the chain starts in the window.
 */
export async function anchorBefore(db: Db, userId: string, from: string): Promise<SignedDayHead | null> {
  const row = (await dayHeadsQuery(db).where("d.user_id", "=", userId).where("d.day", "<", from).orderBy("d.day", "desc").limit(1).execute())[0] as
    DayHeadRow | undefined;
  const first = await db
    .selectFrom("ledger_entries")
    .select(sql<string | null>`min(seq)::text`.as("seq"))
    .where("user_id", "=", userId)
    .executeTakeFirst();
  const firstKept = first?.seq ? Number(first.seq) : null;
  if (firstKept !== null && firstKept > (row ? Number(row.seq) : 0) + 1) {
    const dropped = (
      await dayHeadsQuery(db)
        .where("d.user_id", "=", userId)
        .where("d.seq", "=", BigInt(firstKept - 1))
        .execute()
    )[0] as DayHeadRow | undefined;
    if (dropped) return headOf(dropped);
  }
  return row ? headOf(row) : null;
}

/** Most entries one export holds: a longer window is refused (ask for a shorter one). */
export const MAX_EXPORT_ENTRIES = 100_000;
/** Most payload bytes one export holds. */
export const MAX_EXPORT_BYTES = 64 * 1024 * 1024;

export class LedgerExportTooLarge extends Error {}

/**
 * The customer's entries recorded in the UTC days [from, to], with the proof: the latest signed head before `from`
 * (the anchor; the entries start right after it) and the signed heads of the days in the window. The entries between
 * the anchor and `from` (recorded on a day not signed yet) are included, so the chain has no gap.
 */
export async function exportLedger(db: Db, userId: string, from: string, to: string, now: Date = new Date()): Promise<LedgerExport | null> {
  const ledger = await ledgerIdOf(db, userId);
  if (!ledger) return null;
  const anchor = await anchorBefore(db, userId, from);
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS);
  let q = db
    .selectFrom("ledger_entries")
    .select([...ENTRY_COLUMNS])
    .where("user_id", "=", userId)
    .where("recorded_at", "<", end);
  q = anchor ? q.where("seq", ">", BigInt(anchor.seq)) : q;
  // bounded by entries and by payload bytes (a lookup entry of 1,000 numbers is tens of kB), before anything is read
  let size = db
    .selectFrom("ledger_entries")
    .select([
      sql<string>`count(*)::text`.as("n"),
      sql<string>`coalesce(sum(octet_length(payload) + coalesce(array_length(numbers, 1), 0) * 13), 0)::text`.as("bytes"),
    ])
    .where("user_id", "=", userId)
    .where("recorded_at", "<", end);
  size = anchor ? size.where("seq", ">", BigInt(anchor.seq)) : size;
  const counted = await size.executeTakeFirstOrThrow();
  if (Number(counted.bytes) > MAX_EXPORT_BYTES)
    throw new LedgerExportTooLarge(`The window holds more than ${MAX_EXPORT_BYTES / 1024 / 1024} MiB of entries (${counted.n}): ask for fewer days.`);
  const rows = (await q
    .orderBy("seq")
    .limit(MAX_EXPORT_ENTRIES + 1)
    .execute()) as EntryRow[];
  if (rows.length > MAX_EXPORT_ENTRIES) throw new LedgerExportTooLarge(`The window holds more than ${MAX_EXPORT_ENTRIES} entries: ask for fewer days.`);
  const heads = (await dayHeadsQuery(db)
    .where("d.user_id", "=", userId)
    .where("d.day", ">=", from)
    .where("d.day", "<=", to)
    .orderBy("d.day")
    .execute()) as DayHeadRow[];
  return {
    format: LEDGER_EXPORT_FORMAT,
    ledger,
    from,
    to,
    exportedAt: now.toISOString(),
    anchor,
    entries: rows.map(entryOfRow),
    dayHeads: heads.map(headOf),
  };
}

/** The customer's entries that name a number, recorded in [fromMs, toMs), oldest first. */
export async function ledgerEntriesOfNumber(db: Db, userId: string, number: number, fromMs: number, toMs: number): Promise<LedgerEntry[]> {
  const rows = (await db
    .selectFrom("ledger_entries")
    .select([...ENTRY_COLUMNS])
    .where("user_id", "=", userId)
    .where(sql<boolean>`numbers @> array[${String(number)}]::bigint[]`)
    .where("recorded_at", ">=", new Date(fromMs))
    .where("recorded_at", "<", new Date(toMs))
    .orderBy("seq")
    .execute()) as EntryRow[];
  return rows.map(entryOfRow);
}

export interface LedgerRetentionResult {
  cutoff: Date;
  partitionsDropped: string[];
}

/** Five years before `nowMs` (same calendar day and time). */
export function ledgerRetentionCutoff(nowMs: number): Date {
  const d = new Date(nowMs);
  d.setUTCFullYear(d.getUTCFullYear() - LEDGER_RETENTION_YEARS);
  return d;
}

/**
 * The retention job: whole months of entries that ended five years ago or more are detached and dropped (the month
 * the cutoff falls in stays whole). The signed day heads are kept: an export after it is anchored on them.
 */
export async function dropExpiredLedger(db: Kysely<Database>, nowMs: number = Date.now()): Promise<LedgerRetentionResult> {
  const cutoff = ledgerRetentionCutoff(nowMs);
  return { cutoff, partitionsDropped: await dropMonthsBefore(db, "ledger_entries", cutoff) };
}
