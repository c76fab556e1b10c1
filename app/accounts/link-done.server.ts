import crypto from "node:crypto";
import { redirect } from "@remix-run/node";
import type { AuthTokenKind } from "~/models/auth-token.server";
import { secureCookies } from "~/utils/session.server";

/*
 * A single-use link's page after its form succeeded (#13 item 10). The action answers with a redirect back to
 * the link (POST/redirect/GET, with and without JavaScript) and a short cookie naming that link (a hash of its
 * kind and path); the loader, finding the link used, shows the success state with 200 instead of "invalid
 * link". The cookie only ever turns an already-used link's page into its success page, for the browser that
 * used it. (Path=/auth, not the link's own path: with JavaScript the page's data comes from "<path>.data".)
 */
const COOKIE = "link_done";
const MAX_AGE_SECONDS = 300;

function mark(kind: AuthTokenKind, pathname: string): string {
  return crypto.createHash("sha256").update(`${kind} ${pathname}`).digest("base64url");
}

function cookie(value: string, maxAge: number): string {
  return `${COOKIE}=${value}; Path=/auth; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secureCookies() ? "; Secure" : ""}`;
}

/** The action's answer after the link was used: back to the same link (a path: never a URL from headers). */
export function redirectToUsedLink(request: Request, kind: AuthTokenKind, headers: [string, string][] = []): Response {
  const path = new URL(request.url).pathname;
  const out = new Headers(headers);
  out.append("Set-Cookie", cookie(mark(kind, path), MAX_AGE_SECONDS));
  return redirect(path, { status: 303, headers: out });
}

/** Whether this browser has just used the link it asks for; `clear` is the Set-Cookie that forgets it. */
export function justUsedLink(request: Request, kind: AuthTokenKind): { clear: string } | null {
  const expected = `${COOKIE}=${mark(kind, new URL(request.url).pathname)}`;
  const sent = (request.headers.get("Cookie") ?? "").split(/;\s*/).includes(expected);
  return sent ? { clear: cookie("", 0) } : null;
}
