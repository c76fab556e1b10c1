import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { issueToken, tokenUrl } from "~/models/auth-token.server";
import { sendEmailWithoutWaiting } from "./email.server";
import { confirmationEmail } from "./email-templates.server";
import { takeRateLimit } from "./throttle.server";

/** New confirmation links per account per hour when an unconfirmed account signs in. */
export const CONFIRMATION_RESEND_LIMIT = { max: 3, windowMs: 60 * 60 * 1000 } as const;

/** Issues a fresh activation link (ending older ones) and e-mails it. */
export async function sendConfirmationLink(
  db: Kysely<Database>,
  user: { id: string; email: string },
): Promise<void> {
  const { token } = await issueToken(db, { userId: user.id, kind: "activation" });
  await sendEmailWithoutWaiting({ to: user.email, ...confirmationEmail({ url: tokenUrl("activation", token, user.id) }) });
}

/**
 * An unconfirmed account signed in with its right password: send a new confirmation link, at most
 * CONFIRMATION_RESEND_LIMIT per hour. True when one was sent.
 */
export async function resendConfirmationOnSignIn(
  db: Kysely<Database>,
  user: { id: string; email: string },
): Promise<boolean> {
  if (!(await takeRateLimit(db, `confirm-resend:user:${user.id}`, CONFIRMATION_RESEND_LIMIT.max, CONFIRMATION_RESEND_LIMIT.windowMs))) return false;
  await sendConfirmationLink(db, user);
  return true;
}
