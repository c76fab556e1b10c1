import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/utils/auth.server";
import { stageUpload } from "~/utils/list-upload.server";

/**
 * POST (multipart, one `file` part): stages a list file for the container and DNC dialogs while they show
 * upload progress (JavaScript only; without it the dialogs post the file with the form). Answers JSON
 * `{ token, fileName, bytes }`, or `{ error }` with 400/413. The token is only usable by the same user.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return Response.json({ error: "Method not allowed." }, { status: 405 });
  const r = await stageUpload(request, user.id);
  if (!r.ok) return Response.json({ error: r.error }, { status: r.status });
  return Response.json(r.upload);
}
