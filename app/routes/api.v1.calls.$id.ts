import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteReservedCall } from "~/api/calls.server";
import { ApiError, apiHandler, notFound } from "~/api/api.server";
import { getCallCounters } from "~/utils/call-counters.server";

/**
 * DELETE /api/v1/calls/:id: a reserved attempt never dialled goes (204); a record of a call made stays (409 conflict:
 * call records are kept five years); another account's record, or none: 404. Decision 185.
 */
const handle = apiHandler({
  async DELETE({ api, params }) {
    await getCallCounters(); // a released reservation leaves the live counters too (decision 196)
    const r = await deleteReservedCall(api.db, api.userId, params.id ?? "");
    if (r === "not_found") throw notFound("Call record");
    if (r === "not_reserved") {
      throw new ApiError(409, "conflict", "Only a reserved attempt that was never dialled can be deleted; a call record is kept five years.");
    }
    return new Response(null, {
      status: 204,
      headers: {
        "Cache-Control": "no-store",
        "X-RateLimit-Limit": String(api.rate.limit),
        "X-RateLimit-Remaining": String(api.rate.remaining),
        "X-RateLimit-Reset": String(api.rate.reset),
        "X-RateLimit-Window": String(api.rate.windowSeconds),
      },
    });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
