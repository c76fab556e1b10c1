import { openApiDocumentAt } from "~/api/openapi";
import { appUrl } from "~/utils/env.server";

/** GET /api/v1/openapi.json: the API description (public: it holds no account data); links on APP_URL. */
export function loader() {
  return new Response(JSON.stringify(openApiDocumentAt(appUrl()), null, 2), {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
