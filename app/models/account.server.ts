import { sql, type Kysely } from "kysely";
import type { Database, UserStatus } from "db/schema";
import { consumeToken } from "./auth-token.server";
import { recordAudit } from "./user.server";

/*
 * The self-service account lifecycle: sign-up (Draft), e-mail confirmation (Active), password reset.
 * Each change that a link allows runs in one transaction with the token's consumption.
 */

export interface NewSignup {
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  phoneNumber: string;
  passwordHash: string;
}

const draftToActive = sql<UserStatus>`case when status = 'Draft' then 'Active' else status end`;

function isUniqueViolation(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: string }).code === "23505";
}

/**
 * Creates a NormalUser in status Draft (e-mail unconfirmed). Returns null when a live account already has
 * the address (also when a concurrent sign-up took it a moment earlier).
 */
export async function createDraftUser(db: Kysely<Database>, s: NewSignup): Promise<{ id: string } | null> {
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto("users")
        .values({
          email: s.email,
          first_name: s.firstName,
          last_name: s.lastName,
          company: s.company,
          phone_number: s.phoneNumber,
          password_hash: s.passwordHash,
          role: "NormalUser",
          status: "Draft",
          email_confirmed: false,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordAudit(trx, { actorId: user.id, action: "user.signup", targetType: "user", targetId: user.id });
      return user;
    });
  } catch (e) {
    if (isUniqueViolation(e)) return null;
    throw e;
  }
}

/**
 * Uses an activation link: the e-mail is confirmed, and a Draft account becomes Active (a Blocked one stays
 * blocked). False when the link is not valid.
 */
export async function confirmEmail(db: Kysely<Database>, { token, userId }: { token?: string; userId?: string }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const used = await consumeToken(trx, { token, userId, kind: "activation" });
    if (!used) return false;
    const updated = await trx
      .updateTable("users")
      .set({ email_confirmed: true, status: draftToActive, updated_at: new Date() })
      .where("id", "=", used.userId)
      .where("deleted_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!updated) return false;
    await recordAudit(trx, { actorId: used.userId, action: "user.email_confirmed", targetType: "user", targetId: used.userId });
    return true;
  });
}

/**
 * Uses a reset link to set a new password. The link proves the mailbox, so an unconfirmed (Draft) account is
 * confirmed and activated too. Returns the account's e-mail, or null when the link is not valid.
 * The caller ends the user's sessions afterwards.
 */
export async function resetPasswordWithToken(
  db: Kysely<Database>,
  { token, userId, passwordHash }: { token?: string; userId?: string; passwordHash: string },
): Promise<{ userId: string; email: string } | null> {
  return db.transaction().execute(async (trx) => {
    const used = await consumeToken(trx, { token, userId, kind: "reset" });
    if (!used) return null;
    const user = await trx
      .updateTable("users")
      .set({
        password_hash: passwordHash,
        email_confirmed: sql<boolean>`case when status = 'Draft' then true else email_confirmed end`,
        status: draftToActive,
        updated_at: new Date(),
      })
      .where("id", "=", used.userId)
      .where("deleted_at", "is", null)
      .where("status", "in", ["Active", "Draft"])
      .returning(["id", "email"])
      .executeTakeFirst();
    if (!user) return null;
    await recordAudit(trx, { actorId: user.id, action: "user.password_reset", targetType: "user", targetId: user.id });
    return { userId: user.id, email: user.email };
  });
}
