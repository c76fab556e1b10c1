import { adminOnly, signedIn, type MatrixEntry, type Outcome, type MatrixRole } from "./types";

const containers = () => import("~/routes/_app.containers._index/route");
const containerLoad = () => import("~/routes/_app.containers.loads.$loadId");
const dnc = () => import("~/routes/_app.dnc._index/route");
const dncLoad = () => import("~/routes/_app.dnc.loads.$loadId");
const emergency = () => import("~/routes/_app.dnc.emergency");
const listUploads = () => import("~/routes/resources.list-uploads");
const exemptionLists = () => import("~/routes/_app.exemption-lists._index/route");
const exemptionList = () => import("~/routes/_app.exemption-lists.$id/route");
const callHistory = () => import("~/routes/_app.call-history/route");
const someUuid = "00000000-0000-4000-8000-000000000000";
const exactly = (o: Outcome): Record<MatrixRole, Outcome> => ({ ...signedIn(o), anonymous: "login" });
const adminExactly = (o: Outcome): Record<MatrixRole, Outcome> => ({ ...adminOnly, Admin: o, SuperAdmin: o });

export const entries: MatrixEntry[] = [
  { name: "GET /containers", route: containers, kind: "loader", path: "/containers", expect: exactly(200) },
  {
    name: "GET /containers?dialog=create-container",
    route: containers,
    kind: "loader",
    path: "/containers?dialog=create-container",
    expect: exactly(200),
  },
  { name: "GET /containers?dialog=create-category", route: containers, kind: "loader", path: "/containers?dialog=create-category", expect: exactly(200) },
  {
    name: "GET /containers?dialog=edit-container (unknown id)",
    route: containers,
    kind: "loader",
    path: "/containers?dialog=edit-container&id=999999",
    expect: exactly(404),
  },
  {
    name: "GET /containers?dialog=add-numbers (unknown id)",
    route: containers,
    kind: "loader",
    path: "/containers?dialog=add-numbers&id=999999",
    expect: exactly(404),
  },
  // opt-outs (issue #47, decision 195): every signed-in role may record one; anonymous goes to sign in
  { name: "GET /containers?dialog=record-opt-out", route: containers, kind: "loader", path: "/containers?dialog=record-opt-out", expect: exactly(200) },
  { name: "GET /containers?dialog=import-opt-outs", route: containers, kind: "loader", path: "/containers?dialog=import-opt-outs", expect: exactly(200) },
  {
    name: "POST /containers intent=record-opt-out (no number)",
    route: containers,
    kind: "action",
    path: "/containers",
    form: { intent: "record-opt-out", receivedLocal: "2026-11-20T10:00", channel: "call", words: "Stop" },
    expect: exactly(400),
  },
  {
    name: "POST /containers intent=create-category",
    route: containers,
    kind: "action",
    path: "/containers",
    form: { intent: "create-category", name: "Matrix category" },
    expect: exactly(302),
  },
  {
    name: "POST /containers intent=create-container (no category)",
    route: containers,
    kind: "action",
    path: "/containers",
    form: { intent: "create-container", name: "Matrix", method: "manual", numbers: "2015552123" },
    expect: exactly(400),
  },
  {
    name: "POST /containers intent=edit-container (unknown id)",
    route: containers,
    kind: "action",
    path: "/containers",
    form: { intent: "edit-container", id: "999999", name: "X", categoryId: someUuid },
    expect: exactly(404),
  },
  {
    name: "POST /containers intent=add-numbers (unknown id)",
    route: containers,
    kind: "action",
    path: "/containers",
    form: { intent: "add-numbers", id: "999999", method: "manual", numbers: "2015552123" },
    expect: exactly(404),
  },
  // exemption lists, their own page since #44
  { name: "GET /exemption-lists", route: exemptionLists, kind: "loader", path: "/exemption-lists", expect: exactly(200) },
  {
    name: "GET /exemption-lists?dialog=create-exemptions",
    route: exemptionLists,
    kind: "loader",
    path: "/exemption-lists?dialog=create-exemptions",
    expect: exactly(200),
  },
  {
    name: "GET /exemption-lists?dialog=load-exemptions (unknown id)",
    route: exemptionLists,
    kind: "loader",
    path: "/exemption-lists?dialog=load-exemptions&id=999999",
    expect: exactly(404),
  },
  {
    name: "POST /exemption-lists intent=create-exemptions",
    route: exemptionLists,
    kind: "action",
    path: "/exemption-lists",
    form: { intent: "create-exemptions", name: "Matrix exemptions", method: "manual", rows: "2015552123,consent,2024-01-01" },
    // the NormalUser has no plan: its exemption records' limit is none (decision 176)
    expect: { ...exactly(302), NormalUser: 400 },
  },
  {
    name: "POST /exemption-lists intent=create-exemptions (a bad line)",
    route: exemptionLists,
    kind: "action",
    path: "/exemption-lists",
    form: { intent: "create-exemptions", name: "Matrix exemptions", method: "manual", rows: "2015552123,gift,2024-01-01" },
    expect: exactly(400),
  },
  {
    name: "POST /exemption-lists intent=load-exemptions (unknown id)",
    route: exemptionLists,
    kind: "action",
    path: "/exemption-lists",
    form: { intent: "load-exemptions", id: "999999", mode: "add", method: "manual", rows: "2015552123,consent,2024-01-01" },
    expect: exactly(404),
  },
  {
    name: "GET /exemption-lists/:id (unknown)",
    route: exemptionList,
    kind: "loader",
    path: "/exemption-lists/999999",
    params: { id: "999999" },
    expect: exactly(404),
  },
  {
    name: "POST /exemption-lists/:id intent=remove (unknown)",
    route: exemptionList,
    kind: "action",
    path: "/exemption-lists/999999",
    params: { id: "999999" },
    form: { intent: "remove", number: "2015552123" },
    expect: exactly(404),
  },
  {
    name: "POST /exemption-lists/:id intent=delete (unknown)",
    route: exemptionList,
    kind: "action",
    path: "/exemption-lists/999999",
    params: { id: "999999" },
    form: { intent: "delete" },
    expect: exactly(404),
  },
  // call history (#46, decision 185 "The screen"): the import needs a plan (the NormalUser has none: back to the page)
  { name: "GET /call-history", route: callHistory, kind: "loader", path: "/call-history", expect: exactly(200) },
  { name: "GET /call-history?number=", route: callHistory, kind: "loader", path: "/call-history?number=2125552345", expect: exactly(200) },
  {
    name: "POST /call-history intent=import (no file)",
    route: callHistory,
    kind: "action",
    path: "/call-history",
    form: { intent: "import", zone: "UTC" },
    expect: { ...exactly(400), NormalUser: 302 },
  },
  {
    name: "POST /call-history intent=map (unknown upload)",
    route: callHistory,
    kind: "action",
    path: "/call-history",
    form: { intent: "map", upload: "00000000-0000-4000-8000-000000000000", col_number: "a", col_at: "b" },
    expect: { ...exactly(404), NormalUser: 302 },
  },
  {
    name: "GET /containers/loads/:loadId (unknown)",
    route: containerLoad,
    kind: "loader",
    path: `/containers/loads/${someUuid}`,
    params: { loadId: someUuid },
    expect: exactly(404),
  },
  {
    name: "POST /resources/list-uploads (no file)",
    route: listUploads,
    kind: "action",
    path: "/resources/list-uploads",
    form: {},
    expect: exactly(400),
  },
  { name: "GET /dnc", route: dnc, kind: "loader", path: "/dnc", expect: adminExactly(200) },
  { name: "GET /dnc?dialog=add&type=0", route: dnc, kind: "loader", path: "/dnc?dialog=add&type=0", expect: adminExactly(200) },
  { name: "GET /dnc?dialog=edit&type=1", route: dnc, kind: "loader", path: "/dnc?dialog=edit&type=1", expect: adminExactly(200) },
  {
    name: "POST /dnc intent=load (empty entry)",
    route: dnc,
    kind: "action",
    path: "/dnc",
    form: { intent: "load", type: "0", mode: "add", method: "manual", numbers: "" },
    expect: adminExactly(400),
  },
  {
    name: "POST /dnc intent=load mode=remove",
    route: dnc,
    kind: "action",
    path: "/dnc",
    form: { intent: "load", type: "1", mode: "remove", method: "manual", numbers: "2015552123" },
    expect: adminExactly(302),
  },
  {
    name: "POST /dnc intent=edit",
    route: dnc,
    kind: "action",
    path: "/dnc",
    form: { intent: "edit", type: "0", description: "TCPA litigators" },
    expect: adminExactly(302),
  },
  {
    name: "GET /dnc/loads/:loadId (unknown)",
    route: dncLoad,
    kind: "loader",
    path: `/dnc/loads/${someUuid}`,
    params: { loadId: someUuid },
    expect: adminExactly(404),
  },
  // emergency no-call periods (decision 181)
  { name: "GET /dnc/emergency", route: emergency, kind: "loader", path: "/dnc/emergency", expect: adminExactly(200) },
  {
    name: "POST /dnc/emergency intent=add (refused: no source)",
    route: emergency,
    kind: "action",
    path: "/dnc/emergency",
    form: { intent: "add", states: "LA", areaCodes: "", from: "2099-01-01", to: "2099-01-02", authority: "", source: "" },
    expect: adminExactly(400),
  },
  {
    name: "POST /dnc/emergency intent=add",
    route: emergency,
    kind: "action",
    path: "/dnc/emergency",
    form: { intent: "add", states: "LA", areaCodes: "504", from: "2099-01-01", to: "2099-01-02", authority: "Matrix", source: "https://example.com/matrix" },
    expect: adminExactly(302),
  },
  {
    name: "POST /dnc/emergency intent=remove (unknown)",
    route: emergency,
    kind: "action",
    path: "/dnc/emergency",
    form: { intent: "remove", id: "999999" },
    expect: adminExactly(404),
  },
];
