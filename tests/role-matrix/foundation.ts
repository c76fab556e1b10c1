import { signedIn, type MatrixEntry } from "./types";

export const entries: MatrixEntry[] = [
  { name: "GET /dashboard", route: () => import("~/routes/_app.dashboard/route"), kind: "loader", path: "/dashboard", expect: signedIn("allowed") },
  { name: "GET /setting", route: () => import("~/routes/_app.setting"), kind: "loader", path: "/setting", expect: signedIn("allowed") },
  { name: "GET /profile", route: () => import("~/routes/_app.profile"), kind: "loader", path: "/profile", expect: signedIn("allowed") },
];
