import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, json } from "~/api/api.server";
import { getPlanState } from "~/models/usage.server";
import { API_REQUESTS_PER_HOUR } from "~/api/rate-limit.server";

/** GET /api/v1/usage: the plan, this period's usage and limits (the same figures as the dashboard), and the rate limit. */
const handle = apiHandler({
  async GET({ api }) {
    const state = await getPlanState(api.db, api.userId);
    return json(api, {
      plan: state.plan ? { id: state.plan.id, name: state.plan.name, api_access: state.plan.apiAccess } : null,
      unlimited: state.unlimited,
      period: { start: state.periodStart.toISOString(), end: state.periodEnd.toISOString() },
      suppression: state.suppression,
      container: state.container,
      rate_limit: {
        limit_per_hour: API_REQUESTS_PER_HOUR,
        remaining: api.rate.remaining,
        reset: new Date(api.rate.reset * 1000).toISOString(),
      },
    });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
