import { adminOnly, everyone, signedIn, type MatrixEntry } from "./types";

const unknownJob = "00000000-0000-4000-8000-000000000000";

/** Scrub certificates and number dossiers: owner-only downloads, the public key and the public verifier. */
export const entries: MatrixEntry[] = [
  // a number's dossier (issue #47): the signed-in customer's own ledger and records only
  {
    name: "GET /dossier (JSON, a valid number)",
    route: () => import("~/routes/dossier"),
    kind: "loader",
    path: "/dossier?number=2125552345&format=json",
    expect: signedIn(200),
  },
  { name: "GET /dossier (malformed number)", route: () => import("~/routes/dossier"), kind: "loader", path: "/dossier?number=12", expect: signedIn(400) },
  {
    name: "GET /certificates/$jobId.json (unknown job)",
    route: () => import("~/routes/certificates.$jobId[.json]"),
    kind: "loader",
    path: `/certificates/${unknownJob}.json`,
    params: { jobId: unknownJob },
    expect: signedIn(404),
  },
  {
    name: "GET /certificates/$jobId.json (malformed id)",
    route: () => import("~/routes/certificates.$jobId[.json]"),
    kind: "loader",
    path: "/certificates/x'or'1.json",
    params: { jobId: "x'or'1" },
    expect: signedIn(404),
  },
  {
    name: "GET /certificates/$jobId (unknown job)",
    route: () => import("~/routes/certificates.$jobId"),
    kind: "loader",
    path: `/certificates/${unknownJob}`,
    params: { jobId: unknownJob },
    expect: signedIn(404),
  },
  {
    name: "GET /api/v1/scrubs/$id/certificate (session, no key)",
    route: () => import("~/routes/api.v1.scrubs.$id.certificate"),
    kind: "loader",
    path: `/api/v1/scrubs/${unknownJob}/certificate`,
    params: { id: unknownJob },
    expect: everyone(401),
  },
  {
    name: "POST /api/v1/scrubs/$id/certificate (session, no key)",
    route: () => import("~/routes/api.v1.scrubs.$id.certificate"),
    kind: "action",
    path: `/api/v1/scrubs/${unknownJob}/certificate`,
    params: { id: unknownJob },
    form: {},
    expect: everyone(401),
  },
  {
    name: "GET /.well-known/scrub-certificate-key",
    route: () => import("~/routes/[.well-known].scrub-certificate-key"),
    kind: "loader",
    path: "/.well-known/scrub-certificate-key",
    expect: everyone(200),
  },
  {
    name: "GET /.well-known/ledger-heads (public: the signed day heads, decision 197)",
    route: () => import("~/routes/[.well-known].ledger-heads"),
    kind: "loader",
    path: "/.well-known/ledger-heads?day=2026-11-27",
    expect: everyone(200),
  },
  {
    name: "POST /setting (admin settings)",
    route: () => import("~/routes/_app.setting"),
    kind: "action",
    path: "/setting",
    form: { refuseStaleDnc: "on", resultRetentionDays: "" },
    expect: adminOnly,
  },
  {
    name: "POST /purge/jobs/$jobId/reminder (unknown job)",
    route: () => import("~/routes/purge.jobs.$jobId.reminder"),
    kind: "action",
    path: `/purge/jobs/${unknownJob}/reminder`,
    params: { jobId: unknownJob },
    form: { intent: "remind", redirectTo: "/history" },
    expect: signedIn(404),
  },
  { name: "GET /verify", route: () => import("~/routes/verify"), kind: "loader", path: "/verify", expect: everyone(200) },
  { name: "POST /verify (no certificate)", route: () => import("~/routes/verify"), kind: "action", path: "/verify", form: {}, expect: everyone(200) },
];
