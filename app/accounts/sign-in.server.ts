import { getDb } from "~/utils/db.server";
import { findLiveUserByEmail } from "~/models/user.server";
import { verifyPassword } from "~/utils/password.server";
import { recordLoginSuccess, reserveSignInAttempt } from "~/utils/throttle.server";
import { LoginError } from "~/utils/login-error.server";
import { resendConfirmationOnSignIn } from "./mail.server";

/** Sign-in messages (spec: Login Failed / server message or Invalid email or password.). */
export const LOGIN_MESSAGES = {
  invalid: "Invalid email or password.",
  unconfirmed: "Please confirm your email before signing in. Check your inbox for the confirmation link.",
  unconfirmedResent: "Please confirm your email before signing in. We have sent a new confirmation link to your email.",
  blocked: "Your account has been blocked. Please contact your administrator.",
  pending: "Your account is not set up yet. Please use the invitation link sent to your email.",
} as const;

/**
 * Checks e-mail and password (each attempt counted first, throttled per account+IP, per IP and per account). Wrong password and unknown or deleted
 * account give the same message; only the right password learns the account's state. An unconfirmed
 * account gets a fresh confirmation link (rate-limited) with its message.
 */
export async function verifyLogin(email: string, password: string, ip: string): Promise<{ id: string }> {
  const db = await getDb();
  await reserveSignInAttempt(db, email, ip);
  const user = await findLiveUserByEmail(db, email);
  const ok = await verifyPassword(user?.password_hash ?? null, password);
  if (!user || !ok) throw new LoginError(LOGIN_MESSAGES.invalid);
  await recordLoginSuccess(db, email, ip);
  if (user.status === "Draft") {
    const resent = await resendConfirmationOnSignIn(db, { id: user.id, email: user.email });
    throw new LoginError(resent ? LOGIN_MESSAGES.unconfirmedResent : LOGIN_MESSAGES.unconfirmed);
  }
  if (user.status === "Pending") throw new LoginError(LOGIN_MESSAGES.pending);
  if (user.status === "Blocked") throw new LoginError(LOGIN_MESSAGES.blocked);
  return { id: user.id };
}
