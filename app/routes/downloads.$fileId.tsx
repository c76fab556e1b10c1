import fs from "node:fs";
import fsp from "node:fs/promises";
import { createReadableStreamFromReadable, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/accounts/auth.server";
import { flashToast } from "~/utils/session.server";
import { getDb } from "~/utils/db.server";
import { downloadName, downloadNameUtf8, getResultFileForViewer } from "~/models/purge.server";

/**
 * A purge result file (good, bad or invalid), streamed from disk. Only its owner (or an admin) gets it;
 * any other id or a malformed id is 404. The owner's file no longer on disk sends them to History with the
 * spec's alert, so a failed download always says so (the links carry no `download` attribute for that reason).
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
    const toast = {
      kind: "error" as const,
      title: "Failed to download file",
      description: "This result file is no longer available. Run the purge again to produce it.",
    };
    throw redirect("/history", { headers: { "Set-Cookie": await flashToast(request, toast) } });
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
