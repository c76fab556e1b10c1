import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { issueToken, tokenUrl } from "~/models/auth-token.server";
import type { InvitedUser } from "~/models/invitation.server";
import { recordAudit } from "~/models/user.server";
import type { Db } from "~/models/user-management.server";
import { sendEmail, sendEmailWithoutWaiting, type SendResult } from "~/utils/email.server";
import { confirmationEmail, invitationEmail } from "~/utils/email-templates.server";
import { takeRateLimit } from "~/utils/throttle.server";

/** New confirmation links per account per hour when an unconfirmed account signs in. */
export const CONFIRMATION_RESEND_LIMIT = { max: 3, windowMs: 60 * 60 * 1000 } as const;

/** Issues a fresh activation link (ending older ones) and e-mails it. */
export async function sendConfirmationLink(db: Kysely<Database>, user: { id: string; email: string }): Promise<void> {
  const { token } = await issueToken(db, { userId: user.id, kind: "activation" });
  await sendEmailWithoutWaiting({ to: user.email, ...confirmationEmail({ url: tokenUrl("activation", token, user.id) }) });
}

/**
 * An unconfirmed account signed in with its right password: send a new confirmation link, at most
 * CONFIRMATION_RESEND_LIMIT per hour. True when one was sent.
 */
export async function resendConfirmationOnSignIn(db: Kysely<Database>, user: { id: string; email: string }): Promise<boolean> {
  if (!(await takeRateLimit(db, `confirm-resend:user:${user.id}`, CONFIRMATION_RESEND_LIMIT.max, CONFIRMATION_RESEND_LIMIT.windowMs))) return false;
  await sendConfirmationLink(db, user);
  return true;
}

/** Issues a fresh invitation link (older unused ones stop working) and e-mails it. */
export async function sendInvitation(
  db: Db,
  { user, inviter }: { user: InvitedUser; inviter: { id: string; firstName: string; lastName: string } },
): Promise<SendResult> {
  const conn = db as Kysely<Database>;
  const issued = await issueToken(conn, { userId: user.id, kind: "invitation" });
  const url = tokenUrl("invitation", issued.token, user.id);
  const mail = invitationEmail({ firstName: user.firstName, inviterName: `${inviter.firstName} ${inviter.lastName}`, url });
  const result = await sendEmail({ to: user.email, ...mail }, conn);
  await recordAudit(conn, {
    actorId: inviter.id,
    action: "user.invitation_sent",
    targetType: "user",
    targetId: user.id,
    details: { email: user.email, delivered: result.ok, expiresAt: issued.expiresAt.toISOString() },
  });
  return result;
}
