import { formatDate } from "~/utils/format";
import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest } from "../../tests/setup/request";
import { callRoute, createSignedInUser, statusOf } from "../../tests/setup/routes";
import { listOutbox } from "~/utils/email.server";
import { getSession } from "~/utils/session.server";
import { getJobForViewer, jobView, listHistory } from "~/models/purge.server";
import { runProofHousekeeping } from "./proof-sweep.server";
import * as reminderRoute from "../routes/purge.jobs.$jobId.reminder";

const { handle } = useAppTestDb();
const db = () => handle().db;
const DAY = 86_400_000;

let seq = 0;
async function user(role: "NormalUser" | "Admin" = "NormalUser") {
  seq++;
  const email = `remind${seq}@example.com`;
  return { ...(await createSignedInUser(db(), { email, role, firstName: "R", lastName: `M${seq}`, company: "Co" })), email, role };
}

async function completedJob(userId: string, validUntil: Date | null) {
  const job = await db()
    .insertInto("scrub_jobs")
    .values({
      user_id: userId,
      file_name: "leads.csv",
      source: "web",
      suppression_type: "DNCAndLitigation",
      status: "completed",
      input_path: "",
      finished_at: new Date(),
      valid_until: validUntil,
      dnc_age_days: 5,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return job.id;
}

const post = (jobId: string, cookie: string, intent: string, redirectTo = `/purge?step=6&job=${jobId}`) =>
  callRoute(reminderRoute.action, makeRequest(`/purge/jobs/${jobId}/reminder`, { cookie, form: { intent, redirectTo } }), { jobId });
const remindAt = async (jobId: string) =>
  await db().selectFrom("scrub_jobs").select(["remind_at", "reminder_sent_at"]).where("id", "=", jobId).executeTakeFirstOrThrow();
const toastOf = async (cookie: string) => (await getSession(makeRequest("/", { cookie }))).get("toast");

describe("remind me to re-scrub", () => {
  it("the owner sets it (3 days before valid-until) and cancels it; screens show it; back to where they came from", async () => {
    const owner = await user();
    const validUntil = new Date(Date.now() + 20 * DAY);
    const jobId = await completedJob(owner.id, validUntil);
    const viewOf = async () => jobView(await getJobForViewer(db(), owner, jobId))!.reminder;
    expect(await viewOf()).toEqual({ kind: "open", validUntil: validUntil.toISOString() });

    const set = (await post(jobId, owner.cookie, "remind")) as Response;
    expect([set.status, set.headers.get("Location")]).toEqual([302, `/purge?step=6&job=${jobId}`]);
    const at = new Date(validUntil.getTime() - 3 * DAY);
    expect((await remindAt(jobId)).remind_at?.toISOString()).toBe(at.toISOString());
    expect(await toastOf(owner.cookie)).toMatchObject({ kind: "success", title: "Reminder set" });
    expect(await viewOf()).toEqual({ kind: "set", validUntil: validUntil.toISOString(), remindAt: at.toISOString() });
    const history = await listHistory(db(), owner, { page: 1 });
    expect(history.rows.find((r) => r.id === jobId)?.reminder).toMatchObject({ kind: "set" });

    const cancel = (await post(jobId, owner.cookie, "cancel", "/history?page=1")) as Response;
    expect(cancel.headers.get("Location")).toBe("/history?page=1");
    expect((await remindAt(jobId)).remind_at).toBeNull();
    expect(await toastOf(owner.cookie)).toMatchObject({ title: "Reminder cancelled" });
    // a hostile return path falls back to history
    const hostile = (await post(jobId, owner.cookie, "remind", "//evil.example/x")) as Response;
    expect(hostile.headers.get("Location")).toBe("/history");
  });

  it("another user (an admin too) can neither set nor cancel it: 404, nothing changed (IDOR)", async () => {
    const owner = await user();
    const other = await user();
    const admin = await user("Admin");
    const jobId = await completedJob(owner.id, new Date(Date.now() + 10 * DAY));
    for (const u of [other, admin]) expect(statusOf(await post(jobId, u.cookie, "remind"))).toBe(404);
    expect((await remindAt(jobId)).remind_at).toBeNull();
    await post(jobId, owner.cookie, "remind");
    const before = (await remindAt(jobId)).remind_at?.toISOString();
    for (const u of [other, admin]) expect(statusOf(await post(jobId, u.cookie, "cancel"))).toBe(404);
    expect((await remindAt(jobId)).remind_at?.toISOString()).toBe(before);
    // unknown and malformed ids, and a job without a DNC window
    expect(statusOf(await post("00000000-0000-4000-8000-000000000000", owner.cookie, "remind"))).toBe(404);
    expect(statusOf(await post("x'or'1", owner.cookie, "remind"))).toBe(404);
    expect(statusOf(await post(await completedJob(owner.id, null), owner.cookie, "remind"))).toBe(404);
    expect(statusOf(await post(jobId, owner.cookie, "snooze"))).toBe(400);
    expect(statusOf(await callRoute(reminderRoute.action, makeRequest(`/purge/jobs/${jobId}/reminder`, { form: { intent: "remind" } }), { jobId }))).toBe(302);
  });

  it("housekeeping (clock injected) sends it once, when due; a passed window cannot be asked for", async () => {
    const owner = await user();
    const validUntil = new Date(Date.now() + 10 * DAY);
    const jobId = await completedJob(owner.id, validUntil);
    await post(jobId, owner.cookie, "remind");
    const due = new Date(validUntil.getTime() - 3 * DAY);
    // (other tests' jobs share the database: count this owner's mail)
    await runProofHousekeeping(db(), new Date(due.getTime() - 60_000));
    expect(await listOutbox(db(), { to: owner.email })).toEqual([]);
    expect((await runProofHousekeeping(db(), due)).reminded).toBeGreaterThan(0);
    expect((await runProofHousekeeping(db(), new Date(due.getTime() + DAY))).reminded).toBe(0);
    const mail = await listOutbox(db(), { to: owner.email });
    expect(mail.map((m) => m.subject)).toEqual([`Re-scrub leads.csv before ${formatDate(validUntil)}`]);
    expect(mail[0].subject).toMatch(/ before [A-Z][a-z]{2} \d{2}, \d{4}$/); // the one date format, as on every screen
    expect((await remindAt(jobId)).reminder_sent_at?.toISOString()).toBe(due.toISOString());
    expect(jobView(await getJobForViewer(db(), owner, jobId))!.reminder).toEqual({
      kind: "sent",
      validUntil: validUntil.toISOString(),
      sentAt: due.toISOString(),
    });
    // sent: neither a new request nor a cancel changes it
    await post(jobId, owner.cookie, "cancel");
    expect(await toastOf(owner.cookie)).toMatchObject({ kind: "error", description: "The reminder for this purge has already been sent." });

    const expired = await completedJob(owner.id, new Date(Date.now() - DAY));
    expect(jobView(await getJobForViewer(db(), owner, expired))!.reminder).toEqual({ kind: "none" });
    const r = (await post(expired, owner.cookie, "remind")) as Response;
    expect(r.status).toBe(302);
    expect(await toastOf(owner.cookie)).toMatchObject({ kind: "error", title: "No reminder" });
    expect((await remindAt(expired)).remind_at).toBeNull();
  });
});
