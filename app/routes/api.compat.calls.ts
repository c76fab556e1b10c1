import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, apiErrorOf, errorResponse, json, rateHeaders, type ApiContext } from "~/api/api.server";
import { recordCalls } from "~/api/calls.server";
import { readCompatCalls } from "~/api/compat-calls.server";
import { authenticateCompat, noteAnswered, noteRefusal, presentedKey, refusalOf } from "~/api/compat.server";
import { requireApiWork } from "~/api/work.server";
import { getCallCounters } from "~/utils/call-counters.server";

/**
 * GET and POST /api/compat/calls?tz=…: a dialer's calls into the call history (issue #48), so the caps count every call
 * it made. VICIdial's vicidial_log columns (a dispo URL's query, a form, JSON or a CSV export; `tz` required for a
 * call_date, which has no offset; a row without one is recorded at the moment it arrives) or a generic webhook's JSON records (POST /api/v1/calls's fields). The key as
 * `Authorization: Bearer`, a `loginId` header or the `key` query parameter. All or nothing: 201 with how many were
 * recorded and how many ignored as a repeated dialer call id (VICIdial's uniqueid), or 4xx naming the problem.
 */
async function handle(request: Request): Promise<Response> {
  let api: ApiContext | null = null;
  try {
    const url = new URL(request.url);
    api = await authenticateCompat(
      presentedKey(request, new Map(url.searchParams), "key"),
      "No API key: send it as 'Authorization: Bearer <key>', a loginId header or the key parameter.",
    );
    const method = request.method.toUpperCase();
    if (method !== "GET" && method !== "POST")
      throw new ApiError(405, "method_not_allowed", `${request.method} is not allowed here.`, undefined, { Allow: "GET, POST" });
    await requireApiWork(api, "suppression");
    const { records } = await readCompatCalls(request, Date.now());
    await getCallCounters(); // the live counters these records feed (decision 196)
    const r = await recordCalls(api.db, api.userId, records);
    await noteAnswered("calls", request, api, 201, `${records.length} call${records.length === 1 ? "" : "s"}: ${r.recorded} recorded, ${r.ignored} repeated`, {
      numbers: records.length,
      campaignId: records[0]?.subject ?? null,
    });
    return json(api, { recorded: r.recorded, ignored: r.ignored }, { status: 201 });
  } catch (e) {
    const r = refusalOf(e);
    await noteRefusal("calls", request, r, api);
    const err = apiErrorOf(e) ?? new ApiError(r.status, r.status === 401 ? "missing_api_key" : "internal_error", r.message);
    return errorResponse(err, api ? rateHeaders(api.rate) : undefined);
  }
}

export const loader = ({ request }: LoaderFunctionArgs) => handle(request);
export const action = ({ request }: ActionFunctionArgs) => handle(request);
