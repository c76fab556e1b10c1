import { signedIn, type MatrixEntry } from "./types";

const unknownFile = "00000000-0000-4000-8000-000000000000";

/** Purge wizard, history, downloads, dashboard. */
export const entries: MatrixEntry[] = [
  { name: "GET /history", route: () => import("~/routes/_app.history"), kind: "loader", path: "/history", expect: signedIn("allowed") },
  {
    name: "GET /history?page=2",
    route: () => import("~/routes/_app.history"),
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
