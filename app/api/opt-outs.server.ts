import { checkOptOuts, type OptOut } from "scrub-service/domain";
import type { StoredOptOut } from "~/models/opt-out.server";
import { recordsRefusal } from "./api.server";

/*
 * The opt-out endpoints' pieces (issue #47, decision 195): the JSON body's bound, the records' checks as the API's
 * 422 (all or nothing, every bad record named, as POST /api/v1/calls), a stored opt-out as the API writes it.
 */

/**
 * Largest body of POST /api/v1/opt-outs: 10,000 opt-outs of up to ~1,300 characters each (1,000 of words, 200 of
 * subject), with room for JSON escapes. The route is in server-security.mjs's large-body routes; this cap decides.
 */
export const MAX_OPT_OUTS_JSON_BYTES = 32 * 1024 * 1024;

/** The body: one opt-out `{ number, received_at, channel, words, subject? }` or `{ opt_outs: [ … ] }`; 422 naming every bad record. */
export function optOutsOfBody(body: unknown, nowMs: number): { records: OptOut[]; single: boolean } {
  const obj = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  const single = obj !== null && !("opt_outs" in obj);
  const r = checkOptOuts(single ? [obj] : obj?.opt_outs, nowMs);
  if (r.ok) return { records: r.records, single };
  throw recordsRefusal("opt_outs", r.errors, single);
}

export function serializeOptOut(o: StoredOptOut) {
  return {
    id: o.id,
    number: o.number,
    received_at: o.receivedAt.toISOString(),
    honoured_at: o.honouredAt?.toISOString() ?? null,
    deadline: o.deadline.toISOString(),
    deadline_rule: o.deadlineRule,
    late: o.late,
    channel: o.channel,
    words: o.words,
    subject: o.subject,
    source: o.source,
    created_at: o.createdAt.toISOString(),
  };
}
