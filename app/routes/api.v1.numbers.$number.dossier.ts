import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parsePhone } from "scrub-service/domain";
import { ApiError, apiHandler, fieldError, json, rateHeaders } from "~/api/api.server";
import { dayWindow, dossierFile, numberDossier } from "~/api/ledger-export.server";

/**
 * GET /api/v1/numbers/{number}/dossier?from=YYYY-MM-DD&to=YYYY-MM-DD: one number's dossier for the key owner (format
 * number-dossier/1): its decisions (lookup answers and reservations with the rules and list versions and the reason,
 * opt-outs received and honoured, exemption list changes), the window's scrubs and own-list versions, its calls and
 * texts, exemption records and opt-outs, the lists holding it now, and the ledger proof (the window's entries, those
 * not about it as digests, and the signed day heads). `npm run verify -- --dossier FILE` checks it offline. Only the
 * owner's own. `format=pdf`: the same as a PDF for people, the JSON attached inside it. Decision 197.
 */
const handle = apiHandler({
  async GET({ api, request, params }) {
    const p = parsePhone(params.number ?? "");
    if (!p.ok) throw new ApiError(422, "validation_failed", `number: ${p.message}`, [{ field: "number", message: p.message }]);
    const now = new Date();
    const url = new URL(request.url);
    const format = url.searchParams.get("format") ?? "json";
    if (format !== "json" && format !== "pdf") throw fieldError("format", "must be json or pdf");
    const { from, to } = dayWindow(url, now);
    const dossier = await numberDossier(api, p.number, { from, to }, now);
    if (format === "json") return json(api, dossier);
    const file = await dossierFile(dossier, "pdf");
    const headers = rateHeaders(api.rate);
    headers.set("Content-Type", file.contentType);
    headers.set("Content-Disposition", `attachment; filename="dossier-${p.digits}-${from}-${to}.pdf"`);
    headers.set("Cache-Control", "no-store");
    return new Response(file.body, { headers });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
