import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { ApiContext } from "~/api/api.server";
import {
  answerCompat,
  authenticateCompat,
  CompatRefusal,
  MAX_COMPAT_ENTRY,
  noteAnswered,
  noteRefusal,
  oneLine,
  presentedKey,
  refusalOf,
  requireLookupAccess,
  textAnswer,
} from "~/api/compat.server";

/**
 * GET /api/v1/check?phone=…: a yes/no for DID and IVR filters (issue #48, decision 190), as VICIdial's DID filter URL
 * expects: a plain body `1` when the number must not be called now (invalid, on a checked list, or outside its calling
 * hours or held by a call cap at this instant), `0` when it may; `format=boolean` answers `true`/`false`. The key as
 * `Authorization: Bearer`, a `loginId` header, or (for dialers that can only build URLs, at the risk of the key in
 * their logs) the `key` query parameter. `campaign` names the call-history subject and its settings. Decided by the
 * live lookup (answerLookup) like the compatible scrub, counted as one lookup. It fails closed: a refused request
 * answers `1` (`true`) with its error status and the reason in `X-Check-Error`, and is logged.
 */
async function handle(request: Request): Promise<Response> {
  let api: ApiContext | null = null;
  const url = new URL(request.url);
  const boolean = url.searchParams.get("format") === "boolean";
  const yes = boolean ? "true" : "1";
  const no = boolean ? "false" : "0";
  const campaignId = (url.searchParams.get("campaign") ?? url.searchParams.get("campaignId"))?.trim() || null;
  try {
    api = await authenticateCompat(
      presentedKey(request, new Map(url.searchParams), "key"),
      "No API key: send it as 'Authorization: Bearer <key>', a loginId header or the key parameter.",
    );
    const method = request.method.toUpperCase();
    if (method !== "GET" && method !== "HEAD") throw new CompatRefusal(405, `${request.method} is not allowed here: use GET.`, { Allow: "GET" });
    const format = url.searchParams.get("format");
    if (format !== null && format !== "boolean" && format !== "digit") throw new CompatRefusal(400, "format must be boolean or digit.");
    await requireLookupAccess(api);
    const phone = url.searchParams.get("phone")?.trim() ?? "";
    if (phone === "") throw new CompatRefusal(400, "phone is required: the number to check.");
    if (phone.length > MAX_COMPAT_ENTRY) throw new CompatRefusal(400, `phone is longer than ${MAX_COMPAT_ENTRY} characters.`);
    const [row] = (await answerCompat(api, [{ phone, identifier: "" }], { campaignId, now: new Date() })).rows;
    const mustNot = row.ResultCode === "D" || row.ResultCode === "I" || row.CallingWindow !== "NOW";
    await noteAnswered("check", request, api, 200, `${phone}: ${mustNot ? "1 (do not call now)" : "0 (may call)"}, code ${row.ResultCode}`, {
      numbers: 1,
      campaignId,
    });
    return textAnswer(api, mustNot ? yes : no);
  } catch (e) {
    const r = refusalOf(e);
    await noteRefusal("check", request, r, api, { numbers: null, campaignId });
    return textAnswer(api, yes, r.status, { ...r.headers, "X-Check-Error": oneLine(r.message).replace(/[^\x20-\x7e]/g, "?") });
  }
}

export const loader = ({ request }: LoaderFunctionArgs) => handle(request);
export const action = ({ request }: ActionFunctionArgs) => handle(request);
