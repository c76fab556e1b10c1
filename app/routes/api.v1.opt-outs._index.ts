import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parsePhone } from "scrub-service/domain";
import { ApiError, apiHandler, json, validate } from "~/api/api.server";
import { requireApiWork } from "~/api/work.server";
import { MAX_OPT_OUTS_JSON_BYTES, optOutsOfBody, serializeOptOut } from "~/api/opt-outs.server";
import { readJsonCapped } from "~/intake/api-body.server";
import { recordOptOuts } from "~/intake/opt-outs.server";
import { listNumberOptOuts } from "~/models/opt-out.server";
import { getScrubService } from "~/utils/scrub.server";

const listQuery = z.object({
  number: z.string({ error: "number is required" }).trim().min(1, "number is required"),
  limit: z.coerce
    .number({ error: "limit must be a whole number" })
    .int("limit must be a whole number")
    .min(1, "limit must be 1 to 500")
    .max(500, "limit must be 1 to 500")
    .default(100),
  offset: z.coerce.number({ error: "offset must be a whole number" }).int("offset must be a whole number").min(0, "offset must be 0 or more").default(0),
});

/**
 * POST /api/v1/opt-outs: a do-not-call request or revocation of consent the account received, `{ number, received_at,
 * channel, words, subject? }`, or `{ "opt_outs": [ … up to 10,000 ] }`, all or nothing: 201 with the ids, the internal
 * do-not-call list they were added to and the instant they were honoured, or 422 naming every bad record.
 * GET /api/v1/opt-outs?number=…: one number's opt-outs, newest received first. Decision 195.
 */
const handle = apiHandler({
  async GET({ api, request }) {
    const url = new URL(request.url);
    const q = validate(listQuery, {
      number: url.searchParams.get("number") ?? undefined,
      limit: url.searchParams.get("limit") ?? undefined,
      offset: url.searchParams.get("offset") ?? undefined,
    });
    const p = parsePhone(q.number);
    if (!p.ok) throw new ApiError(422, "validation_failed", `number: ${p.message}`, [{ field: "number", message: p.message }]);
    const r = await listNumberOptOuts(api.db, api.userId, p.number, { limit: q.limit, offset: q.offset });
    const next = q.offset + r.records.length < r.total ? q.offset + r.records.length : null;
    return json(api, { number: p.digits, total: r.total, next_offset: next, data: r.records.map(serializeOptOut) });
  },

  async POST({ api, request }) {
    await requireApiWork(api, "container");
    const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
    if (!type.startsWith("application/json")) {
      throw new ApiError(415, "unsupported_media_type", 'Send application/json: { "number", "received_at", "channel", "words" } or { "opt_outs": [ … ] }.');
    }
    const body = await readJsonCapped(request, MAX_OPT_OUTS_JSON_BYTES);
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
