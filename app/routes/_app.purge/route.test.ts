import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Uploads go to a directory of this test file's own, with a small cap to test the limit.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "purge-route-"));
process.env.DATA_DIR = dataDir;
process.env.MAX_UPLOAD_BYTES = "4096";

import { useAppTestDb } from "../../../tests/setup/db";
import { makeRequest, testContext } from "../../../tests/setup/request";
import { createUser, run } from "../../../tests/fixtures/purge";
import { getScrubService } from "~/utils/scrub.server";
import { createBankTransferTransaction, markTransactionPaid } from "~/models/transaction.server";
import { action, loader } from "./route";
import { loader as downloadLoader } from "~/routes/downloads.$fileId";
import { action as uploadAction } from "~/routes/purge.upload";
import { loader as progressLoader } from "~/routes/purge.jobs.$jobId";

const { handle } = useAppTestDb();

type User = Awaited<ReturnType<typeof createUser>>;
let admin: User;
let planUser: User;
let noPlan: User;
let other: User;

beforeAll(async () => {
  const db = handle().db;
  admin = await createUser(db, { role: "Admin", firstName: "Ada", lastName: "Admin" });
  planUser = await createUser(db, { firstName: "Pat", lastName: "Plan" });
  noPlan = await createUser(db, { firstName: "Nia", lastName: "None" });
  other = await createUser(db, { role: "UnlimitedUser", firstName: "Oli", lastName: "Other" });
  const { transaction } = await createBankTransferTransaction(db, { userId: planUser.id, planId: "beginner" });
  await markTransactionPaid(db, { id: transaction.id, adminId: admin.id });
  // A tiny allowance so the limit can be reached.
  await db.updateTable("transactions").set({ dnc_and_litigation_scrubs: 8 }).where("id", "=", transaction.id).execute();
});

afterAll(async () => {
  const g = globalThis as unknown as { __singletons?: Map<string, unknown> };
  const service = g.__singletons?.get("scrub-service") as Promise<{ close(): Promise<void> }> | undefined;
  await (await service)?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function multipart(url: string, cookie: string, fields: [string, string][], file?: { name: string; content: string }) {
  const fd = new FormData();
  for (const [k, v] of fields) fd.append(k, v);
  if (file) fd.append("file", new Blob([file.content], { type: "text/csv" }), file.name);
  return new Request(`http://localhost${url}`, { method: "POST", body: fd, headers: { Cookie: cookie } });
}

async function callAction(request: Request) {
  return run(() => action({ request, params: {}, context: testContext }));
}

async function callLoader(url: string, cookie: string) {
  return run(() => loader({ request: makeRequest(url, { cookie }), params: {}, context: testContext }));
}

function statusOf(r: unknown): number {
  if (r instanceof Response) return r.status;
  return (r as { init?: { status?: number } }).init?.status ?? 200;
}

function errorOf(r: unknown): string | undefined {
  return (r as { data?: { error?: { message: string } } }).data?.error?.message;
}

function location(r: unknown): URL {
  expect(r).toBeInstanceOf(Response);
  const loc = (r as Response).headers.get("Location");
  expect(loc).toBeTruthy();
  return new URL(loc!, "http://localhost");
}

function uploadFiles(userId: string): string[] {
  const dir = path.join(dataDir, "uploads", userId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

const CSV = [
  "Name,Mobile Phone,City",
  "Ann,(202) 555-2101,DC",
  "Bob,202-555-2101,DC", // duplicate of Ann's number
  "Cy,not a phone,LA",
  "=HYPERLINK(1),310.555.2199,LA",
  "Dee,1.23457E+9,NY",
].join("\n");

async function readDownload(cookie: string, fileId: string): Promise<string> {
  const res = (await run(() =>
    downloadLoader({ request: makeRequest(`/downloads/${fileId}`, { cookie }), params: { fileId }, context: testContext }),
  )) as Response;
  expect(res.status).toBe(200);
  return res.text();
}

describe("/purge CSV flow", () => {
  it("uploads, picks the default phone column, purges and offers the three downloads", async () => {
    const up = await callAction(
      multipart(
        "/purge?step=4&mode=csv",
        admin.cookie,
        [
          ["type", "DNCAndLitigation"],
          ["mode", "csv"],
          ["intent", "upload"],
        ],
        { name: "leads.csv", content: CSV },
      ),
    );
    const step5 = location(up);
    expect(step5.searchParams.get("step")).toBe("5");
    expect(step5.searchParams.get("column")).toBe("Mobile Phone");
    expect(step5.searchParams.get("type")).toBe("DNCAndLitigation");
    const uploadId = step5.searchParams.get("upload")!;
    expect(uploadId).toMatch(/^[a-f0-9]{32}$/);
    expect(uploadFiles(admin.id).sort()).toEqual([`${uploadId}.csv`, `${uploadId}.json`]);

    const page5 = (await callLoader(step5.pathname + step5.search, admin.cookie)) as Awaited<ReturnType<typeof loader>>;
    expect(page5.wizard?.preview?.headers).toEqual(["Name", "Mobile Phone", "City"]);
    expect(page5.wizard?.preview?.phoneColumn).toBe("Mobile Phone");
    expect(page5.wizard?.upload?.name).toBe("leads.csv");

    const started = await callAction(
      makeRequest(step5.pathname + step5.search, {
        cookie: admin.cookie,
        form: { intent: "start", type: "DNCAndLitigation", mode: "csv", upload: uploadId, column: "Mobile Phone" },
      }),
    );
    const step6 = location(started);
    expect(step6.searchParams.get("step")).toBe("6");
    const jobId = step6.searchParams.get("job")!;
    const service = await getScrubService();
    expect(await service.waitFor("job", jobId, 20_000)).toBe("completed");

    const page6 = (await callLoader(step6.pathname + step6.search, admin.cookie)) as Awaited<ReturnType<typeof loader>>;
    const job = page6.wizard!.job!;
    expect(job).toMatchObject({ status: "completed", good: 2, bad: 1, invalid: 2, percent: 100, fileName: "leads.csv" });
    expect(job.reasons.duplicate).toBe(1);
    expect(job.files.map((f) => f.kind)).toEqual(["good", "bad", "invalid"]);
    const [good, bad, invalid] = await Promise.all(job.files.map((f) => readDownload(admin.cookie, f.id)));
    expect(good).toContain("Ann,(202) 555-2101,DC");
    expect(good).toContain("310.555.2199");
    expect(good).not.toContain("Bob");
    expect(good).not.toMatch(/^=HYPERLINK/m);
    expect(bad).toContain("Bob,202-555-2101,DC");
    expect(bad).toMatch(/duplicate/);
    expect(invalid).toContain("not a phone");
    expect(invalid).toContain("1.23457E+9");

    // Another user cannot see the job, nor use the upload.
    expect(statusOf(await callLoader(step6.pathname + step6.search, other.cookie))).toBe(404);
    const stolen = await callAction(
      makeRequest("/purge", { cookie: other.cookie, form: { intent: "start", mode: "csv", upload: uploadId, column: "Mobile Phone" } }),
    );
    expect(statusOf(stolen)).toBe(400);
    expect(errorOf(stolen)).toBe("Please select a CSV file");
  });

  it("Add calling times: the job keeps the choice, good.csv gains the five columns, the results count them", async () => {
    const up = await callAction(
      multipart(
        "/purge?step=4&mode=csv",
        other.cookie,
        [
          ["intent", "upload"],
          ["mode", "csv"],
        ],
        {
          name: "calls.csv",
          content: "Name,Phone\nAnn,2125552345\nBob,2055552345\nEd,8005552345\n",
        },
      ),
    );
    const step5 = location(up);
    const started = await callAction(
      makeRequest(step5.pathname + step5.search, {
        cookie: other.cookie,
        form: { intent: "start", mode: "csv", upload: step5.searchParams.get("upload")!, column: "Phone", calling: "1" },
      }),
    );
    const step6 = location(started);
    expect(step6.searchParams.get("calling")).toBe("1");
    const jobId = step6.searchParams.get("job")!;
    expect(await (await getScrubService()).waitFor("job", jobId, 20_000)).toBe("completed");
    const job = ((await callLoader(step6.pathname + step6.search, other.cookie)) as Awaited<ReturnType<typeof loader>>).wizard!.job!;
    expect(job.good).toBe(3);
    const c = job.calling!;
    expect(c.callableNow + c.laterToday + c.notToday).toBe(2);
    expect(c.noTimeZone).toBe(1);
    expect(c.byTimeZone.map((z) => z.zones).sort()).toEqual(["America/Chicago", "America/New_York"]);
    const good = await readDownload(other.cookie, job.files.find((f) => f.kind === "good")!.id);
    const lines = good.trim().split("\n");
    expect(lines[0]).toBe("Name,Phone,phone_e164,time_zone,callable_now,next_call_at,next_call_local,calling_note,calls_24h,calls_7d");
    // the note (decision 180): empty when callable now, else the binding rule and its citation; then the calls
    // counted in the owner's history (decision 191): none here
    expect(lines[1]).toMatch(
      /^Ann,2125552345,\+12125552345,America\/New_York,(yes,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[45]:00,|no,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[45]:00,.+),0,0$/,
    );
    // no time zone: the strictest reading across every US time zone, and the note says so
    expect(lines[3]).toMatch(
      /^Ed,8005552345,\+18005552345,,(yes|no),\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z,,"?No time zone for this number: the strictest reading across every US time zone/,
    );
    const row = await handle().db.selectFrom("scrub_jobs").select(["calling_window", "calling_summary"]).where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(row.calling_window).toBe(true);
  });

  it("Calling times for debt collection: the purpose and the debt id column are kept on the job; without calling times they are not read (decision 191)", async () => {
    const upload = async () =>
      location(
        await callAction(
          multipart(
            "/purge?step=4&mode=csv",
            other.cookie,
            [
              ["intent", "upload"],
              ["mode", "csv"],
            ],
            { name: "debts.csv", content: "Name,Phone,Account\nAnn,2125552345,A-1\n" },
          ),
        ),
      );
    const startWith = async (fields: Record<string, string>) => {
      const step5 = await upload();
      const started = await callAction(
        makeRequest(step5.pathname + step5.search, {
          cookie: other.cookie,
          form: { intent: "start", mode: "csv", upload: step5.searchParams.get("upload")!, column: "Phone", ...fields },
        }),
      );
      const jobId = location(started).searchParams.get("job")!;
      expect(await (await getScrubService()).waitFor("job", jobId, 20_000)).toBe("completed");
      return handle().db.selectFrom("scrub_jobs").select(["call_purpose", "debt_column", "calling_summary"]).where("id", "=", jobId).executeTakeFirstOrThrow();
    };
    const debt = await startWith({ calling: "1", purpose: "debt-collection", debtColumn: "Account" });
    expect([debt.call_purpose, debt.debt_column]).toEqual(["debt-collection", "Account"]);
    expect((debt.calling_summary as { calls: { purpose: string; debtColumn: string } }).calls).toMatchObject({
      purpose: "debt-collection",
      debtColumn: "Account",
    });
    // the choice is hidden (and ignored) without calling times; a debt column means nothing for telemarketing
    const off = await startWith({ purpose: "debt-collection", debtColumn: "Account" });
    expect([off.call_purpose, off.debt_column]).toEqual(["telemarketing", null]);
    const tele = await startWith({ calling: "1", purpose: "telemarketing", debtColumn: "Account" });
    expect([tele.call_purpose, tele.debt_column]).toEqual(["telemarketing", null]);
  });

  it("Calling times at: a past instant, or one after the lists' validity, is the field's error; a coming one is kept (decision 174)", async () => {
    const up = await callAction(
      multipart(
        "/purge?step=4&mode=csv",
        other.cookie,
        [
          ["intent", "upload"],
          ["mode", "csv"],
        ],
        { name: "at.csv", content: "Phone\n2125552345\n" },
      ),
    );
    const step5 = location(up);
    const DAY = 86_400_000;
    const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
    const start = (at: string, type = "LitigationOnly") =>
      callAction(
        makeRequest(step5.pathname + step5.search, {
          cookie: other.cookie,
          form: { intent: "start", type, mode: "csv", upload: step5.searchParams.get("upload")!, column: "Phone", calling: "1", at },
        }),
      );
    const past = await start("2025-06-01T12:00:00Z");
    expect(statusOf(past)).toBe(400);
    expect((past as { data: { error: { field?: string } } }).data.error.field).toBe("at");
    expect(errorOf(past)).toMatch(/^at 2025-06-01T12:00:00Z is in the past: it must not be earlier than now/);
    const db = handle().db;
    const kept = await db.selectFrom("lists").select("registry_date").where("kind", "=", "dnc").executeTakeFirstOrThrow();
    const released = new Date(Math.floor(Date.now() / DAY) * DAY - 5 * DAY);
    await db.updateTable("lists").set({ registry_date: released }).where("kind", "=", "dnc").execute();
    try {
      const beyond = await start(iso(released.getTime() + 32 * DAY), "DNCAndLitigation");
      expect(statusOf(beyond)).toBe(400);
      expect((beyond as { data: { error: { field?: string } } }).data.error.field).toBe("at");
      expect(errorOf(beyond)).toMatch(/is after the lists' validity: the federal DNC list \(release .*, rule 31 days\) is valid for calls until/);
    } finally {
      await db.updateTable("lists").set({ registry_date: kept.registry_date }).where("kind", "=", "dnc").execute();
    }
    const at = iso(Date.now() + DAY);
    const started = await start(at);
    const jobId = location(started).searchParams.get("job")!;
    const row = await db.selectFrom("scrub_jobs").select("evaluated_at").where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(row.evaluated_at?.toISOString().replace(".000Z", "Z")).toBe(at);
    expect(await (await getScrubService()).waitFor("job", jobId, 20_000)).toBe("completed");
  });

  it("handles a file without a header row (numbered columns)", async () => {
    const up = await callAction(
      multipart(
        "/purge",
        other.cookie,
        [
          ["intent", "upload"],
          ["mode", "csv"],
        ],
        { name: "raw.csv", content: "Ann,2025552101\nBob,3105552199\n" },
      ),
    );
    const step5 = location(up);
    expect(step5.searchParams.get("column")).toBe("Column 2");
    const started = await callAction(
      makeRequest("/purge", { cookie: other.cookie, form: { intent: "start", mode: "csv", upload: step5.searchParams.get("upload")!, column: "Column 2" } }),
    );
    const jobId = location(started).searchParams.get("job")!;
    expect(await (await getScrubService()).waitFor("job", jobId, 20_000)).toBe("completed");
    const job = await handle().db.selectFrom("scrub_jobs").select(["good_count", "invalid_count"]).where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(Number(job.good_count)).toBe(2);
    expect(Number(job.invalid_count)).toBe(0);
  });

  it("keeps the uploaded file when going back to step 4 and on without a new file", async () => {
    const up = await callAction(
      multipart(
        "/purge",
        other.cookie,
        [
          ["intent", "upload"],
          ["mode", "csv"],
        ],
        { name: "a.csv", content: "Phone\n2025552101\n" },
      ),
    );
    const uploadId = location(up).searchParams.get("upload")!;
    const again = await callAction(
      multipart("/purge", other.cookie, [
        ["intent", "upload"],
        ["mode", "csv"],
        ["upload", uploadId],
      ]),
    );
    expect(location(again).searchParams.get("upload")).toBe(uploadId);
    expect(location(again).searchParams.get("step")).toBe("5");
  });

  it("refuses an upload over the limit with a clear message and leaves nothing on disk", async () => {
    const before = uploadFiles(other.id).length;
    const res = await callAction(
      multipart(
        "/purge",
        other.cookie,
        [
          ["intent", "upload"],
          ["mode", "csv"],
        ],
        { name: "big.csv", content: "Phone\n" + "2025552101\n".repeat(500) },
      ),
    );
    expect(statusOf(res)).toBe(413);
    expect(errorOf(res)).toBe("File is too large. The limit is 4 KB.");
    expect(uploadFiles(other.id)).toHaveLength(before);
  });

  it("answers the spec's messages for missing, empty and unusable files", async () => {
    const noFile = await callAction(
      multipart("/purge", other.cookie, [
        ["intent", "upload"],
        ["mode", "csv"],
      ]),
    );
    expect(errorOf(noFile)).toBe("Please select a CSV file");

    const before = uploadFiles(other.id).length;
    const empty = await callAction(multipart("/purge", other.cookie, [["intent", "upload"]], { name: "e.csv", content: "" }));
    expect(errorOf(empty)).toBe("CSV file appears to be empty or has no data rows");
    const headerOnly = await callAction(multipart("/purge", other.cookie, [["intent", "upload"]], { name: "h.csv", content: "Phone,Name\n" }));
    expect(errorOf(headerOnly)).toBe("CSV file appears to be empty or has no data rows");
    expect(uploadFiles(other.id)).toHaveLength(before);

    const up = await callAction(multipart("/purge", other.cookie, [["intent", "upload"]], { name: "n.csv", content: "Name,Phone\nAnn,hello\nBob,1234\n" }));
    const uploadId = location(up).searchParams.get("upload")!;
    const start = (column: string) =>
      callAction(makeRequest("/purge", { cookie: other.cookie, form: { intent: "start", mode: "csv", upload: uploadId, column } }));
    expect(errorOf(await start(""))).toBe("Please select a column containing phone numbers");
    expect(errorOf(await start("Fax"))).toBe("Column 'Fax' not found in CSV file");
    expect(errorOf(await start("Phone"))).toBe("No phone numbers found in column 'Phone'");
  });
});

describe("/purge/upload (JavaScript upload with progress)", () => {
  const post = (request: Request) => run(() => uploadAction({ request, params: {}, context: testContext })) as Promise<Response>;

  it("answers JSON: where to go next, or the message", async () => {
    const ok = await post(
      multipart(
        "/purge/upload",
        other.cookie,
        [
          ["type", "DNCAndLitigation"],
          ["mode", "csv"],
        ],
        { name: "p.csv", content: "Cell\n2025552101\n" },
      ),
    );
    expect(ok.status).toBe(200);
    const { redirectTo } = (await ok.json()) as { redirectTo: string };
    const next = new URL(redirectTo, "http://localhost");
    expect(next.pathname).toBe("/purge");
    expect(next.searchParams.get("step")).toBe("5");
    expect(next.searchParams.get("column")).toBe("Cell");
    expect(next.searchParams.get("type")).toBe("DNCAndLitigation");

    const big = await post(multipart("/purge/upload", other.cookie, [["mode", "csv"]], { name: "b.csv", content: "x".repeat(5000) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: { title: "Validation Error", message: "File is too large. The limit is 4 KB." } });

    const declared = new Request("http://localhost/purge/upload", {
      method: "POST",
      body: "x",
      headers: { Cookie: other.cookie, "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(50 * 1024 * 1024) },
    });
    expect((await post(declared)).status).toBe(413);

    const none = await post(multipart("/purge/upload", noPlan.cookie, [["mode", "csv"]], { name: "p.csv", content: "Phone\n2025552101\n" }));
    expect(none.status).toBe(402);
    expect(uploadFiles(noPlan.id)).toEqual([]);
  });
});

describe("/purge manual entry", () => {
  const manual = (cookie: string, numbers: string, extra: Record<string, string> = {}) =>
    callAction(makeRequest("/purge?step=4&mode=manual", { cookie, form: { intent: "manual", mode: "manual", numbers, ...extra } }));

  it("validates with the spec's messages", async () => {
    expect(errorOf(await manual(other.cookie, "  "))).toBe("Please enter phone numbers");
    expect(errorOf(await manual(other.cookie, "abc, 12"))).toBe("No valid phone numbers found");
    expect(errorOf(await manual(other.cookie, "2025552101, 12, ab, 99, x1"))).toBe("Invalid phone numbers found: 12, ab, 99...");
  });

  it("purges typed numbers as a one-column CSV and returns to step 4 on Previous", async () => {
    const res = await manual(other.cookie, "(202) 555-2101\n202.555.2101, 3105552199\n+44 20 7946 0958");
    const step6 = location(res);
    expect(step6.searchParams.get("mode")).toBe("manual");
    const jobId = step6.searchParams.get("job")!;
    expect(await (await getScrubService()).waitFor("job", jobId, 20_000)).toBe("completed");
    const page = (await callLoader(step6.pathname + step6.search, other.cookie)) as Awaited<ReturnType<typeof loader>>;
    expect(page.wizard!.job).toMatchObject({ good: 2, bad: 1, invalid: 1, fileName: "manual-entry.csv" });
    const good = await readDownload(other.cookie, page.wizard!.job!.files.find((f) => f.kind === "good")!.id);
    expect(good.split("\n")[0]).toBe("Number,phone_e164");
    // Previous from step 6 (manual) shows step 4 with the numbers filled in again.
    const back = new URL(step6);
    back.searchParams.set("step", "4");
    back.searchParams.delete("job");
    const page4 = (await callLoader(back.pathname + back.search, other.cookie)) as Awaited<ReturnType<typeof loader>>;
    expect(page4.wizard!.manualText).toBe("2025552101\n2025552101\n3105552199\n442079460958");
  });

  it("plans calling ahead (#44): typed numbers with calling times, answered for a time in the analyst's own zone", async () => {
    // tomorrow 09:00 in New York, whatever today's offset
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const res = await manual(other.cookie, "2125552345\n3105552199", { calling: "1", atLocal: `${tomorrow}T09:00`, atZone: "America/New_York" });
    const jobId = location(res).searchParams.get("job")!;
    expect(await (await getScrubService()).waitFor("job", jobId, 20_000)).toBe("completed");
    const row = await handle().db.selectFrom("scrub_jobs").select(["calling_window", "evaluated_at"]).where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(row.calling_window).toBe(true);
    const local = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York", dateStyle: "short", timeStyle: "short", hourCycle: "h23" }).format(
      row.evaluated_at!,
    );
    expect(local).toBe(`${tomorrow}, 09:00`);
    const page = (await callLoader(location(res).pathname + location(res).search, other.cookie)) as Awaited<ReturnType<typeof loader>>;
    const good = await readDownload(other.cookie, page.wizard!.job!.files.find((f) => f.kind === "good")!.id);
    expect(good.split("\n")[0]).toBe("Number,phone_e164,time_zone,callable_now,next_call_at,next_call_local,calling_note,calls_24h,calls_7d");
    // a time in the past is the time field's error, named as such, and nothing starts
    const past = await manual(other.cookie, "2125552345", { calling: "1", atLocal: "2025-06-01T09:00", atZone: "America/New_York" });
    expect(statusOf(past)).toBe(400);
    expect((past as { data: { error: { field?: string } } }).data.error.field).toBe("at");
    expect(errorOf(past)).toMatch(/^at 2025-06-01T13:00:00Z is in the past/);
  });
});

describe("/purge plans and guards", () => {
  it("shows the subscription dialog to a user without a plan and refuses their purge", async () => {
    const page = (await callLoader("/purge", noPlan.cookie)) as Awaited<ReturnType<typeof loader>>;
    expect(page.gate).not.toBeNull();
    expect(page.wizard).toBeNull();
    const res = await callAction(makeRequest("/purge", { cookie: noPlan.cookie, form: { intent: "manual", numbers: "2025552101" } }));
    expect(statusOf(res)).toBe(402);
    expect(errorOf(res)).toMatch(/You need an active plan to purge numbers/);
  });

  it("refuses a purge over the plan's limit with the billing message, and records nothing", async () => {
    const db = handle().db;
    const ok = await callAction(
      makeRequest("/purge", { cookie: planUser.cookie, form: { intent: "manual", numbers: "2025552101,2025552102,2025552103,2025552104" } }),
    );
    expect(location(ok).searchParams.get("step")).toBe("6");
    await (await getScrubService()).waitFor("job", location(ok).searchParams.get("job")!, 20_000);
    const jobsBefore = await db.selectFrom("scrub_jobs").select("id").where("user_id", "=", planUser.id).execute();
    const over = await callAction(
      makeRequest("/purge", {
        cookie: planUser.cookie,
        form: { intent: "manual", numbers: "3105552101,3105552102,3105552103,3105552104,3105552105" },
      }),
    );
    expect(statusOf(over)).toBe(402);
    expect(errorOf(over)).toMatch(/^This purge needs 5 numbers of DNC suppression, but only 4 of your Beginner plan/);
    const jobsAfter = await db.selectFrom("scrub_jobs").select("id").where("user_id", "=", planUser.id).execute();
    expect(jobsAfter).toHaveLength(jobsBefore.length);
  });

  it("offers the state filter to plans that include it and passes the states to the job", async () => {
    const page = (await callLoader("/purge?step=1&state=tx&state=CA&state=ZZ", planUser.cookie)) as Awaited<ReturnType<typeof loader>>;
    expect(page.wizard!.canFilterStates).toBe(true);
    expect(page.wizard!.state.states).toEqual(["CA", "TX"]);
    const res = await callAction(makeRequest("/purge", { cookie: other.cookie, form: { intent: "manual", numbers: "2125552101,3105552101", state: "CA" } }));
    const jobId = location(res).searchParams.get("job")!;
    await (await getScrubService()).waitFor("job", jobId, 20_000);
    const job = await handle().db.selectFrom("scrub_jobs").select(["states", "good_count", "bad_count"]).where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(job.states).toEqual(["CA"]);
    expect(Number(job.good_count)).toBe(1);
    expect(Number(job.bad_count)).toBe(1);
  });

  it("suppresses the numbers of the chosen container and files the job under the chosen category", async () => {
    const db = handle().db;
    const cat = await db.insertInto("categories").values({ user_id: other.id, name: "Solar", description: "" }).returning("id").executeTakeFirstOrThrow();
    const list = await db
      .insertInto("lists")
      .values({ kind: "container", suppression_type: null, user_id: other.id, category_id: cat.id, name: "Past customers", description: "" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const service = await getScrubService();
    await service.loadNumbers({ listId: list.id, mode: "add", numbers: ["2145552177"], userId: other.id });

    const page3 = (await callLoader(`/purge?step=3&category=${cat.id}`, other.cookie)) as Awaited<ReturnType<typeof loader>>;
    expect(page3.wizard!.containers.map((c) => c.name)).toContain("Past customers");
    expect(page3.wizard!.categoryName).toBe("Solar");

    const res = await callAction(
      makeRequest("/purge", {
        cookie: other.cookie,
        form: { intent: "manual", numbers: "2145552177, 2145552178", category: cat.id, container: String(list.id) },
      }),
    );
    const jobId = location(res).searchParams.get("job")!;
    expect(location(res).searchParams.get("container")).toBe(String(list.id));
    expect(await service.waitFor("job", jobId, 20_000)).toBe("completed");
    const job = await db.selectFrom("scrub_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(job.container_id).toBe(list.id);
    expect(job.category_id).toBe(cat.id);
    expect(Number(job.good_count)).toBe(1);
    expect(Number(job.bad_count)).toBe(1);
    expect(job.reason_counts).toMatchObject({ container: 1 });
  });

  it("serves a job's progress as JSON to its owner only", async () => {
    const res = await callAction(makeRequest("/purge", { cookie: other.cookie, form: { intent: "manual", numbers: "2025552101" } }));
    const jobId = location(res).searchParams.get("job")!;
    await (await getScrubService()).waitFor("job", jobId, 20_000);
    const progress = (request: Request) => run(() => progressLoader({ request, params: { jobId }, context: testContext })) as Promise<Response>;
    const own = await progress(makeRequest(`/purge/jobs/${jobId}`, { cookie: other.cookie }));
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ id: jobId, status: "completed", percent: 100, good: 1 });
    expect((await progress(makeRequest(`/purge/jobs/${jobId}`, { cookie: admin.cookie }))).status).toBe(404);
  });

  it("a resent form (double click) does not start a second purge", async () => {
    const db = handle().db;
    const count = async () => (await db.selectFrom("scrub_jobs").select("id").where("user_id", "=", other.id).execute()).length;
    const before = await count();
    const form = { intent: "manual", numbers: "6175552123, 6175552124", submission: "0123456789abcdef0123456789abcd99" };
    const [r1, r2] = await Promise.all([
      callAction(makeRequest("/purge", { cookie: other.cookie, form })),
      callAction(makeRequest("/purge", { cookie: other.cookie, form })),
    ]);
    expect(location(r1).searchParams.get("job")).toBe(location(r2).searchParams.get("job"));
    expect(await count()).toBe(before + 1);

    const up = await callAction(multipart("/purge", other.cookie, [["intent", "upload"]], { name: "d.csv", content: "Phone\n6175552125\n" }));
    const uploadId = location(up).searchParams.get("upload")!;
    const start = () => callAction(makeRequest("/purge", { cookie: other.cookie, form: { intent: "start", mode: "csv", upload: uploadId, column: "Phone" } }));
    const s1 = await start();
    const s2 = await start();
    expect(location(s1).searchParams.get("job")).toBe(location(s2).searchParams.get("job"));
    expect(await count()).toBe(before + 2);
    const service = await getScrubService();
    for (const r of [r1, s1]) expect(await service.waitFor("job", location(r).searchParams.get("job")!, 20_000)).toBe("completed");
  });

  it("drops another user's category or container from the state and 404s another user's job", async () => {
    const db = handle().db;
    const cat = await db.insertInto("categories").values({ user_id: admin.id, name: "Admin cat", description: "" }).returning("id").executeTakeFirstOrThrow();
    const page = (await callLoader(`/purge?step=3&category=${cat.id}&container=1`, other.cookie)) as Awaited<ReturnType<typeof loader>>;
    expect(page.wizard!.state.category).toBe("");
    expect(page.wizard!.state.container).toBe("");
    expect(statusOf(await callLoader("/purge?step=6&job=not-a-uuid", other.cookie))).toBe(302);
    expect(statusOf(await callLoader("/purge?step=6&job=00000000-0000-4000-8000-000000000000", other.cookie))).toBe(404);
    const res = await callAction(makeRequest("/purge", { cookie: other.cookie, form: { intent: "manual", numbers: "2025552101", category: cat.id } }));
    expect(errorOf(res)).toBe("The selected category was not found. Please choose it again.");
    // another user's container or exemption list: refused once, where the order is accepted (issue #45)
    const theirs = await db
      .insertInto("lists")
      .values({ kind: "container", user_id: admin.id, name: "Admin's", description: "" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const theirList = await db.insertInto("exemption_lists").values({ user_id: admin.id, name: "Admin's" }).returning("id").executeTakeFirstOrThrow();
    const refused = async (form: Record<string, string>) => {
      const before = (
        await db
          .selectFrom("scrub_jobs")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("user_id", "=", other.id)
          .executeTakeFirstOrThrow()
      ).n;
      const r = await callAction(makeRequest("/purge", { cookie: other.cookie, form: { intent: "manual", numbers: "2025552101", ...form } }));
      const after = (
        await db
          .selectFrom("scrub_jobs")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("user_id", "=", other.id)
          .executeTakeFirstOrThrow()
      ).n;
      return [statusOf(r), errorOf(r), Number(after) - Number(before)];
    };
    expect(await refused({ container: String(theirs.id) })).toEqual([400, "The selected container was not found. Please choose it again.", 0]);
    expect(await refused({ exemptions: String(theirList.id) })).toEqual([400, "The selected exemption list was not found. Please choose it again.", 0]);
  });

  it("sends anonymous visitors to sign in", async () => {
    const res = await callLoader("/purge", "");
    expect(statusOf(res)).toBe(302);
  });
});
