import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Before any app module reads the environment.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "idor-"));
process.env.DATA_DIR = dataDir;

import { sql } from "kysely";
import { useAppTestDb } from "../setup/db";
import { makeRequest, testContext } from "../setup/request";
import { apiRequest, fakeScrubService, installScrubService, makeContainer, makeKey, makeUser } from "../api/helpers";
import { createJob } from "../fixtures/purge";
import { startUserSession } from "~/accounts/auth.server";
import { saveTypedNumbers } from "~/intake/upload-store.server";
import { createBankTransferTransaction } from "~/models/transaction.server";

/*
 * Insecure direct object references, across two customers: customer B, signed in (or with B's own API key),
 * uses every id of customer A's that a URL, a form or an API path can carry. B must get 404 (or 400 where the
 * id is one field of a form), never A's data, and no refused request may change any table.
 */
const { handle } = useAppTestDb();
const db = () => handle().db;
const MARK = "ALPHA-SECRET";

type Mod = { loader?: (a: any) => unknown; action?: (a: any) => unknown };
const routes = {
  containers: () => import("~/routes/_app.containers._index/route"),
  containerLoad: () => import("~/routes/_app.containers.loads.$loadId"),
  purge: () => import("~/routes/_app.purge/route"),
  download: () => import("~/routes/downloads.$fileId"),
  payment: () => import("~/routes/_app.pricing.payment.$transactionId"),
  integrations: () => import("~/routes/_app.integrations/route"),
  history: () => import("~/routes/_app.history/route"),
  dashboard: () => import("~/routes/_app.dashboard/route"),
  transactions: () => import("~/routes/_app.transaction-history"),
  transactionsExport: () => import("~/routes/transaction-history.export"),
  apiScrubs: () => import("~/routes/api.v1.scrubs._index"),
  apiScrub: () => import("~/routes/api.v1.scrubs.$id"),
  apiFiles: () => import("~/routes/api.v1.scrubs.$id.files.$kind"),
  apiContainers: () => import("~/routes/api.v1.containers._index"),
  apiNumbers: () => import("~/routes/api.v1.containers.$id.numbers"),
  apiLoad: () => import("~/routes/api.v1.containers.$id.loads.$loadId"),
};

interface A {
  id: string;
  categoryId: string;
  containerId: number;
  loadId: string;
  jobId: string;
  fileId: string;
  uploadId: string;
  transactionId: string;
  transferReference: string;
  integrationId: string;
  keyId: string;
}
let a: A;
let b: { id: string; cookie: string; key: string; categoryId: string };
let fingerprintQuery = "";

/** Tables a refused request may touch: sessions (flash, reads), throttling counters, B's key's last use. */
const VOLATILE = /^(sessions|login_throttle|api_keys|kysely_migration.*)$|rate_limit|throttle/;

async function fingerprint(): Promise<Map<string, string>> {
  const { rows } = await sql.raw<{ t: string; h: string }>(fingerprintQuery).execute(db());
  return new Map(rows.map((r) => [r.t, r.h]));
}

beforeAll(async () => {
  installScrubService(fakeScrubService().service);
  // Customer A: a plan, a category, a container with a load, a finished scrub with a result file, an upload,
  // a pending bank transfer, an integration with a key. Every name carries MARK so a leak is visible.
  const aId = await makeUser(db(), { plan: "premium", email: "alpha@idor.test" });
  const cat = await db()
    .insertInto("categories")
    .values({ user_id: aId, name: `${MARK} category`, description: MARK })
    .returning("id")
    .executeTakeFirstOrThrow();
  const containerId = await makeContainer(db(), aId, `${MARK} container`);
  await db().updateTable("lists").set({ category_id: cat.id, description: MARK }).where("id", "=", containerId).execute();
  const load = await db()
    .insertInto("list_loads")
    .values({
      list_id: containerId,
      user_id: aId,
      mode: "add",
      status: "completed",
      file_name: `${MARK}-load.csv`,
      bytes_total: 10,
      bytes_read: 10,
      added: 1,
      already_present: 0,
      removed: 0,
      invalid: 0,
      usage_reserved: 0,
      error: null,
      finished_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const job = await createJob(db(), {
    userId: aId,
    fileName: `${MARK}-leads.csv`,
    good: 1,
    dir: dataDir,
    files: { good: `Number\n2125552199\n${MARK}\n` },
  });
  const upload = await saveTypedNumbers(aId, ["2125552199"]);
  const { transaction } = await createBankTransferTransaction(db(), { userId: aId, planId: "beginner" });
  const tx = await db().selectFrom("transactions").select("transfer_reference").where("id", "=", transaction.id).executeTakeFirstOrThrow();
  const key = await makeKey(db(), aId, { name: `${MARK} integration`, containerId });
  a = {
    id: aId,
    categoryId: cat.id,
    containerId,
    loadId: load.id,
    jobId: job.id,
    fileId: job.fileIds.good,
    uploadId: upload.id,
    transactionId: transaction.id,
    transferReference: tx.transfer_reference ?? "",
    integrationId: key.integrationId,
    keyId: key.keyId,
  };
  expect(a.transferReference).not.toBe("");

  // Customer B: same plan, their own category, a session and an API key.
  const bId = await makeUser(db(), { plan: "premium", email: "bravo@idor.test" });
  const bCat = await db().insertInto("categories").values({ user_id: bId, name: "Bravo", description: "" }).returning("id").executeTakeFirstOrThrow();
  b = {
    id: bId,
    cookie: (await startUserSession(makeRequest("/login"), bId)).split(";")[0],
    key: (await makeKey(db(), bId, { name: "Bravo integration" })).key,
    categoryId: bCat.id,
  };

  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db());
  fingerprintQuery = rows
    .map((r) => r.table_name)
    .filter((t) => !VOLATILE.test(t))
    .map((t) => `select '${t}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${t}" x`)
    .join(" union all ");
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Calls a loader/action; returns the status and everything the answer carries, as text. */
async function call(
  mod: Mod,
  kind: "loader" | "action",
  request: Request,
  params: Record<string, string> = {},
): Promise<{ status: number; body: string; location: string | null }> {
  const fn = kind === "loader" ? mod.loader : mod.action;
  if (!fn) throw new Error(`no ${kind}`);
  let result: unknown;
  try {
    result = await fn({ request, params, context: testContext });
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown; // a crash is a failure, never an answer
    result = thrown;
  }
  if (result instanceof Response) {
    const body = result.body ? await result.text() : "";
    return { status: result.status, body, location: result.headers.get("Location") };
  }
  const r = result as { type?: string; data?: unknown; init?: { status?: number } } | null;
  if (r && r.type === "DataWithResponseInit") return { status: r.init?.status ?? 200, body: JSON.stringify(r.data) ?? "", location: null };
  return { status: 200, body: JSON.stringify(result) ?? "", location: null };
}

const page = (p: string) => makeRequest(p, { cookie: b.cookie });
const post = (p: string, form: Record<string, string>) => makeRequest(p, { cookie: b.cookie, form });

function expectNoLeak(res: { body: string; location: string | null }) {
  expect(res.body).not.toContain(MARK);
  expect(res.body).not.toContain("2125552199");
  expect(res.body).not.toContain(a.transferReference);
  expect(res.location ?? "").not.toContain(a.uploadId);
}

/** A refused action: the expected status, nothing of A's in the answer, no table changed. */
async function refusedAction(mod: Mod, request: Request, status: number | number[], params: Record<string, string> = {}) {
  const before = await fingerprint();
  const res = await call(mod, "action", request, params);
  expect([status].flat()).toContain(res.status);
  expectNoLeak(res);
  const after = await fingerprint();
  expect([...after.keys()].filter((t) => before.get(t) !== after.get(t))).toEqual([]);
  return res;
}

describe("control: customer A reaches their own objects (so the checks below can see a leak)", () => {
  it("A's session and key get A's data through the same calls", async () => {
    const aCookie = (await startUserSession(makeRequest("/login"), a.id)).split(";")[0];
    const own = (p: string) => makeRequest(p, { cookie: aCookie });
    const dialog = await call(await routes.containers(), "loader", own(`/containers?dialog=edit-container&id=${a.containerId}`));
    expect(dialog.body).toContain(MARK);
    expect((await call(await routes.purge(), "loader", own(`/purge?step=6&job=${a.jobId}`))).body).toContain(MARK);
    const file = await call(await routes.download(), "loader", own(`/downloads/${a.fileId}`), { fileId: a.fileId });
    expect(file.status).toBe(200);
    expect(file.body).toContain("2125552199");
    expect((await call(await routes.transactions(), "loader", own("/transaction-history"))).body).toContain(a.transferReference);
    const aKey = (await makeKey(db(), a.id, { name: "control" })).key;
    const job = await call(await routes.apiScrub(), "loader", apiRequest(`/api/v1/scrubs/${a.jobId}`, { key: aKey }), { id: a.jobId });
    expect(job.status).toBe(200);
    expect(job.body).toContain(MARK);
  });
});

describe("IDOR: customer B with customer A's ids (web)", () => {
  it("containers: edit and add-numbers dialogs, load progress page", async () => {
    const m = await routes.containers();
    for (const dialog of ["edit-container", "add-numbers"]) {
      const res = await call(m, "loader", page(`/containers?dialog=${dialog}&id=${a.containerId}`));
      expect([200, 404]).toContain(res.status);
      expectNoLeak(res);
    }
    const load = await call(await routes.containerLoad(), "loader", page(`/containers/loads/${a.loadId}`), { loadId: a.loadId });
    expect(load.status).toBe(404);
    expectNoLeak(load);
  });

  it("containers: editing or adding numbers to A's container is 404 and changes nothing", async () => {
    const m = await routes.containers();
    await refusedAction(
      m,
      post("/containers", { intent: "edit-container", id: String(a.containerId), name: "Taken over", categoryId: b.categoryId, description: "" }),
      404,
    );
    await refusedAction(
      m,
      post("/containers", { intent: "edit-container", id: String(a.containerId), name: "Taken over", categoryId: a.categoryId, description: "" }),
      404,
    );
    await refusedAction(m, post("/containers", { intent: "add-numbers", id: String(a.containerId), method: "manual", numbers: "2125552100" }), 404);
  });

  it("purge: A's job, upload, category and container are not reachable", async () => {
    const m = await routes.purge();
    const job = await call(m, "loader", page(`/purge?step=6&job=${a.jobId}`));
    expect(job.status).toBe(404);
    expectNoLeak(job);
    const column = await call(m, "loader", page(`/purge?step=5&mode=csv&upload=${a.uploadId}`));
    expect(column.status).not.toBe(200);
    expectNoLeak(column);
    const manual = await call(m, "loader", page(`/purge?step=4&mode=manual&upload=${a.uploadId}`));
    expectNoLeak(manual);
    const choices = await call(m, "loader", page(`/purge?step=3&category=${a.categoryId}&container=${a.containerId}`));
    expect(choices.status).toBe(200);
    expectNoLeak(choices);
    // Starting a purge of A's upload, or into A's container/category, is refused and inserts nothing.
    await refusedAction(m, post("/purge", { intent: "start", mode: "csv", upload: a.uploadId, column: "Number" }), 400);
    await refusedAction(m, post("/purge", { intent: "start", mode: "manual", upload: a.uploadId, column: "Number" }), 400);
    const own = await saveTypedNumbers(b.id, ["3105552101"]);
    await refusedAction(
      m,
      post("/purge", { intent: "start", mode: "csv", upload: own.id, column: "Number", category: a.categoryId, container: String(a.containerId) }),
      [400, 302],
    );
  });

  it("containers: a list file A staged (upload token) cannot be used by B, and stays A's", async () => {
    const aCookie = (await startUserSession(makeRequest("/login"), a.id)).split(";")[0];
    const fd = new FormData();
    fd.append("file", new Blob(["2125552199\n3105552198\n"], { type: "text/csv" }), `${MARK}-staged.csv`);
    const staged = await call(
      (await import("~/routes/resources.list-uploads")) as Mod,
      "action",
      new Request("http://localhost/resources/list-uploads", {
        method: "POST",
        body: fd,
        headers: { Cookie: aCookie },
      }),
    );
    expect(staged.status).toBe(200);
    const token = JSON.parse(staged.body).token as string;
    expect(token).toBeTruthy();
    const bContainer = await makeContainer(db(), b.id, "Bravo container");
    const res = await refusedAction(
      await routes.containers(),
      post("/containers", { intent: "add-numbers", id: String(bContainer), method: "csv", uploadToken: token }),
      [400, 422],
    );
    expectNoLeak(res);
    // A can still use it.
    const own = await call(
      await routes.containers(),
      "action",
      makeRequest("/containers", {
        cookie: aCookie,
        form: { intent: "add-numbers", id: String(a.containerId), method: "csv", uploadToken: token },
      }),
    );
    expect(own.status).toBeLessThan(400);
  });

  it("downloads: A's result file is 404", async () => {
    const res = await call(await routes.download(), "loader", page(`/downloads/${a.fileId}`), { fileId: a.fileId });
    expect(res.status).toBe(404);
    expectNoLeak(res);
  });

  it("billing: A's transfer page is 404; B's history and export list none of A's transfers", async () => {
    const res = await call(await routes.payment(), "loader", page(`/pricing/payment/${a.transactionId}`), { transactionId: a.transactionId });
    expect(res.status).toBe(404);
    expectNoLeak(res);
    expectNoLeak(await call(await routes.transactions(), "loader", page("/transaction-history")));
    expectNoLeak(await call(await routes.transactionsExport(), "loader", page("/transaction-history/export")));
  });

  it("history and dashboard list none of A's jobs", async () => {
    expectNoLeak(await call(await routes.history(), "loader", page("/history")));
    expectNoLeak(await call(await routes.dashboard(), "loader", page("/dashboard")));
  });

  it("integrations: A's integration is not shown; every action on A's integration or key is 404 and changes nothing", async () => {
    const m = await routes.integrations();
    expectNoLeak(await call(m, "loader", page(`/integrations?integration=${a.integrationId}`)));
    const id = a.integrationId;
    await refusedAction(m, post("/integrations", { intent: "toggle", integrationId: id, toggle: "webhook_enabled", value: "off" }), 404);
    await refusedAction(m, post("/integrations", { intent: "revoke-key", id: a.keyId }), 404);
    await refusedAction(m, post("/integrations", { intent: "delete-integration", id }), 404);
    await refusedAction(m, post("/integrations", { intent: "rotate-secret", id }), 404);
    await refusedAction(m, post("/integrations", { intent: "update-integration", integrationId: id, name: "Taken over", description: "" }), 404);
    await refusedAction(m, post("/integrations", { intent: "create-key", integrationId: id, name: "Stolen key" }), [400, 404]);
    // B cannot point their own new integration at A's container.
    await refusedAction(m, post("/integrations", { intent: "create-integration", name: "Mine", description: "", containerId: String(a.containerId) }), 400);
  });
});

describe("IDOR: customer B's API key with customer A's ids", () => {
  const api = (p: string, opts: Parameters<typeof apiRequest>[1] = {}) => apiRequest(p, { key: b.key, ...opts });

  it("GET /api/v1/scrubs/:id and its files are 404", async () => {
    const job = await call(await routes.apiScrub(), "loader", api(`/api/v1/scrubs/${a.jobId}`), { id: a.jobId });
    expect(job.status).toBe(404);
    expectNoLeak(job);
    for (const kind of ["good", "bad", "invalid"]) {
      const file = await call(await routes.apiFiles(), "loader", api(`/api/v1/scrubs/${a.jobId}/files/${kind}`), { id: a.jobId, kind });
      expect(file.status).toBe(404);
      expectNoLeak(file);
    }
  });

  it("container numbers and loads of A's container are 404 and change nothing", async () => {
    const params = { id: String(a.containerId) };
    await refusedAction(await routes.apiNumbers(), api(`/api/v1/containers/${a.containerId}/numbers`, { json: { numbers: ["2125552100"] } }), 404, params);
    await refusedAction(
      await routes.apiNumbers(),
      api(`/api/v1/containers/${a.containerId}/numbers`, { json: { numbers: ["2125552100"], mode: "remove" } }),
      [404, 422],
      params,
    );
    const load = await call(await routes.apiLoad(), "loader", api(`/api/v1/containers/${a.containerId}/loads/${a.loadId}`), {
      id: String(a.containerId),
      loadId: a.loadId,
    });
    expect(load.status).toBe(404);
    expectNoLeak(load);
  });

  it("a scrub into A's container is 404 and inserts nothing; lists show none of A's", async () => {
    await refusedAction(
      await routes.apiScrubs(),
      api("/api/v1/scrubs", { json: { numbers: ["2125552100"], suppression_type: "LitigationOnly", container_id: a.containerId } }),
      404,
    );
    const jobs = await call(await routes.apiScrubs(), "loader", api("/api/v1/scrubs"));
    expect(jobs.status).toBe(200);
    expect(jobs.body).not.toContain(a.jobId);
    expectNoLeak(jobs);
    const containers = await call(await routes.apiContainers(), "loader", api("/api/v1/containers"));
    expect(containers.status).toBe(200);
    expectNoLeak(containers);
  });
});
