import { checkCallRecords, MAX_CALLS_PER_REQUEST } from "scrub-service/domain";
import type { StoredCall } from "scrub-service";
import { recordsRefusal } from "./api.server";

/*
 * The call-history endpoints' pieces (issue #46, decision 185): the JSON body's bound, the records' checks as the
 * API's 422, a stored record as the API writes it.
 */

/**
 * Largest body of POST /api/v1/calls: 10,000 records of up to ~700 bytes each (three 200-character texts) with room
 * for JSON escapes. The route is in server-security.mjs's large-body routes; this cap decides to the byte.
 */
export const MAX_CALLS_JSON_BYTES = 16 * 1024 * 1024;

/** The body's `calls`, checked whole: the records, or 422 naming every bad record by index and field. */
export function callsOfBody(body: unknown, nowMs: number) {
  const calls = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as { calls?: unknown }).calls : undefined;
  const r = checkCallRecords(calls, nowMs);
  if (r.ok) return r.records;
  throw recordsRefusal("calls", r.errors);
}

export function serializeCall(c: StoredCall) {
  return {
    id: c.id,
    number: c.number,
    at: c.at.toISOString(),
    subject: c.subject,
    channel: c.channel,
    outcome: c.outcome,
    debt_id: c.debtId,
    dialer_call_id: c.dialerCallId,
    reserved: c.reserved,
    created_at: c.createdAt.toISOString(),
  };
}

export { MAX_CALLS_PER_REQUEST };

/** The engine's call-history queries, reached from the routes through this server-only module. */
export { deleteReservedCall, listNumberCalls, recordCalls } from "scrub-service";
