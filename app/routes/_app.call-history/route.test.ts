import { beforeAll, describe, expect, it } from "vitest";
import { useAppTestDb } from "../../../tests/setup/db";
import { makeRequest, testContext } from "../../../tests/setup/request";
import { createUser, run } from "../../../tests/fixtures/purge";
import { action, loader } from "./route";

/*
 * The Call History screen (issue #46, decision 185 "The screen"): a call log imported all or nothing through the
 * engine's reader, a VICIdial export needing a zone, columns chosen when not recognised, a number's history scoped to
 * the signed-in user, the plan gate.
 */

const { handle } = useAppTestDb();

type DataResult<T> = { type: "DataWithResponseInit"; data: T; init: { status?: number } | null };
type Reply = { step: "errors"; errors: string[]; total: number } | { step: "map"; uploadId: string; columns: string[]; zone: string; message: string | null };
type Page = Exclude<Awaited<ReturnType<typeof loader>>, Response>;

let ann: Awaited<ReturnType<typeof createUser>>;
let bob: Awaited<ReturnType<typeof createUser>>;
let noPlan: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  const db = handle().db;
  ann = await createUser(db, { role: "UnlimitedUser", firstName: "Ann", lastName: "Calls" });
  bob = await createUser(db, { role: "UnlimitedUser", firstName: "Bob", lastName: "Calls" });
  noPlan = await createUser(db, { firstName: "No", lastName: "Plan" });
});

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
/** A local wall time (no offset) `minutes` ago in UTC, as a VICIdial export writes it. */
const wallAgo = (minutes: number) => ago(minutes).slice(0, 19).replace("T", " ");

function uploadRequest(cookie: string, text: string, fields: Record<string, string> = {}, name = "calls.csv") {
  const fd = new FormData();
  fd.append("intent", "import");
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append("file", new Blob([text]), name);
  return new Request("http://localhost/call-history", { method: "POST", body: fd, headers: { Cookie: cookie } });
}

async function post(req: Request) {
  return run(() => action({ request: req, params: {}, context: testContext }));
}

async function page(cookie: string, search = ""): Promise<Page> {
  return (await run(() => loader({ request: makeRequest(`/call-history${search}`, { cookie }), params: {}, context: testContext }))) as Page;
}

function replyOf(r: unknown): { status: number; data: Reply } {
  const d = r as DataResult<Reply>;
  expect(d.type).toBe("DataWithResponseInit");
  return { status: d.init?.status ?? 200, data: d.data };
}

describe("/call-history import", () => {
  it("imports a CSV all at once, ignoring a repeated dialer call id, and shows the number's counts and rows", async () => {
    const csv = `number,at,outcome,subject,channel,dialer_call_id,debt_id\n(212) 555-2345,${ago(60)},connected,spring,call,d-1,\n2125552345,${ago(120)},attempted,,text,d-2,debt-9\n2125552345,${ago(30)},attempted,,call,d-1,\n2125552345,${ago(3 * 24 * 60)},conversation,,call,d-3,\n`;
    const r = await post(uploadRequest(ann.cookie, csv));
    expect(r).toBeInstanceOf(Response);
    expect((r as Response).status).toBe(302);
    expect((r as Response).headers.get("Location")).toBe("/call-history");
    expect((r as Response).headers.get("Set-Cookie")).toBeTruthy();

    const p = await page(ann.cookie, "?number=212-555-2345");
    expect(p.search && "history" in p.search).toBe(true);
    const s = p.search as Extract<Page["search"], { history: unknown }>;
    expect(s.digits).toBe("2125552345");
    expect(s.history.totalRecords).toBe(3);
    expect(s.history.last24h).toEqual({ calls: 1, texts: 1, total: 2 });
    expect(s.history.last7d).toEqual({ calls: 2, texts: 1, total: 3 });
    expect(s.history.records.map((c) => c.dialerCallId)).toEqual(["d-1", "d-2", "d-3"]);
    expect(s.history.records[0].subject).toBe("spring");
    expect(s.history.records[1].debtId).toBe("debt-9");
  });

  it("refuses a file with bad rows whole, naming each line and field", async () => {
    const csv = `number,at,outcome\n2125550001,${ago(10)},connected\n2125550001,2026-01-01 10:00,connected\n12,${ago(10)},bogus\n`;
    const { status, data } = replyOf(await post(uploadRequest(ann.cookie, csv, { zone: "" })));
    expect(status).toBe(422);
    expect(data.step).toBe("errors");
    const errors = (data as Extract<Reply, { step: "errors" }>).errors;
    expect(errors.some((e) => e.startsWith("Line 3, at:"))).toBe(true);
    expect(errors.some((e) => e.startsWith("Line 4, number:"))).toBe(true);
    expect(errors.some((e) => e.startsWith("Line 4, outcome:"))).toBe(true);
    const p = await page(ann.cookie, "?number=2125550001");
    expect((p.search as Extract<Page["search"], { history: unknown }>).history.totalRecords).toBe(0);
  });

  it("refuses a VICIdial export without a zone, and reads it in the chosen zone", async () => {
    const csv = `call_date,phone_number,campaign_id,status,length_in_sec,uniqueid\n${wallAgo(90)},3105550002,SPRING,SALE,60,v-1\n${wallAgo(80)},3105550002,SPRING,NA,0,v-2\n`;
    const { status, data } = replyOf(await post(uploadRequest(ann.cookie, csv, { zone: "" })));
    expect(status).toBe(422);
    expect((data as Extract<Reply, { step: "errors" }>).errors[0]).toMatch(/VICIdial vicidial_log export.*Choose the dialer server's time zone/);
    expect((await page(ann.cookie, "?number=3105550002")).search).toMatchObject({ history: { totalRecords: 0 } });

    const ok = await post(uploadRequest(ann.cookie, csv, { zone: "UTC" }));
    expect((ok as Response).status).toBe(302);
    const s = (await page(ann.cookie, "?number=3105550002")).search as Extract<Page["search"], { history: unknown }>;
    expect(s.history.records.map((c) => [c.dialerCallId, c.outcome, c.subject])).toEqual([
      ["v-2", "attempted", "SPRING"],
      ["v-1", "conversation", "SPRING"],
    ]);
  });

  it("asks for the columns when the header is not recognised, then imports with the chosen ones", async () => {
    const csv = `Tel,When,Result\n4155550003,${ago(5)},connected\n`;
    const first = replyOf(await post(uploadRequest(ann.cookie, csv, { zone: "" })));
    expect(first.data.step).toBe("map");
    const map = first.data as Extract<Reply, { step: "map" }>;
    expect(map.columns).toEqual(["Tel", "When", "Result"]);
    // another user cannot use the upload id
    const stolen = replyOf(
      await post(
        makeRequest("/call-history", { method: "POST", cookie: bob.cookie, form: { intent: "map", upload: map.uploadId, col_number: "Tel", col_at: "When" } }),
      ),
    );
    expect(stolen.status).toBe(404);
    const second = await post(
      makeRequest("/call-history", {
        method: "POST",
        cookie: ann.cookie,
        form: { intent: "map", upload: map.uploadId, col_number: "Tel", col_at: "When", col_outcome: "Result", zone: "" },
      }),
    );
    expect((second as Response).status).toBe(302);
    expect((await page(ann.cookie, "?number=4155550003")).search).toMatchObject({ history: { totalRecords: 1 } });
  });
});

describe("/call-history search and scope", () => {
  it("names a bad number, and never shows another user's records", async () => {
    expect((await page(ann.cookie, "?number=12")).search).toMatchObject({ error: expect.stringContaining("12") });
    const s = (await page(bob.cookie, "?number=2125552345")).search as Extract<Page["search"], { history: unknown }>;
    expect(s.history.totalRecords).toBe(0);
    expect(s.history.records).toEqual([]);
  });

  it("shows the plan gate to a user without a plan and refuses the import", async () => {
    const p = await page(noPlan.cookie);
    expect(p.gate).not.toBeNull();
    expect(p.hasPlan).toBe(false);
    const r = await post(uploadRequest(noPlan.cookie, `number,at,outcome\n2125550009,${ago(1)},connected\n`));
    expect((r as Response).status).toBe(302);
    expect((await page(noPlan.cookie, "?number=2125550009")).search).toMatchObject({ history: { totalRecords: 0 } });
  });

  it("sends a visitor who is not signed in to the login page", async () => {
    const r = await run(() => loader({ request: makeRequest("/call-history"), params: {}, context: testContext }));
    expect(r).toBeInstanceOf(Response);
    expect((r as Response).headers.get("Location")).toMatch(/^\/login/);
  });
});
