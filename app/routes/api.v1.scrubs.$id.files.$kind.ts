import fs from "node:fs";
import fsp from "node:fs/promises";
import { createReadableStreamFromReadable, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, apiHandler, notFound } from "~/api/api.server";
import { getJobForUser } from "~/models/api-job.server";
import { downloadName } from "~/models/purge.server";

const KINDS = ["good", "bad", "invalid"] as const;

/** GET /api/v1/scrubs/:id/files/:kind (good | bad | invalid): the result CSV, streamed from disk. */
const handle = apiHandler({
  async GET({ params, api }) {
    const kind = KINDS.find((k) => k === params.kind);
    if (!kind) throw notFound("Result file");
    const found = await getJobForUser(api.db, { id: params.id ?? "", userId: api.userId });
    if (!found) throw notFound("Scrub job");
    if (found.job.status === "queued" || found.job.status === "running") {
      throw new ApiError(409, "result_not_ready", "The scrub has not finished yet; poll the job until its status is completed.");
    }
    const file = found.files.find((f) => f.kind === kind);
    if (!file || found.job.status !== "completed") throw notFound("Result file");
    let size: number;
    try {
      const st = await fsp.stat(file.path);
      if (!st.isFile()) throw new Error("not a file");
      size = st.size;
    } catch {
      throw notFound("Result file");
    }
    const name = downloadName(found.job.file_name, kind);
    const headers = new Headers({
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Length": String(size),
      "Content-Disposition": `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "X-RateLimit-Limit": String(api.rate.limit),
      "X-RateLimit-Remaining": String(api.rate.remaining),
      "X-RateLimit-Reset": String(api.rate.reset),
    });
    return new Response(createReadableStreamFromReadable(fs.createReadStream(file.path)), { status: 200, headers });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
