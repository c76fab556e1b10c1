import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "kysely";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "api-lookup-"));

import { useAppTestDb } from "../setup/db";
import { testContext } from "../setup/request";
import { freePort } from "../setup/processes";
import { apiRequest, bodyOf, installScrubService, makeContainer, makeKey, makeUser } from "./helpers";
import * as lookup from "~/routes/api.v1.lookup";
import * as usage from "~/routes/api.v1.usage";
import { openApiDocumentAt } from "~/api/openapi";

const openApiDocument = openApiDocumentAt("http://localhost:3000");
import { LOOKUP_UNAVAILABLE, MAX_LOOKUP_BODY_BYTES } from "~/api/lookup.server";
import { LOOKUP_BURST, LOOKUP_REQUESTS_PER_SECOND, lookupRateLimiter } from "~/api/lookup-rate-limit.server";
import { createApiKey, revokeApiKey, setIntegrationToggle, lookupKeyCache, LOOKUP_KEY_CACHE_MS } from "~/models/integration.server";
import { stopLookupUsage } from "~/models/usage.server";
import { adminListIds, cleanupService, lookupTimeoutMs, startService, storeKinds, tmpDir, type EmbeddedListStore } from "scrub-service/testing";
import { listenHttp } from "scrub-service/local-socket";
import { createHttpScrubClient } from "scrub-service/http-client";
import type { InProcessScrubService } from "scrub-service/in-process";
import {
  CALLING_RULES_VERSION,
  NO_TIME_ZONE_NOTE,
  createExemptionList,
  createScrubJob,
  loadExemptions,
  readExemptionRows,
  type ScrubService,
} from "scrub-service";
import { STATE_LIST_KINDS, type ListKind } from "scrub-service/domain";
import * as scrubs from "~/routes/api.v1.scrubs._index";
import * as scrubById from "~/routes/api.v1.scrubs.$id";
import * as certificate from "~/routes/api.v1.scrubs.$id.certificate";

/*
 * POST /api/v1/lookup against the real engine: the embedded index and (with REDIS_URL) Redis, each in process
 * (embedded mode) and behind the scrub service's HTTP API (services mode, SCRUB_SERVICE_URL); PostgreSQL when
 * DATABASE_URL is set. Numbers use 555-2XXX.
 */

const { handle } = useAppTestDb();

const db = () => handle().db;

const LITIGATION = "2125552101";
const DNC = "3105552102";
const BOTH = "4155552103";
const CLEAN = "7135552104";
const ALICE_ONLY = "6175552105";
const BOB_ONLY = "5035552106";
/** On the Texas list (dnc-tx, decision 160) only. */
const TEXAS = "5125552107";
/** On Canada's National DNCL (dnc-ca, decision 179) only; a US number typed with it is left out of that list. */
const CANADA = "4165552108";
const US_TYPED_INTO_CANADA = "2125552109";

let alice: { userId: string; key: string; container: number; other: number };
let bob: { userId: string; key: string; container: number };
let loader: InProcessScrubService;

function post(key: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  const request =
    typeof body === "string"
      ? apiRequest("/api/v1/lookup", { key, body, method: "POST", headers: { "Content-Type": "application/json", ...headers } })
      : apiRequest("/api/v1/lookup", { key, json: body, headers });
  return lookup.action({ request, params: {}, context: testContext });
}

async function suppressionUsed(key: string): Promise<number> {
  const res = await usage.loader({ request: apiRequest("/api/v1/usage", { key }), params: {}, context: testContext });
  return (await bodyOf(res)).suppression.used;
}

beforeAll(async () => {
  const aliceId = await makeUser(db(), { plan: "business" });
  alice = {
    userId: aliceId,
    key: (await makeKey(db(), aliceId)).key,
    container: await makeContainer(db(), aliceId, "Alice customers"),
    other: await makeContainer(db(), aliceId, "Alice empty"),
  };
  const bobId = await makeUser(db(), { plan: "premium" });
  bob = { userId: bobId, key: (await makeKey(db(), bobId)).key, container: await makeContainer(db(), bobId, "Bob list") };
  // The lists, written through the engine (PostgreSQL/PGlite is the source of truth; each store below is filled from it).
  loader = await startService(handle(), "embedded", { autoStart: false });
  const { litigation, dnc } = await adminListIds(handle());
  await loader.loadNumbers({ listId: litigation, mode: "add", numbers: [LITIGATION, BOTH] });
  await loader.loadNumbers({ listId: dnc, mode: "add", numbers: [DNC, BOTH] });
  const texas = await db().selectFrom("lists").select("id").where("kind", "=", "dnc-tx").executeTakeFirstOrThrow();
  await loader.loadNumbers({ listId: texas.id, mode: "add", numbers: [TEXAS] });
  const canada = await db().selectFrom("lists").select("id").where("kind", "=", "dnc-ca").executeTakeFirstOrThrow();
  await loader.loadNumbers({ listId: canada.id, mode: "add", numbers: [CANADA, US_TYPED_INTO_CANADA] });
  await loader.loadNumbers({ listId: alice.container, mode: "add", numbers: [ALICE_ONLY, BOTH], userId: aliceId });
  await loader.loadNumbers({ listId: bob.container, mode: "add", numbers: [BOB_ONLY, BOTH, CLEAN], userId: bobId });
});

afterAll(async () => {
  await stopLookupUsage(); // what shutdown does: the lookups counted in memory are written
  await loader?.close();
});

const modes = storeKinds.flatMap((store) => [
  { store, over: "in-process" as const },
  { store, over: "http" as const },
]);

describe.each(modes)("lookup: $store store, $over", ({ store, over }) => {
  let service: InProcessScrubService;
  let served: ScrubService;
  let stopHttp: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    service = store === "embedded" ? loader : await startService(handle(), store, { autoStart: false });
    if (store !== "embedded") await service.rebuildLists();
    if (over === "http") {
      const port = await freePort();
      const http = await listenHttp(service, { handle: handle(), dataDir: tmpDir("svc"), token: "t0ken", port, host: "127.0.0.1" });
      stopHttp = http.close;
      served = createHttpScrubClient({ url: `http://127.0.0.1:${port}`, token: "t0ken" });
    } else served = service;
    installScrubService(served);
  });

  afterAll(async () => {
    await stopHttp?.();
    if (service && service !== loader) await cleanupService(service);
  });

  it("answers each number in order: normalized, valid, its lists and the owner's containers", async () => {
    const res = await post(alice.key, {
      numbers: [`(${LITIGATION.slice(0, 3)}) ${LITIGATION.slice(3, 6)}-${LITIGATION.slice(6)}`, `+1 ${DNC}`, Number(BOTH), CLEAN, ALICE_ONLY, BOB_ONLY],
    });
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body.data.map((r: any) => [r.number, r.valid, r.lists, r.containers.map((c: any) => c.name), r.suppressed_by])).toEqual([
      [LITIGATION, true, ["litigation"], [], "litigation"],
      [DNC, true, ["dnc"], [], "dnc"],
      [BOTH, true, ["litigation", "dnc"], ["Alice customers"], "litigation"],
      [CLEAN, true, [], [], null],
      [ALICE_ONLY, true, [], ["Alice customers"], null],
      // Bob's container holds it, but Alice's key never sees Bob's containers
      [BOB_ONLY, true, [], [], null],
    ]);
    expect(body.data[0]).toMatchObject({ input: "(212) 555-2101", kind: "us", region: "US", state: "NY", suppressed: true, reason: null });
    expect(body.data[2].input).toBe(Number(BOTH));
    expect(body.suppression_type).toBe("DNCAndLitigation");
    expect(body.lists.map((l: any) => l.kind)).toEqual(["litigation", "dnc", ...STATE_LIST_KINDS]);
    expect(body.containers.map((c: any) => c.id).sort()).toEqual([alice.container, alice.other].sort());
    expect(JSON.stringify(body)).not.toContain("Bob list");
    // the lookup's own budget (decision 111): 200 requests a second, not the API's 1000 an hour
    expect(res.headers.get("X-RateLimit-Limit")).toBe(String(LOOKUP_REQUESTS_PER_SECOND));
    expect(res.headers.get("X-RateLimit-Window")).toBe("1");
  });

  it("says which list: a number on the Texas list is suppressed by dnc-tx under DNC and Litigation, not under Litigation Only", async () => {
    const dncType = await bodyOf(await post(alice.key, { numbers: [TEXAS, DNC] }));
    expect(dncType.data.map((r: any) => [r.lists, r.suppressed, r.suppressed_by])).toEqual([
      [["dnc-tx"], true, "dnc-tx"],
      [["dnc"], true, "dnc"],
    ]);
    const litigationOnly = await bodyOf(await post(alice.key, { numbers: [TEXAS], suppression_type: "LitigationOnly" }));
    expect(litigationOnly.data.map((r: any) => [r.lists, r.suppressed, r.suppressed_by])).toEqual([[["dnc-tx"], false, null]]);
  });

  it("says which list: a number on Canada's National DNCL is suppressed by dnc-ca under DNC and Litigation; a US number typed into that list is on none", async () => {
    const dncType = await bodyOf(await post(alice.key, { numbers: [CANADA, US_TYPED_INTO_CANADA] }));
    expect(dncType.data.map((r: any) => [r.region, r.lists, r.suppressed, r.suppressed_by])).toEqual([
      ["CA", ["dnc-ca"], true, "dnc-ca"],
      ["US", [], false, null],
    ]);
    const litigationOnly = await bodyOf(await post(alice.key, { numbers: [CANADA], suppression_type: "LitigationOnly" }));
    expect(litigationOnly.data.map((r: any) => [r.lists, r.suppressed, r.suppressed_by])).toEqual([[["dnc-ca"], false, null]]);
  });

  it("never reports another user's container, and refuses it by id (404)", async () => {
    const mine = await bodyOf(await post(bob.key, { numbers: [BOB_ONLY, ALICE_ONLY] }));
    expect(mine.data.map((r: any) => r.containers.map((c: any) => c.id))).toEqual([[bob.container], []]);
    const res = await post(alice.key, { numbers: [BOB_ONLY], container_id: bob.container });
    expect(res.status).toBe(404);
    expect((await bodyOf(res)).error.code).toBe("not_found");
  });

  it("follows the suppression type and the chosen container like a scrub", async () => {
    const body = await bodyOf(await post(alice.key, { numbers: [DNC, ALICE_ONLY, BOTH], suppression_type: "LitigationOnly", container_id: alice.container }));
    expect(body.data.map((r: any) => [r.lists, r.suppressed, r.suppressed_by])).toEqual([
      [["dnc"], false, null],
      [[], true, "container"],
      // a scrub checks the chosen container first (decision 182: the lookup said "litigation" here until then)
      [["litigation", "dnc"], true, "container"],
    ]);
  });

  it("answers invalid entries with the normalizer's reason", async () => {
    const body = await bodyOf(await post(alice.key, { numbers: ["123", "2125550142", "not a phone", LITIGATION] }));
    expect(body.data.map((r: any) => [r.valid, r.reason, r.number])).toEqual([
      [false, "wrong_length", null],
      [false, "fictional_number", null],
      [false, expect.any(String), null],
      [true, null, LITIGATION],
    ]);
    expect(body.data[0].message).toMatch(/10 digits/);
  });
});

describe("lookup: refusals", () => {
  let service: InProcessScrubService;
  beforeAll(async () => {
    service = loader;
    installScrubService(service);
  });

  it("refuses 1,001 numbers and an empty list (422), before counting anything", async () => {
    const before = await suppressionUsed(alice.key);
    const many = await post(alice.key, { numbers: Array.from({ length: 1001 }, () => CLEAN) });
    expect(many.status).toBe(422);
    expect((await bodyOf(many)).error.message).toMatch(/at most 1,000 numbers/);
    const empty = await post(alice.key, { numbers: [] });
    expect(empty.status).toBe(422);
    expect((await bodyOf(empty)).error.message).toMatch(/at least one number/);
    expect((await post(alice.key, { nums: [CLEAN] })).status).toBe(422);
    expect(await suppressionUsed(alice.key)).toBe(before);
  });

  it("says `exempt` with the basis when the owner's exemption list lets a DNC number be called at `at` (decision 161)", async () => {
    // `at` may not be past (decision 174): a purchase whose 18 months end a week or so from now, asked about on its
    // last day and on the first day after
    const DAY = 86_400_000;
    const soon = new Date(Date.now() + 10 * DAY);
    const end = new Date(Date.UTC(soon.getUTCFullYear(), soon.getUTCMonth(), Math.min(soon.getUTCDate(), 28)));
    const purchase = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 18, end.getUTCDate()));
    const ymd = (d: Date) => d.toISOString().slice(0, 10);
    const list = await createExemptionList(db(), { userId: alice.userId, name: "Lookup CRM" });
    const rows = await readExemptionRows({ text: `${DNC},purchase,${ymd(purchase)}\n${BOTH},consent,2020-01-01\n${ALICE_ONLY},consent,2020-01-01` });
    await loadExemptions(db(), { listId: list.id, userId: alice.userId, mode: "replace", rows });
    const ask = (at: string) => post(alice.key, { numbers: [DNC, BOTH, ALICE_ONLY, CLEAN, "12"], container_id: alice.container, exemptions: list.id, at });
    const res = await ask(`${ymd(new Date(end.getTime() - DAY))}T12:00:00Z`);
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body.data.map((r: any) => [r.suppressed_by, r.exempt])).toEqual([
      [null, { basis: "purchase", date: ymd(purchase), until: ymd(end) }],
      ["container", null], // on the container (checked first, as a scrub does: decision 182) and litigation: never exempted
      ["container", null], // the container is the seller's do-not-call list: consent revoked
      [null, null],
      [null, null],
    ]);
    expect(body.exemption_list).toEqual({ id: list.id, version: 1 });
    // the first day of the 19th month: no longer
    const later = await bodyOf(await ask(`${ymd(end)}T00:00:00Z`));
    expect([later.data[0].suppressed_by, later.data[0].exempt]).toEqual(["dnc", null]);
    // without `exemptions` the answer has no `exempt`; another account's list is a 404
    expect((await bodyOf(await post(alice.key, { numbers: [DNC] }))).data[0]).not.toHaveProperty("exempt");
    expect((await post(bob.key, { numbers: [DNC], exemptions: list.id })).status).toBe(404);
  });

  it("echoes every input exactly, whatever characters it holds (the answer's JSON is written by hand)", async () => {
    const inputs = ['21"2\\555', "é 212-555-2101", "\u0001\n", "💡", 2125552101, LITIGATION];
    const res = await post(alice.key, { numbers: inputs });
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body.data.map((r: any) => r.input)).toEqual(inputs);
    expect(body.data[0]).toMatchObject({ valid: false, number: null });
    expect(body.data[5]).toMatchObject({ valid: true, number: LITIGATION, lists: ["litigation"] });
  });

  it("answers each number's time zones, whether it may be called at `at` and when next (decision 131)", async () => {
    // Sunday 24 November 2030 15:00Z: 10 a.m. in New York, 9 a.m. in Alabama (no Sunday calls). An instant to come
    // (decision 174: never a past one); Litigation Only checks no list with a freshness rule to bound it.
    const res = await post(alice.key, {
      numbers: [LITIGATION, "2055552345", "8005552345", "9282832345", "12"],
      at: "2030-11-24T10:00:00-05:00",
      suppression_type: "LitigationOnly",
    });
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    // callingNote (decision 180): the rule that holds the call back, as good.csv's calling_note; a toll-free number
    // is read strictly across every US time zone (Hawaii opens last: 8 a.m. there is 18:00Z)
    expect(body.data.map((r: any) => [r.timeZones, r.callableNow, r.nextCallAt, r.callingNote])).toEqual([
      [["America/New_York"], true, "2030-11-24T15:00:00Z", ""],
      [["America/Chicago"], false, "2030-11-25T14:00:00Z", "Sunday: Alabama forbids Sunday calls (Ala. Admin. Code r. 770-X-5-.17(1)(b))"],
      [[], false, "2030-11-24T18:00:00Z", `${NO_TIME_ZONE_NOTE}. Before 8 a.m. Hawaii-Aleutian Standard Time (47 CFR 64.1200(c)(1))`],
      [["America/Denver", "America/Phoenix"], true, "2030-11-24T15:00:00Z", ""],
      [[], null, null, null],
    ]);
    expect(body.at).toBe("2030-11-24T15:00:00Z");
    expect(body.calling_rules_version).toBe(CALLING_RULES_VERSION);
    // without `at`: now
    const now = await bodyOf(await post(alice.key, { numbers: [LITIGATION] }));
    expect(Math.abs(Date.parse(now.at) - Date.now())).toBeLessThan(60_000);
    expect(typeof now.data[0].callableNow).toBe("boolean");
  });

  it("refuses an `at` that names no instant (422 on the field), counting nothing", async () => {
    const before = await suppressionUsed(alice.key);
    for (const at of ["2026-11-29 10:00", "2026-11-29T10:00:00", 12]) {
      const res = await post(alice.key, { numbers: [LITIGATION], at });
      expect(res.status).toBe(422);
      const e = (await bodyOf(res)).error;
      expect(e.code).toBe("validation_failed");
      expect(e.message).toMatch(/^at/);
    }
    expect(await suppressionUsed(alice.key)).toBe(before);
  });

  it("accepts exactly 1,000 numbers", async () => {
    const res = await post(alice.key, { numbers: Array.from({ length: 1000 }, (_, i) => `713555${String(2000 + i).padStart(4, "0")}`) });
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).data).toHaveLength(1000);
  });

  it("400 invalid_json for a malformed body, 415 for another type, 413 past the cap", async () => {
    const bad = await post(alice.key, '{"numbers": [');
    expect(bad.status).toBe(400);
    expect((await bodyOf(bad)).error.code).toBe("invalid_json");
    const text = await lookup.action({
      request: apiRequest("/api/v1/lookup", { key: alice.key, body: "2125552101", method: "POST", headers: { "Content-Type": "text/plain" } }),
      params: {},
      context: testContext,
    });
    expect(text.status).toBe(415);
    const big = await post(alice.key, JSON.stringify({ numbers: [CLEAN], pad: "x".repeat(MAX_LOOKUP_BODY_BYTES) }));
    expect(big.status).toBe(413);
    expect((await bodyOf(big)).error.code).toBe("payload_too_large");
  });

  it("401 for a wrong or missing key", async () => {
    const wrong = await post("dpt_wrong", { numbers: [CLEAN] });
    expect(wrong.status).toBe(401);
    expect((await bodyOf(wrong)).error.code).toBe("invalid_api_key");
    expect((await post(undefined, { numbers: [CLEAN] })).status).toBe(401);
  });

  it("405 for GET", async () => {
    const res = await lookup.loader({ request: apiRequest("/api/v1/lookup", { key: alice.key }), params: {}, context: testContext });
    expect(res.status).toBe(405);
  });

  it("403 without a plan or with a plan without API access, like scrubs", async () => {
    const none = await makeUser(db(), { plan: null });
    const r1 = await post((await makeKey(db(), none)).key, { numbers: [CLEAN] });
    expect(r1.status).toBe(403);
    expect((await bodyOf(r1)).error.code).toBe("no_plan");
    const beginner = await makeUser(db(), { plan: "beginner" });
    const r2 = await post((await makeKey(db(), beginner)).key, { numbers: [CLEAN] });
    expect(r2.status).toBe(403);
    expect((await bodyOf(r2)).error.code).toBe("api_not_in_plan");
    const unlimited = await makeUser(db(), { role: "UnlimitedUser" });
    expect((await post((await makeKey(db(), unlimited)).key, { numbers: [CLEAN] })).status).toBe(200);
  });

  it("counts every entry as DNC suppression usage and enforces the plan's limit (403 usage_limit_exceeded)", async () => {
    const id = await makeUser(db(), { plan: "business" });
    await db().updateTable("transactions").set({ dnc_and_litigation_scrubs: 5 }).where("user_id", "=", id).execute();
    const { key } = await makeKey(db(), id);
    expect(await suppressionUsed(key)).toBe(0);
    expect((await post(key, { numbers: [CLEAN, "123", LITIGATION] })).status).toBe(200);
    expect(await suppressionUsed(key)).toBe(3);
    const over = await post(key, { numbers: [CLEAN, CLEAN, CLEAN] });
    expect(over.status).toBe(403);
    const err = (await bodyOf(over)).error;
    expect(err.code).toBe("usage_limit_exceeded");
    expect(err.details).toMatchObject({ limit: 5, used: 3, requested: 3, available: 2 });
    expect(await suppressionUsed(key)).toBe(3);
    expect((await post(key, { numbers: [CLEAN, DNC] })).status).toBe(200);
    expect(await suppressionUsed(key)).toBe(5);
    expect((await post(key, { numbers: [CLEAN] })).status).toBe(403);
  });

  it("fails closed with 503 when the list store is unavailable, and counts nothing", async () => {
    const before = await suppressionUsed(alice.key);
    const store = service.store as EmbeddedListStore;
    store.failing = true;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await post(alice.key, { numbers: [LITIGATION, CLEAN] });
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("30");
      expect(await bodyOf(res)).toEqual({ error: { code: "service_unavailable", message: LOOKUP_UNAVAILABLE } });
      expect(warn.mock.calls.join(" ")).toMatch(/unavailable/);
    } finally {
      store.failing = false;
      warn.mockRestore();
    }
    expect(await suppressionUsed(alice.key)).toBe(before);
    expect((await post(alice.key, { numbers: [LITIGATION] })).status).toBe(200);
  });

  it("fails closed with 503 when the scrub service does not answer (services mode)", async () => {
    const port = await freePort();
    installScrubService(createHttpScrubClient({ url: `http://127.0.0.1:${port}`, token: "x" }));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await post(alice.key, { numbers: [LITIGATION] });
      expect(res.status).toBe(503);
    } finally {
      warn.mockRestore();
      installScrubService(service);
    }
  });

  it("is in the OpenAPI document", () => {
    const op = (openApiDocument.paths as Record<string, any>)["/lookup"].post;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "404", "413", "422", "429", "503"]));
  });

  it("the OpenAPI document states the lookup budget the limiter enforces", () => {
    expect([lookupRateLimiter.perSecond, lookupRateLimiter.burst]).toEqual([LOOKUP_REQUESTS_PER_SECOND, LOOKUP_BURST]);
    const op = (openApiDocument.paths as Record<string, any>)["/lookup"].post;
    expect(op.responses["429"].description).toBe(
      `More than ${LOOKUP_REQUESTS_PER_SECOND} lookup requests per second, beyond a burst of ${LOOKUP_BURST} (rate_limited).`,
    );
    expect(op.responses["200"].headers["X-RateLimit-Limit"].description).toMatch(`per second (${LOOKUP_REQUESTS_PER_SECOND})`);
    expect(op.description).toMatch(`${LOOKUP_REQUESTS_PER_SECOND} requests per second per key`);
    expect(openApiDocument.info.description).toMatch(/do not count against the hourly one/);
  });
});

describe("a scrub through the API checks the state lists (decision 160)", () => {
  it("a number on the Texas list is bad with dnc-tx; the job and its certificate name the Texas list and its version", { timeout: 120_000 }, async () => {
    const service = await startService(handle(), "embedded");
    installScrubService(service);
    try {
      const res = await scrubs.action({
        request: apiRequest("/api/v1/scrubs", { key: alice.key, json: { numbers: [TEXAS, CLEAN], suppression_type: "DNCAndLitigation" } }),
        params: {},
        context: testContext,
      });
      expect(res.status).toBe(202);
      const { job } = await bodyOf(res);
      expect(await service.waitFor("job", job.id, 60_000)).toBe("completed");
      const done = await bodyOf(
        await scrubById.loader({ request: apiRequest(`/api/v1/scrubs/${job.id}`, { key: alice.key }), params: { id: job.id }, context: testContext }),
      );
      expect(done.job.counts).toMatchObject({ good: 1, bad: 1, reasons: expect.objectContaining({ "dnc-tx": 1 }) });
      const cert = await bodyOf(
        await certificate.loader({
          request: apiRequest(`/api/v1/scrubs/${job.id}/certificate`, { key: alice.key }),
          params: { id: job.id },
          context: testContext,
        }),
      );
      const texasList = await db().selectFrom("lists").select(["version", "size"]).where("kind", "=", "dnc-tx").executeTakeFirstOrThrow();
      expect(cert.certificate.lists.find((l: any) => l.kind === "dnc-tx")).toMatchObject({
        name: "Texas DNC List",
        version: Number(texasList.version),
        count: Number(texasList.size),
      });
    } finally {
      installScrubService(loader);
      await service.close();
    }
  });
});

/** One CSV line's cells (quoted cells unquoted: a calling note may hold the delimiter). */
function csvCells(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
    out.push(m[1].startsWith('"') ? m[1].slice(1, -1).replaceAll('""', '"') : m[1]);
    if (m[2] === "") break;
  }
  return out;
}

describe("lookup and scrub give the same calling answers (decisions 131, 180)", () => {
  it("for the same numbers at the same instant: time zones, callable now, next call time, the note", { timeout: 120_000 }, async () => {
    const numbers = [
      "2125552345",
      "2055552345",
      "9282832345",
      "8005552345",
      "8504325234",
      "8506445234",
      "4165552345",
      "6015552345",
      "8085552345",
      "7875552345",
      "5045552345",
    ];
    const service = await startService(handle(), "embedded");
    installScrubService(loader);
    try {
      // instants to come (decision 174: `at` is never past): Independence Day observed, Mardi Gras, a Sunday night,
      // the second before 8 a.m. on the day DST starts; Litigation Only checks no list with a freshness rule, so
      // no list's validity bounds them
      for (const at of ["2027-07-05T13:30:00Z", "2027-02-09T16:00:00Z", "2027-11-28T23:59:59Z", "2027-03-14T11:59:59Z"]) {
        const dir = tmpDir("calling-same");
        const file = path.join(dir, "in.csv");
        fs.writeFileSync(file, ["Phone", ...numbers].join("\n") + "\n");
        const jobId = await createScrubJob(db(), {
          userId: alice.userId,
          fileName: "in.csv",
          inputPath: file,
          suppressionType: "LitigationOnly",
          callingWindow: true,
          evaluatedAt: new Date(at),
        });
        await service.enqueue(jobId);
        expect(await service.waitFor("job", jobId, 60_000)).toBe("completed");
        const good = await db().selectFrom("result_files").select("path").where("job_id", "=", jobId).where("kind", "=", "good").executeTakeFirstOrThrow();
        const rows = fs.readFileSync(good.path, "utf8").trim().split("\n").slice(1).map(csvCells);
        const looked = await bodyOf(await post(alice.key, { numbers, at, suppression_type: "LitigationOnly" }));
        expect(rows.map((r) => r[0])).toEqual(numbers);
        // phone_e164, then the calling cells; next_call_local empty without a time zone, null in the lookup (decision 184)
        expect(rows.map((r) => r[1])).toEqual(numbers.map((n) => `+1${n}`));
        expect(rows.map((r) => [r[2], r[3], r[4], r[5], r[6]])).toEqual(
          looked.data.map((d: any) => [d.timeZones.join("|"), d.callableNow ? "yes" : "no", d.nextCallAt, d.nextCallLocal ?? "", d.callingNote]),
        );
      }
    } finally {
      await service.close();
    }
  });
});

describe("lookup: its own request budget (decision 111)", () => {
  let now = Date.now();
  beforeAll(() => {
    installScrubService(loader);
    lookupRateLimiter.clock = () => now; // time held still: no token comes back while the test runs
  });
  afterAll(() => {
    lookupRateLimiter.clock = Date.now;
  });

  it("does not draw on the API's 1000 requests an hour", async () => {
    const id = await makeUser(db(), { plan: "business" });
    const { key, keyId } = await makeKey(db(), id);
    for (let i = 0; i < 3; i++) expect((await post(key, { numbers: [CLEAN] })).status).toBe(200);
    expect(await db().selectFrom("api_rate_limits").selectAll().where("bucket", "like", `%${keyId}%`).execute()).toEqual([]);
    const res = await usage.loader({ request: apiRequest("/api/v1/usage", { key }), params: {}, context: testContext });
    expect([res.headers.get("X-RateLimit-Limit"), res.headers.get("X-RateLimit-Remaining"), res.headers.get("X-RateLimit-Window")]).toEqual([
      "1000",
      "999",
      "3600",
    ]);
  });

  it(`allows a burst of ${LOOKUP_BURST}, then 429 until a token is back (${LOOKUP_REQUESTS_PER_SECOND} a second), counting nothing refused`, async () => {
    const id = await makeUser(db(), { plan: "business" });
    const { key, keyId, integrationId } = await makeKey(db(), id);
    const first = await post(key, { numbers: [CLEAN] });
    expect(first.headers.get("X-RateLimit-Remaining")).toBe(String(LOOKUP_BURST - 1));
    for (let i = 0; i < LOOKUP_BURST - 2; i++) lookupRateLimiter.take([`key:${keyId}`, `integration:${integrationId}`]); // the rest of the burst
    const last = await post(key, { numbers: [CLEAN] });
    expect(last.status).toBe(200);
    expect(last.headers.get("X-RateLimit-Remaining")).toBe("0");
    const usedBefore = await suppressionUsed(key);
    const refused = await post(key, { numbers: [CLEAN] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("1");
    expect(refused.headers.get("X-RateLimit-Remaining")).toBe("0");
    const err = (await bodyOf(refused)).error;
    expect(err.code).toBe("rate_limited");
    expect(err.message).toBe(`Rate limit of ${LOOKUP_REQUESTS_PER_SECOND} lookup requests per second exceeded. Retry after 1 second.`);
    expect(await suppressionUsed(key)).toBe(usedBefore);
    now += Math.ceil(1000 / LOOKUP_REQUESTS_PER_SECOND); // one token
    expect((await post(key, { numbers: [CLEAN] })).status).toBe(200);
    expect((await post(key, { numbers: [CLEAN] })).status).toBe(429);
  });

  it("a key revoked on the Integrations page stops lookups at once", async () => {
    const id = await makeUser(db(), { plan: "business" });
    const { key, keyId } = await makeKey(db(), id);
    expect((await post(key, { numbers: [CLEAN] })).status).toBe(200);
    expect(await revokeApiKey(db(), { id: keyId, userId: id })).toBe(true);
    const res = await post(key, { numbers: [CLEAN] });
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).error.code).toBe("api_key_revoked");
  });

  it(`a key, owner or plan change written by another app process is seen within ${LOOKUP_KEY_CACHE_MS} ms`, async () => {
    const id = await makeUser(db(), { plan: "business" });
    const { key } = await makeKey(db(), id);
    let now = performance.now();
    lookupKeyCache.clock = () => now;
    try {
      expect((await post(key, { numbers: [CLEAN] })).status).toBe(200);
      await db().updateTable("users").set({ status: "Blocked" }).where("id", "=", id).execute(); // not through this process's models
      expect((await post(key, { numbers: [CLEAN] })).status).toBe(200); // the key read a moment ago
      now += LOOKUP_KEY_CACHE_MS;
      const res = await post(key, { numbers: [CLEAN] });
      expect(res.status).toBe(403);
      expect((await bodyOf(res)).error.code).toBe("account_disabled");
    } finally {
      lookupKeyCache.clock = () => performance.now();
    }
  });

  it("with the integration's rate-limit toggle on its keys share one budget; off, each key has its own", async () => {
    const id = await makeUser(db(), { plan: "business" });
    const a = await makeKey(db(), id);
    const second = await createApiKey(db(), { userId: id, integrationId: a.integrationId, name: "second" });
    if ("error" in second) throw new Error(second.error);
    for (let i = 0; i < LOOKUP_BURST; i++) lookupRateLimiter.take([`key:${a.keyId}`, `integration:${a.integrationId}`]);
    expect((await post(a.key, { numbers: [CLEAN] })).status).toBe(429);
    expect((await post(second.key, { numbers: [CLEAN] })).status).toBe(429);
    expect(await setIntegrationToggle(db(), { id: a.integrationId, userId: id, toggle: "rate_limit_enabled", on: false })).toBe(true);
    expect((await post(second.key, { numbers: [CLEAN] })).status).toBe(200);
    expect((await post(a.key, { numbers: [CLEAN] })).status).toBe(429);
  });
});

if (storeKinds.includes("redis")) {
  describe("lookup: Redis copy stale or unreachable", () => {
    it("503 when the database has a newer version than the Redis copy", async () => {
      const svc = await startService(handle(), "redis", { autoStart: false });
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      try {
        await svc.rebuildLists();
        installScrubService(svc);
        expect((await post(alice.key, { numbers: [DNC] })).status).toBe(200);
        const { dnc } = await adminListIds(handle());
        await db()
          .updateTable("lists")
          .set({ version: sql`version + 1` })
          .where("id", "=", dnc)
          .execute();
        const res = await post(alice.key, { numbers: [DNC] });
        expect(res.status).toBe(503);
        expect(warn.mock.calls.join(" ")).toMatch(/no current copy/);
        await db()
          .updateTable("lists")
          .set({ version: sql`version - 1` })
          .where("id", "=", dnc)
          .execute();
      } finally {
        warn.mockRestore();
        installScrubService(loader);
        await cleanupService(svc);
      }
    });

    it("503 within the lookup's deadline (500 ms) when Redis hangs: it accepts commands and never answers", async () => {
      // A relay to the real Redis that, once told to hang, takes every command in and answers nothing.
      const upstream = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
      let hang = false;
      const sockets = new Set<net.Socket>();
      const relay = net.createServer((down) => {
        const up = net.connect(Number(upstream.port || 6379), upstream.hostname);
        for (const s of [up, down]) {
          sockets.add(s);
          s.on("error", () => {});
          s.on("close", () => (up.destroy(), down.destroy()));
        }
        down.on("data", (c) => (hang ? undefined : up.write(c)));
        up.on("data", (c) => (hang ? undefined : down.write(c)));
      });
      await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
      const port = (relay.address() as net.AddressInfo).port;
      const svc = await startService(handle(), "redis", { autoStart: false, redisUrl: `redis://127.0.0.1:${port}` });
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      try {
        await svc.rebuildLists();
        installScrubService(svc);
        expect((await post(alice.key, { numbers: [DNC] })).status).toBe(200);
        hang = true;
        const started = performance.now();
        const res = await post(alice.key, { numbers: [DNC] });
        const elapsed = performance.now() - started;
        expect(res.status).toBe(503);
        expect(await bodyOf(res)).toEqual({ error: { code: "service_unavailable", message: LOOKUP_UNAVAILABLE } });
        expect(warn.mock.calls.join(" ")).toMatch(`did not answer the lookup within ${lookupTimeoutMs()} ms`);
        // the probe waited 30.2 s (the client's command timeout); a generous bound that only that regression breaks
        expect(elapsed).toBeLessThan(10_000);
        expect(lookupTimeoutMs()).toBe(500);
      } finally {
        warn.mockRestore();
        installScrubService(loader);
        hang = false;
        for (const s of sockets) s.destroy();
        relay.close();
        await svc.close().catch(() => {});
      }
    });

    it("503 when Redis does not answer", async () => {
      const port = await freePort();
      const svc = await startService(handle(), "redis", { autoStart: false, redisUrl: `redis://127.0.0.1:${port}` });
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      try {
        installScrubService(svc);
        const res = await post(alice.key, { numbers: [DNC] });
        expect(res.status).toBe(503);
      } finally {
        warn.mockRestore();
        installScrubService(loader);
        await svc.close().catch(() => {});
      }
    });
  });
}

describe("lookup: an instant means 'for calls then', and stale lists are named (decision 174)", () => {
  const DAY = 86_400_000;
  const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
  const day = (d: number) => new Date(Math.floor(Date.now() / DAY) * DAY - d * DAY);
  let carol: { userId: string; key: string };
  let kept: { kind: string; registry_date: Date | null }[];

  beforeAll(async () => {
    installScrubService(loader);
    const id = await makeUser(db(), { plan: "business" });
    carol = { userId: id, key: (await makeKey(db(), id)).key };
    kept = await db().selectFrom("lists").select(["kind", "registry_date"]).where("kind", "in", ["dnc", "dnc-tx"]).execute();
  });

  afterAll(async () => {
    for (const k of kept) await db().updateTable("lists").set({ registry_date: k.registry_date }).where("kind", "=", k.kind).execute();
  });

  /** The list rows a lookup reads are reused for up to LOOKUP_LISTS_CACHE_MS: a change written by SQL shows after it. */
  async function setRegistryDates(dates: Record<string, Date>) {
    for (const [kind, date] of Object.entries(dates))
      await db()
        .updateTable("lists")
        .set({ registry_date: date })
        .where("kind", "=", kind as ListKind)
        .execute();
    await new Promise((r) => setTimeout(r, 1100));
  }

  it("refuses a past `at` and one after the checked lists' validity (422 on `at`), counting nothing", async () => {
    await setRegistryDates({ dnc: day(20), "dnc-tx": day(10) });
    const before = await suppressionUsed(carol.key);
    const past = await post(carol.key, { numbers: [CLEAN], at: "2025-06-01T12:00:00Z" });
    expect(past.status).toBe(422);
    expect((await bodyOf(past)).error.details).toEqual([
      { field: "at", message: expect.stringMatching(/^2025-06-01T12:00:00Z is in the past: it must not be earlier than now/) },
    ]);
    const until = day(20).getTime() + 31 * DAY;
    const beyond = await post(carol.key, { numbers: [CLEAN], at: iso(until + 1000) });
    expect(beyond.status).toBe(422);
    expect((await bodyOf(beyond)).error.details[0]).toEqual({
      field: "at",
      message: `${iso(until + 1000)} is after the lists' validity: the federal DNC list (release ${day(20).toISOString().slice(0, 10)}, rule 31 days) is valid for calls until ${iso(until)}`,
    });
    expect(await suppressionUsed(carol.key)).toBe(before);
    const within = await post(carol.key, { numbers: [CLEAN], at: iso(until) });
    expect(within.status).toBe(200);
    expect((await bodyOf(within)).stale_lists).toEqual([]);
    // Litigation Only checks no list with a freshness rule: only the lower bound holds
    expect((await post(carol.key, { numbers: [CLEAN], at: iso(until + 400 * DAY), suppression_type: "LitigationOnly" })).status).toBe(200);
  });

  it("names each stale list it checks in `stale_lists`, and a number no fresh list holds is not callable on a stale list's word", async () => {
    await setRegistryDates({ dnc: day(3), "dnc-tx": day(365) });
    const body = await bodyOf(await post(carol.key, { numbers: [CLEAN, LITIGATION, DNC] }));
    expect(body.stale_lists).toEqual([{ kind: "dnc-tx", registry_date: day(365).toISOString().slice(0, 10), age_days: 365, rule_days: 152 }]);
    expect(body.data.map((d: any) => [d.number, d.suppressed, d.suppressed_by])).toEqual([
      [CLEAN, true, "stale_list"],
      [LITIGATION, true, "litigation"],
      [DNC, true, "dnc"],
    ]);
    // Litigation Only does not check the Texas list
    const litigation = await bodyOf(await post(carol.key, { numbers: [CLEAN], suppression_type: "LitigationOnly" }));
    expect(litigation.stale_lists).toEqual([]);
    expect(litigation.data[0]).toMatchObject({ suppressed: false, suppressed_by: null });
    // both stale: both named
    await setRegistryDates({ dnc: day(40) });
    const both = await bodyOf(await post(carol.key, { numbers: [CLEAN] }));
    expect(both.stale_lists.map((l: any) => [l.kind, l.age_days, l.rule_days])).toEqual([
      ["dnc", 40, 31],
      ["dnc-tx", 365, 152],
    ]);
  });
});
