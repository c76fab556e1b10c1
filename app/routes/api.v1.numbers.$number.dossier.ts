import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parsePhone } from "scrub-service/domain";
import { ApiError, apiHandler, json } from "~/api/api.server";
import { dayWindow, numberDossier } from "~/api/ledger-export.server";

/**
 * GET /api/v1/numbers/{number}/dossier?from=YYYY-MM-DD&to=YYYY-MM-DD: one number's dossier for the key owner (format
 * number-dossier/1): its decisions (lookup answers and reservations with the rules and list versions and the reason,
 * opt-outs received and honoured, exemption list changes), the window's scrubs and own-list versions, its calls and
 * texts, exemption records and opt-outs, the lists holding it now, and the ledger proof (the window's entries, those
 * not about it as digests, and the signed day heads). `npm run verify -- --dossier FILE` checks it offline. Only the
 * owner's own. Decision 197.
 */
const handle = apiHandler({
  async GET({ api, request, params }) {
    const p = parsePhone(params.number ?? "");
    if (!p.ok) throw new ApiError(422, "validation_failed", `number: ${p.message}`, [{ field: "number", message: p.message }]);
    const now = new Date();
    const { from, to } = dayWindow(new URL(request.url), now);
    return json(api, await numberDossier(api, p.number, { from, to }, now));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
