import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { getPlanState, NoPlanError } from "~/models/usage.server";
import { readUploadForm } from "~/intake/upload-form.server";
import { acceptWizardUpload } from "~/intake/wizard-upload.server";

/**
 * Step 4's CSV upload for the browser with JavaScript (XMLHttpRequest, so the page can show upload progress):
 * the same checks as the /purge action, answered as JSON `{ redirectTo }` or `{ error: { title, message } }`.
 * Without JavaScript the form posts to /purge itself.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  // Checked before the body is read: only users with a plan send files.
  if (!(await getPlanState(db, user.id)).hasAccess) {
    return Response.json({ error: { title: "Subscription Required", message: new NoPlanError("suppression").message } }, { status: 402 });
  }
  const outcome = await acceptWizardUpload(user.id, await readUploadForm(request, { userId: user.id }));
  if (outcome.ok) return Response.json({ redirectTo: outcome.redirectTo });
  return Response.json({ error: { title: "Validation Error", message: outcome.message } }, { status: outcome.status });
}
