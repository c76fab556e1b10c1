import type { Kysely } from "kysely";
import type { Database, RoleName } from "db/schema";
import { makeRequest, testContext } from "./request";

/** A route module's loader or action, as the tests call it. */
export type RouteFn = (args: { request: Request; params: Record<string, string>; context: typeof testContext }) => unknown;

/** Calls a loader/action; what it throws (a redirect, a 403/404) is returned like what it returns. */
export async function callRoute(fn: RouteFn, request: Request, params: Record<string, string> = {}): Promise<unknown> {
  try {
    return await fn({ request, params, context: testContext });
  } catch (e) {
    return e;
  }
}

/** The HTTP status of a route's answer: a Response's, a `data(…, { status })`'s, else 200. */
export function statusOf(r: unknown): number {
  if (r instanceof Response) return r.status;
  const init = (r as { init?: { status?: number } } | null)?.init;
  return init?.status ?? 200;
}

/** An active, confirmed user with a signed-in session; `cookie` is the pair for the next request. */
export async function createSignedInUser(
  db: Kysely<Database>,
  user: { email: string; role: RoleName; firstName: string; lastName: string; company: string },
): Promise<{ id: string; cookie: string }> {
  // Imported here so a test file can set the environment before the app's modules are loaded.
  const { startUserSession } = await import("~/accounts/auth.server");
  const { id } = await db
    .insertInto("users")
    .values({
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      company: user.company,
      phone_number: "",
      password_hash: null,
      role: user.role,
      status: "Active",
      email_confirmed: true,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const cookie = (await startUserSession(makeRequest("/login"), id)).split(";")[0];
  return { id, cookie };
}

/**
 * A form's answer as the browser ends up with it: a redirect is followed with a GET of its Location through
 * `loader`, carrying the cookies it set; any other answer is returned as is.
 */
export async function followRedirect(answer: unknown, loader: RouteFn, params: Record<string, string>): Promise<unknown> {
  if (!(answer instanceof Response) || answer.status < 300 || answer.status >= 400) return answer;
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return callRoute(loader, makeRequest(answer.headers.get("Location")!, { cookie }), params);
}
