import fs from "node:fs";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { sendEmail } from "~/utils/email.server";
import { appUrl } from "~/utils/env.server";
import { dncClock, REGISTRY_VALID_DAYS, REGISTRY_WARN_DAYS } from "~/models/dnc-clock.server";
import { getSettings } from "~/models/settings.server";
import { formatDate, formatDateTime } from "~/utils/format";

const DAY_MS = 86_400_000;

/**
 * The proof side of the hourly housekeeping (every replica may run it: each e-mail is claimed by an update
 * first, so it goes out once): the DNC age warning to admins (once per list version, from 25 days), the
 * re-scrub reminders customers asked for, and the deletion of result files past the retention setting
 * (certificates and list provenance are never deleted).
 */
export async function runProofHousekeeping(db: Kysely<Database>, now: Date = new Date()): Promise<{ warned: number; reminded: number; filesDeleted: number }> {
  return { warned: await warnAgedDnc(db, now), reminded: await sendReminders(db, now), filesDeleted: await deleteOldResults(db, now) };
}

async function warnAgedDnc(db: Kysely<Database>, now: Date): Promise<number> {
  const clock = await dncClock(db, now);
  if (clock.state !== "warning" && clock.state !== "stale") return 0;
  const claimed = await db
    .updateTable("lists")
    .set((eb) => ({ age_warned_version: eb.ref("version") }))
    .where("kind", "=", "dnc")
    .where((eb) => eb.or([eb("age_warned_version", "is", null), eb("age_warned_version", "<>", eb.ref("version"))]))
    .returning("id")
    .executeTakeFirst();
  if (!claimed) return 0;
  const admins = await db
    .selectFrom("users")
    .select("email")
    .where("role", "in", ["Admin", "SuperAdmin"] as never)
    .where("status", "=", "Active" as never)
    .execute();
  const text = [
    `The DNC list's registry download is ${clock.ageDays} days old (registry date ${clock.registryDate?.slice(0, 10)}).`,
    `Purges are inside the safe harbor only while it is at most ${REGISTRY_VALID_DAYS} days old (warning from ${REGISTRY_WARN_DAYS} days).`,
    `Load a fresh registry download on DNC Management: ${appUrl()}/dnc`,
  ].join("\n\n");
  for (const a of admins) await sendEmail({ to: a.email, subject: `The DNC list is ${clock.ageDays} days old`, text });
  return admins.length;
}

async function sendReminders(db: Kysely<Database>, now: Date): Promise<number> {
  const due = await db
    .updateTable("scrub_jobs")
    .set({ reminder_sent_at: now })
    .where("remind_at", "<=", now)
    .where("reminder_sent_at", "is", null)
    .returning(["id", "user_id", "file_name", "valid_until"])
    .execute();
  for (const j of due) {
    const user = await db.selectFrom("users").select("email").where("id", "=", j.user_id).executeTakeFirst();
    if (!user) continue;
    await sendEmail({
      to: user.email,
      subject: `Re-scrub ${j.file_name} before ${formatDate(j.valid_until)}`,
      text: `The Good file of your purge of ${j.file_name} is valid for calls until ${formatDateTime(j.valid_until)} (the DNC registry date + ${REGISTRY_VALID_DAYS} days). Run it again before then: ${appUrl()}/purge`,
    });
  }
  return due.length;
}

async function deleteOldResults(db: Kysely<Database>, now: Date): Promise<number> {
  const { resultRetentionDays } = await getSettings(db);
  if (!resultRetentionDays) return 0;
  const before = new Date(now.getTime() - resultRetentionDays * DAY_MS);
  const files = await db
    .selectFrom("result_files")
    .innerJoin("scrub_jobs", "scrub_jobs.id", "result_files.job_id")
    .select(["result_files.id", "result_files.path", "result_files.job_id"])
    .where("scrub_jobs.finished_at", "<", before)
    .limit(1000)
    .execute();
  for (const f of files) {
    fs.rmSync(f.path, { force: true });
    await db.deleteFrom("result_files").where("id", "=", f.id).execute();
  }
  const jobs = [...new Set(files.map((f) => f.job_id))];
  if (jobs.length) await db.updateTable("scrub_jobs").set({ results_deleted_at: now }).where("id", "in", jobs).execute();
  return files.length;
}
