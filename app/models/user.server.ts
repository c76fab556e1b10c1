import type { Kysely } from "kysely";
import type { Database, RoleName, UserStatus } from "db/schema";

export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  role: RoleName;
  status: UserStatus;
}

const sessionUserColumns = ["id", "email", "first_name as firstName", "last_name as lastName", "company", "role", "status"] as const;

/** A user who may use the product right now: not deleted, Active. */
export async function getActiveUserById(db: Kysely<Database>, id: string): Promise<SessionUser | undefined> {
  return db
    .selectFrom("users")
    .select(sessionUserColumns)
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .where("status", "=", "Active")
    .executeTakeFirst();
}

export async function findLiveUserByEmail(db: Kysely<Database>, email: string) {
  return db
    .selectFrom("users")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase()))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** Spec: Super Admin, then Admin, then User. */
export function roleLabel(role: RoleName): string {
  if (role === "SuperAdmin") return "Super Admin";
  if (role === "Admin") return "Admin";
  return "User";
}

export async function recordAudit(
  db: Kysely<Database>,
  entry: { actorId: string | null; action: string; targetType?: string; targetId?: string; details?: Record<string, unknown> },
): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType ?? null,
      target_id: entry.targetId ?? null,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}
