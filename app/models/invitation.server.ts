import { sql, type Kysely } from "kysely";
import type { Database } from "db/schema";
import { consumeToken, validateToken } from "./auth-token.server";
import { recordAudit } from "./user.server";
import type { Db } from "./user-management.server";
import { hashPassword } from "~/utils/password.server";

/*
 * Invitations: an admin creates a user without a password (status Pending, or Blocked when chosen) and the
 * user receives a single-use link /auth/invitation/{token}/{userId} (7 days, stored hashed; see
 * auth-token.server.ts). Completing it sets the password, confirms the e-mail and activates the account.
 */

export interface InvitedUser {
  id: string;
  email: string;
  firstName: string;
}

/** The invited user behind a valid, unused, unexpired link (live, not set up yet); null otherwise. */
export async function findInvitation(db: Db, token: string | undefined, userId: string | undefined): Promise<InvitedUser | null> {
  const valid = await validateToken(db as Kysely<Database>, { token, userId, kind: "invitation" });
  if (!valid) return null;
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "first_name as firstName"])
    .where("id", "=", valid.userId)
    .where("deleted_at", "is", null)
    .where("password_hash", "is", null)
    .executeTakeFirst();
  return user ?? null;
}

/**
 * Uses the link up and sets the password, atomically (a failed update leaves the link usable; two parallel
 * submits: exactly one wins). Status becomes Active, unless an admin chose Blocked. False for an invalid link.
 */
export async function completeInvitation(
  db: Kysely<Database>,
  { token, userId, password }: { token: string | undefined; userId: string | undefined; password: string },
): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const used = await consumeToken(trx, { token, userId, kind: "invitation" });
    if (!used) return false;
    const updated = await trx
      .updateTable("users")
      .set({
        password_hash: passwordHash,
        email_confirmed: true,
        status: sql`case when status = 'Blocked' then 'Blocked' else 'Active' end`,
        updated_at: sql<Date>`now()`,
      })
      .where("id", "=", used.userId)
      .where("deleted_at", "is", null)
      .where("password_hash", "is", null)
      .returning(["id", "status"])
      .executeTakeFirst();
    if (!updated) return false;
    await recordAudit(trx, {
      actorId: updated.id,
      action: "user.invitation_completed",
      targetType: "user",
      targetId: updated.id,
      details: { status: updated.status },
    });
    return true;
  });
}
