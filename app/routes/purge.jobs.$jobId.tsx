import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { getJobForViewer, jobView } from "~/models/purge.server";

/**
 * A purge job's progress as JSON, polled by the wizard's processing screen while JavaScript runs (one small
 * query instead of re-running every loader of the page). The user's own jobs only; anything else is 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const job = jobView(await getJobForViewer(db, user, params.jobId ?? ""));
  if (!job) throw new Response("Not found", { status: 404 });
  return Response.json(job, { headers: { "Cache-Control": "no-store" } });
}
