import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDb } from "~/utils/db.server";
import { dayParam, publishedDayHeads } from "~/api/ledger-export.server";
import { ApiError, errorResponse } from "~/api/api.server";

/**
 * Public (decision 197): the decision ledgers' signed day heads, so that anyone may keep a copy as they are published
 * and later hold an export against them. `?day=YYYY-MM-DD`: every ledger's head of that UTC day; `?ledger=ID` (with
 * `from`/`to`, at most 366 days): one ledger's heads. A ledger is named by its public id (random, never the account),
 * a head by its seq and hash only: nothing about a customer's numbers or decisions. Each head is Ed25519-signed with a
 * key published at /.well-known/scrub-certificate-key.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  try {
    const ledger = url.searchParams.get("ledger");
    const dayAsked = url.searchParams.get("day");
    if (!ledger && !dayAsked) throw new ApiError(422, "validation_failed", "Ask for ?day=YYYY-MM-DD, or ?ledger=ID&from=YYYY-MM-DD&to=YYYY-MM-DD.");
    if (ledger && !/^lg_[A-Za-z0-9_-]{10,40}$/.test(ledger))
      throw new ApiError(422, "validation_failed", "ledger: not a ledger id", [{ field: "ledger", message: "not a ledger id" }]);
    const db = await getDb();
    let body: object;
    if (dayAsked) {
      const day = dayParam("day", dayAsked, "");
      body = { format: "ledger-day-heads/1", day, heads: await publishedDayHeads(db, { day, ...(ledger ? { ledger } : {}) }) };
    } else {
      const today = new Date().toISOString().slice(0, 10);
      const to = dayParam("to", url.searchParams.get("to"), today);
      const from = dayParam("from", url.searchParams.get("from"), new Date(Date.parse(`${to}T00:00:00Z`) - 365 * 86_400_000).toISOString().slice(0, 10));
      if (from > to || (Date.parse(to) - Date.parse(from)) / 86_400_000 >= 366)
        throw new ApiError(422, "validation_failed", "from: must be on or before to, at most 366 days before it", [{ field: "from", message: "bad window" }]);
      body = { format: "ledger-day-heads/1", ledger, from, to, heads: await publishedDayHeads(db, { ledger: ledger!, from, to }) };
    }
    return new Response(JSON.stringify({ ...body, keys: "/.well-known/scrub-certificate-key" }, null, 2) + "\n", {
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
    });
  } catch (e) {
    if (e instanceof ApiError) return errorResponse(e);
    throw e;
  }
}
