import { sql, type Kysely, type Transaction } from "kysely";
import type { Database, OptOutChannel, OptOutSource } from "db/schema";
import { optOutDeadline, retentionCutoff, type HonourRule, type OptOut } from "scrub-service/domain";

type Db = Kysely<Database> | Transaction<Database>;

/*
 * Opt-outs (issue #47, decision 195): the do-not-call requests and revocations a customer received, kept five years,
 * each with the instant it was received and the instant it took effect in the internal do-not-call list. Scoped by
 * user in every query.
 */

export interface StoredOptOut {
  id: string;
  number: string;
  receivedAt: Date;
  receivedOffsetMinutes: number;
  honouredAt: Date | null;
  channel: OptOutChannel;
  words: string;
  subject: string | null;
  source: OptOutSource;
  createdAt: Date;
  /** The end of the tenth business day after the day of receipt (47 CFR 64.1200(d)(3)). */
  deadline: Date;
  /** The rule the deadline comes from (a Canadian number's is the CRTC's 14 days). */
  deadlineRule: HonourRule;
  /** Honoured after the deadline, or not honoured and the deadline passed. */
  late: boolean;
}

type Row = {
  id: bigint | string;
  number: bigint | string;
  received_at: Date;
  received_offset_minutes: number;
  honoured_at: Date | null;
  channel: OptOutChannel;
  words: string;
  subject: string | null;
  source: OptOutSource;
  created_at: Date;
};

const COLUMNS = ["id", "number", "received_at", "received_offset_minutes", "honoured_at", "channel", "words", "subject", "source", "created_at"] as const;

function toItem(r: Row, nowMs: number): StoredOptOut {
  const { deadline, rule } = optOutDeadline(Number(r.number), r.received_at.getTime(), r.received_offset_minutes);
  return {
    id: String(r.id),
    number: String(r.number),
    receivedAt: r.received_at,
    receivedOffsetMinutes: r.received_offset_minutes,
    honouredAt: r.honoured_at,
    channel: r.channel,
    words: r.words,
    subject: r.subject,
    source: r.source,
    createdAt: r.created_at,
    deadline,
    deadlineRule: rule,
    late: (r.honoured_at?.getTime() ?? nowMs) >= deadline.getTime(),
  };
}

/** Writes the checked opt-outs, not yet honoured (the load adding them to the list runs after the commit). Their ids, in order. */
export async function insertOptOuts(
  trx: Db,
  input: { userId: string; createdBy: string | null; source: OptOutSource; listId: number; loadId: string; records: readonly OptOut[] },
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < input.records.length; i += 1000) {
    const rows = input.records.slice(i, i + 1000).map((r) => ({
      user_id: input.userId,
      number: r.number,
      received_at: new Date(r.receivedMs),
      received_offset_minutes: r.offsetMinutes,
      channel: r.channel,
      words: r.words,
      subject: r.subject,
      source: input.source,
      created_by: input.createdBy,
      list_id: input.listId,
      load_id: input.loadId,
    }));
    const got = await trx.insertInto("opt_outs").values(rows).returning("id").execute();
    ids.push(...got.map((g) => String(g.id)));
  }
  return ids;
}

/** The load that added them to the internal list has run: they took effect now. */
export async function markOptOutsHonoured(db: Db, userId: string, loadId: string, at: Date): Promise<void> {
  await db
    .updateTable("opt_outs")
    .set({ honoured_at: at })
    .where("user_id", "=", userId)
    .where("load_id", "=", loadId)
    .where("honoured_at", "is", null)
    .execute();
}

/**
 * Opt-outs whose load finished but that were not marked honoured (the process stopped between the two): honoured at
 * the instant the load finished, which is when they took effect. Per load: its owner, list, end and the opt-outs marked.
 */
export async function honourFinishedOptOutLoads(
  db: Db,
): Promise<{ userId: string; loadId: string; listId: number; honouredAt: Date; ids: string[]; numbers: number[] }[]> {
  const rows = await db
    .updateTable("opt_outs")
    .from("list_loads")
    .set((eb) => ({ honoured_at: eb.ref("list_loads.finished_at") }))
    .whereRef("list_loads.id", "=", "opt_outs.load_id")
    .where("opt_outs.honoured_at", "is", null)
    .where("list_loads.status", "=", "completed")
    .where("list_loads.finished_at", "is not", null)
    .returning(["opt_outs.id", "opt_outs.user_id", "opt_outs.load_id", "opt_outs.number", "list_loads.list_id", "list_loads.finished_at"])
    .execute();
  const byLoad = new Map<string, { userId: string; loadId: string; listId: number; honouredAt: Date; ids: string[]; numbers: number[] }>();
  for (const r of rows) {
    let g = byLoad.get(r.load_id!);
    if (!g) byLoad.set(r.load_id!, (g = { userId: r.user_id, loadId: r.load_id!, listId: r.list_id, honouredAt: r.finished_at!, ids: [], numbers: [] }));
    g.ids.push(String(r.id));
    g.numbers.push(Number(r.number));
  }
  return [...byLoad.values()];
}

/**
 * The loads whose opt-outs are recorded and not honoured because the load did not take effect: it failed, or it has
 * not finished by `staleBefore` (its process stopped). Per load, its owner and the opt-outs' distinct numbers.
 */
export async function unhonouredOptOutLoads(db: Db, staleBefore: Date, limit = 50): Promise<{ userId: string; loadId: string; numbers: string[] }[]> {
  const rows = await db
    .selectFrom("opt_outs")
    .innerJoin("list_loads", "list_loads.id", "opt_outs.load_id")
    .select(["opt_outs.user_id", "opt_outs.load_id", sql<string[]>`array_agg(distinct opt_outs.number::text)`.as("numbers")])
    .where("opt_outs.honoured_at", "is", null)
    .where((eb) =>
      eb.or([eb("list_loads.status", "=", "failed"), eb.and([eb("list_loads.status", "!=", "completed"), eb("list_loads.created_at", "<", staleBefore)])]),
    )
    .groupBy(["opt_outs.user_id", "opt_outs.load_id"])
    .orderBy("opt_outs.load_id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ userId: r.user_id, loadId: r.load_id!, numbers: r.numbers }));
}

/** Hands a failed load's unhonoured opt-outs to the load retrying them. The ids moved (none: another retry took them). */
export async function moveOptOutsToLoad(trx: Db, userId: string, fromLoadId: string, toLoadId: string): Promise<string[]> {
  const rows = await trx
    .updateTable("opt_outs")
    .set({ load_id: toLoadId })
    .where("user_id", "=", userId)
    .where("load_id", "=", fromLoadId)
    .where("honoured_at", "is", null)
    .returning("id")
    .execute();
  return rows.map((r) => String(r.id));
}

/** One number's opt-outs, newest received first. */
export async function listNumberOptOuts(
  db: Db,
  userId: string,
  number: number,
  page: { limit: number; offset: number; nowMs?: number },
): Promise<{ total: number; records: StoredOptOut[] }> {
  const base = db.selectFrom("opt_outs").where("user_id", "=", userId).where("number", "=", BigInt(number));
  const [{ n }] = await base.select((eb) => eb.fn.countAll<string>().as("n")).execute();
  const rows = await base.select(COLUMNS).orderBy("received_at", "desc").orderBy("id", "desc").limit(page.limit).offset(page.offset).execute();
  const now = page.nowMs ?? Date.now();
  return { total: Number(n), records: rows.map((r) => toItem(r as Row, now)) };
}

/** The user's latest opt-outs (the containers screen's list). */
export async function latestOptOuts(db: Db, userId: string, limit = 20, nowMs = Date.now()): Promise<StoredOptOut[]> {
  const rows = await db
    .selectFrom("opt_outs")
    .select(COLUMNS)
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => toItem(r as Row, nowMs));
}

export interface OptOutSummary {
  /** Received in the last 30 days. */
  received30d: number;
  /** Honoured (took effect) in the last 30 days. */
  honoured30d: number;
  /** How many are late: honoured after the tenth business day, or not honoured and past it. */
  lateCount: number;
  /** The late ones, oldest received first (at most `lateLimit`). */
  late: StoredOptOut[];
}

export const OPT_OUT_WINDOW_DAYS = 30;

/**
 * The dashboard's opt-outs: received and honoured in the last 30 days, and every kept one that is late under 47 CFR
 * 64.1200(d)(3). Ten business days are never fewer than 12 calendar days after the instant, so only rows honoured more
 * than 12 days after receipt (or not yet) are read and held to the exact deadline.
 */
export async function optOutSummary(db: Db, userId: string, now: Date = new Date(), lateLimit = 20): Promise<OptOutSummary> {
  const since = new Date(now.getTime() - OPT_OUT_WINDOW_DAYS * 86_400_000);
  const counts = await db
    .selectFrom("opt_outs")
    .select([
      sql<string>`count(*) filter (where received_at >= ${since} and received_at <= ${now})`.as("received"),
      sql<string>`count(*) filter (where honoured_at >= ${since} and honoured_at <= ${now})`.as("honoured"),
    ])
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  const candidates = await db
    .selectFrom("opt_outs")
    .select(COLUMNS)
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("honoured_at", "is", null), eb("honoured_at", ">", sql<Date>`received_at + interval '12 days'`)]))
    .where("received_at", "<", new Date(now.getTime() - 12 * 86_400_000))
    .orderBy("received_at")
    .orderBy("id")
    .execute();
  const late = candidates.map((r) => toItem(r as Row, now.getTime())).filter((o) => o.late);
  return { received30d: Number(counts.received), honoured30d: Number(counts.honoured), lateCount: late.length, late: late.slice(0, lateLimit) };
}

/**
 * The revocations of these numbers' exemption records (decision 195): per number, the first opt-out received (the
 * instant its consent and relationship records stop counting) and when it was honoured.
 */
export async function revocationsOf(db: Db, userId: string, numbers: readonly number[]): Promise<Map<number, { receivedAt: Date; honouredAt: Date | null }>> {
  const out = new Map<number, { receivedAt: Date; honouredAt: Date | null }>();
  if (numbers.length === 0) return out;
  const rows = await db
    .selectFrom("opt_outs")
    .select(["number", "received_at", "honoured_at"])
    .where("user_id", "=", userId)
    .where(sql<boolean>`number = any(${sql.val(numbers.map(String))}::bigint[])`)
    .orderBy("received_at")
    .execute();
  for (const r of rows) {
    const n = Number(r.number);
    if (!out.has(n)) out.set(n, { receivedAt: r.received_at, honouredAt: r.honoured_at });
  }
  return out;
}

/** The retention (16 CFR 310.5(a), 47 CFR 64.1200(d)(6)): opt-outs received more than five years ago go. */
export async function dropExpiredOptOuts(db: Db, now: Date = new Date()): Promise<{ cutoff: Date; deleted: number }> {
  const cutoff = retentionCutoff(now.getTime());
  const r = await db.deleteFrom("opt_outs").where("received_at", "<", cutoff).executeTakeFirst();
  return { cutoff, deleted: Number(r.numDeletedRows) };
}
