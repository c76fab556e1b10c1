import { beforeAll, describe, expect, it } from "vitest";
import { useAppTestDb } from "../../../tests/setup/db";
import { cookieFrom, makeRequest, testContext } from "../../../tests/setup/request";
import { getSession } from "~/utils/session.server";
import { createJob, createUser, run, tmpDir } from "../../../tests/fixtures/purge";
import { loader as historyLoader } from "./route";
import { loader as downloadLoader } from "~/routes/downloads.$fileId";

const { handle } = useAppTestDb();

let ann: Awaited<ReturnType<typeof createUser>>;
let bob: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;
let annGoodFile: string;
let bobGoodFile: string;

beforeAll(async () => {
  const db = handle().db;
  ann = await createUser(db, { firstName: "Ann", lastName: "Lee" });
  bob = await createUser(db, { firstName: "Bob", lastName: "Stone" });
  admin = await createUser(db, { role: "Admin", firstName: "Ada", lastName: "Admin" });
  const dir = tmpDir();
  // Ann: 12 completed jobs (10 rows each: 7 good, 2 bad, 1 invalid) + 1 failed.
  for (let i = 0; i < 12; i++) {
    const j = await createJob(db, {
      userId: ann.id,
      fileName: `ann-${String(i).padStart(2, "0")}.csv`,
      good: 7,
      bad: 2,
      invalid: 1,
      createdAt: new Date(Date.now() - (20 - i) * 60_000),
      dir,
      files: i === 11 ? { good: "Phone\n2025552101\n", bad: "Phone,reason\n2025552102,duplicate\n", invalid: "Phone,reason\nabc,not_a_number\n" } : undefined,
    });
    if (i === 11) annGoodFile = j.fileIds.good;
  }
  await createJob(db, { userId: ann.id, fileName: "broken.csv", status: "failed", error: "The file is not readable CSV." });
  const b = await createJob(db, {
    userId: bob.id,
    fileName: 'bob "quarterly"/report.csv',
    createdAt: new Date(Date.now() + 1000),
    good: 1,
    bad: 0,
    invalid: 0,
    dir,
    files: { good: "Number\n3105552100\n" },
  });
  bobGoodFile = b.fileIds.good;
});

async function history(cookie: string, page?: number) {
  const res = await historyLoader({ request: makeRequest(`/history${page ? `?page=${page}` : ""}`, { cookie }), params: {}, context: testContext });
  return res;
}

describe("/history", () => {
  it("shows a user only their own operations, newest first, 10 per page", async () => {
    const d = await history(ann.cookie);
    expect(d.history.total).toBe(13);
    expect(d.history.rows).toHaveLength(10);
    expect(d.history.rows[0].fileName).toBe("broken.csv");
    expect(d.history.rows[1].fileName).toBe("ann-11.csv");
    expect(d.history.rows.every((r) => r.creatorName === "Ann Lee")).toBe(true);
    expect(d.history.pageCount).toBe(2);
    const p2 = await history(ann.cookie, 2);
    expect(p2.history.rows.map((r) => r.fileName)).toEqual(["ann-02.csv", "ann-01.csv", "ann-00.csv"]);
  });

  it("computes the stats from completed jobs (clean rate = good / processed)", async () => {
    const d = await history(ann.cookie);
    expect(d.stats).toEqual({ operations: 13, processed: 120, clean: 84, cleanRate: 0.7 });
  });

  it("lists the download files of completed jobs only, in good/bad/invalid order", async () => {
    const d = await history(ann.cookie);
    expect(d.history.rows[0].files).toEqual([]);
    expect(d.history.rows[1].files.map((f) => f.kind)).toEqual(["good", "bad", "invalid"]);
    expect(d.history.rows[2].files).toEqual([]);
  });

  it("shows admins every user's operations with creator names", async () => {
    const d = await history(admin.cookie);
    expect(d.history.total).toBe(14);
    expect(d.history.rows[0].creatorName).toBe("Bob Stone");
    expect(d.stats.operations).toBe(14);
    expect(d.stats.processed).toBe(121);
  });

  it("shows the progress of a running job", async () => {
    const db = handle().db;
    const running = await createJob(db, { userId: bob.id, fileName: "running.csv", status: "running", inputBytes: 2000, bytesRead: 500 });
    const d = await history(bob.cookie);
    expect(d.history.rows.find((r) => r.id === running.id)).toMatchObject({ status: "running", percent: 25 });
    await db.deleteFrom("scrub_jobs").where("id", "=", running.id).execute();
  });

  it("shows a job retried after its scrub service stopped as retrying, not failed", async () => {
    const db = handle().db;
    const retried = await createJob(db, { userId: bob.id, fileName: "retried.csv", status: "running" });
    await db.updateTable("scrub_jobs").set({ attempts: 2 }).where("id", "=", retried.id).execute();
    const d = await history(bob.cookie);
    expect(d.history.rows.find((r) => r.id === retried.id)).toMatchObject({ status: "retrying", error: null, files: [] });
    await db.deleteFrom("scrub_jobs").where("id", "=", retried.id).execute();
  });

  it("clamps a bad page number instead of failing", async () => {
    expect((await historyLoader({ request: makeRequest("/history?page=abc", { cookie: ann.cookie }), params: {}, context: testContext })).history.page).toBe(1);
    expect((await history(ann.cookie, 99)).history.page).toBe(2);
  });

  it("sends anonymous visitors to sign in", async () => {
    const res = await run(() => historyLoader({ request: makeRequest("/history"), params: {}, context: testContext }));
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).headers.get("Location")).toMatch(/^\/login/);
  });
});

describe("/downloads/$fileId", () => {
  async function download(cookie: string | undefined, fileId: string) {
    return run(() => downloadLoader({ request: makeRequest(`/downloads/${fileId}`, { cookie }), params: { fileId }, context: testContext }));
  }

  it("streams the owner's file as an attachment with a sanitized name", async () => {
    const res = (await download(bob.cookie, bobGoodFile)) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="report-good.csv"; filename*=UTF-8''report-good.csv`);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(await res.text()).toBe("Number\n3105552100\n");
  });

  it("gives another user's file id 404, and admins the file", async () => {
    expect(((await download(ann.cookie, bobGoodFile)) as Response).status).toBe(404);
    const res = (await download(admin.cookie, bobGoodFile)) as Response;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("Number\n3105552100\n");
  });

  it("gives malformed and unknown ids 404, and anonymous a login redirect", async () => {
    expect(((await download(ann.cookie, "not-a-uuid")) as Response).status).toBe(404);
    expect(((await download(ann.cookie, "00000000-0000-4000-8000-000000000000")) as Response).status).toBe(404);
    const anon = (await download(undefined, annGoodFile)) as Response;
    expect(anon.status).toBe(302);
  });

  it("sends the owner back to History with the spec's alert when the file is gone from disk", async () => {
    const db = handle().db;
    await db.updateTable("result_files").set({ path: "/nonexistent/gone.csv" }).where("id", "=", annGoodFile).execute();
    const res = (await download(ann.cookie, annGoodFile)) as Response;
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/history"]);
    const toast = (await getSession(makeRequest("/history", { cookie: cookieFrom(res) }))).get("toast");
    expect(toast).toEqual({
      kind: "error",
      title: "Failed to download file",
      description: "This result file is no longer available. Run the purge again to produce it.",
    });
    // someone else's id for the same gone file is still 404, telling nothing
    expect(((await download(bob.cookie, annGoodFile)) as Response).status).toBe(404);
  });
});
