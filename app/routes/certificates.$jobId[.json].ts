import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { certificateFileName, getCertificate } from "~/models/certificate.server";

/** The signed certificate file, byte for byte as issued (owner, or an admin). Another user's id is 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const cert = await getCertificate(await getDb(), user, params.jobId ?? "", { adminSeesAll: true });
  if (!cert) throw new Response("No certificate", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(cert.text, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${certificateFileName(cert.jobId)}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
