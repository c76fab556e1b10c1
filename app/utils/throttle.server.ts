import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { LoginError } from "./login-error.server";

/*
 * Login throttling, kept in the database so every replica sees the same counters.
 * Per account: 5 failures in 15 minutes lock the account's sign-in for 15 minutes.
 * Per IP: 20 failures in 15 minutes lock that address for 15 minutes.
 */
export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  maxPerAccount: 5,
  maxPerIp: 20,
} as const;

export const THROTTLED_MESSAGE = "Too many failed sign-in attempts. Please wait 15 minutes and try again.";

function keys(email: string, ip: string) {
  return { account: `email:${email.trim().toLowerCase()}`, ip: `ip:${ip}` };
}

export async function checkLoginThrottle(db: Kysely<Database>, email: string, ip: string): Promise<void> {
  const k = keys(email, ip);
  const rows = await db
    .selectFrom("login_throttle")
    .select(["key", "locked_until"])
    .where("key", "in", [k.account, k.ip])
    .execute();
  const now = Date.now();
  if (rows.some((r) => r.locked_until && r.locked_until.getTime() > now)) throw new LoginError(THROTTLED_MESSAGE);
}

async function bump(db: Kysely<Database>, key: string, max: number): Promise<void> {
  const now = new Date();
  const windowStart = new Date(now.getTime() - THROTTLE.windowMs);
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("login_throttle").selectAll().where("key", "=", key).forUpdate().executeTakeFirst();
    if (!row || row.window_start < windowStart) {
      await trx
        .insertInto("login_throttle")
        .values({ key, failures: 1, window_start: now, locked_until: null })
        .onConflict((oc) => oc.column("key").doUpdateSet({ failures: 1, window_start: now, locked_until: null }))
        .execute();
      return;
    }
    const failures = row.failures + 1;
    await trx
      .updateTable("login_throttle")
      .set({ failures, locked_until: failures >= max ? new Date(now.getTime() + THROTTLE.lockMs) : row.locked_until })
      .where("key", "=", key)
      .execute();
  });
}

export async function recordLoginFailure(db: Kysely<Database>, email: string, ip: string): Promise<void> {
  const k = keys(email, ip);
  await bump(db, k.account, THROTTLE.maxPerAccount);
  await bump(db, k.ip, THROTTLE.maxPerIp);
}

export async function recordLoginSuccess(db: Kysely<Database>, email: string, _ip: string): Promise<void> {
  await db.deleteFrom("login_throttle").where("key", "=", keys(email, _ip).account).execute();
}

/**
 * A counter per key (e.g. "reset-mail:email:ann@example.com") in the same table: true while the key has
 * been used at most `max` times in the current window, false once it is over. Used to keep sign-up and
 * reset e-mails from being sprayed at someone's inbox.
 */
export async function takeRateLimit(db: Kysely<Database>, key: string, max: number, windowMs: number): Promise<boolean> {
  const now = new Date();
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("login_throttle").selectAll().where("key", "=", key).forUpdate().executeTakeFirst();
    if (!row || row.window_start.getTime() < now.getTime() - windowMs) {
      await trx
        .insertInto("login_throttle")
        .values({ key, failures: 1, window_start: now, locked_until: null })
        .onConflict((oc) => oc.column("key").doUpdateSet({ failures: 1, window_start: now, locked_until: null }))
        .execute();
      return true;
    }
    const count = row.failures + 1;
    await trx.updateTable("login_throttle").set({ failures: count }).where("key", "=", key).execute();
    return count <= max;
  });
}

/** Forgets an account's failed sign-ins (after a password reset proved who the owner is). */
export async function clearLoginFailures(db: Kysely<Database>, email: string): Promise<void> {
  await db.deleteFrom("login_throttle").where("key", "=", keys(email, "").account).execute();
}
