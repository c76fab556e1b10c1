import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, json } from "~/api/api.server";
import { dayWindow, ledgerOfApi } from "~/api/ledger-export.server";

/**
 * GET /api/v1/ledger?from=YYYY-MM-DD&to=YYYY-MM-DD: the key owner's decision ledger in those UTC days (default: the
 * last 31 days to today; at most 366): its entries with their chain links, the signed head before them (`anchor`) and
 * the signed heads of the days in the window, format decision-ledger/1. Save it as it is and check it offline with
 * `npm run verify -- --ledger FILE` against the keys at /.well-known/scrub-certificate-key. Only the owner's own
 * ledger: another account's key sees its own. Decision 197.
 */
const handle = apiHandler({
  async GET({ api, request }) {
    const now = new Date();
    const { from, to } = dayWindow(new URL(request.url), now);
    return json(api, await ledgerOfApi(api, from, to, now));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
