import fs from "node:fs";
import zlib from "node:zlib";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "api-exemptions-"));
process.env.MAX_ACTIVE_SCRUBS_PER_USER = "1000";

import { useAppTestDb } from "../setup/db";
import { testContext } from "../setup/request";
import { apiRequest, bodyOf, fakeScrubService, installScrubService, makeKey, makeUser } from "./helpers";
import * as lists from "~/routes/api.v1.exemption-lists._index";
import * as one from "~/routes/api.v1.exemption-lists.$id";
import * as scrubs from "~/routes/api.v1.scrubs._index";
import { getPlanState } from "~/models/usage.server";

/*
 * The exemption-list endpoints (decision 161): create with rows (JSON or a CSV file), read, load more (add or
 * replace), all rows or none with every bad line named (422), another account's list a 404; and `exemptions`
 * with `at` on POST /api/v1/scrubs.
 */

const { handle } = useAppTestDb();
const db = () => handle().db;

type Mod = { loader: (a: any) => Promise<Response> | Response; action?: (a: any) => Promise<Response> | Response };
async function call(mod: Mod, request: Request, params: Record<string, string> = {}): Promise<Response> {
  const fn = request.method === "GET" ? mod.loader : mod.action!;
  return fn({ request, params, context: testContext });
}

let alice: { userId: string; key: string };
let bob: { userId: string; key: string };

beforeAll(async () => {
  installScrubService(fakeScrubService().service);
  const a = await makeUser(db(), { plan: "business" });
  alice = { userId: a, key: (await makeKey(db(), a)).key };
  const b = await makeUser(db(), { plan: "business" });
  bob = { userId: b, key: (await makeKey(db(), b)).key };
});

const ROWS = [
  { phone: "(212) 555-2345", basis: "purchase", date: "2025-03-01" },
  { phone: 3055552101, basis: "consent", date: "2024-02-29" },
];

describe("exemption lists", () => {
  it("creates a list with its rows, lists it and reads it; another account sees none of it", async () => {
    const res = await call(lists, apiRequest("/api/v1/exemption-lists", { key: alice.key, json: { name: "CRM", rows: ROWS } }));
    expect(res.status).toBe(201);
    const { exemption_list } = await bodyOf(res);
    expect(exemption_list).toMatchObject({ name: "CRM", description: "", size: 2, version: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(res.headers.get("Location")).toMatch(new RegExp(`/api/v1/exemption-lists/${exemption_list.id}$`));
    const all = await bodyOf(await call(lists, apiRequest("/api/v1/exemption-lists", { key: alice.key })));
    expect(all.data.map((l: { id: number }) => l.id)).toContain(exemption_list.id);
    const got = await call(one, apiRequest(`/api/v1/exemption-lists/${exemption_list.id}`, { key: alice.key }), { id: String(exemption_list.id) });
    expect((await bodyOf(got)).exemption_list).toEqual(exemption_list);
    expect((await bodyOf(await call(lists, apiRequest("/api/v1/exemption-lists", { key: bob.key })))).data).toEqual([]);
    const theirs = await call(one, apiRequest(`/api/v1/exemption-lists/${exemption_list.id}`, { key: bob.key }), { id: String(exemption_list.id) });
    expect(theirs.status).toBe(404);
    const load = await call(
      one,
      apiRequest(`/api/v1/exemption-lists/${exemption_list.id}`, { key: bob.key, json: { mode: "replace", rows: ROWS.slice(0, 1) } }),
      { id: String(exemption_list.id) },
    );
    expect(load.status).toBe(404);
    const audit = await db()
      .selectFrom("audit_log")
      .select("action")
      .where("target_type", "=", "exemption_list")
      .where("target_id", "=", String(exemption_list.id))
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(["exemptions.create", "exemptions.load"]);
  });

  it("refuses bad rows whole: 422 with one detail per bad line, nothing created", async () => {
    const before = (await bodyOf(await call(lists, apiRequest("/api/v1/exemption-lists", { key: alice.key })))).data.length;
    const res = await call(
      lists,
      apiRequest("/api/v1/exemption-lists", {
        key: alice.key,
        json: {
          name: "Bad",
          rows: [
            { phone: "2125552345", basis: "purchase", date: "2025-02-30" },
            { phone: "2125552346", basis: "sale", date: "2025-01-01" },
            { phone: "2125552347", basis: "consent", date: "2099-01-01" },
            { phone: "2125552348", basis: "purchase", date: "2025-01-01" },
            { phone: "2125552348", basis: "consent", date: "2025-01-01" },
          ],
        },
      }),
    );
    expect(res.status).toBe(422);
    const { error } = await bodyOf(res);
    expect(error.code).toBe("validation_failed");
    expect(error.details.map((d: { message: string }) => d.message)).toEqual([
      'Line 1: date "2025-02-30" is not a real date in the form YYYY-MM-DD.',
      'Line 2: basis "sale" is not purchase, inquiry or consent.',
      expect.stringMatching(/^Line 3: date 2099-01-01 is in the future/),
      "Line 5: 2125552348 is on line 4 as purchase and here as consent; give each number one basis.",
    ]);
    expect((await bodyOf(await call(lists, apiRequest("/api/v1/exemption-lists", { key: alice.key })))).data.length).toBe(before);
  });

  it("loads a CSV file, adds and replaces rows, and refuses a number already there with another basis", async () => {
    const form = new FormData();
    form.set("name", "From file");
    form.set("file", new File(["phone,basis,date\n2125552345,inquiry,2026-10-01\n"], "crm.csv", { type: "text/csv" }));
    const created = await call(lists, apiRequest("/api/v1/exemption-lists", { key: alice.key, form }));
    expect(created.status).toBe(201);
    const list = (await bodyOf(created)).exemption_list;
    expect(list).toMatchObject({ name: "From file", size: 1, version: 1 });
    const id = String(list.id);
    const add = await call(one, apiRequest(`/api/v1/exemption-lists/${id}`, { key: alice.key, json: { rows: ROWS.slice(1) } }), { id });
    expect(add.status).toBe(200);
    expect(await bodyOf(add)).toMatchObject({ exemption_list: { size: 2, version: 2 }, written: 1 });
    const clash = await call(one, apiRequest(`/api/v1/exemption-lists/${id}`, { key: alice.key, json: { mode: "add", rows: ROWS.slice(0, 1) } }), { id });
    expect(clash.status).toBe(422);
    expect((await bodyOf(clash)).error.details[0].message).toBe(
      "2125552345 is already on the list as inquiry 2026-10-01; replace the list to change its basis.",
    );
    const replace = await call(one, apiRequest(`/api/v1/exemption-lists/${id}`, { key: alice.key, json: { mode: "replace", rows: ROWS.slice(0, 1) } }), { id });
    expect(await bodyOf(replace)).toMatchObject({ exemption_list: { size: 1, version: 3 } });
  });

  it("a scrub names the list with `exemptions` and its instant with `at`; another account's list is a 404", async () => {
    const mine = (await bodyOf(await call(lists, apiRequest("/api/v1/exemption-lists", { key: alice.key, json: { name: "For scrubs", rows: ROWS } }))))
      .exemption_list;
    const res = await call(
      scrubs,
      apiRequest("/api/v1/scrubs", {
        key: alice.key,
        json: { numbers: ["2125552345"], suppression_type: "DNCAndLitigation", exemptions: mine.id, at: "2099-07-31T10:00:00-05:00" },
      }),
    );
    expect(res.status).toBe(202);
    const { job } = await bodyOf(res);
    expect(job.exemptions).toEqual({ list_id: mine.id, version: null, sha256: null, at: null, counts: null, records: null });
    expect(job.calling_window).toBeNull();
    const row = await db().selectFrom("scrub_jobs").select(["exemption_list_id", "evaluated_at"]).where("id", "=", job.id).executeTakeFirstOrThrow();
    expect(row.exemption_list_id).toBe(mine.id);
    expect(row.evaluated_at?.toISOString()).toBe("2099-07-31T15:00:00.000Z"); // never a past instant (decision 174)
    const theirs = await call(
      scrubs,
      apiRequest("/api/v1/scrubs", { key: bob.key, json: { numbers: ["2125552345"], suppression_type: "DNCAndLitigation", exemptions: mine.id } }),
    );
    expect(theirs.status).toBe(404);
    const atAlone = await call(
      scrubs,
      apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: ["2125552345"], suppression_type: "DNCAndLitigation", at: "2026-07-31T15:00:00Z" } }),
    );
    expect(atAlone.status).toBe(422);
    expect((await bodyOf(atAlone)).error.details[0]).toEqual({ field: "at", message: "at applies with calling_window=true or exemptions only" });
  });

  it("takes 100,000 JSON rows and a gzip-compressed CSV file in one request each (issue #49: was capped at 64 KB)", async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ phone: String(6462200000 + i), basis: "consent", date: "2024-01-01" }));
    const res = await call(lists, apiRequest("/api/v1/exemption-lists", { key: alice.key, json: { name: "Big JSON", rows } }));
    expect(res.status).toBe(201);
    const created = (await bodyOf(res)).exemption_list;
    expect(created).toMatchObject({ size: 100_000, version: 1 });
    const tooMany = await call(lists, apiRequest("/api/v1/exemption-lists", { key: alice.key, json: { name: "Too many", rows: [...rows, rows[0]] } }));
    expect(tooMany.status).toBe(422);
    const csv = `phone,basis,date\n${Array.from({ length: 3000 }, (_, i) => `${7182200000 + i},purchase,2025-05-05`).join("\n")}\n`;
    const form = new FormData();
    form.set("mode", "replace");
    form.set("file", new File([zlib.gzipSync(csv)], "crm.csv.gz", { type: "application/gzip" }));
    const id = String(created.id);
    const loaded = await call(one, apiRequest(`/api/v1/exemption-lists/${id}`, { key: alice.key, form }), { id });
    expect(loaded.status).toBe(200);
    expect(await bodyOf(loaded)).toMatchObject({ exemption_list: { size: 3000, version: 2 }, written: 3000 });
  });

  it("a plan's limit on exemption records across lists: refused with 422 naming it, nothing loaded", async () => {
    // Beginner's limit (100,000), with the API opened to it for this test
    await db().updateTable("plans").set({ api_access: true }).where("id", "=", "beginner").execute();
    const u = await makeUser(db(), { plan: "beginner" });
    const key = (await makeKey(db(), u)).key;
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ phone: String(from + i), basis: "consent", date: "2024-01-01" }));
    expect((await call(lists, apiRequest("/api/v1/exemption-lists", { key, json: { name: "A", rows: rows(2012200000, 60_000) } }))).status).toBe(201);
    const over = await call(lists, apiRequest("/api/v1/exemption-lists", { key, json: { name: "B", rows: rows(3052200000, 40_001) } }));
    expect(over.status).toBe(422);
    expect((await bodyOf(over)).error.details[0].message).toBe(
      "This list would hold 40,001 numbers, and your Beginner plan's exemption lists hold at most 100,000 in all (40,000 left for this list). Nothing was loaded.",
    );
    const plan = await getPlanState(db(), u);
    expect(plan.exemption).toEqual({ limit: 100_000, used: 60_000, available: 40_000 });
  });
});
