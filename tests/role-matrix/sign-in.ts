import { startUserSession } from "~/accounts/auth.server";
import { makeRequest } from "../setup/request";
import { everyone, signedIn, type MatrixEntry } from "./types";

/** Sign-in, sign-out, the shell layout, the sidebar preference and the not-found page (foundation routes). */
export const entries: MatrixEntry[] = [
  // Signed-in visitors are sent on to where they were going (not back to /login).
  { name: "GET /login", route: () => import("~/routes/login"), kind: "loader", path: "/login", expect: { ...signedIn(302), anonymous: 200 } },
  // An empty form is a validation error for everyone (no credentials are checked, nothing is throttled).
  { name: "POST /login (empty form)", route: () => import("~/routes/login"), kind: "action", path: "/login", form: {}, expect: everyone(400) },
  { name: "GET /logout", route: () => import("~/routes/logout"), kind: "loader", path: "/logout", expect: everyone("login") },
  {
    name: "POST /logout",
    route: () => import("~/routes/logout"),
    kind: "action",
    path: "/logout",
    // A throwaway session per role, so signing out does not end the matrix user's own session.
    setup: async ({ role, userIds }) => (role === "anonymous" ? {} : { cookie: (await startUserSession(makeRequest("/login"), userIds[role])).split(";")[0] }),
    expect: everyone("login"),
  },
  { name: "GET _app layout", route: () => import("~/routes/_app"), kind: "loader", path: "/dashboard", expect: signedIn(200) },
  { name: "GET /resources/sidebar", route: () => import("~/routes/resources.sidebar"), kind: "loader", path: "/resources/sidebar", expect: everyone(302) },
  {
    name: "POST /resources/sidebar",
    route: () => import("~/routes/resources.sidebar"),
    kind: "action",
    path: "/resources/sidebar",
    form: { expanded: "false", redirectTo: "//evil.example.com" },
    expect: everyone(302),
  },
  {
    name: "GET /no-such-page",
    route: () => import("~/routes/$"),
    kind: "loader",
    path: "/no-such-page",
    params: { "*": "no-such-page" },
    expect: everyone(404),
  },
];
