import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, json } from "~/api/api.server";
import { nextOffset, readNumberPage } from "~/api/number-page.server";
import { requireApiWork } from "~/api/work.server";
import { MAX_OPT_OUTS_JSON_BYTES, optOutsOfBody, serializeOptOut } from "~/api/opt-outs.server";
import { readJsonOnly } from "~/intake/api-body.server";
import { recordOptOuts } from "~/intake/opt-outs.server";
import { listNumberOptOuts } from "~/models/opt-out.server";
import { getScrubService } from "~/utils/scrub.server";

/**
 * POST /api/v1/opt-outs: a do-not-call request or revocation of consent the account received, `{ number, received_at,
 * channel, words, subject? }`, or `{ "opt_outs": [ … up to 10,000 ] }`, all or nothing: 201 with the ids, the internal
 * do-not-call list they were added to and the instant they were honoured, or 422 naming every bad record.
 * GET /api/v1/opt-outs?number=…: one number's opt-outs, newest received first. Decision 195.
 */
const handle = apiHandler({
  async GET({ api, request }) {
    const q = readNumberPage(request);
    const r = await listNumberOptOuts(api.db, api.userId, q.number, { limit: q.limit, offset: q.offset });
    const next = nextOffset(q, r.records.length, r.total);
    return json(api, { number: q.digits, total: r.total, next_offset: next, data: r.records.map(serializeOptOut) });
  },

  async POST({ api, request }) {
    await requireApiWork(api, "container");
    const body = await readJsonOnly(request, MAX_OPT_OUTS_JSON_BYTES, '{ "number", "received_at", "channel", "words" } or { "opt_outs": [ … ] }');
    const { records } = optOutsOfBody(body, Date.now());
    const r = await recordOptOuts(api.db, await getScrubService(), { userId: api.userId, createdBy: api.userId, source: "api", records, apiKeyId: api.keyId });
    return json(
      api,
      { recorded: r.ids.length, ids: r.ids, internal_list_id: r.listId, load_id: r.loadId, honoured_at: r.honouredAt.toISOString() },
      { status: 201 },
    );
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
