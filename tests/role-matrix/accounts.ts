import { everyone, type MatrixEntry } from "./types";

// Account area: public pages and their actions (anyone may use them; signed-in users too).
// Link pages get a well-formed but unknown token: they answer 400 (invalid link), never a login redirect.
const token = "x".repeat(43);
const userId = "00000000-0000-4000-8000-000000000000";

export const entries: MatrixEntry[] = [
  { name: "GET /dev/outbox", route: () => import("~/routes/dev.outbox"), kind: "loader", path: "/dev/outbox", expect: everyone("allowed") },
  { name: "GET /signup", route: () => import("~/routes/signup"), kind: "loader", path: "/signup", expect: everyone("allowed") },
  { name: "POST /signup (empty form)", route: () => import("~/routes/signup"), kind: "action", path: "/signup", expect: everyone(400) },
  { name: "GET /forgot-password", route: () => import("~/routes/forgot-password"), kind: "loader", path: "/forgot-password", expect: everyone(200) },
  {
    name: "POST /forgot-password (empty form)",
    route: () => import("~/routes/forgot-password"),
    kind: "action",
    path: "/forgot-password",
    expect: everyone(400),
  },
  {
    name: "GET /auth/activation/{token}/{userId}",
    route: () => import("~/routes/auth.activation.($token).($userId)"),
    kind: "loader",
    path: `/auth/activation/${token}/${userId}`,
    params: { token, userId },
    expect: everyone(400),
  },
  {
    name: "POST /auth/activation/{token}/{userId}",
    route: () => import("~/routes/auth.activation.($token).($userId)"),
    kind: "action",
    path: `/auth/activation/${token}/${userId}`,
    params: { token, userId },
    expect: everyone(400),
  },
  {
    name: "GET /auth/resetpassword/{token}/{userId}",
    route: () => import("~/routes/auth.resetpassword.($token).($userId)"),
    kind: "loader",
    path: `/auth/resetpassword/${token}/${userId}`,
    params: { token, userId },
    expect: everyone(400),
  },
  {
    name: "POST /auth/resetpassword/{token}/{userId}",
    route: () => import("~/routes/auth.resetpassword.($token).($userId)"),
    kind: "action",
    path: `/auth/resetpassword/${token}/${userId}`,
    params: { token, userId },
    form: { password: "new-password-1", confirmPassword: "new-password-1" },
    expect: everyone(400),
  },
  { name: "GET /privacy", route: () => import("~/routes/privacy"), kind: "loader", path: "/privacy", expect: everyone(200) },
  { name: "GET /terms", route: () => import("~/routes/terms"), kind: "loader", path: "/terms", expect: everyone(200) },
  { name: "GET /rules", route: () => import("~/routes/rules/route"), kind: "loader", path: "/rules", expect: everyone(200) },
];
