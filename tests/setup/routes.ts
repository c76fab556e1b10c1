import type { Kysely } from "kysely";
import type { Database, RoleName } from "../../db/schema";
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
  const { startUserSession } = await import("~/utils/auth.server");
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
