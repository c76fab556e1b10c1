import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { parsePhone } from "scrub-service/domain";
import { ApiError, apiHandler, json, validate } from "~/api/api.server";
import { requireApiWork } from "~/api/work.server";
import { callsOfBody, listNumberCalls, MAX_CALLS_JSON_BYTES, recordCalls, serializeCall } from "~/api/calls.server";
import { readJsonCapped } from "~/intake/api-body.server";
import { getCallCounters } from "~/utils/call-counters.server";

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
 * POST /api/v1/calls: the account's calls and texts, `{ "calls": [ … up to 10,000 ] }`, all or nothing: 201 with how
 * many were recorded and how many were ignored as repeats of a dialer call id, or 422 naming every bad record.
 * GET /api/v1/calls?number=…: one number's records, newest first, with its counts in the last 24 hours and 7 days.
 * Decision 185.
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
    const nowMs = Date.now();
    const r = await listNumberCalls(api.db, api.userId, p.number, { limit: q.limit, offset: q.offset, nowMs });
    const next = q.offset + r.records.length < r.totalRecords ? q.offset + r.records.length : null;
    return json(api, {
      number: p.digits,
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
    const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
    if (!type.startsWith("application/json")) throw new ApiError(415, "unsupported_media_type", 'Send application/json: { "calls": [ … ] }.');
    const body = await readJsonCapped(request, MAX_CALLS_JSON_BYTES);
    const records = callsOfBody(body, Date.now());
    await getCallCounters(); // the live counters these records feed (decision 196)
    const r = await recordCalls(api.db, api.userId, records);
    return json(api, { recorded: r.recorded, ignored: r.ignored, ids: r.ids }, { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
