import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, apiHandler, notFound } from "~/api/api.server";
import { getJobForUser } from "~/models/api-job.server";
import { certificateFileName, getCertificate } from "~/models/certificate.server";

/** GET /api/v1/scrubs/:id/certificate: the signed scrub certificate, byte for byte as issued. */
const handle = apiHandler({
  async GET({ params, api }) {
    const id = params.id ?? "";
    const cert = await getCertificate(api.db, { id: api.userId, role: "NormalUser" }, id);
    if (!cert) {
      const found = await getJobForUser(api.db, { id, userId: api.userId });
      if (found && (found.job.status === "queued" || found.job.status === "running")) {
        throw new ApiError(409, "result_not_ready", "The scrub has not finished yet; poll the job until its status is completed.");
      }
      throw notFound("Certificate");
    }
    return new Response(cert.text, {
      status: 200,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${certificateFileName(cert.jobId)}"`,
        "Cache-Control": "private, no-store",
        "X-RateLimit-Limit": String(api.rate.limit),
        "X-RateLimit-Remaining": String(api.rate.remaining),
        "X-RateLimit-Reset": String(api.rate.reset),
      },
    });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
