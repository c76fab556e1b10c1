import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { getPlanState, NoPlanError } from "~/models/usage.server";
import { handleCsvUpload, parseUploadForm } from "~/utils/purge-start.server";

/**
 * Step 4's CSV upload for the browser with JavaScript (XMLHttpRequest, so the page can show upload progress):
 * the same checks as the /purge action, answered as JSON `{ redirectTo }` or `{ error: { title, message } }`.
 * Without JavaScript the form posts to /purge itself.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  if (!(await getPlanState(db, user.id)).hasAccess) {
    return Response.json({ error: { title: "Subscription Required", message: new NoPlanError("suppression").message } }, { status: 402 });
  }
  const parsed = await parseUploadForm(request, user.id);
  if (!("formData" in parsed)) return Response.json({ error: { title: "Validation Error", message: parsed.message } }, { status: parsed.status });
  const outcome = await handleCsvUpload(user.id, parsed.formData);
  if (outcome.ok) return Response.json({ redirectTo: outcome.redirectTo });
  return Response.json({ error: { title: "Validation Error", message: outcome.message } }, { status: outcome.status });
}
