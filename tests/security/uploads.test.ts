import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Before any app module reads the environment: uploads go to a directory of this file's own.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "intake-security-"));
process.env.DATA_DIR = dataDir;

import { useAppTestDb } from "../setup/db";
import { makeRequest, testContext } from "../setup/request";
import { callRoute, createSignedInUser, statusOf } from "../setup/routes";
import { apiRequest, bodyOf, installScrubService, makeContainer, makeKey, makeUser } from "../api/helpers";
import type { RoleName } from "db/schema";
import { getScrubService } from "~/utils/scrub.server";
import { type ScrubService } from "scrub-service";
import { createHttpScrubClient } from "scrub-service/http-client";
import { getPlanState } from "~/models/usage.server";
import { getSession } from "~/utils/session.server";
import { LOAD_HAND_OFF_FAILED, SCRUB_HAND_OFF_FAILED } from "~/intake/hand-off";
import { STORAGE_FULL_MESSAGE, uploadsRoot } from "~/intake/upload-store.server";
import { MAX_FORM_FIELDS, tooManyFieldsMessage } from "~/intake/upload-form.server";
import { skipWithout } from "../setup/services";
import * as purge from "~/routes/_app.purge/route";
import * as purgeUpload from "~/routes/purge.upload";
import * as listUploads from "~/routes/resources.list-uploads";
import * as containers from "~/routes/_app.containers._index/route";
import * as scrubsApi from "~/routes/api.v1.scrubs._index";
import * as numbersApi from "~/routes/api.v1.containers.$id.numbers";

/*
 * The intake's security properties (#13 items 2 and 7, #12's one failure policy), through the real routes and
 * the real scrub engine (in-process):
 * - any file name a browser sends works on every upload endpoint (web with and without JavaScript, the API);
 * - upload endpoints check sign-in and plan before reading a byte of the body;
 * - a failed hand-off to the scrub service ends the same way for the web and the API: the job or load is
 *   failed with a clear message and nothing is charged.
 */
const { handle } = useAppTestDb();
const db = () => handle().db;
let realService: ScrubService;

beforeAll(async () => {
  realService = await getScrubService();
});
afterAll(async () => {
  await realService.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let seq = 0;
async function signedIn(role: RoleName = "NormalUser", plan: "business" | null = "business") {
  seq++;
  const u = await createSignedInUser(db(), { email: `intake${seq}@uploads.test`, role, firstName: "In", lastName: `T${seq}`, company: "" });
  if (plan) await withPlan(u.id);
  return u;
}

async function withPlan(userId: string) {
  // The API helpers' paid period, for a user made by createSignedInUser.
  const planUser = await makeUser(db(), { plan: "business" });
  await db().updateTable("transactions").set({ user_id: userId }).where("user_id", "=", planUser).execute();
}

function form(pathname: string, cookie: string, fields: Record<string, string>, file?: { name: string; content: string }): Request {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append("file", new Blob([file.content], { type: "text/csv" }), file.name);
  return new Request(`http://localhost${pathname}`, { method: "POST", body: fd, headers: { Cookie: cookie } });
}

const NAMES = ["leads;2024.csv", "Q1=final.csv", 'say "hi".csv', "a; filename=b.csv", "José's list.csv", "Клиенты 2026.csv"];
const CSV = "Name,Phone\nAnn,2125552142\nBob,(310) 555-2199\n";

describe("file names a browser sends", () => {
  it("the purge wizard (JavaScript and not) takes every name and shows it as sent", async () => {
    const u = await signedIn();
    for (const name of NAMES) {
      const withJs = (await purgeUpload.action({
        request: form("/purge/upload", u.cookie, { mode: "csv" }, { name, content: CSV }),
        params: {},
        context: testContext,
      })) as Response;
      expect(withJs.status, name).toBe(200);
      const next = new URL(((await withJs.json()) as { redirectTo: string }).redirectTo, "http://localhost");
      const page = (await purge.loader({ request: makeRequest(next.pathname + next.search, { cookie: u.cookie }), params: {}, context: testContext })) as {
        wizard: { upload: { name: string } | null; preview: { headers: string[] } | null };
      };
      expect(page.wizard.upload?.name).toBe(name);
      expect(page.wizard.preview?.headers).toEqual(["Name", "Phone"]);

      const noJs = await callRoute(purge.action, form("/purge", u.cookie, { intent: "upload", mode: "csv" }, { name, content: CSV }));
      expect(statusOf(noJs), name).toBe(302);
    }
  });

  it("the list dialogs' staging endpoint and the API take every name too", async () => {
    const u = await signedIn();
    for (const name of NAMES) {
      const staged = (await listUploads.action({
        request: form("/resources/list-uploads", u.cookie, {}, { name, content: CSV }),
        params: {},
        context: testContext,
      })) as Response;
      expect(staged.status, name).toBe(200);
      expect(await staged.json()).toMatchObject({ fileName: name, bytes: Buffer.byteLength(CSV) });
    }
    for (const name of NAMES) {
      // One account per name: six queued scrubs of one account would meet the 5-active-scrubs limit (429).
      const key = await makeKey(db(), await makeUser(db(), { plan: "business" }));
      const fd = new FormData();
      fd.set("suppression_type", "LitigationOnly");
      fd.set("file", new File([CSV], name));
      const res = await scrubsApi.action({ request: apiRequest("/api/v1/scrubs", { key: key.key, form: fd }), params: {}, context: testContext });
      expect(res.status, name).toBe(202);
      expect((await bodyOf(res)).job.file_name).toBe(name);
    }
  });
});

describe("the column limit (#13 item 5) on every upload endpoint", () => {
  const TOO_WIDE = `Phone,${Array.from({ length: 99_999 }, (_, i) => `c${i + 2}`).join(",")}\n2125552142${",".repeat(99_999)}\n`;
  const MESSAGE = "This file has 100,000 columns; at most 1,000 are supported.";

  it("the purge wizard (JavaScript and not) refuses 100,000 columns with the limit; 1,000 columns go on to step 5", async () => {
    const u = await signedIn();
    const withJs = (await purgeUpload.action({
      request: form("/purge/upload", u.cookie, { mode: "csv" }, { name: "wide.csv", content: TOO_WIDE }),
      params: {},
      context: testContext,
    })) as Response;
    expect(withJs.status).toBe(400);
    expect(await withJs.json()).toEqual({ error: { title: "Validation Error", message: MESSAGE } });
    const noJs = await callRoute(purge.action, form("/purge", u.cookie, { intent: "upload", mode: "csv" }, { name: "wide.csv", content: TOO_WIDE }));
    expect(statusOf(noJs)).toBe(400);
    expect(JSON.stringify(noJs)).toContain(MESSAGE);

    const atLimit = `Phone,${Array.from({ length: 999 }, (_, i) => `c${i + 2}`).join(",")}\n2125552142${",".repeat(999)}\n`;
    const ok = (await purgeUpload.action({
      request: form("/purge/upload", u.cookie, { mode: "csv" }, { name: "ok.csv", content: atLimit }),
      params: {},
      context: testContext,
    })) as Response;
    expect(ok.status).toBe(200);
    const next = new URL(((await ok.json()) as { redirectTo: string }).redirectTo, "http://localhost");
    const page = (await purge.loader({ request: makeRequest(next.pathname + next.search, { cookie: u.cookie }), params: {}, context: testContext })) as {
      wizard: { preview: { headers: string[] } | null };
    };
    expect(page.wizard.preview?.headers).toHaveLength(1000);
  });

  it("the API answers 422 on the file with the same message and creates no job", async () => {
    const userId = await makeUser(db(), { plan: "business" });
    const key = await makeKey(db(), userId);
    const fd = new FormData();
    fd.set("suppression_type", "LitigationOnly");
    fd.set("file", new File([TOO_WIDE], "wide.csv"));
    const res = await scrubsApi.action({ request: apiRequest("/api/v1/scrubs", { key: key.key, form: fd }), params: {}, context: testContext });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await bodyOf(res))).toContain(MESSAGE);
    expect(await db().selectFrom("scrub_jobs").select("id").where("user_id", "=", userId).execute()).toEqual([]);
  });
});

describe("the multipart field-count limit names itself (issue #49)", () => {
  const FIELDS = tooManyFieldsMessage("fields", MAX_FORM_FIELDS);
  /** 5,001 `at` fields before the file, as the probe sent them; the file part lands past busboy's parts limit. */
  function crowded(fd: FormData, fields: number) {
    for (let i = 0; i < fields; i++) fd.append("at", "2026-11-29T10:00:00Z");
    fd.append("file", new File([CSV], "leads.csv", { type: "text/csv" }));
    return fd;
  }
  const storedFiles = (userId: string) => {
    const dir = path.join(uploadsRoot(), userId);
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !n.endsWith(".json")) : [];
  };

  it("the API scrub endpoint: 413 too_many_fields naming the limit, never 'attach a CSV file'; no job, nothing stored", async () => {
    const userId = await makeUser(db(), { plan: "business" });
    const key = await makeKey(db(), userId);
    for (const fields of [5001, 1001]) {
      const fd = new FormData();
      fd.set("suppression_type", "LitigationOnly");
      const res = await scrubsApi.action({
        request: apiRequest("/api/v1/scrubs", { key: key.key, form: crowded(fd, fields) }),
        params: {},
        context: testContext,
      });
      expect(res.status).toBe(413);
      const body = await bodyOf(res);
      expect(body.error.code).toBe("too_many_fields");
      expect(body.error.message).toBe(FIELDS);
      expect(body.error.message).toContain("the limit is 1,000");
      expect(JSON.stringify(body)).not.toMatch(/attach|CSV file/i);
    }
    expect(await db().selectFrom("scrub_jobs").select("id").where("user_id", "=", userId).execute()).toEqual([]);
    expect(storedFiles(userId)).toEqual([]);
    // at the limit the form is read as before
    const fd = new FormData();
    fd.set("suppression_type", "LitigationOnly");
    for (let i = 0; i < MAX_FORM_FIELDS - 2; i++) fd.append("note", "x");
    fd.append("file", new File([CSV], "leads.csv", { type: "text/csv" }));
    expect((await scrubsApi.action({ request: apiRequest("/api/v1/scrubs", { key: key.key, form: fd }), params: {}, context: testContext })).status).toBe(202);
  });

  it("the API's container numbers endpoint says the same", async () => {
    const userId = await makeUser(db(), { plan: "business" });
    const key = await makeKey(db(), userId);
    const container = await makeContainer(db(), userId, "Crowded");
    const res = await numbersApi.action({
      request: apiRequest(`/api/v1/containers/${container}/numbers`, { key: key.key, form: crowded(new FormData(), 5001) }),
      params: { id: String(container) },
      context: testContext,
    });
    expect(res.status).toBe(413);
    expect((await bodyOf(res)).error).toMatchObject({ code: "too_many_fields", message: FIELDS });
  });

  it("the web upload forms (the wizard with and without JavaScript, the list dialogs' staging) answer with the limit", async () => {
    const u = await signedIn();
    const crowdedForm = (pathname: string, fields: Record<string, string>) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries(fields)) fd.append(k, v);
      return new Request(`http://localhost${pathname}`, { method: "POST", body: crowded(fd, 5001), headers: { Cookie: u.cookie } });
    };
    const withJs = (await purgeUpload.action({ request: crowdedForm("/purge/upload", { mode: "csv" }), params: {}, context: testContext })) as Response;
    expect(withJs.status).toBe(413);
    expect(JSON.stringify(await withJs.json())).toContain(FIELDS);
    const noJs = await callRoute(purge.action, crowdedForm("/purge", { intent: "upload", mode: "csv" }));
    expect(statusOf(noJs)).toBe(413);
    expect(JSON.stringify(noJs)).toContain(FIELDS);
    expect(JSON.stringify(noJs)).not.toMatch(/attach a CSV/i);
    const staged = (await listUploads.action({ request: crowdedForm("/resources/list-uploads", {}), params: {}, context: testContext })) as Response;
    expect(staged.status).toBe(413);
    expect(await staged.json()).toEqual({ error: FIELDS });
    const dialog = await callRoute(containers.action, crowdedForm("/containers", { intent: "add-numbers", method: "csv" }));
    expect(statusOf(dialog)).toBe(413);
    expect(JSON.stringify(dialog)).toContain(FIELDS);
    expect(storedFiles(u.id)).toEqual([]);
  });
});

describe("upload endpoints check who may upload before reading the body", () => {
  /** A multipart request whose body counts how much of it was read. */
  function watched(pathname: string, cookie: string) {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled++;
          controller.enqueue(new TextEncoder().encode("x".repeat(64 * 1024)));
          if (pulled > 100) controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(`http://localhost${pathname}`, {
      method: "POST",
      body,
      headers: { Cookie: cookie, "Content-Type": "multipart/form-data; boundary=zz" },
      duplex: "half",
    } as RequestInit);
    return { request, pulled: () => pulled };
  }

  it("refuses a user without a plan on every upload endpoint without reading a byte", async () => {
    const u = await signedIn("NormalUser", null);
    for (const [pathname, fn, status] of [
      ["/resources/list-uploads", listUploads.action, 402],
      ["/purge/upload", purgeUpload.action, 402],
      ["/purge", purge.action, 402],
      ["/containers", containers.action, 302],
    ] as const) {
      const w = watched(pathname, u.cookie);
      const res = await callRoute(fn as never, w.request);
      expect(statusOf(res), pathname).toBe(status);
      expect(w.pulled(), pathname).toBe(0);
    }
  });

  it("sends anonymous visitors to sign in without reading the body", async () => {
    for (const [pathname, fn] of [
      ["/resources/list-uploads", listUploads.action],
      ["/purge/upload", purgeUpload.action],
      ["/containers", containers.action],
    ] as const) {
      const w = watched(pathname, "");
      expect(statusOf(await callRoute(fn as never, w.request)), pathname).toBe(302);
      expect(w.pulled(), pathname).toBe(0);
    }
  });

  it("lets an admin stage a DNC file without a plan", async () => {
    const admin = await signedIn("Admin", null);
    const res = (await listUploads.action({
      request: form("/resources/list-uploads", admin.cookie, {}, { name: "dnc.csv", content: CSV }),
      params: {},
      context: testContext,
    })) as Response;
    expect(res.status).toBe(200);
  });
});

describe("one failure policy when the scrub service cannot be reached", () => {
  /** The real engine for reading files, and the real HTTP hand-off to a port where nothing listens. */
  async function unreachableService(): Promise<ScrubService> {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const client = createHttpScrubClient({ url: `http://127.0.0.1:${port}` });
    return { ...realService, enqueue: client.enqueue, enqueueListLoad: client.enqueueListLoad, loadNumbers: client.loadNumbers };
  }
  const used = async (userId: string) => {
    const s = await getPlanState(db(), userId);
    return { suppression: s.suppression.used, container: s.container.used };
  };

  it("web and API: the job is failed with a clear message, nothing is charged, the answer says so", async () => {
    installScrubService(await unreachableService());
    try {
      const u = await signedIn();
      const before = await used(u.id);
      const web = await callRoute(
        purge.action,
        makeRequest("/purge?step=4&mode=manual", { cookie: u.cookie, form: { intent: "manual", mode: "manual", numbers: "2125552142" } }),
      );
      expect(statusOf(web)).toBe(503);
      expect((web as { data: unknown }).data).toMatchObject({ error: { title: "Purge Failed", message: SCRUB_HAND_OFF_FAILED } });
      const webJob = await db().selectFrom("scrub_jobs").select(["status", "error"]).where("user_id", "=", u.id).executeTakeFirstOrThrow();
      expect(webJob).toEqual({ status: "failed", error: SCRUB_HAND_OFF_FAILED });
      expect(await used(u.id)).toEqual(before);

      const key = await makeKey(db(), u.id);
      const api = await scrubsApi.action({
        request: apiRequest("/api/v1/scrubs", { key: key.key, json: { suppression_type: "LitigationOnly", numbers: ["2125552142"] } }),
        params: {},
        context: testContext,
      });
      expect(api.status).toBe(503);
      expect(api.headers.get("Retry-After")).toBe("60");
      const body = await bodyOf(api);
      expect(body.error).toMatchObject({ code: "service_unavailable", message: SCRUB_HAND_OFF_FAILED });
      const apiJob = await db().selectFrom("scrub_jobs").select(["status", "error"]).where("id", "=", body.error.details.job_id).executeTakeFirstOrThrow();
      expect(apiJob).toEqual({ status: "failed", error: SCRUB_HAND_OFF_FAILED });
      expect(await used(u.id)).toEqual(before);
    } finally {
      installScrubService(realService);
    }
  });

  it("list loads from the dialogs and the API end the same way", async () => {
    installScrubService(await unreachableService());
    try {
      const u = await signedIn();
      const containerId = await makeContainer(db(), u.id, "Mine");
      const before = await used(u.id);
      const web = (await callRoute(
        containers.action,
        form("/containers", u.cookie, { intent: "add-numbers", id: String(containerId), method: "csv" }, { name: "add;me.csv", content: CSV }),
      )) as Response;
      expect(web.status).toBe(302);
      expect(web.headers.get("Location")).toBe("/containers");
      const toast = (await getSession(makeRequest("/", { cookie: u.cookie }))).get("toast");
      expect(toast).toMatchObject({ kind: "error", description: LOAD_HAND_OFF_FAILED });

      const key = await makeKey(db(), u.id);
      const api = await numbersApi.action({
        request: apiRequest(`/api/v1/containers/${containerId}/numbers`, { key: key.key, json: { numbers: ["2125552142"] } }),
        params: { id: String(containerId) },
        context: testContext,
      });
      expect(api.status).toBe(503);
      expect((await bodyOf(api)).error).toMatchObject({ code: "service_unavailable", message: LOAD_HAND_OFF_FAILED });
      const loads = await db().selectFrom("list_loads").select(["status", "error"]).where("list_id", "=", containerId).execute();
      expect(loads).toEqual([
        { status: "failed", error: LOAD_HAND_OFF_FAILED },
        { status: "failed", error: LOAD_HAND_OFF_FAILED },
      ]);
      expect(await used(u.id)).toEqual(before);
    } finally {
      installScrubService(realService);
    }
  });
});

const noRoot = await skipWithout("tests/security/uploads.test.ts (a full disk)", [{ kind: "root" }, { kind: "program", name: "mount" }]);

describe.skipIf(noRoot)("a full disk while an upload is stored (#13 item 8): the server's words, never the file's, never a 500", () => {
  /** Mounts a 64 KiB tmpfs over the user's upload folder, so a 300 KB file cannot be stored. */
  function fillDiskFor(userId: string): () => void {
    const dir = path.join(uploadsRoot(), userId);
    fs.mkdirSync(dir, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]);
    return () => execFileSync("umount", [dir]);
  }
  const BIG = "Name,Phone\n" + "Ann Example,2125552142\n".repeat(14_000); // ~320 KB
  const leftOver = (userId: string) => fs.readdirSync(path.join(uploadsRoot(), userId));

  it("the API answers 507 insufficient_storage in JSON for a file and for JSON numbers; no job, nothing kept, nothing charged", async () => {
    const userId = await makeUser(db(), { plan: "business" });
    const key = await makeKey(db(), userId);
    const unmount = fillDiskFor(userId);
    try {
      const fd = new FormData();
      fd.set("suppression_type", "LitigationOnly");
      fd.set("file", new File([BIG], "big.csv"));
      const res = await scrubsApi.action({ request: apiRequest("/api/v1/scrubs", { key: key.key, form: fd }), params: {}, context: testContext });
      expect(res.status).toBe(507);
      expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect((await bodyOf(res)).error).toMatchObject({ code: "insufficient_storage", message: STORAGE_FULL_MESSAGE });

      const numbers = Array.from({ length: 20_000 }, (_, i) => String(2125550000 + (i % 9000) + 1000));
      const json = await scrubsApi.action({
        request: apiRequest("/api/v1/scrubs", { key: key.key, json: { suppression_type: "LitigationOnly", numbers } }),
        params: {},
        context: testContext,
      });
      expect(json.status).toBe(507);
      expect((await bodyOf(json)).error).toMatchObject({ code: "insufficient_storage" });
      expect(leftOver(userId)).toEqual([]);
    } finally {
      unmount();
    }
    expect(await db().selectFrom("scrub_jobs").select("id").where("user_id", "=", userId).execute()).toEqual([]);
  });

  it("the purge wizard (JavaScript and not), typed numbers and the list dialogs say the server is full, not that the file is bad", async () => {
    const u = await signedIn();
    const unmount = fillDiskFor(u.id);
    try {
      const withJs = (await purgeUpload.action({
        request: form("/purge/upload", u.cookie, { mode: "csv" }, { name: "big.csv", content: BIG }),
        params: {},
        context: testContext,
      })) as Response;
      expect(withJs.status).toBe(507);
      expect(((await withJs.json()) as { error: { message: string } }).error.message).toBe(STORAGE_FULL_MESSAGE);

      const noJs = await callRoute(purge.action, form("/purge", u.cookie, { intent: "upload", mode: "csv" }, { name: "big.csv", content: BIG }));
      expect(statusOf(noJs)).toBe(507);
      expect(JSON.stringify(noJs)).toContain(STORAGE_FULL_MESSAGE);

      const typed = Array.from({ length: 9_000 }, (_, i) => `(212) 555-${2000 + (i % 8000)}`).join("\n");
      const manual = await callRoute(purge.action, form("/purge", u.cookie, { intent: "manual", mode: "manual", type: "LitigationOnly", numbers: typed }));
      expect(statusOf(manual)).toBe(507);
      expect(JSON.stringify(manual)).toContain(STORAGE_FULL_MESSAGE);

      const staged = (await listUploads.action({
        request: form("/resources/list-uploads", u.cookie, {}, { name: "big.csv", content: BIG }),
        params: {},
        context: testContext,
      })) as Response;
      expect(staged.status).toBe(507);
      expect(await staged.json()).toEqual({ error: STORAGE_FULL_MESSAGE });
      expect(leftOver(u.id)).toEqual([]);
    } finally {
      unmount();
    }
  });
});
