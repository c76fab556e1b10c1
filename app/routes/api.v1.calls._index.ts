import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, json } from "~/api/api.server";
import { nextOffset, readNumberPage } from "~/api/number-page.server";
import { requireApiWork } from "~/api/work.server";
import { callsOfBody, listNumberCalls, MAX_CALLS_JSON_BYTES, recordCalls, serializeCall } from "~/api/calls.server";
import { readJsonOnly } from "~/intake/api-body.server";
import { getCallCounters } from "~/utils/call-counters.server";

/**
 * POST /api/v1/calls: the account's calls and texts, `{ "calls": [ … up to 10,000 ] }`, all or nothing: 201 with how
 * many were recorded and how many were ignored as repeats of a dialer call id, or 422 naming every bad record.
 * GET /api/v1/calls?number=…: one number's records, newest first, with its counts in the last 24 hours and 7 days.
 * Decision 185.
 */
const handle = apiHandler({
  async GET({ api, request }) {
    const q = readNumberPage(request);
    const nowMs = Date.now();
    const r = await listNumberCalls(api.db, api.userId, q.number, { limit: q.limit, offset: q.offset, nowMs });
    const next = nextOffset(q, r.records.length, r.totalRecords);
    return json(api, {
      number: q.digits,
      at: new Date(nowMs).toISOString(),
      last_24_hours: r.last24h,
      last_7_days: r.last7d,
      total: r.totalRecords,
      next_offset: next,
      data: r.records.map(serializeCall),
    });
  },

  async POST({ api, request }) {
    await requireApiWork(api, "suppression");
    const body = await readJsonOnly(request, MAX_CALLS_JSON_BYTES, '{ "calls": [ … ] }');
    const records = callsOfBody(body, Date.now());
    await getCallCounters(); // the live counters these records feed (decision 196)
    const r = await recordCalls(api.db, api.userId, records);
    return json(api, { recorded: r.recorded, ignored: r.ignored, ids: r.ids }, { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
