import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { addLogContext } from "~/utils/log.server";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { RoleName } from "db/schema";
import { getDb } from "~/utils/db.server";
import { commitSession, getSession, sessionStorage, type Toast } from "~/utils/session.server";
import { getActiveUserById, type SessionUser } from "~/models/user.server";
import { LoginError } from "~/utils/login-error.server";
import { LOGIN_MESSAGES, verifyLogin } from "~/accounts/sign-in.server";

export type { SessionUser };

export { LoginError };

/** The client address as the server saw it (server.mjs puts it in the load context; never a request header). */
export function clientIp(context: AppLoadContext | undefined): string {
  return context?.clientIp ?? "unknown";
}

export const authenticator = async () => {
  const auth = new Authenticator<{ id: string }>(await sessionStorage(), { sessionKey: "userId" });
  auth.use(
    new FormStrategy(async ({ form, context }) => {
      const email = String(form.get("email") ?? "").trim();
      const password = String(form.get("password") ?? "");
      if (!email || !password) throw new LoginError("Email and password are required.");
      return verifyLogin(email, password, clientIp(context));
    }),
    "form",
  );
  return auth;
};

/**
 * Signs in from a login form. Returns the user id, or throws LoginError with the message to show.
 */
export async function authenticateLogin(request: Request, context: AppLoadContext): Promise<{ id: string }> {
  const auth = await authenticator();
  try {
    return await auth.authenticate("form", request, { throwOnError: true, context });
  } catch (e) {
    if (e instanceof AuthorizationError) {
      const cause = e.cause;
      if (cause instanceof LoginError) throw cause;
      throw new LoginError(e.message || LOGIN_MESSAGES.invalid);
    }
    throw e;
  }
}

/** Starts a fresh session (new id: no fixation) for the user and returns its Set-Cookie value. */
export async function startUserSession(request: Request, userId: string, toast?: Toast): Promise<string> {
  const old = await getSession(request);
  const storage = await sessionStorage();
  if (old.id) await storage.destroySession(old);
  const session = await storage.getSession();
  session.set("userId", userId);
  if (toast) session.flash("toast", toast);
  return commitSession(session);
}

export async function getOptionalUser(request: Request): Promise<SessionUser | null> {
  const session = await getSession(request);
  const userId = session.get("userId") as string | undefined;
  if (!userId) return null;
  return (await getActiveUserById(await getDb(), userId)) ?? null;
}

export function loginRedirectUrl(request: Request): string {
  const url = new URL(request.url);
  const redirectTo = url.pathname + url.search;
  return `/login?${new URLSearchParams({ redirectTo })}`;
}

/** First line of every protected loader and action. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getOptionalUser(request);
  if (!user) throw redirect(loginRedirectUrl(request));
  addLogContext({ userId: user.id });
  return user;
}

export interface AccessDeniedData {
  accessDenied: true;
  message: string;
  roles: RoleName[];
}

export { ADMIN_ROLES } from "~/models/user-permissions";

/**
 * Throws 403 (rendered by the route's error boundary as the Access Denied panel) unless the user has one
 * of the roles.
 */
export async function requireRole(
  request: Request,
  roles: RoleName[],
  message = "Access denied. You need Admin or SuperAdmin role to access this page.",
): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!roles.includes(user.role)) {
    throw data<AccessDeniedData>({ accessDenied: true, message, roles: [user.role] }, { status: 403 });
  }
  return user;
}
