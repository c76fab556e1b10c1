import type { ActionFunctionArgs } from "@remix-run/node";
import { ADMIN_ROLES, requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { getPlanState, NoPlanError } from "~/models/usage.server";
import { PHONE_ENTRY_MESSAGES } from "~/intake/typed-numbers";
import { isMultipart, readUploadForm } from "~/intake/upload-form.server";
import { pruneStagedUploads } from "~/intake/upload-store.server";

/**
 * POST (multipart, one `file` part): stages a list file for the container and DNC dialogs while they show
 * upload progress (JavaScript only; without it the dialogs post the file with the form). Answers JSON
 * `{ token, fileName, bytes }`, or `{ error }` with 400/402/413. The token is only usable by the same user, once.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return Response.json({ error: "Method not allowed." }, { status: 405 });
  // Checked before the body is read: files come only from users with a plan, or admins (DNC lists).
  if (isMultipart(request) && !ADMIN_ROLES.includes(user.role) && !(await getPlanState(await getDb(), user.id)).hasAccess) {
    return Response.json({ error: new NoPlanError("container").message }, { status: 402 });
  }
  const form = await readUploadForm(request, { userId: user.id, maxTextBytes: 16 * 1024, staged: true });
  if (form.refusal) return Response.json({ error: form.refusal.message }, { status: form.refusal.status });
  if (!form.upload) return Response.json({ error: PHONE_ENTRY_MESSAGES.noFile }, { status: 400 });
  await pruneStagedUploads(user.id);
  return Response.json({ token: form.upload.id, fileName: form.upload.originalName, bytes: form.upload.bytes });
}
