import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { ApiContext } from "~/api/api.server";
import {
  answerCompat,
  authenticateCompat,
  CompatRefusal,
  compatCsv,
  countsText,
  noteAnswered,
  noteRefusal,
  oneLine,
  parsePhoneList,
  presentedKey,
  readCompatParams,
  refusalOf,
  requireLookupAccess,
  textAnswer,
} from "~/api/compat.server";

/**
 * GET and POST /api/compat/dncscrub/scrub: the DNCScrub scrub API's contract (issue #48, decision 189) for dialers that
 * already speak it (VICIdial's AST_DNCcom_filter.pl with DNC_DOT_COM_URL pointed here). The key in a `loginId` header
 * or field; `phoneList`, `campaignId` (the call-history subject and the campaign's settings), `projId` and `version`
 * (read, not used), `output` csv (default: no header, one line per number in the order sent) or json. Decided by the
 * live lookup (answerLookup); a refusal is one line of text (the filter ignores statuses), logged with its reason.
 */
async function handle(request: Request): Promise<Response> {
  let api: ApiContext | null = null;
  let output = "csv";
  let numbers: number | null = null;
  let campaignId: string | null = null;
  try {
    const method = request.method.toUpperCase();
    if (method !== "GET" && method !== "HEAD" && method !== "POST")
      throw new CompatRefusal(405, `${request.method} is not allowed here: use GET or POST.`, { Allow: "GET, POST" });
    // a key in the header is checked before the body is read; one in the body after
    const early = presentedKey(request, null, "loginId");
    if (early) api = await authenticateCompat(early, "");
    const params = await readCompatParams(request);
    output = (params.get("output") ?? "csv").trim().toLowerCase() || "csv";
    if (output !== "csv" && output !== "json") {
      output = "csv";
      throw new CompatRefusal(400, "output must be csv or json.");
    }
    api ??= await authenticateCompat(presentedKey(request, params, "loginId"), "No API key: send your key as the loginId header or form field.");
    await requireLookupAccess(api);
    campaignId = params.get("campaignId")?.trim() || null;
    const entries = parsePhoneList(params.get("phoneList"));
    numbers = entries.length;
    const answer = await answerCompat(api, entries, { campaignId, now: new Date() });
    await noteAnswered("scrub", request, api, 200, countsText(entries.length, answer.counts), { numbers, campaignId });
    if (output === "json") return textAnswer(api, JSON.stringify(answer.rows), 200, {}, "application/json; charset=utf-8");
    return textAnswer(api, compatCsv(answer.rows), 200, {}, "text/csv; charset=utf-8");
  } catch (e) {
    const r = refusalOf(e);
    await noteRefusal("scrub", request, r, api, { numbers, campaignId });
    if (output === "json") {
      return textAnswer(
        api,
        JSON.stringify({ error: { status: r.status, message: oneLine(r.message) } }),
        r.status,
        r.headers,
        "application/json; charset=utf-8",
      );
    }
    return textAnswer(api, `ERROR: ${oneLine(r.message)}\n`, r.status, r.headers);
  }
}

export const loader = ({ request }: LoaderFunctionArgs) => handle(request);
export const action = ({ request }: ActionFunctionArgs) => handle(request);
