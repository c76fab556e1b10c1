import { everyone, type MatrixEntry } from "./types";

/**
 * The public API (/api/v1) authenticates with API keys only: a signed-in browser session, whatever its role,
 * gets 401 like an anonymous caller, and the refused call changes nothing. (Key-based checks, rate limits
 * and cross-user 404s: tests/api/.) Unknown /api paths answer a JSON 404.
 */
const id = "00000000-0000-4000-8000-000000000000";
const api = (name: string, route: MatrixEntry["route"], path: string, params: Record<string, string> = {}): MatrixEntry[] => [
  { name: `GET ${name} (session, no key)`, route, kind: "loader", path, params, expect: everyone(401) },
  { name: `POST ${name} (session, no key)`, route, kind: "action", path, params, form: {}, expect: everyone(401) },
];

export const entries: MatrixEntry[] = [
  ...api("/api/v1/usage", () => import("~/routes/api.v1.usage"), "/api/v1/usage"),
  ...api("/api/v1/scrubs", () => import("~/routes/api.v1.scrubs._index"), "/api/v1/scrubs"),
  ...api("/api/v1/scrubs/$id", () => import("~/routes/api.v1.scrubs.$id"), `/api/v1/scrubs/${id}`, { id }),
  ...api("/api/v1/scrubs/$id/files/$kind", () => import("~/routes/api.v1.scrubs.$id.files.$kind"), `/api/v1/scrubs/${id}/files/good`, {
    id,
    kind: "good",
  }),
  ...api("/api/v1/lookup", () => import("~/routes/api.v1.lookup"), "/api/v1/lookup"),
  ...api("/api/v1/containers", () => import("~/routes/api.v1.containers._index"), "/api/v1/containers"),
  ...api("/api/v1/containers/$id/numbers", () => import("~/routes/api.v1.containers.$id.numbers"), `/api/v1/containers/${id}/numbers`, { id }),
  ...api("/api/v1/containers/$id/loads/$loadId", () => import("~/routes/api.v1.containers.$id.loads.$loadId"), `/api/v1/containers/${id}/loads/${id}`, {
    id,
    loadId: id,
  }),
  ...api("/api/v1/exemption-lists", () => import("~/routes/api.v1.exemption-lists._index"), "/api/v1/exemption-lists"),
  ...api("/api/v1/exemption-lists/$id", () => import("~/routes/api.v1.exemption-lists.$id"), "/api/v1/exemption-lists/1", { id: "1" }),
  ...api("/api/v1/calls", () => import("~/routes/api.v1.calls._index"), "/api/v1/calls"),
  ...api("/api/v1/calls/$id", () => import("~/routes/api.v1.calls.$id"), "/api/v1/calls/1", { id: "1" }),
  // opt-outs (issue #47, decision 195)
  ...api("/api/v1/opt-outs", () => import("~/routes/api.v1.opt-outs._index"), "/api/v1/opt-outs"),
  // the decision ledger (issue #47, decision 197)
  ...api("/api/v1/ledger", () => import("~/routes/api.v1.ledger"), "/api/v1/ledger"),
  ...api("/api/v1/numbers/$number/dossier", () => import("~/routes/api.v1.numbers.$number.dossier"), "/api/v1/numbers/2125550100/dossier", {
    number: "2125550100",
  }),
  // the dialer compatibility layer (issue #48): keys only, as the API
  ...api("/api/compat/dncscrub/scrub", () => import("~/routes/api.compat.dncscrub.scrub"), "/api/compat/dncscrub/scrub"),
  ...api("/api/v1/check", () => import("~/routes/api.v1.check"), "/api/v1/check"),
  ...api("/api/compat/calls", () => import("~/routes/api.compat.calls"), "/api/compat/calls"),
  { name: "GET /api/nope", route: () => import("~/routes/api.$"), kind: "loader", path: "/api/nope", params: { "*": "nope" }, expect: everyone(404) },
  {
    name: "POST /api/nope",
    route: () => import("~/routes/api.$"),
    kind: "action",
    path: "/api/nope",
    params: { "*": "nope" },
    form: {},
    expect: everyone(404),
  },
];
