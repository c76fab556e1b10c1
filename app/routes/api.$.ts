import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, errorResponse } from "~/api/api.server";

/** Any other path under /api: a JSON 404 (never the HTML not-found page). */
function notFound(request: Request): Response {
  const path = new URL(request.url).pathname;
  return errorResponse(new ApiError(404, "not_found", `No API endpoint at ${path}. See /api/v1/openapi.json.`));
}

export const loader = ({ request }: LoaderFunctionArgs) => notFound(request);
export const action = ({ request }: ActionFunctionArgs) => notFound(request);
