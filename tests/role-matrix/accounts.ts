import { everyone, type MatrixEntry } from "./types";

// Account area: public pages (anyone may open them; signed-in users too).
export const entries: MatrixEntry[] = [
  { name: "GET /dev/outbox", route: () => import("~/routes/dev.outbox"), kind: "loader", path: "/dev/outbox", expect: everyone("allowed") },
];
