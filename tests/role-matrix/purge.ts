import { signedIn, type MatrixEntry, type MatrixRole, type Outcome } from "./types";

/** NormalUser (no plan) gets the subscription dialog on /purge (200) and 402 on its actions. */
const withPlan = (normalUser: Outcome, others: Outcome): Record<MatrixRole, Outcome> => ({
  anonymous: "login",
  NormalUser: normalUser,
  UnlimitedUser: others,
  Admin: others,
  SuperAdmin: others,
});

const purge = () => import("~/routes/_app.purge/route");

const unknownFile = "00000000-0000-4000-8000-000000000000";

/** Purge wizard, history, downloads, dashboard. */
export const entries: MatrixEntry[] = [
  { name: "GET /purge", route: purge, kind: "loader", path: "/purge", expect: withPlan(200, 200) },
  { name: "GET /purge?step=3", route: purge, kind: "loader", path: "/purge?step=3&mode=csv", expect: withPlan(200, 200) },
  { name: "GET /purge?step=4&mode=manual", route: purge, kind: "loader", path: "/purge?step=4&mode=manual", expect: withPlan(200, 200) },
  // Column selection without an upload goes back to Upload Data.
  { name: "GET /purge?step=5 (no upload)", route: purge, kind: "loader", path: "/purge?step=5&mode=csv", expect: withPlan(200, 302) },
  {
    name: "GET /purge?step=6 (unknown job)",
    route: purge,
    kind: "loader",
    path: `/purge?step=6&job=${unknownFile}`,
    expect: withPlan(200, 404),
  },
  {
    name: "POST /purge intent=manual (empty)",
    route: purge,
    kind: "action",
    path: "/purge",
    form: { intent: "manual", numbers: "" },
    expect: withPlan(402, 400),
  },
  {
    name: "POST /purge intent=upload (no file)",
    route: purge,
    kind: "action",
    path: "/purge",
    form: { intent: "upload", mode: "csv" },
    expect: withPlan(402, 400),
  },
  {
    name: "POST /purge intent=start (unknown upload)",
    route: purge,
    kind: "action",
    path: "/purge",
    form: { intent: "start", mode: "csv", upload: "0123456789abcdef0123456789abcdef", column: "Phone" },
    expect: withPlan(402, 400),
  },
  {
    name: "POST /purge/upload (no file)",
    route: () => import("~/routes/purge.upload"),
    kind: "action",
    path: "/purge/upload",
    form: { mode: "csv" },
    expect: withPlan(402, 400),
  },
  {
    name: "GET /purge/jobs/$jobId (unknown job)",
    route: () => import("~/routes/purge.jobs.$jobId"),
    kind: "loader",
    path: `/purge/jobs/${unknownFile}`,
    params: { jobId: unknownFile },
    expect: signedIn(404),
  },
  { name: "POST /purge (no intent)", route: purge, kind: "action", path: "/purge", expect: withPlan(402, 400) },
  { name: "GET /history", route: () => import("~/routes/_app.history/route"), kind: "loader", path: "/history", expect: signedIn("allowed") },
  {
    name: "GET /history?page=2",
    route: () => import("~/routes/_app.history/route"),
    kind: "loader",
    path: "/history?page=2",
    expect: signedIn("allowed"),
  },
  {
    name: "GET /downloads/$fileId (unknown id)",
    route: () => import("~/routes/downloads.$fileId"),
    kind: "loader",
    path: `/downloads/${unknownFile}`,
    params: { fileId: unknownFile },
    expect: signedIn(404),
  },
  {
    name: "GET /downloads/$fileId (malformed id)",
    route: () => import("~/routes/downloads.$fileId"),
    kind: "loader",
    path: "/downloads/x'or'1",
    params: { fileId: "x'or'1" },
    expect: signedIn(404),
  },
];
