import type { LoaderFunctionArgs } from "@remix-run/node";
import { parsePhone } from "scrub-service/domain";
import { requireUser } from "~/accounts/auth.server";
import { ApiError } from "~/api/api.server";
import { dayWindow, dossierFile, dossierOf, DossierTooLarge } from "~/api/ledger-export.server";
import { getDb } from "~/utils/db.server";

/**
 * GET /dossier?number=…&from=YYYY-MM-DD&to=YYYY-MM-DD&format=pdf|json: the signed-in customer's dossier of one number
 * (issue #47, decision 197), downloaded from the Call History screen's form (a plain GET form: the same with JavaScript
 * off). The same document as GET /api/v1/numbers/{number}/dossier: the PDF for people with the JSON attached, or the
 * JSON, which `npm run verify -- --dossier` checks offline. Only the customer's own ledger and records are read.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const refuse = (message: string) => new Response(`${message}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const p = parsePhone(url.searchParams.get("number") ?? "");
  if (!p.ok) return refuse(`The number: ${p.message}.`);
  const format = url.searchParams.get("format") ?? "pdf";
  if (format !== "pdf" && format !== "json") return refuse("The format must be pdf or json.");
  const now = new Date();
  let window: { from: string; to: string };
  try {
    window = dayWindow(url, now);
  } catch (e) {
    if (e instanceof ApiError) return refuse(`The dates: ${e.message}.`);
    throw e;
  }
  let dossier: Awaited<ReturnType<typeof dossierOf>>;
  try {
    dossier = await dossierOf(await getDb(), user.id, p.number, window, now);
  } catch (e) {
    if (e instanceof DossierTooLarge) return refuse(e.message);
    throw e;
  }
  const file = await dossierFile(dossier, format);
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="dossier-${p.digits}-${window.from}-${window.to}.${format}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
