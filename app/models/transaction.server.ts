import crypto from "node:crypto";
import { sql, type Kysely, type RawBuilder } from "kysely";
import type { Database, TransactionStatus } from "db/schema";
import { getPlan } from "./plan.server";
import { recordAudit } from "./user.server";
import { isUuid } from "~/utils/ids";
import { forgetLookupKeys } from "./integration.server";
import { CodedError } from "scrub-service/domain";

type Db = Kysely<Database>;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What a transaction shows as at `now`: paid periods are active while now is in [start, end) and expired
 * afterwards (a paid period that has not started yet shows paid). Computed on read: correct without a
 * sweep or a restart.
 */
export function effectiveStatusSql(now: Date): RawBuilder<TransactionStatus> {
  return sql<TransactionStatus>`(case when t.status in ('paid','active','expired') then
      (case when t.end_date <= ${now} then 'expired' when t.start_date > ${now} then 'paid' else 'active' end)
    else t.status end)`;
}

/** Unambiguous characters (no 0/O, 1/I/L) so a reference survives being typed into a bank form. */
const REF_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** e.g. DPT-7K3M-Q9XA: 8 random characters from 31 (~39 bits); unique index guards collisions. */
export function generateTransferReference(): string {
  const bytes = crypto.randomBytes(8);
  let s = "";
  for (const b of bytes) s += REF_ALPHABET[b % REF_ALPHABET.length];
  return `DPT-${s.slice(0, 4)}-${s.slice(4)}`;
}

export interface TransactionView {
  id: string;
  planId: string;
  planName: string;
  amountCents: number;
  currency: string;
  status: TransactionStatus;
  storedStatus: TransactionStatus;
  description: string;
  dncAndLitigationScrubs: number;
  customDatasetRecords: number;
  transferReference: string;
  paymentMethod: string;
  createdAt: Date;
  startDate: Date | null;
  endDate: Date | null;
  paidAt: Date | null;
  reviewedAt: Date | null;
  reviewNote: string | null;
}

function baseSelect(db: Db, now: Date) {
  return db
    .selectFrom("transactions as t")
    .select([
      "t.id",
      "t.user_id",
      "t.plan_id",
      "t.plan_name",
      "t.amount_cents",
      "t.currency",
      "t.status as stored_status",
      "t.description",
      "t.dnc_and_litigation_scrubs",
      "t.custom_dataset_records",
      "t.transfer_reference",
      "t.payment_method",
      "t.created_at",
      "t.start_date",
      "t.end_date",
      "t.paid_at",
      "t.reviewed_at",
      "t.review_note",
      effectiveStatusSql(now).as("status"),
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof baseSelect>["executeTakeFirstOrThrow"]>>;

function toView(r: Row): TransactionView {
  return {
    id: r.id,
    planId: r.plan_id,
    planName: r.plan_name,
    amountCents: r.amount_cents,
    currency: r.currency,
    status: r.status,
    storedStatus: r.stored_status,
    description: r.description,
    dncAndLitigationScrubs: Number(r.dnc_and_litigation_scrubs),
    customDatasetRecords: Number(r.custom_dataset_records),
    transferReference: r.transfer_reference,
    paymentMethod: r.payment_method,
    createdAt: r.created_at,
    startDate: r.start_date,
    endDate: r.end_date,
    paidAt: r.paid_at,
    reviewedAt: r.reviewed_at,
    reviewNote: r.review_note,
  };
}

export class PlanNotFoundError extends CodedError {
  constructor() {
    super("not_found", "This plan is not available.");
  }
}

/**
 * Confirming a plan by bank transfer: a transaction in status pendingpayment with a unique transfer
 * reference. Confirming the same plan again while a transfer is still pending returns that transaction
 * (a double submit or a second visit must not create two invoices).
 */
export async function createBankTransferTransaction(
  db: Db,
  input: { userId: string; planId: string },
): Promise<{ transaction: TransactionView; created: boolean }> {
  const plan = await getPlan(db, input.planId);
  if (!plan) throw new PlanNotFoundError();
  return db.transaction().execute(async (trx) => {
    // One pending transfer per user and plan, even under parallel submits.
    await sql`select id from users where id = ${input.userId} for update`.execute(trx);
    const existing = await baseSelect(trx, new Date())
      .where("t.user_id", "=", input.userId)
      .where("t.plan_id", "=", plan.id)
      .where("t.status", "=", "pendingpayment")
      .orderBy("t.created_at", "desc")
      .executeTakeFirst();
    if (existing) return { transaction: toView(existing), created: false };
    for (let attempt = 0; ; attempt++) {
      const reference = generateTransferReference();
      const clash = await trx.selectFrom("transactions").select("id").where("transfer_reference", "=", reference).executeTakeFirst();
      if (clash) {
        if (attempt > 5) throw new Error("could not allocate a transfer reference");
        continue;
      }
      const { id } = await trx
        .insertInto("transactions")
        .values({
          user_id: input.userId,
          plan_id: plan.id,
          plan_name: plan.name,
          amount_cents: plan.priceCents,
          currency: plan.currency,
          dnc_and_litigation_scrubs: plan.suppressionLimit,
          custom_dataset_records: plan.containerLimit,
          status: "pendingpayment",
          payment_method: "bank_transfer",
          transfer_reference: reference,
          description: `${plan.name} plan, ${plan.periodDays} days, bank transfer`,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        actorId: input.userId,
        action: "payment.requested",
        targetType: "transaction",
        targetId: id,
        details: { plan: plan.name, amountCents: plan.priceCents, reference },
      });
      const row = await baseSelect(trx, new Date()).where("t.id", "=", id).executeTakeFirstOrThrow();
      return { transaction: toView(row), created: true };
    }
  });
}

/** One of the user's own transactions; another user's id gives undefined (the route answers 404). */
export async function getUserTransaction(db: Db, input: { id: string; userId: string; now?: Date }): Promise<TransactionView | undefined> {
  if (!isUuid(input.id)) return undefined;
  const row = await baseSelect(db, input.now ?? new Date())
    .where("t.id", "=", input.id)
    .where("t.user_id", "=", input.userId)
    .executeTakeFirst();
  return row ? toView(row) : undefined;
}

/** The user's transfers still awaiting payment (newest first). */
export async function listPendingForUser(db: Db, userId: string): Promise<TransactionView[]> {
  const rows = await baseSelect(db, new Date())
    .where("t.user_id", "=", userId)
    .where("t.status", "=", "pendingpayment")
    .orderBy("t.created_at", "desc")
    .execute();
  return rows.map(toView);
}

export const SORT_COLUMNS = ["planName", "amount", "createdAt", "startDate", "endDate", "status"] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

export interface HistoryQuery {
  userId: string;
  /** yyyy-MM-dd: only transactions purchased that day (UTC) */
  date?: string;
  sort?: SortColumn;
  dir?: "asc" | "desc";
  page?: number;
  pageSize?: number;
  now?: Date;
}

function historyQuery(db: Db, q: HistoryQuery) {
  const now = q.now ?? new Date();
  let query = baseSelect(db, now).where("t.user_id", "=", q.userId);
  if (q.date) {
    const start = new Date(`${q.date}T00:00:00.000Z`);
    if (!Number.isNaN(start.getTime())) {
      query = query.where("t.created_at", ">=", start).where("t.created_at", "<", new Date(start.getTime() + DAY_MS));
    }
  }
  return { query, now };
}

function orderExpr(sort: SortColumn, now: Date) {
  switch (sort) {
    case "planName":
      return sql`t.plan_name`;
    case "amount":
      return sql`t.amount_cents`;
    case "startDate":
      return sql`t.start_date`;
    case "endDate":
      return sql`t.end_date`;
    case "status":
      return effectiveStatusSql(now);
    default:
      return sql`t.created_at`;
  }
}

/** The user's own transactions, one page, sorted (default createdAt descending). */
export async function listUserTransactions(db: Db, q: HistoryQuery): Promise<{ rows: TransactionView[]; total: number }> {
  const { query, now } = historyQuery(db, q);
  const sort = q.sort ?? "createdAt";
  const dir = q.dir ?? "desc";
  const pageSize = q.pageSize ?? 10;
  const page = Math.max(1, q.page ?? 1);
  const countRow = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy(sql`${orderExpr(sort, now)} ${sql.raw(dir === "asc" ? "asc nulls first" : "desc nulls last")}`)
    .orderBy("t.created_at", dir)
    .orderBy("t.id", dir)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { rows: rows.map(toView), total: Number(countRow.n) };
}

/** Every matching transaction of the user, in the same order as the screen (for CSV export). */
export async function listAllUserTransactions(db: Db, q: Omit<HistoryQuery, "page" | "pageSize">): Promise<TransactionView[]> {
  const { query, now } = historyQuery(db, q);
  const sort = q.sort ?? "createdAt";
  const dir = q.dir ?? "desc";
  const rows = await query
    .orderBy(sql`${orderExpr(sort, now)} ${sql.raw(dir === "asc" ? "asc nulls first" : "desc nulls last")}`)
    .orderBy("t.created_at", dir)
    .orderBy("t.id", dir)
    .execute();
  return rows.map(toView);
}

// ---------------------------------------------------------------- admin review

export interface AdminTransactionView extends TransactionView {
  userId: string;
  userEmail: string;
  userName: string;
  company: string;
  reviewerEmail: string | null;
}

export type ReviewFilter = "pending" | "reviewed" | "all";

export async function listTransfersForReview(
  db: Db,
  opts: { filter?: ReviewFilter; q?: string; page?: number; pageSize?: number; now?: Date } = {},
): Promise<{ rows: AdminTransactionView[]; total: number }> {
  const now = opts.now ?? new Date();
  let query = baseSelect(db, now)
    .innerJoin("users as u", "u.id", "t.user_id")
    .leftJoin("users as r", "r.id", "t.reviewed_by")
    .select(["u.email as user_email", "u.first_name", "u.last_name", "u.company", "r.email as reviewer_email"]);
  const filter = opts.filter ?? "pending";
  if (filter === "pending") query = query.where("t.status", "=", "pendingpayment");
  if (filter === "reviewed") query = query.where("t.reviewed_at", "is not", null);
  const q = opts.q?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb("t.transfer_reference", "ilike", like), eb("u.email", "ilike", like), eb("u.company", "ilike", like)]));
  }
  const pageSize = opts.pageSize ?? 20;
  const page = Math.max(1, opts.page ?? 1);
  const countRow = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy(filter === "reviewed" ? "t.reviewed_at" : "t.created_at", filter === "pending" ? "asc" : "desc")
    .orderBy("t.id")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    total: Number(countRow.n),
    rows: rows.map((r) => ({
      ...toView(r),
      userId: r.user_id,
      userEmail: r.user_email,
      userName: `${r.first_name} ${r.last_name}`.trim(),
      company: r.company,
      reviewerEmail: r.reviewer_email,
    })),
  };
}

/** The review cannot be made: the transfer was reviewed meanwhile (a conflict), or there is no such transaction. */
export class ReviewConflictError extends CodedError {
  constructor(missing: "missing" | "reviewed" = "reviewed") {
    super(missing === "missing" ? "not_found" : "conflict", missing === "missing" ? "Transaction not found." : "This transfer has already been reviewed.");
  }
}

export interface ReviewedTransfer {
  id: string;
  userId: string;
  userEmail: string;
  firstName: string;
  planName: string;
  amountCents: number;
  transferReference: string;
  startDate: Date | null;
  endDate: Date | null;
}

async function reviewedInfo(db: Db, id: string): Promise<ReviewedTransfer> {
  const r = await db
    .selectFrom("transactions as t")
    .innerJoin("users as u", "u.id", "t.user_id")
    .select(["t.id", "t.user_id", "u.email", "u.first_name", "t.plan_name", "t.amount_cents", "t.transfer_reference", "t.start_date", "t.end_date"])
    .where("t.id", "=", id)
    .executeTakeFirstOrThrow();
  return {
    id: r.id,
    userId: r.user_id,
    userEmail: r.email,
    firstName: r.first_name,
    planName: r.plan_name,
    amountCents: r.amount_cents,
    transferReference: r.transfer_reference,
    startDate: r.start_date,
    endDate: r.end_date,
  };
}

/**
 * An admin confirms the transfer arrived. The plan is active for its period (30 days) from this moment
 * and the period's usage starts at 0. A period still running for this user ends at this moment
 * (replaced: see docs/decisions/041). Only a pendingpayment transaction can be marked paid.
 */
export async function markTransactionPaid(db: Db, input: { id: string; adminId: string; now?: Date }): Promise<ReviewedTransfer> {
  if (!isUuid(input.id)) throw new ReviewConflictError("missing");
  const now = input.now ?? new Date();
  await db.transaction().execute(async (trx) => {
    const tx = await trx
      .selectFrom("transactions as t")
      .innerJoin("plans as p", "p.id", "t.plan_id")
      .select(["t.id", "t.user_id", "t.status", "t.plan_name", "t.amount_cents", "t.transfer_reference", "p.period_days"])
      .where("t.id", "=", input.id)
      .forUpdate("t")
      .executeTakeFirst();
    if (!tx) throw new ReviewConflictError("missing");
    if (tx.status !== "pendingpayment") throw new ReviewConflictError();
    // Same lock as reserveUsage: no reservation runs against a half-switched period.
    await sql`select id from users where id = ${tx.user_id} for update`.execute(trx);
    const replaced = await trx
      .updateTable("transactions")
      .set({
        end_date: now,
        updated_at: now,
        review_note: sql`coalesce(review_note || ' ', '') || ${`Replaced by ${tx.plan_name} on ${now.toISOString().slice(0, 10)}.`}`,
      })
      .where("user_id", "=", tx.user_id)
      .where("status", "in", ["paid", "active"])
      .where("start_date", "<", now)
      .where("end_date", ">", now)
      .returning("id")
      .execute();
    const end = new Date(now.getTime() + tx.period_days * DAY_MS);
    await trx
      .updateTable("transactions")
      .set({ status: "paid", start_date: now, end_date: end, paid_at: now, reviewed_by: input.adminId, reviewed_at: now, updated_at: now })
      .where("id", "=", tx.id)
      .execute();
    await recordAudit(trx, {
      actorId: input.adminId,
      action: "payment.paid",
      targetType: "transaction",
      targetId: tx.id,
      details: {
        userId: tx.user_id,
        plan: tx.plan_name,
        amountCents: tx.amount_cents,
        reference: tx.transfer_reference,
        startDate: now.toISOString(),
        endDate: end.toISOString(),
        replaced: replaced.map((r) => r.id),
      },
    });
  });
  forgetLookupKeys(); // the owner's plan period changed
  return reviewedInfo(db, input.id);
}

/** An admin rejects the transfer (e.g. it never arrived or the amount is wrong). */
export async function rejectTransaction(db: Db, input: { id: string; adminId: string; note?: string; now?: Date }): Promise<ReviewedTransfer> {
  if (!isUuid(input.id)) throw new ReviewConflictError("missing");
  const now = input.now ?? new Date();
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("transactions")
      .set({ status: "rejected", reviewed_by: input.adminId, reviewed_at: now, updated_at: now, review_note: input.note?.trim() || null })
      .where("id", "=", input.id)
      .where("status", "=", "pendingpayment")
      .returning(["id", "user_id", "plan_name", "amount_cents", "transfer_reference"])
      .executeTakeFirst();
    if (!updated) {
      const exists = await trx.selectFrom("transactions").select("id").where("id", "=", input.id).executeTakeFirst();
      throw new ReviewConflictError(exists ? "reviewed" : "missing");
    }
    await recordAudit(trx, {
      actorId: input.adminId,
      action: "payment.rejected",
      targetType: "transaction",
      targetId: updated.id,
      details: {
        userId: updated.user_id,
        plan: updated.plan_name,
        amountCents: updated.amount_cents,
        reference: updated.transfer_reference,
        note: input.note?.trim() || null,
      },
    });
  });
  return reviewedInfo(db, input.id);
}
