import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

export type MatrixRole = "anonymous" | "NormalUser" | "UnlimitedUser" | "Admin" | "SuperAdmin";

/**
 * What a role gets:
 * - "login": redirected to /login (not signed in)
 * - "denied": 403
 * - "allowed": anything but a login redirect, 401 or 403 (a 400 for an empty form is still "allowed")
 * - a number: exactly that status
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
