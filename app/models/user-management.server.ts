import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool, type Transaction } from "kysely";
import type { Database, RoleName, UserStatus } from "db/schema";
import { recordAudit } from "./user.server";
import { NO_PLAN, USERS_PAGE_SIZE, type StatusFilter } from "~/models/user-list";
import { isUuid } from "~/utils/ids";
import { forgetLookupKeys } from "./integration.server";

export type Db = Kysely<Database> | Transaction<Database>;

export interface UserListFilters {
  search: string;
  status: StatusFilter | "";
  /** "" (All Plans), NO_PLAN, or a plan id */
  plan: string;
  page: number;
}

export interface ManagedUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  phoneNumber: string;
  role: RoleName;
  status: UserStatus;
  emailConfirmed: boolean;
  createdAt: Date | null;
  awaitingSetup: boolean;
}

export interface UserStats {
  totalUsers: number;
  activeUsers: number;
  blockedUsers: number;
  pendingUsers: number;
  normalUsers: number;
  unlimitedUsers: number;
}

const columns = [
  "users.id",
  "users.first_name as firstName",
  "users.last_name as lastName",
  "users.email",
  "users.company",
  "users.phone_number as phoneNumber",
  "users.role",
  "users.status",
  "users.email_confirmed as emailConfirmed",
  "users.created_at as createdAt",
] as const;

/** Invited and not set up yet: no password (an invitation can still be completed or resent). */
const awaitingSetup = sql<boolean>`users.password_hash is null`.as("awaitingSetup");

/** Escapes LIKE wildcards so a search for "50%" or "a_b" matches literally. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The billing area's view of a user's plan (see user-management-plans.server.ts). `filter` narrows the users
 * query to holders of an active plan (planId) or to users without one (planId null); null when plans are not
 * known yet (then every user has No Plan).
 */
export interface PlanLookup {
  activePlanNames(db: Db, userIds: string[]): Promise<Map<string, string>>;
  filter(planId: string | null): ((eb: ExpressionBuilder<Database, "users">) => Expression<SqlBool>) | null;
}

export const noPlanLookup: PlanLookup = {
  async activePlanNames() {
    return new Map();
  },
  filter() {
    return null;
  },
};

export async function listUsers(
  db: Db,
  filters: UserListFilters,
  plans: PlanLookup = noPlanLookup,
): Promise<{ users: Array<ManagedUser & { plan: string | null }>; total: number; page: number; pageCount: number }> {
  let q = db.selectFrom("users").where("users.deleted_at", "is", null);
  const term = filters.search.trim();
  if (term) {
    const p = likePattern(term);
    q = q.where((eb) =>
      eb.or([
        eb("users.email", "ilike", p),
        eb("users.first_name", "ilike", p),
        eb("users.last_name", "ilike", p),
        eb(sql<string>`users.first_name || ' ' || users.last_name`, "ilike", p),
        eb("users.company", "ilike", p),
      ]),
    );
  }
  if (filters.status) q = q.where("users.status", "=", filters.status);
  if (filters.plan) {
    const f = plans.filter(filters.plan === NO_PLAN ? null : filters.plan);
    if (f) q = q.where(f);
    else if (filters.plan !== NO_PLAN) q = q.where(sql<boolean>`false`);
  }
  const { count } = await q.select((eb) => eb.fn.countAll<string | number | bigint>().as("count")).executeTakeFirstOrThrow();
  const total = Number(count);
  const pageCount = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, filters.page), pageCount);
  const rows = await q
    .select([...columns, awaitingSetup])
    .orderBy("users.created_at", "desc")
    .orderBy("users.id", "desc")
    .limit(USERS_PAGE_SIZE)
    .offset((page - 1) * USERS_PAGE_SIZE)
    .execute();
  const names = await plans.activePlanNames(
    db,
    rows.map((r) => r.id),
  );
  return { users: rows.map((r) => ({ ...r, plan: names.get(r.id) ?? null })), total, page, pageCount };
}

export async function userStats(db: Db): Promise<UserStats> {
  const row = await db
    .selectFrom("users")
    .where("deleted_at", "is", null)
    .select([
      sql<number>`count(*)::int`.as("totalUsers"),
      sql<number>`(count(*) filter (where status = 'Active'))::int`.as("activeUsers"),
      sql<number>`(count(*) filter (where status = 'Blocked'))::int`.as("blockedUsers"),
      sql<number>`(count(*) filter (where status = 'Pending'))::int`.as("pendingUsers"),
      sql<number>`(count(*) filter (where role = 'NormalUser'))::int`.as("normalUsers"),
      sql<number>`(count(*) filter (where role = 'UnlimitedUser'))::int`.as("unlimitedUsers"),
    ])
    .executeTakeFirstOrThrow();
  return {
    totalUsers: Number(row.totalUsers),
    activeUsers: Number(row.activeUsers),
    blockedUsers: Number(row.blockedUsers),
    pendingUsers: Number(row.pendingUsers),
    normalUsers: Number(row.normalUsers),
    unlimitedUsers: Number(row.unlimitedUsers),
  };
}

/** A live (not deleted) user by id; undefined for unknown, deleted or malformed ids. */
export async function getManagedUser(db: Db, id: string): Promise<ManagedUser | undefined> {
  if (!isUuid(id)) return undefined;
  return db
    .selectFrom("users")
    .select([...columns, awaitingSetup])
    .where("users.id", "=", id)
    .where("users.deleted_at", "is", null)
    .executeTakeFirst();
}

export async function liveEmailTaken(db: Db, email: string, exceptId?: string): Promise<boolean> {
  let q = db
    .selectFrom("users")
    .select("id")
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase()))
    .where("deleted_at", "is", null);
  if (exceptId) q = q.where("id", "<>", exceptId);
  return Boolean(await q.executeTakeFirst());
}

/** The unique index users_email_live rejected the insert/update (a race with another request). */
export function isDuplicateEmailError(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null;
  return Boolean(err && (err.code === "23505" || /users_email_live|duplicate key/.test(err.message ?? "")));
}

export interface NewUserInput {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  phoneNumber: string;
  role: RoleName;
  /** The admin's choice, applied as chosen (DECISIONS.md); setting up the account makes Pending Active, keeps Blocked. */
  status: "Active" | "Blocked" | "Pending";
}

/**
 * Creates an invited user: no password, e-mail unconfirmed, the status the admin chose (Blocked: the account
 * can be set up but not used until unblocked). Without a password nobody can sign in, whatever the status.
 */
export async function createInvitedUser(db: Db, actorId: string, input: NewUserInput): Promise<ManagedUser> {
  const status: UserStatus = input.status;
  const user = await db
    .insertInto("users")
    .values({
      email: input.email.trim().toLowerCase(),
      first_name: input.firstName,
      last_name: input.lastName,
      company: input.company,
      phone_number: input.phoneNumber,
      password_hash: null,
      role: input.role,
      status,
      email_confirmed: false,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await recordAudit(db as Kysely<Database>, {
    actorId,
    action: "user.invited",
    targetType: "user",
    targetId: user.id,
    details: { email: input.email.trim().toLowerCase(), role: input.role, status: input.status },
  });
  return (await getManagedUser(db, user.id))!;
}

export interface ProfileInput {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  phoneNumber: string;
}

/** Updates profile fields and (when given and different) role and status; audits each change. */
export async function updateManagedUser(
  db: Db,
  actorId: string,
  before: ManagedUser,
  input: ProfileInput & { role?: RoleName; status?: UserStatus },
): Promise<{ statusChanged: boolean; roleChanged: boolean }> {
  const email = input.email.trim().toLowerCase();
  const profileChanges: Record<string, { from: string; to: string }> = {};
  const pairs: Array<[string, string, string]> = [
    ["firstName", before.firstName, input.firstName],
    ["lastName", before.lastName, input.lastName],
    ["email", before.email, email],
    ["company", before.company, input.company],
    ["phoneNumber", before.phoneNumber, input.phoneNumber],
  ];
  for (const [k, from, to] of pairs) if (from !== to) profileChanges[k] = { from, to };
  const roleChanged = input.role !== undefined && input.role !== before.role;
  const statusChanged = input.status !== undefined && input.status !== before.status;
  await db
    .updateTable("users")
    .set({
      first_name: input.firstName,
      last_name: input.lastName,
      email,
      company: input.company,
      phone_number: input.phoneNumber,
      ...(roleChanged ? { role: input.role } : {}),
      ...(statusChanged ? { status: input.status } : {}),
      updated_at: sql<Date>`now()`,
    })
    .where("id", "=", before.id)
    .where("deleted_at", "is", null)
    .execute();
  if (roleChanged || statusChanged) forgetLookupKeys();
  const audit = db as Kysely<Database>;
  if (Object.keys(profileChanges).length) {
    await recordAudit(audit, { actorId, action: "user.updated", targetType: "user", targetId: before.id, details: profileChanges });
  }
  if (roleChanged) {
    await recordAudit(audit, {
      actorId,
      action: "user.role_changed",
      targetType: "user",
      targetId: before.id,
      details: { from: before.role, to: input.role },
    });
  }
  if (statusChanged) {
    await recordAudit(audit, {
      actorId,
      action: input.status === "Blocked" ? "user.blocked" : "user.status_changed",
      targetType: "user",
      targetId: before.id,
      details: { from: before.status, to: input.status },
    });
  }
  return { statusChanged, roleChanged };
}

export async function setUserStatus(db: Db, actorId: string, before: ManagedUser, status: "Active" | "Blocked"): Promise<void> {
  await db
    .updateTable("users")
    .set({ status, updated_at: sql<Date>`now()` })
    .where("id", "=", before.id)
    .where("deleted_at", "is", null)
    .execute();
  forgetLookupKeys();
  await recordAudit(db as Kysely<Database>, {
    actorId,
    action: status === "Blocked" ? "user.blocked" : "user.activated",
    targetType: "user",
    targetId: before.id,
    details: { from: before.status, to: status },
  });
}

/**
 * Soft delete: the row stays (audit trail, owned records) but the user can no longer sign in, disappears
 * from lists, and the e-mail is free for a new account (the unique index covers live users only).
 * Unused tokens of the user are spent so an old invitation or reset link stops working.
 */
export async function softDeleteUser(db: Db, actorId: string, before: ManagedUser): Promise<void> {
  await db
    .updateTable("users")
    .set({ deleted_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where("id", "=", before.id)
    .where("deleted_at", "is", null)
    .execute();
  forgetLookupKeys();
  await db
    .updateTable("auth_tokens")
    .set({ used_at: sql<Date>`now()` })
    .where("user_id", "=", before.id)
    .where("used_at", "is", null)
    .execute();
  await recordAudit(db as Kysely<Database>, {
    actorId,
    action: "user.deleted",
    targetType: "user",
    targetId: before.id,
    details: { email: before.email, role: before.role, status: before.status },
  });
}
