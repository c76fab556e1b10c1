import fs from "node:fs";
import fsp from "node:fs/promises";
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { downloadName, downloadNameUtf8, getResultFileForViewer } from "~/models/purge.server";

/**
 * A purge result file (good, bad or invalid), streamed from disk. Only its owner (or an admin) gets it;
 * any other id, a malformed id, or a file no longer on disk is 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const file = await getResultFileForViewer(db, user, params.fileId ?? "");
  if (!file) throw new Response("Failed to download file", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  let size: number;
  try {
    const st = await fsp.stat(file.path);
    if (!st.isFile()) throw new Error("not a file");
    size = st.size;
  } catch {
    throw new Response("Failed to download file", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const name = downloadName(file.job_file_name, file.kind);
  const utf8Name = downloadNameUtf8(file.job_file_name, file.kind);
  const stream = createReadableStreamFromReadable(fs.createReadStream(file.path));
  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Length": String(size),
      "Content-Disposition": `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(utf8Name)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
