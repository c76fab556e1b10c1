import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { flashToast } from "~/utils/session.server";
import { safeRedirectPath } from "~/utils/safe-redirect-path";
import { formatDate } from "~/utils/format";
import { cancelReminder, requestReminder } from "~/models/reminder.server";

/**
 * "Remind me to re-scrub" (POST only, a plain form: works without JavaScript): intent=remind|cancel on the
 * user's own purge, then back to `redirectTo` (the results screen or history) with a toast. Ownership is in
 * the query: another user's job, an admin's view of it included, is 404.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "remind" && intent !== "cancel") return Response.json({ error: "intent must be remind or cancel." }, { status: 400 });
  const db = await getDb();
  const jobId = params.jobId ?? "";
  const r = intent === "remind" ? await requestReminder(db, { jobId, userId: user.id }) : await cancelReminder(db, { jobId, userId: user.id });
  if (!r.ok && r.notFound) throw new Response("Not found", { status: 404 });
  const toast = r.ok
    ? r.remindAt
      ? { kind: "success" as const, title: "Reminder set", description: `We will e-mail ${user.email} on ${formatDate(r.remindAt)} to re-scrub.` }
      : { kind: "info" as const, title: "Reminder cancelled" }
    : { kind: "error" as const, title: "No reminder", description: r.message };
  return redirect(safeRedirectPath(form.get("redirectTo"), "/history"), { headers: { "Set-Cookie": await flashToast(request, toast) } });
}
