import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "api-compat-"));

import { useAppTestDb } from "../setup/db";
import { testContext } from "../setup/request";
import { apiRequest, bodyOf, installScrubService, makeContainer, makeKey, makeUser } from "./helpers";
import * as scrub from "~/routes/api.compat.dncscrub.scrub";
import * as check from "~/routes/api.v1.check";
import * as pushCalls from "~/routes/api.compat.calls";
import * as usage from "~/routes/api.v1.usage";
import { COMPAT_FIELDS } from "~/api/compat.server";
import { forgetDialerRequestWrites, lastDialerRequests, saveDialerCampaign } from "~/models/dialer.server";
import { stopLookupUsage } from "~/models/usage.server";
import { adminListIds, cleanupService, startService, storeKinds } from "scrub-service/testing";
import type { InProcessScrubService } from "scrub-service/in-process";
import { createExemptionList, listNumberCalls, loadExemptions, readExemptionRows, recordCalls, RedisCallCounters, replaceCallCountersOf } from "scrub-service";
import { getCallCounters } from "~/utils/call-counters.server";
import { takesLargeBody } from "../../server-security.mjs";

/*
 * The DNCScrub-compatible scrub (issue #48, decision 189) against the real engine: the embedded index and (with
 * REDIS_URL) Redis; PostgreSQL when DATABASE_URL is set. Driven as VICIdial's AST_DNCcom_filter.pl drives it (multipart,
 * 50,000 numbers, no output, no headers) and as the published examples do. Numbers use 555-3XXX.
 */

const { handle } = useAppTestDb();
const db = () => handle().db;

const LITIGATION = "2125553101";
const DNC = "3105553102";
const CLEAN = "7135553104";
const IN_CONTAINER = "6175553105";
/** On the federal list, with a purchase 30 days ago in the campaign's exemption list: O. */
const DNC_WITH_PURCHASE = "4155553106";
/** On no list, with written consent: E. */
const CONSENTED = "5035553107";
/** Florida, on no list: called three times in the last hour on the campaign (its 24-hour cap). */
const FLORIDA = "3055553108";

let alice: { userId: string; key: string; container: number };
let loader: InProcessScrubService;
const DAY = 86_400_000;

const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function multipart(fields: Record<string, string>): Request {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  // what the filter's LWP POST sends: the form, nothing else (no loginId header, no User-Agent, no Origin)
  return new Request("http://localhost/api/compat/dncscrub/scrub", { method: "POST", body: form });
}

async function send(request: Request): Promise<Response> {
  return request.method === "GET" ? scrub.loader({ request, params: {}, context: testContext }) : scrub.action({ request, params: {}, context: testContext });
}

async function suppressionUsed(key: string): Promise<number> {
  const res = await usage.loader({ request: apiRequest("/api/v1/usage", { key }), params: {}, context: testContext });
  return (await bodyOf(res)).suppression.used;
}

/** The filter's reading of an answer line: split on commas, no CSV quoting. */
function strictLines(text: string): string[][] {
  expect(text.endsWith("\n")).toBe(true);
  const lines = text.slice(0, -1).split("\n");
  for (const line of lines) {
    expect(line.length).toBeLessThan(240);
    expect(line).not.toMatch(/["'\\\r]/);
    expect(line.split(",")).toHaveLength(COMPAT_FIELDS.length);
  }
  return lines.map((l) => l.split(","));
}

beforeAll(async () => {
  const userId = await makeUser(db(), { plan: "business" });
  alice = { userId, key: (await makeKey(db(), userId)).key, container: await makeContainer(db(), userId, "Alice's customers, do not call") };
  loader = await startService(handle(), "embedded", { autoStart: false });
  const { litigation, dnc } = await adminListIds(handle());
  await loader.loadNumbers({ listId: litigation, mode: "add", numbers: [LITIGATION] });
  await loader.loadNumbers({ listId: dnc, mode: "add", numbers: [DNC, DNC_WITH_PURCHASE] });
  await loader.loadNumbers({ listId: alice.container, mode: "add", numbers: [IN_CONTAINER], userId });
  const list = await createExemptionList(db(), { userId, name: "CRM, with a comma" });
  const rows = await readExemptionRows({ text: `${DNC_WITH_PURCHASE},purchase,${ymd(Date.now() - 30 * DAY)}\n${CONSENTED},consent,2020-01-01` });
  await loadExemptions(db(), { listId: list.id, userId, mode: "replace", rows });
  await saveDialerCampaign(db(), userId, { campaignId: "SPRING", containerId: alice.container, exemptionListId: list.id });
  const now = Date.now();
  await recordCalls(
    db(),
    userId,
    [3, 2, 1].map((h) => ({
      number: Number(FLORIDA),
      atMs: now - h * 600_000,
      subject: "SPRING",
      channel: "call" as const,
      outcome: "attempted" as const,
      debtId: null,
      dialerCallId: null,
      reserved: false,
    })),
  );
});

afterAll(async () => {
  await stopLookupUsage();
  await loader?.close();
});

it("takes a large body on its path only (server-security's upload routes)", () => {
  expect(takesLargeBody("/api/compat/dncscrub/scrub")).toBe(true);
  expect(takesLargeBody("/api/compat/dncscrub")).toBe(false);
});

describe.each(storeKinds)("the DNCScrub-compatible scrub: %s store", (store) => {
  let service: InProcessScrubService;
  beforeAll(async () => {
    service = store === "embedded" ? loader : await startService(handle(), store, { autoStart: false });
    if (store !== "embedded") await service.rebuildLists();
    installScrubService(service);
  });
  afterAll(async () => {
    if (service && service !== loader) await cleanupService(service);
  });

  // The exact 50,000-number request once per store, 5,000 on the cluster: its client shares a loaded CI machine with
  // every other suite, and the contract under test is the layer's, not the store's (the lookup's cluster tests are)
  const LEADS = store === "cluster" ? 5_000 : 50_000;

  it(`answers ${LEADS.toLocaleString("en-US")} numbers sent exactly as VICIdial's filter sends them: one bare line per number, in order, repeats kept`, async () => {
    const special = [LITIGATION, DNC, CLEAN, IN_CONTAINER, "12"];
    const phones: string[] = [];
    const npas = ["201", "202", "203", "205", "206"];
    for (let i = 0; phones.length < LEADS; i++) {
      if (i % 10_000 === 7)
        phones.push(...special, special[0]); // repeats and an invalid entry among the leads
      else phones.push(`${npas[i % 5]}555${String(Math.floor(i / 5) % 10_000).padStart(4, "0")}`);
    }
    phones.length = LEADS;
    // "answered" requests are written at most once a second per endpoint: this one must be, whatever ran just before
    forgetDialerRequestWrites();
    const before = await suppressionUsed(alice.key);
    const res = await send(multipart({ loginId: alice.key, version: "3", projId: "", campaignId: "SPRING", phoneList: phones.join(",") }));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.startsWith("Phone")).toBe(false); // no header
    const lines = strictLines(text);
    expect(lines).toHaveLength(phones.length);
    lines.forEach((f, i) => {
      if (f[0] !== phones[i]) expect(f[0]).toBe(phones[i]); // (one expect per mismatch only: 50,000 lines)
      if (!/^[CDOEI]$/.test(f[1])) expect(f[1]).toMatch(/^[CDOEI]$/);
    });
    const codeOf = (phone: string) => lines[phones.indexOf(phone)].slice(1, 4);
    expect(codeOf(LITIGATION)).toEqual(["D", "", "litigation"]);
    expect(codeOf(DNC)).toEqual(["D", "", "dnc"]);
    expect(codeOf(CLEAN)[0]).toBe("C");
    expect(codeOf(IN_CONTAINER)).toEqual(["D", "", `container-${alice.container}`]); // the list's code, never its name
    expect(codeOf("12")[0]).toBe("I");
    expect(text).not.toContain("Alice");
    // counted against the plan like lookups: one per number sent
    expect((await suppressionUsed(alice.key)) - before).toBe(phones.length);
    const last = (await lastDialerRequests(db(), alice.userId)).find((r) => r.endpoint === "scrub");
    expect(last).toMatchObject({ outcome: "answered", status: 200, numbers: LEADS, campaignId: "SPRING" });
  }, 60_000);

  it("answers every result code we emit: C, D (list, litigator, container), O, E and I", async () => {
    const res = await send(
      multipart({
        loginId: alice.key,
        campaignId: "SPRING",
        phoneList: [CLEAN, DNC, LITIGATION, IN_CONTAINER, DNC_WITH_PURCHASE, CONSENTED, "555", "0005553333"].join(","),
      }),
    );
    const rows = strictLines(await res.text()).map((f) => Object.fromEntries(COMPAT_FIELDS.map((k, i) => [k, f[i]])));
    expect(rows.map((r) => [r.Phone, r.ResultCode, r.Reason, r.EBRType])).toEqual([
      [CLEAN, "C", "", ""],
      [DNC, "D", "dnc", ""],
      [LITIGATION, "D", "litigation", ""],
      [IN_CONTAINER, "D", `container-${alice.container}`, ""],
      [DNC_WITH_PURCHASE, "O", "dnc", "purchase"],
      [CONSENTED, "E", "", "consent"],
      ["555", "I", "wrong_length", ""],
      ["0005553333", "I", expect.stringMatching(/^[a-z_]+$/), ""],
    ]);
    expect(rows[0]).toMatchObject({ RegionAbbrev: "TX", Country: "US", Locale: "", CarrierInfo: "", TZCode: "", LineType: "", IsWirelessOrVoIP: "" });
    expect(rows[0].CallingWindow).toMatch(/^(NOW|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)$/);
    expect(rows[0].DoNotCallToday).toMatch(/^[01]$/);
    if (rows[0].CallingWindow === "NOW") expect(rows[0].DoNotCallToday).toBe("0");
    expect(rows[0].UTCOffset).toMatch(/^-(300|360)$/);
    expect(rows[6]).toMatchObject({ CallingWindow: "", DoNotCallToday: "", RegionAbbrev: "", Country: "" });
  });

  it("C means on no list whatever the hour: a number held by the campaign's call cap is C, not callable now in CallingWindow", async () => {
    const held = await send(multipart({ loginId: alice.key, campaignId: "SPRING", phoneList: FLORIDA }));
    const [f] = strictLines(await held.text());
    expect(f[1]).toBe("C");
    expect(f[10]).toMatch(/^\d{4}-\d{2}-\d{2}T/); // CallingWindow: the next lawful call, not NOW
    // another campaign is another call-history subject: its cap does not hold
    const other = await send(multipart({ loginId: alice.key, campaignId: "AUTUMN", phoneList: FLORIDA }));
    const [g] = strictLines(await other.text());
    expect(g[1]).toBe("C");
    if (g[10] !== "NOW") expect(g[10] < f[10]).toBe(true); // at night both wait for the morning; the cap's lift is later
  });

  it("answers as the published examples ask: GET with the loginId header, JSON output, identifiers echoed", async () => {
    const url = `http://localhost/api/compat/dncscrub/scrub?phoneList=${CLEAN}|lead-1,${DNC}|lead-2,${CLEAN}&output=json&version=3`;
    const res = await send(new Request(url, { headers: { loginId: alice.key } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    const body = (await bodyOf(res)) as Record<string, string>[];
    expect(body.map((r) => [r.Phone, r.ResultCode, r.Reserved, r.Reason])).toEqual([
      [CLEAN, "C", "lead-1", ""],
      [DNC, "D", "lead-2", "dnc"],
      [CLEAN, "C", "", ""],
    ]);
    expect(Object.keys(body[0])).toEqual([...COMPAT_FIELDS]);
  });

  it("takes form-encoded and JSON bodies too", async () => {
    const form = await send(
      new Request("http://localhost/api/compat/dncscrub/scrub", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ loginId: alice.key, phoneList: `${DNC},${CLEAN}` }).toString(),
      }),
    );
    expect(strictLines(await form.text()).map((f) => f[1])).toEqual(["D", "C"]);
    const json = await send(
      new Request("http://localhost/api/compat/dncscrub/scrub", {
        method: "POST",
        headers: { "Content-Type": "application/json", loginId: alice.key },
        body: JSON.stringify({ phoneList: `${LITIGATION}`, output: "json" }),
      }),
    );
    expect((await bodyOf(json))[0]).toMatchObject({ Phone: LITIGATION, ResultCode: "D", Reason: "litigation" });
  });
});

describe.each(storeKinds)("the yes/no check: %s store", (store) => {
  let service: InProcessScrubService;
  beforeAll(async () => {
    service = store === "embedded" ? loader : await startService(handle(), store, { autoStart: false });
    if (store !== "embedded") await service.rebuildLists();
    installScrubService(service);
  });
  afterAll(async () => {
    if (service && service !== loader) await cleanupService(service);
  });
  const ask = (query: string, headers: Record<string, string> = {}) =>
    check.loader({ request: new Request(`http://localhost/api/v1/check?${query}`, { headers }), params: {}, context: testContext });

  it("answers 1 for a listed or invalid number, 1 or 0 for a clean one as its calling hours say now, true/false with format=boolean", async () => {
    const dnc = await ask(`phone=${DNC}&key=${alice.key}`);
    expect(dnc.status).toBe(200);
    expect(dnc.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(await dnc.text()).toBe("1");
    expect(await (await ask(`phone=${LITIGATION}&format=boolean`, { Authorization: `Bearer ${alice.key}` })).text()).toBe("true");
    expect(await (await ask(`phone=12&key=${alice.key}`)).text()).toBe("1");
    // the clean number: as the scrub's CallingWindow says at this instant
    const [row] = strictLines(await (await send(multipart({ loginId: alice.key, phoneList: CLEAN }))).text());
    const callable = row[10] === "NOW";
    expect(await (await ask(`phone=${CLEAN}&key=${alice.key}`)).text()).toBe(callable ? "0" : "1");
    expect(await (await ask(`phone=${CLEAN}&format=boolean`, { loginId: alice.key })).text()).toBe(callable ? "false" : "true");
    // the campaign's call cap holds the Florida number whatever the hour; another campaign's history does not count
    expect(await (await ask(`phone=${FLORIDA}&campaign=SPRING&key=${alice.key}`)).text()).toBe("1");
  });

  it("fails closed when the live call counters do not answer: 1 with 503 (decision 196)", async () => {
    const down = new RedisCallCounters({ target: { kind: "node", url: "redis://127.0.0.1:1" }, prefix: "down:", db: db(), reconnectMaxMs: 20 });
    await getCallCounters(); // the route's own, made first so that the down store replaces it
    const before = replaceCallCountersOf(handle(), down);
    const logged = [vi.spyOn(console, "error").mockImplementation(() => {}), vi.spyOn(console, "warn").mockImplementation(() => {})];
    try {
      const res = await ask(`phone=${CLEAN}&key=${alice.key}`);
      expect([res.status, await res.text()]).toEqual([503, "1"]);
      expect(res.headers.get("X-Check-Error")).toMatch(/^The call history could not be read just now/);
    } finally {
      for (const l of logged) l.mockRestore();
      replaceCallCountersOf(handle(), before);
      await down.close();
    }
  });

  it("fails closed: a wrong key answers 1 with 401 and the reason in X-Check-Error", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await ask(`phone=${CLEAN}&key=dpt_wrong`);
      expect(res.status).toBe(401);
      expect(await res.text()).toBe("1");
      expect(res.headers.get("X-Check-Error")).toBe("The API key is not valid.");
      const boolean = await ask(`phone=${CLEAN}&format=boolean`);
      expect([boolean.status, await boolean.text()]).toEqual([401, "true"]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("call events from the dialer", () => {
  /** now minus `minutes`, as VICIdial writes call_date: the server's local wall time, no offset. */
  const newYorkWall = (minutes: number) =>
    new Intl.DateTimeFormat("sv-SE", { timeZone: "America/New_York", dateStyle: "short", timeStyle: "medium" }).format(new Date(Date.now() - minutes * 60_000));
  const push = (query: string, init: RequestInit = {}) => {
    const request = new Request(`http://localhost/api/compat/calls?${query}`, init);
    return request.method === "GET"
      ? pushCalls.loader({ request, params: {}, context: testContext })
      : pushCalls.action({ request, params: {}, context: testContext });
  };
  const history = async (number: string) => (await listNumberCalls(db(), alice.userId, Number(number), { limit: 50, offset: 0, nowMs: Date.now() })).records;

  it("takes vicidial_log rows into the call history: statuses mapped as the import maps them, a repeated uniqueid ignored", async () => {
    const n = "2125553120";
    const rows = [
      { call_date: newYorkWall(50), phone_number: n, campaign_id: "SPRING", status: "SALE", length_in_sec: "95", uniqueid: "1764300000.101" },
      { call_date: newYorkWall(40), phone_number: n, campaign_id: "SPRING", status: "NA", length_in_sec: "0", uniqueid: "1764300000.102" },
      { call_date: newYorkWall(30), phone_number: n, campaign_id: "SPRING", status: "AA", length_in_sec: "12", uniqueid: "1764300000.103" },
    ];
    const first = await push(`tz=America/New_York&key=${alice.key}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(rows),
    });
    expect(first.status).toBe(201);
    expect(await bodyOf(first)).toEqual({ recorded: 3, ignored: 0 });
    // the same rows again (a dialer's retry), and one as a dispo URL's GET: every one a repeat
    const again = await push(`tz=America/New_York`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${alice.key}` },
      body: JSON.stringify(rows),
    });
    expect(await bodyOf(again)).toEqual({ recorded: 0, ignored: 3 });
    const dispo = await push(`${new URLSearchParams({ ...rows[0], key: alice.key, tz: "America/New_York" })}`);
    expect([dispo.status, await bodyOf(dispo)]).toEqual([201, { recorded: 0, ignored: 1 }]);
    const stored = await history(n);
    expect(stored.map((r) => [r.outcome, r.subject, r.channel, r.dialerCallId])).toEqual([
      ["connected", "SPRING", "call", "1764300000.103"],
      ["attempted", "SPRING", "call", "1764300000.102"],
      ["conversation", "SPRING", "call", "1764300000.101"],
    ]);
    // the call_date read in the server's zone: 50 minutes ago, to the second
    expect(Math.abs(stored[2].at.getTime() - (Date.now() - 50 * 60_000))).toBeLessThan(5_000);
  });

  it("takes a vicidial_log CSV export and a dispo URL's GET", async () => {
    const n = "2125553121";
    const csv = `call_date,phone_number,campaign_id,status,length_in_sec,uniqueid\n${newYorkWall(20)},${n},SPRING,NI,40,1764300000.201\n`;
    const res = await push(`tz=America/New_York&key=${alice.key}`, { method: "POST", headers: { "Content-Type": "text/csv" }, body: csv });
    expect([res.status, await bodyOf(res)]).toEqual([201, { recorded: 1, ignored: 0 }]);
    const get = await push(
      `${new URLSearchParams({ key: alice.key, tz: "America/New_York", call_date: newYorkWall(70), phone_number: n, campaign_id: "SPRING", status: "B", length_in_sec: "0" })}`,
    );
    expect([get.status, await bodyOf(get)]).toEqual([201, { recorded: 1, ignored: 0 }]);
    expect((await history(n)).map((r) => r.outcome)).toEqual(["conversation", "attempted"]);
  });

  it("records a dispo URL's call without call_date at the moment it arrives (no tz needed)", async () => {
    const n = "2125553124";
    const res = await push(
      `${new URLSearchParams({ key: alice.key, phone_number: n, campaign_id: "SPRING", status: "NI", length_in_sec: "30", uniqueid: "1764300000.301" })}`,
    );
    expect([res.status, await bodyOf(res)]).toEqual([201, { recorded: 1, ignored: 0 }]);
    const [r] = await history(n);
    expect(r).toMatchObject({ outcome: "conversation", subject: "SPRING", dialerCallId: "1764300000.301" });
    expect(Math.abs(r.at.getTime() - Date.now())).toBeLessThan(10_000);
  });

  it("takes a generic webhook's JSON records", async () => {
    const n = "3105553122";
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const res = await push("", {
      method: "POST",
      headers: { "Content-Type": "application/json", loginId: alice.key },
      body: JSON.stringify({ calls: [{ number: n, at, outcome: "connected", dialer_call_id: "crm-1" }] }),
    });
    expect([res.status, await bodyOf(res)]).toEqual([201, { recorded: 1, ignored: 0 }]);
    const single = await push("", {
      method: "POST",
      headers: { "Content-Type": "application/json", loginId: alice.key },
      body: JSON.stringify({ number: n, at, outcome: "attempted", channel: "text" }),
    });
    expect([single.status, await bodyOf(single)]).toEqual([201, { recorded: 1, ignored: 0 }]);
    expect(await history(n)).toHaveLength(2);
  });

  it("refuses VICIdial rows without tz, saying so, and records nothing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const n = "2125553123";
      const res = await push(
        `${new URLSearchParams({ key: alice.key, call_date: newYorkWall(5), phone_number: n, status: "NA", length_in_sec: "0", campaign_id: "X" })}`,
      );
      expect(res.status).toBe(400);
      expect((await bodyOf(res)).error.message).toMatch(
        /^tz is required for VICIdial rows: their call_date is the dialer server's local time without an offset\./,
      );
      expect(await history(n)).toHaveLength(0);
      const wrong = await push(`tz=America/New_York&key=dpt_wrong`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "[]" });
      expect(wrong.status).toBe(401);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("refusals: one line of text, logged with the reason", () => {
  beforeAll(() => installScrubService(loader)); // the embedded service (a store block above may have closed its own)
  it("a wrong key: 401 and one ERROR line, in the log", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await send(multipart({ loginId: "dpt_wrong", phoneList: CLEAN }));
      expect(res.status).toBe(401);
      expect(await res.text()).toBe("ERROR: The API key is not valid.\n");
      expect(warn.mock.calls.map((c) => String(c[0])).join("\n")).toMatch(
        /\[compat\] refused scrub POST \/api\/compat\/dncscrub\/scrub: 401 The API key is not valid\./,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("no key at all", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await send(multipart({ phoneList: CLEAN }));
      expect(res.status).toBe(401);
      expect(await res.text()).toBe("ERROR: No API key: send your key as the loginId header or form field.\n");
    } finally {
      warn.mockRestore();
    }
  });

  it("a missing phoneList: 400, one line, and the customer's last request says why", async () => {
    forgetDialerRequestWrites();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await send(multipart({ loginId: alice.key, version: "3", campaignId: "SPRING" }));
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(text).toBe("ERROR: phoneList is required: comma-separated 10-digit numbers.\n");
    } finally {
      warn.mockRestore();
    }
    const last = (await lastDialerRequests(db(), alice.userId)).find((r) => r.endpoint === "scrub");
    expect(last).toMatchObject({ outcome: "refused", status: 400, detail: "phoneList is required: comma-separated 10-digit numbers.", campaignId: "SPRING" });
  });

  it("more than 60,000 numbers: 413 in one line, nothing counted; a trailing comma ends the list", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const before = await suppressionUsed(alice.key);
      const res = await send(multipart({ loginId: alice.key, phoneList: Array.from({ length: 60_001 }, () => CLEAN).join(",") }));
      expect(res.status).toBe(413);
      expect(await res.text()).toBe("ERROR: phoneList holds 60001 numbers: at most 60000 per request.\n");
      expect(await suppressionUsed(alice.key)).toBe(before);
    } finally {
      warn.mockRestore();
    }
    const trailing = await send(multipart({ loginId: alice.key, phoneList: `${DNC},${CLEAN},` }));
    expect(strictLines(await trailing.text()).map((f) => f[0])).toEqual([DNC, CLEAN]);
  });

  it("an entry with a quote is refused rather than echoed into the dialer's SQL; JSON output answers a JSON error", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await send(multipart({ loginId: alice.key, phoneList: `${CLEAN},21255'51234` }));
      expect(res.status).toBe(400);
      expect(await res.text()).toBe("ERROR: phoneList entry 2 holds a quote, backslash or control character.\n");
      const json = await send(new Request(`http://localhost/api/compat/dncscrub/scrub?output=json`, { headers: { loginId: alice.key } }));
      expect(await bodyOf(json)).toEqual({ error: { status: 400, message: "phoneList is required: comma-separated 10-digit numbers." } });
    } finally {
      warn.mockRestore();
    }
  });
});
