import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonText } from "~/api/api.server";
import { isUnlimitedRole, recordLookupUsage } from "~/models/usage.server";
import { getScrubService } from "~/utils/scrub.server";
import { answerLookup, readLookupInput, requireLookupAccess } from "~/api/lookup.server";
import { recordLookupInLedger } from "~/api/ledger.server";
import { getCallCounters } from "~/utils/call-counters.server";

const handle = apiHandler(
  {
    /**
     * POST /api/v1/lookup: up to 1,000 numbers answered at once, in order: normalized number, valid or the
     * reason, and the lists and the key owner's containers holding it. Counted as DNC suppression usage once
     * answered; a list or the call history that cannot be read fails the request (503) and counts nothing.
     * `reserve`: the pre-dial step, a reserved attempt per number callable now (decision 187). Its own request budget
     * (200 a second per key, not the API's 1000 an hour) and usage counted in memory: decision 111.
     */
    async POST({ request, api }) {
      await requireLookupAccess(api);
      const input = await readLookupInput(request);
      // the usage is recorded once the lists and the call history answered; with `reserve` inside the reservation's
      // transaction (a refused usage reserves nothing): decision 187
      const usage = (amount: number, within?: typeof api.db) =>
        recordLookupUsage(api.db, { userId: api.userId, amount, unlimited: isUnlimitedRole(api.role), period: api.period, within });
      // a reservation counts inside its transaction: the plan's usage is read first, outside it, so that inside only the
      // in-memory meter is touched and nothing waits on a connection the transaction holds (PGlite has one)
      if (input.calls?.reserve) await usage(0);
      const recordUsage = (within?: typeof api.db) => usage(input.entries.codes.length, within);
      const asked = { db: api.db, service: await getScrubService(), userId: api.userId, containerId: api.containerId, counters: await getCallCounters() };
      const answered = await answerLookup(asked, input, undefined, { recordUsage });
      const body = answered.json();
      recordLookupInLedger(api.db, api.userId, body); // the decision ledger, queued (decision 197)
      return jsonText(api, body);
    },
  },
  { budget: "lookup" },
);

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
