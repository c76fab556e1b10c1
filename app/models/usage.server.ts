import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database, RoleName } from "db/schema";
import { env } from "~/utils/env.server";
import { formatNumber, formatDate } from "~/utils/format";
import { LookupMeter, type MeterRow } from "./lookup-meter";
import { exemptionRecordsHeld } from "./exemption.server";
import { CodedError } from "scrub-service/domain";

/*
 * Plans and usage limits.
 *
 * Usage is never a counter: it is computed from the rows that consume it, over the current period
 * [periodStart, periodEnd) of the user's active plan:
 *   suppression = Σ scrub_jobs of the user created in the period:
 *                 completed → total_rows, queued/running → usage_reserved, failed → 0
 *   container   = Σ list_loads into the user's containers created in the period:
 *                 completed → added, queued/running → usage_reserved, failed → 0
 * A new paid period starts at the moment it is marked paid, so its usage starts at 0. Nothing can drift.
 *
 * Atomicity: reserveUsage() locks the user's row (SELECT … FOR UPDATE) inside the caller's transaction,
 * computes the usage, and the caller inserts its job/load row with usage_reserved = amount in the same
 * transaction. A second reservation for the same user waits for the lock, then sees the first row.
 */

type Db = Kysely<Database>;
type DbOrTrx = Kysely<Database> | Transaction<Database>;

export type UsageKind = "suppression" | "container";

/** Roles with no limits that need no plan. */
export const UNLIMITED_ROLES: RoleName[] = ["UnlimitedUser", "Admin", "SuperAdmin"];

export function isUnlimitedRole(role: RoleName): boolean {
  return UNLIMITED_ROLES.includes(role);
}

export interface UsageFigures {
  /** null: unlimited */
  limit: number | null;
  used: number;
  /** null: unlimited; never below 0 */
  available: number | null;
}

export interface ActivePlan {
  id: string;
  name: string;
  suppressionLimit: number;
  containerLimit: number;
  /** Exemption records the account's exemption lists may hold in all (decision 176). */
  exemptionLimit: number;
  apiAccess: boolean;
  /** the transaction that pays for the current period */
  transactionId: string;
}

export interface PlanState {
  /** UnlimitedUser, Admin, SuperAdmin: no limits, no plan needed. */
  unlimited: boolean;
  /** The plan of the current period, or null (no plan, or it expired). */
  plan: ActivePlan | null;
  /** May purge and add to containers at all (unlimited, or a plan is active). */
  hasAccess: boolean;
  /**
   * The period usage is counted over: the plan's [start, end); with no plan, the last 30 days
   * (so unlimited users still see what they used).
   */
  periodStart: Date;
  periodEnd: Date;
  suppression: UsageFigures;
  container: UsageFigures;
  /** Exemption records held now across the account's exemption lists (not per period: they are kept, not used up). */
  exemption: UsageFigures;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The current paid period of a user at `now` (the latest-starting one when several overlap). */
export async function findActivePeriod(db: DbOrTrx, userId: string, now: Date = new Date()) {
  return db
    .selectFrom("transactions as t")
    .innerJoin("plans as p", "p.id", "t.plan_id")
    .select([
      "t.id as transactionId",
      "t.plan_id as planId",
      "t.plan_name as planName",
      "t.start_date as startDate",
      "t.end_date as endDate",
      "t.dnc_and_litigation_scrubs as suppressionLimit",
      "t.custom_dataset_records as containerLimit",
      "p.api_access as apiAccess",
      "p.exemption_limit as exemptionLimit",
    ])
    .where("t.user_id", "=", userId)
    .where("t.status", "in", ["paid", "active", "expired"])
    .where("t.start_date", "<=", now)
    .where("t.end_date", ">", now)
    .orderBy("t.start_date", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Numbers purged (or held by running purges) and looked up through the API by the user in [start, end): one
 * query, plus the lookups this process counted and has not written yet (lookupMeter, flushed every second).
 */
export async function suppressionUsed(db: DbOrTrx, userId: string, start: Date, end: Date): Promise<number> {
  return (await suppressionUsedInDatabase(db, userId, start, end)) + lookupMeter.unflushed(userId, start.getTime(), end.getTime());
}

async function suppressionUsedInDatabase(db: DbOrTrx, userId: string, start: Date, end: Date): Promise<number> {
  const { rows } = await sql<{ used: string }>`
    select
      (select coalesce(sum(case when status = 'completed' then total_rows when status in ('queued','running') then usage_reserved else 0 end), 0)
         from scrub_jobs where user_id = ${userId} and created_at >= ${start} and created_at < ${end})
      + (select coalesce(sum(numbers), 0) from lookup_usage where user_id = ${userId} and bucket_start >= ${start} and bucket_start < ${end})
      as used`.execute(db);
  return Number(rows[0].used);
}

/** Numbers added (or held by running loads) to the user's containers in [start, end). */
export async function containerUsed(db: DbOrTrx, userId: string, start: Date, end: Date): Promise<number> {
  const row = await db
    .selectFrom("list_loads as l")
    .innerJoin("lists", "lists.id", "l.list_id")
    .select(
      sql<string>`coalesce(sum(case when l.status = 'completed' then l.added when l.status in ('queued','running') then l.usage_reserved else 0 end), 0)`.as(
        "used",
      ),
    )
    .where("lists.user_id", "=", userId)
    .where("lists.kind", "=", "container")
    .where("l.created_at", ">=", start)
    .where("l.created_at", "<", end)
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

function figures(limit: number | null, used: number): UsageFigures {
  return { limit, used, available: limit == null ? null : Math.max(0, limit - used) };
}

/**
 * Everything the dashboard's Usage Limits table and the no-plan gate need. Expired periods are never
 * active: the check is against `now` on every read, so no sweep or restart is needed.
 */
export async function getPlanState(db: DbOrTrx, userId: string, opts: { now?: Date } = {}): Promise<PlanState> {
  const now = opts.now ?? new Date();
  const user = await db.selectFrom("users").select("role").where("id", "=", userId).executeTakeFirst();
  const unlimited = user ? isUnlimitedRole(user.role) : false;
  const period = await findActivePeriod(db, userId, now);
  const periodStart = period?.startDate ?? new Date(now.getTime() - 30 * DAY_MS);
  const periodEnd = period?.endDate ?? now;
  // With no plan, count up to now inclusive of jobs created this instant.
  const countEnd = period ? periodEnd : new Date(now.getTime() + 1);
  const [sUsed, cUsed, eHeld] = await Promise.all([
    suppressionUsed(db, userId, periodStart, countEnd),
    containerUsed(db, userId, periodStart, countEnd),
    exemptionRecordsHeld(db as Db, userId),
  ]);
  const plan: ActivePlan | null = period
    ? {
        id: period.planId,
        name: period.planName,
        suppressionLimit: Number(period.suppressionLimit),
        containerLimit: Number(period.containerLimit),
        exemptionLimit: Number(period.exemptionLimit),
        apiAccess: period.apiAccess,
        transactionId: period.transactionId,
      }
    : null;
  return {
    unlimited,
    plan,
    hasAccess: unlimited || plan != null,
    periodStart,
    periodEnd,
    suppression: figures(unlimited ? null : (plan?.suppressionLimit ?? 0), sUsed),
    container: figures(unlimited ? null : (plan?.containerLimit ?? 0), cUsed),
    exemption: figures(unlimited ? null : (plan?.exemptionLimit ?? 0), eHeld),
  };
}

const KIND_TEXT: Record<UsageKind, { action: string; what: string }> = {
  suppression: { action: "purge numbers", what: "DNC suppression" },
  container: { action: "add numbers to containers", what: "container" },
};

/** The user has no active plan (and is not unlimited). `message` is fit to show. */
export class NoPlanError extends CodedError {
  constructor(readonly kind: UsageKind) {
    super("no_plan", `You need an active plan to ${KIND_TEXT[kind].action}. Choose a plan under Pricing to get started.`);
    this.name = "NoPlanError";
  }
}

/** The request would go over the plan's limit for the period. `message` is fit to show. */
export class UsageLimitError extends CodedError {
  constructor(
    readonly kind: UsageKind,
    readonly details: { planName: string; limit: number; used: number; requested: number; available: number; periodEnd: Date },
  ) {
    const { planName, limit, requested, available, periodEnd } = details;
    const left = available === 0 ? "none" : `only ${formatNumber(available)}`;
    const text =
      kind === "suppression"
        ? `This purge needs ${formatNumber(requested)} numbers of DNC suppression, but ${left} of your ${planName} plan's ${formatNumber(
            limit,
          )} are left until ${formatDate(periodEnd)}.`
        : `Adding ${formatNumber(requested)} numbers would exceed your ${planName} plan's container limit: ${
            left === "none" ? "none" : formatNumber(available)
          } of ${formatNumber(limit)} numbers left until ${formatDate(periodEnd)}.`;
    super("usage_limit", `${text} Upgrade your plan under Pricing or wait for your next period.`, {
      details: { limit, used: details.used, requested, available, period_end: periodEnd.toISOString() },
    });
    this.name = "UsageLimitError";
  }
}

/**
 * Per-user cap on scrubs waiting or running at once (every role, plan or not): one account cannot fill the
 * engine's queue for everyone. `MAX_ACTIVE_SCRUBS_PER_USER` (default 5). Checked by reserveUsage for
 * "suppression" under the user-row lock, so parallel starts cannot both slip under it (docs/decisions/081).
 */
export function maxActiveScrubsPerUser(): number {
  return env().MAX_ACTIVE_SCRUBS_PER_USER;
}

/** The user already has the maximum number of queued/running scrubs. `message` is fit to show. */
export class ActiveJobsLimitError extends CodedError {
  constructor(readonly limit: number) {
    super(
      "active_jobs_limit",
      `You already have ${limit} ${limit === 1 ? "purge" : "purges"} queued or running. Please wait until one finishes, then start this one again.`,
      {
        details: { limit },
      },
    );
    this.name = "ActiveJobsLimitError";
  }
}

export interface Reservation {
  unlimited: boolean;
  /** null when unlimited */
  limit: number | null;
  /** used before this reservation */
  used: number;
  /** left after this reservation; null when unlimited */
  available: number | null;
  periodStart: Date;
  periodEnd: Date;
}

/**
 * Checks and holds `amount` of the user's usage for the current period. MUST run inside a transaction
 * (`db.transaction().execute(async (trx) => …)`); the caller then inserts its scrub_jobs / list_loads
 * row with `usage_reserved = amount` in the same transaction (status queued or running).
 *
 * Throws NoPlanError (no active plan, not unlimited) or UsageLimitError (used + amount > limit); for
 * "suppression", ActiveJobsLimitError when the user already has maxActiveScrubsPerUser() queued/running scrubs.
 */
export async function reserveUsage(trx: Transaction<Database>, input: { userId: string; kind: UsageKind; amount: number; now?: Date }): Promise<Reservation> {
  const { userId, kind } = input;
  const amount = Math.trunc(input.amount);
  if (!Number.isFinite(amount) || amount < 0) throw new Error(`reserveUsage: invalid amount ${input.amount}`);
  if (!trx.isTransaction) throw new Error("reserveUsage must be called inside a transaction");
  // Serialises reservations per user: a parallel purge waits here until this transaction ends.
  await sql`select id from users where id = ${userId} for update`.execute(trx);
  if (kind === "suppression") {
    const limit = maxActiveScrubsPerUser();
    const active = await trx
      .selectFrom("scrub_jobs")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("user_id", "=", userId)
      .where("status", "in", ["queued", "running"])
      .executeTakeFirst();
    if (Number(active?.n ?? 0) >= limit) throw new ActiveJobsLimitError(limit);
  }
  const state = await getPlanState(trx, userId, { now: input.now });
  // Lookups check against the usage they last read: make the next one read it again, with this reservation.
  if (kind === "suppression") lookupMeter.forget(userId);
  const f = kind === "suppression" ? state.suppression : state.container;
  if (state.unlimited) {
    return { unlimited: true, limit: null, used: f.used, available: null, periodStart: state.periodStart, periodEnd: state.periodEnd };
  }
  if (!state.plan) throw new NoPlanError(kind);
  const limit = f.limit ?? 0;
  if (f.used + amount > limit) {
    throw new UsageLimitError(kind, {
      planName: state.plan.name,
      limit,
      used: f.used,
      requested: amount,
      available: Math.max(0, limit - f.used),
      periodEnd: state.periodEnd,
    });
  }
  return {
    unlimited: false,
    limit,
    used: f.used,
    available: limit - f.used - amount,
    periodStart: state.periodStart,
    periodEnd: state.periodEnd,
  };
}

const MINUTE_MS = 60_000;

/*
 * Live lookups (POST /api/v1/lookup, decision 111) are counted in this process's memory and written to
 * `lookup_usage` every LOOKUP_FLUSH_MS (and on shutdown): two write transactions per request were most of a
 * lookup's cost. Each process writes its own row per user and minute (`writer`) with absolute totals, so a
 * repeated flush cannot count twice. The limit is checked against the usage the database held when last read
 * (at most LOOKUP_USAGE_MAX_AGE_MS old; every flush reads it again) plus this process's unwritten counts, so
 * within one process it is exact; what other processes count or reserve in the meantime is seen at the next read.
 */
export const lookupMeter = new LookupMeter();
/** This process's `lookup_usage.writer`. */
export const LOOKUP_WRITER = randomUUID();
export const LOOKUP_FLUSH_MS = 1000;
const LOOKUP_USAGE_MAX_AGE_MS = 5000;
const LOOKUP_RETAIN_MS = 10 * MINUTE_MS;

/** The plan period a lookup is checked against (as findActivePeriod returns it). */
export interface LookupPeriod {
  startDate: Date;
  endDate: Date;
  suppressionLimit: number | bigint | string;
  planName: string;
}

function lookupPeriodOf(p: Awaited<ReturnType<typeof findActivePeriod>>): LookupPeriod | null {
  return p ? { startDate: p.startDate!, endDate: p.endDate!, suppressionLimit: p.suppressionLimit, planName: p.planName } : null;
}

let meterDb: Db | null = null;
let flusher: ReturnType<typeof setInterval> | null = null;
/** Flushes and reads of the database's usage run one at a time (a read must not fall between a write and its mark). */
let meterChain: Promise<unknown> = Promise.resolve();
function meterExclusive<T>(fn: () => Promise<T>): Promise<T> {
  const run = meterChain.then(fn);
  meterChain = run.catch(() => undefined);
  return run;
}

/**
 * Counts `amount` looked-up numbers against the user's DNC suppression usage, after checking the plan's limit:
 * the usage (database as last read + this process's unwritten lookups) plus `amount` must stay within it.
 * Check and count run without an await between them, so parallel lookups in this process never both slip
 * under the limit. The numbers go to the user's bucket of the current minute (or the plan period's start when
 * that falls inside the minute, so the period's sum counts exactly the lookups made in it).
 * `unlimited`: the caller's role needs no plan (isUnlimitedRole); counted, nothing checked. `period`: the active
 * period when the caller has it (the API key query reads it); undefined → read here, null → no plan.
 * Throws NoPlanError or UsageLimitError like reserveUsage; the per-user cap on active scrubs does not apply.
 * No database round trip on the hot path (one when the user's usage was not read in the last 5 s).
 */
export async function recordLookupUsage(
  db: Db,
  input: {
    userId: string;
    amount: number;
    unlimited: boolean;
    now?: Date;
    period?: LookupPeriod | null;
    /** A transaction the reads must go through (a reservation's: on PGlite its one connection is busy until it ends). */
    within?: Db;
  },
): Promise<void> {
  const amount = Math.trunc(input.amount);
  if (!Number.isFinite(amount) || amount < 0) throw new Error(`recordLookupUsage: invalid amount ${input.amount}`);
  const now = input.now ?? new Date();
  const nowMs = now.getTime();
  const minute = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
  meterDb = db;
  if (input.unlimited) {
    lookupMeter.count(input.userId, minute, amount, nowMs);
    startLookupFlusher();
    return;
  }
  const reader = input.within ?? db;
  const period = input.period === undefined ? lookupPeriodOf(await findActivePeriod(reader, input.userId, now)) : input.period;
  if (!period) throw new NoPlanError("suppression");
  const start = period.startDate.getTime();
  const end = period.endDate.getTime();
  const limit = Number(period.suppressionLimit);
  let used = lookupMeter.used(input.userId, start, end, nowMs, LOOKUP_USAGE_MAX_AGE_MS);
  if (used === null) {
    await meterExclusive(async () => {
      const inDb = await suppressionUsedInDatabase(reader, input.userId, period.startDate, period.endDate);
      lookupMeter.setKnown(input.userId, start, end, inDb, Date.now());
    });
    used = lookupMeter.used(input.userId, start, end, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY)!;
  }
  if (used + amount > limit) {
    throw new UsageLimitError("suppression", {
      planName: period.planName,
      limit,
      used,
      requested: amount,
      available: Math.max(0, limit - used),
      periodEnd: period.endDate,
    });
  }
  lookupMeter.count(input.userId, start > minute ? start : minute, amount, nowMs);
  startLookupFlusher();
}

/**
 * Writes this process's unwritten lookup counts (one statement: each row the absolute totals of this writer's
 * user and minute, so a repeat sets the same values), then reads again the usage of the users whose limit is
 * checked here. On failure the counts stay in memory for the next flush (logged). Runs every LOOKUP_FLUSH_MS
 * while there is something to write, and on shutdown.
 */
export function flushLookupUsage(db: Db | null = meterDb): Promise<void> {
  return meterExclusive(async () => {
    const rows = lookupMeter.pending();
    if (!db || rows.length === 0) {
      lookupMeter.prune(Date.now(), LOOKUP_RETAIN_MS);
      return;
    }
    try {
      await writeLookupRows(db, rows);
    } catch (e) {
      console.warn(`[lookup usage] could not write ${rows.length} usage rows, kept for the next try: ${e instanceof Error ? e.message : e}`);
      throw e;
    }
    // Right after the write: from here on the rows are read from the database, not as unwritten.
    lookupMeter.markFlushed(rows);
    const users = [...new Set(rows.map((r) => r.userId))].flatMap((userId) => {
      const p = lookupMeter.knownPeriod(userId);
      return p ? [{ userId, ...p }] : [];
    });
    // What other processes counted and reserved since the last read (a failed read is retried at the next flush).
    const used = users.length ? await usedByUsers(db, users).catch(() => []) : [];
    const at = Date.now();
    for (const u of used) lookupMeter.setKnown(u.userId, u.start, u.end, u.used, at);
    lookupMeter.prune(at, LOOKUP_RETAIN_MS);
  });
}

async function writeLookupRows(db: Db, rows: MeterRow[]): Promise<void> {
  await sql`
    insert into lookup_usage (user_id, bucket_start, writer, requests, numbers)
    select u, b, ${LOOKUP_WRITER}, r, n
    from unnest(${rows.map((r) => r.userId)}::uuid[], ${rows.map((r) => new Date(r.bucketStart).toISOString())}::timestamptz[],
                ${rows.map((r) => r.requests)}::integer[], ${rows.map((r) => r.numbers)}::bigint[]) as t(u, b, r, n)
    on conflict (user_id, bucket_start, writer) do update
      set requests = greatest(lookup_usage.requests, excluded.requests), numbers = greatest(lookup_usage.numbers, excluded.numbers)`.execute(db);
}

/** suppressionUsedInDatabase for several users and their periods, in one query. */
async function usedByUsers(db: Db, users: { userId: string; start: number; end: number }[]) {
  const { rows } = await sql<{ user_id: string; used: string }>`
    select t.u as user_id,
      (select coalesce(sum(case when status = 'completed' then total_rows when status in ('queued','running') then usage_reserved else 0 end), 0)
         from scrub_jobs where user_id = t.u and created_at >= t.s and created_at < t.e)
      + (select coalesce(sum(numbers), 0) from lookup_usage where user_id = t.u and bucket_start >= t.s and bucket_start < t.e)
      as used
    from unnest(${users.map((u) => u.userId)}::uuid[], ${users.map((u) => new Date(u.start).toISOString())}::timestamptz[],
                ${users.map((u) => new Date(u.end).toISOString())}::timestamptz[]) as t(u, s, e)`.execute(db);
  const byUser = new Map(rows.map((r) => [r.user_id, Number(r.used)]));
  return users.map((u) => ({ ...u, used: byUser.get(u.userId) ?? 0 }));
}

function startLookupFlusher(): void {
  if (flusher) return;
  flusher = setInterval(() => {
    flushLookupUsage().catch(() => undefined); // logged; retried on the next tick
  }, LOOKUP_FLUSH_MS);
  flusher.unref();
}

/** On shutdown: stops the timer and writes what is left (throws when it cannot, so the caller can say so). */
export async function stopLookupUsage(): Promise<void> {
  if (flusher) clearInterval(flusher);
  flusher = null;
  await flushLookupUsage();
}
