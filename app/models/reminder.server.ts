import { sql, type Kysely } from "kysely";
import type { Database } from "db/schema";
import { isUuid } from "~/utils/ids";
import { REMIND_DAYS_BEFORE } from "~/models/reminder-state";

export { reminderState, type ReminderState } from "~/models/reminder-state";

/*
 * The customer's "remind me to re-scrub" request (decision 110): an e-mail before the Good file's "valid for
 * calls until" date. Setting and cancelling are scoped by the owner in the query (another user's job, or a
 * job without a DNC window, answers "not found"); housekeeping sends it once (app/proof/proof-sweep.server.ts).
 */

export type ReminderOutcome = { ok: true; remindAt: Date | null } | { ok: false; notFound: true } | { ok: false; notFound: false; message: string };

/** Asks for the reminder on the user's own completed job with a future valid-until date. */
export async function requestReminder(
  db: Kysely<Database>,
  { jobId, userId, now = new Date() }: { jobId: string; userId: string; now?: Date },
): Promise<ReminderOutcome> {
  if (!isUuid(jobId)) return { ok: false, notFound: true };
  const row = await db
    .updateTable("scrub_jobs")
    .set({ remind_at: sql<Date>`greatest(${now}::timestamptz, valid_until - make_interval(days => ${REMIND_DAYS_BEFORE}))` })
    .where("id", "=", jobId)
    .where("user_id", "=", userId)
    .where("status", "=", "completed")
    .where("valid_until", ">", now)
    .where("reminder_sent_at", "is", null)
    .returning("remind_at")
    .executeTakeFirst();
  if (row) return { ok: true, remindAt: row.remind_at };
  return whyNot(db, jobId, userId, now);
}

/** Cancels the user's own reminder that has not gone out yet. */
export async function cancelReminder(
  db: Kysely<Database>,
  { jobId, userId, now = new Date() }: { jobId: string; userId: string; now?: Date },
): Promise<ReminderOutcome> {
  if (!isUuid(jobId)) return { ok: false, notFound: true };
  const row = await db
    .updateTable("scrub_jobs")
    .set({ remind_at: null })
    .where("id", "=", jobId)
    .where("user_id", "=", userId)
    .where("valid_until", "is not", null)
    .where("reminder_sent_at", "is", null)
    .returning("id")
    .executeTakeFirst();
  if (row) return { ok: true, remindAt: null };
  return whyNot(db, jobId, userId, now);
}

async function whyNot(db: Kysely<Database>, jobId: string, userId: string, now: Date): Promise<ReminderOutcome> {
  const job = await db
    .selectFrom("scrub_jobs")
    .select(["status", "valid_until", "reminder_sent_at"])
    .where("id", "=", jobId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!job || job.status !== "completed" || !job.valid_until) return { ok: false, notFound: true };
  if (job.reminder_sent_at) return { ok: false, notFound: false, message: "The reminder for this purge has already been sent." };
  if (job.valid_until <= now) {
    return {
      ok: false,
      notFound: false,
      message: `This Good file was valid for calls until ${job.valid_until.toISOString().slice(0, 10)}: re-scrub the list now.`,
    };
  }
  return { ok: false, notFound: true };
}
