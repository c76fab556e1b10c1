import { openApiDocument } from "~/api/openapi";

/** GET /api/v1/openapi.json: the API description (public: it holds no account data). */
export function loader() {
  return new Response(JSON.stringify(openApiDocument, null, 2), {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
