import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { runProofHousekeeping } from "~/proof/proof-sweep.server";
import { sweepUploads } from "~/intake/sweep.server";
import { currentSigningKey, dropExpiredCalls, dropExpiredLedger, signLedgerDays, type ScrubService } from "scrub-service";
import { dropExpiredOptOuts } from "~/models/opt-out.server";
import { retryUnhonouredOptOuts } from "~/intake/opt-outs.server";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Old enough that no throttle window (the longest is one hour) can still count the row. */
export const THROTTLE_ROW_TTL_MS = DAY_MS;
/** Spent links are kept a week for support questions ("my link said it was used"). */
export const SPENT_TOKEN_TTL_MS = 7 * DAY_MS;

export interface SweepCounts {
  sessions: number;
  throttleRows: number;
  tokens: number;
}

/** Deletes rows that can no longer matter: expired sessions, dead throttle counters, long-spent links. */
export async function sweepExpired(db: Kysely<Database>, now: Date = new Date()): Promise<SweepCounts> {
  const sessions = await db.deleteFrom("sessions").where("expires_at", "<", now).executeTakeFirst();
  const throttleRows = await db
    .deleteFrom("login_throttle")
    .where("window_start", "<", new Date(now.getTime() - THROTTLE_ROW_TTL_MS))
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", now)]))
    .executeTakeFirst();
  const spentBefore = new Date(now.getTime() - SPENT_TOKEN_TTL_MS);
  const tokens = await db
    .deleteFrom("auth_tokens")
    .where((eb) => eb.or([eb("used_at", "<", spentBefore), eb("expires_at", "<", spentBefore)]))
    .executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    throttleRows: Number(throttleRows.numDeletedRows),
    tokens: Number(tokens.numDeletedRows),
  };
}

/**
 * One housekeeping round: expired rows, every user's old uploads, call records and opt-outs past five years, the
 * ledger's day heads and retention, and (with the scrub service) opt-outs a failed load left unhonoured. A failed part
 * never stops the others.
 */
export async function runHousekeeping(db: Kysely<Database>, now: Date = new Date(), service?: ScrubService): Promise<void> {
  try {
    await sweepExpired(db, now);
  } catch (e) {
    console.warn(`[housekeeping] sweep failed: ${e instanceof Error ? e.message : e}`);
  }
  try {
    await sweepUploads(db, now);
  } catch (e) {
    console.warn(`[housekeeping] upload sweep failed: ${e instanceof Error ? e.message : e}`);
  }
  try {
    await runProofHousekeeping(db, now);
  } catch (e) {
    console.warn(`[housekeeping] DNC clock, reminders or result retention failed: ${e instanceof Error ? e.message : e}`);
  }
  try {
    // call records are kept five years (16 CFR 310.5(a)(2)); whole months past it are dropped (decision 185)
    const r = await dropExpiredCalls(db, now.getTime());
    if (r.partitionsDropped.length || r.recordsDeleted)
      console.log(
        `[housekeeping] call records before ${r.cutoff.toISOString()}: ${r.partitionsDropped.length} month(s) dropped, ${r.recordsDeleted} record(s) deleted`,
      );
  } catch (e) {
    console.warn(`[housekeeping] call record retention failed: ${e instanceof Error ? e.message : e}`);
  }
  if (service) {
    try {
      const r = await retryUnhonouredOptOuts(db, service, now);
      if (r.marked || r.retried || r.failed)
        console.log(`[housekeeping] unhonoured opt-outs: ${r.marked} marked, ${r.retried} load(s) retried, ${r.failed} failed again`);
    } catch (e) {
      console.warn(`[housekeeping] opt-out retry failed: ${e instanceof Error ? e.message : e}`);
    }
  }
  try {
    // opt-outs are kept five years (47 CFR 64.1200(d)(6), 16 CFR 310.5(a); decision 195); the numbers stay in the internal list
    const r = await dropExpiredOptOuts(db, now);
    if (r.deleted) console.log(`[housekeeping] opt-outs received before ${r.cutoff.toISOString()}: ${r.deleted} deleted`);
  } catch (e) {
    console.warn(`[housekeeping] opt-out retention failed: ${e instanceof Error ? e.message : e}`);
  }
  try {
    // the decision ledger (decision 197): each customer's head at the end of each finished UTC day, signed with the
    // certificate key; then whole months of entries past five years dropped (16 CFR 310.5(a)), the signed heads kept
    const signed = await signLedgerDays(db, await currentSigningKey(db), now);
    if (signed.signed) console.log(`[housekeeping] ledger: ${signed.signed} day head(s) of ${signed.customers} customer(s) signed`);
    const r = await dropExpiredLedger(db, now.getTime());
    if (r.partitionsDropped.length)
      console.log(`[housekeeping] ledger entries before ${r.cutoff.toISOString()}: ${r.partitionsDropped.length} month(s) dropped`);
  } catch (e) {
    console.warn(`[housekeeping] ledger signing or retention failed: ${e instanceof Error ? e.message : e}`);
  }
}

let timer: NodeJS.Timeout | undefined;

/** Runs the housekeeping now and then hourly in this process (every replica may run it: deletes are idempotent). */
export function startHousekeeping(getDb: () => Promise<Kysely<Database>>, getService?: () => Promise<ScrubService>, everyMs = HOUR_MS): void {
  if (timer) return;
  const run = async () => {
    try {
      const service = getService
        ? await getService().catch((e: unknown) => {
            console.warn(`[housekeeping] no scrub service, stranded opt-outs wait: ${e instanceof Error ? e.message : e}`);
            return undefined;
          })
        : undefined;
      await runHousekeeping(await getDb(), new Date(), service);
    } catch (e) {
      console.warn(`[housekeeping] no database: ${e instanceof Error ? e.message : e}`);
    }
  };
  void run();
  timer = setInterval(run, everyMs);
  timer.unref();
}

export function stopHousekeeping(): void {
  if (timer) clearInterval(timer);
  timer = undefined;
}
