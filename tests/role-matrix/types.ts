import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";

export type MatrixRole = "anonymous" | "NormalUser" | "UnlimitedUser" | "Admin" | "SuperAdmin";

/**
 * What a role gets:
 * - "login": redirected to /login (not signed in)
 * - "denied": 403
 * - "allowed": anything but a login redirect, 401, 403 or a 5xx/crash (a 400 for an empty form is still "allowed")
 * - a number: exactly that status
 * An action whose expected outcome is "login", "denied", 401 or 403 must also leave the database unchanged (the runner
 * compares a fingerprint of every table except sessions and throttling counters before and after).
 */
export type Outcome = "login" | "denied" | "allowed" | number;

export interface MatrixEntry {
  /** e.g. "GET /dnc" or "POST /dnc intent=add" */
  name: string;
  /** the route module, e.g. () => import("~/routes/_app.dnc") */
  route: () => Promise<{
    loader?: (args: LoaderFunctionArgs) => unknown;
    action?: (args: ActionFunctionArgs) => unknown;
  }>;
  kind: "loader" | "action";
  /** request path (with search), e.g. "/dnc" */
  path: string;
  params?: Record<string, string>;
  /** form fields for actions */
  form?: Record<string, string>;
  expect: Record<MatrixRole, Outcome>;
  /**
   * Optional: runs before each role's request, e.g. to create a fresh row to act on (so an allowed delete by
   * one role does not change what the next role sees). Its result overrides path, params and form; `cookie`
   * replaces the role's session cookie (e.g. a throwaway session for POST /logout).
   */
  setup?: (ctx: MatrixSetupContext) => Promise<Partial<Pick<MatrixEntry, "path" | "params" | "form">> & { cookie?: string }>;
}

export interface MatrixSetupContext {
  db: Kysely<Database>;
  /** the role about to make the request */
  role: MatrixRole;
  /** ids of the signed-in matrix users (e.g. to target oneself) */
  userIds: Record<Exclude<MatrixRole, "anonymous">, string>;
}

export const signedIn = (o: Outcome): Record<MatrixRole, Outcome> => ({
  anonymous: "login",
  NormalUser: o,
  UnlimitedUser: o,
  Admin: o,
  SuperAdmin: o,
});

export const adminOnly: Record<MatrixRole, Outcome> = {
  anonymous: "login",
  NormalUser: "denied",
  UnlimitedUser: "denied",
  Admin: "allowed",
  SuperAdmin: "allowed",
};

export const superAdminOnly: Record<MatrixRole, Outcome> = {
  anonymous: "login",
  NormalUser: "denied",
  UnlimitedUser: "denied",
  Admin: "denied",
  SuperAdmin: "allowed",
};

export const everyone = (o: Outcome = "allowed"): Record<MatrixRole, Outcome> => ({
  anonymous: o,
  NormalUser: o,
  UnlimitedUser: o,
  Admin: o,
  SuperAdmin: o,
});
