import { sql, type Kysely } from "kysely";
import type { Database } from "db/schema";
import { LoginError } from "./login-error.server";

/*
 * Sign-in throttling, kept in the database so every replica sees the same counters (docs/decisions/116).
 * Every attempt is counted BEFORE its password is checked, in one transaction that locks the counters'
 * rows, so parallel guesses cannot all pass a check made before any of them was counted. A success
 * forgets its account+address counter and gives back what it took from the address and account budgets.
 * Budgets per 15-minute window, each followed by exponential backoff (30 s, 1, 2, 4, 8 min, then 15 min):
 * - per account AND address: 5 free attempts: a guesser is slowed, the owner elsewhere is not;
 * - per address: 20 free attempts across accounts (spraying);
 * - per account from every address: 50 free attempts (guessing from many addresses); addresses the
 *   account signed in from in the last day are exempt, so this cannot lock the owner out. A password
 *   reset (the e-mailed link) clears every counter of the account.
 */
export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  baseDelayMs: 30_000,
  maxDelayMs: 15 * 60 * 1000,
  perAccountIp: 5,
  perIp: 20,
  perAccount: 50,
  knownAddressMs: 24 * 60 * 60 * 1000,
} as const;

export const THROTTLED_MESSAGE = "Too many failed sign-in attempts. Please wait a few minutes and try again, or reset your password to sign in now.";

function normal(email: string): string {
  return email.trim().toLowerCase();
}

function keys(email: string, ip: string) {
  const e = normal(email);
  return { accountIp: `email-ip:${e}|${ip}`, ip: `ip:${ip}`, account: `email:${e}`, known: `known:${e}|${ip}` };
}

/** The wait after the n-th attempt of a budget of `free`: none within it, then doubling, capped. */
export function backoffAfter(n: number, free: number): number {
  if (n < free) return 0;
  return Math.min(THROTTLE.maxDelayMs, THROTTLE.baseDelayMs * 2 ** (n - free));
}

/** Whether the account signed in from this address within the last day (its owner's known address). */
async function signedInFromHere(trx: Kysely<Database>, knownKey: string, now: Date): Promise<boolean> {
  const row = await trx
    .selectFrom("login_throttle")
    .select("key")
    .where("key", "=", knownKey)
    .where("window_start", ">", new Date(now.getTime() - THROTTLE.knownAddressMs))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Counts one sign-in attempt against every budget that applies and refuses it (LoginError, nothing
 * counted) while any of them is backing off. Call before checking the password.
 */
export async function reserveSignInAttempt(db: Kysely<Database>, email: string, ip: string, now = new Date()): Promise<void> {
  const k = keys(email, ip);
  const refused = await db.transaction().execute(async (trx) => {
    const known = await signedInFromHere(trx, k.known, now);
    const budgets: [string, number][] = [
      [k.accountIp, THROTTLE.perAccountIp],
      [k.ip, THROTTLE.perIp],
      ...(known ? [] : [[k.account, THROTTLE.perAccount] as [string, number]]),
    ];
    budgets.sort(([a], [b]) => (a < b ? -1 : 1)); // one lock order for every transaction: no deadlocks
    const rows = [];
    for (const [key, free] of budgets) {
      // Creates the row if needed and locks it until commit: concurrent attempts on a key queue here.
      const row = await sql<{ failures: number; window_start: Date; locked_until: Date | null }>`
        insert into login_throttle (key, failures, window_start, locked_until) values (${key}, 0, ${now}, null)
        on conflict (key) do update set key = excluded.key
        returning failures, window_start, locked_until`.execute(trx);
      rows.push({ key, free, ...row.rows[0] });
    }
    if (rows.some((r) => r.locked_until && r.locked_until.getTime() > now.getTime())) return true;
    for (const r of rows) {
      const fresh = r.window_start.getTime() <= now.getTime() - THROTTLE.windowMs;
      const n = fresh ? 1 : r.failures + 1;
      const wait = backoffAfter(n, r.free);
      await trx
        .updateTable("login_throttle")
        .set({ failures: n, window_start: fresh ? now : r.window_start, locked_until: wait ? new Date(now.getTime() + wait) : null })
        .where("key", "=", r.key)
        .execute();
    }
    return false;
  });
  if (refused) throw new LoginError(THROTTLED_MESSAGE);
}

/**
 * The right password: forget this address's attempts on the account, give back the attempt this sign-in
 * took from the address's and the account's budgets (a success is no failure: an office behind one
 * address signs in all day), and remember the address as the owner's.
 */
export async function recordLoginSuccess(db: Kysely<Database>, email: string, ip: string, now = new Date()): Promise<void> {
  const k = keys(email, ip);
  await db.transaction().execute(async (trx) => {
    const known = await signedInFromHere(trx, k.known, now);
    await trx.deleteFrom("login_throttle").where("key", "=", k.accountIp).execute();
    // The account budget was only counted from an address not yet known (reserveSignInAttempt).
    const refunds: [string, number][] = [[k.ip, THROTTLE.perIp], ...(known ? [] : [[k.account, THROTTLE.perAccount] as [string, number]])];
    for (const [key, free] of refunds) {
      await sql`
        update login_throttle set failures = greatest(failures - 1, 0),
          locked_until = case when failures - 1 < ${free} then null else locked_until end
        where key = ${key}`.execute(trx);
    }
    await trx
      .insertInto("login_throttle")
      .values({ key: k.known, failures: 0, window_start: now, locked_until: null })
      .onConflict((oc) => oc.column("key").doUpdateSet({ window_start: now }))
      .execute();
  });
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

/**
 * Takes `amount` units from a budget of `max` per window under `key` (one row-locked transaction, so parallel
 * requests cannot overdraw it); false, taking nothing, when the rest of the budget is smaller.
 */
export async function takeBudget(db: Kysely<Database>, key: string, amount: number, max: number, windowMs: number): Promise<boolean> {
  const now = new Date();
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("login_throttle").selectAll().where("key", "=", key).forUpdate().executeTakeFirst();
    const fresh = !row || row.window_start.getTime() < now.getTime() - windowMs;
    const used = fresh ? 0 : row.failures;
    if (used + amount > max) return false;
    await trx
      .insertInto("login_throttle")
      .values({ key, failures: used + amount, window_start: fresh ? now : row.window_start, locked_until: null })
      .onConflict((oc) => oc.column("key").doUpdateSet({ failures: used + amount, window_start: fresh ? now : row!.window_start, locked_until: null }))
      .execute();
    return true;
  });
}

/** Forgets an account's failed sign-ins from every address (after a password reset proved who the owner is). */
export async function clearLoginFailures(db: Kysely<Database>, email: string): Promise<void> {
  const e = normal(email);
  await db
    .deleteFrom("login_throttle")
    .where((eb) => eb.or([eb("key", "=", `email:${e}`), eb("key", "like", `email-ip:${e.replace(/[\\%_]/g, "\\$&")}|%`)]))
    .execute();
}
