import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Before any app module reads the environment.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "job-limit-"));
process.env.DATA_DIR = dataDir;
process.env.MAX_ACTIVE_SCRUBS_PER_USER = "2";

import { useAppTestDb } from "../setup/db";
import { makeRequest, testContext } from "../setup/request";
import { apiRequest, bodyOf, fakeScrubService, finishJob, installScrubService, makeContainer, makeKey, makeUser } from "../api/helpers";
import { startUserSession } from "~/accounts/auth.server";
import { createScrubJob } from "scrub-service";
import { ActiveJobsLimitError, reserveUsage } from "~/models/usage.server";
import * as purge from "~/routes/_app.purge/route";
import * as apiScrubs from "~/routes/api.v1.scrubs._index";
import * as apiNumbers from "~/routes/api.v1.containers.$id.numbers";

/*
 * Per-user cap on scrubs queued or running at once (docs/decisions/081). The check sits in reserveUsage under
 * the user-row lock, i.e. in the same transaction that inserts the job, for the web purge and the API alike.
 */
const { handle } = useAppTestDb();
const db = () => handle().db;
const fake = fakeScrubService();
const LIMIT_MESSAGE = "You already have 2 purges queued or running. Please wait until one finishes, then start this one again.";

beforeAll(() => installScrubService(fake.service));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function cookieFor(userId: string) {
  return (await startUserSession(makeRequest("/login"), userId)).split(";")[0];
}

const activeJobs = async (userId: string) =>
  (await db().selectFrom("scrub_jobs").select("id").where("user_id", "=", userId).where("status", "in", ["queued", "running"]).execute()).length;

async function webPurge(cookie: string, numbers = "2125552142,3105552101") {
  const res = await purge.action({
    request: makeRequest("/purge", { cookie, form: { intent: "manual", mode: "manual", numbers } }),
    params: {},
    context: testContext,
  });
  if (res instanceof Response) return { status: res.status, location: res.headers.get("Location"), error: undefined };
  const r = res as unknown as { init?: { status?: number }; data?: { error?: { message: string } } };
  return { status: r.init?.status ?? 200, location: null, error: r.data?.error?.message };
}

describe("per-user limit of queued/running scrubs", () => {
  it("parallel starts by one user: exactly the limit get in, the rest are refused with the message", async () => {
    const userId = await makeUser(db(), { role: "UnlimitedUser" });
    const input = path.join(dataDir, "one.csv");
    fs.writeFileSync(input, "Phone\n2125552142\n");
    const attempts = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        db()
          .transaction()
          .execute(async (trx) => {
            await reserveUsage(trx, { userId, kind: "suppression", amount: 1 });
            return createScrubJob(trx, { userId, fileName: "one.csv", inputPath: input, suppressionType: "LitigationOnly", usageReserved: 1 });
          }),
      ),
    );
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(2);
    const refused = attempts.filter((a): a is PromiseRejectedResult => a.status === "rejected");
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(ActiveJobsLimitError);
      expect((r.reason as Error).message).toBe(LIMIT_MESSAGE);
    }
    expect(await activeJobs(userId)).toBe(2);
  });

  it("web purge: the third start is refused with the message and records nothing; a finished job frees a slot", async () => {
    const userId = await makeUser(db(), { plan: "business" });
    const cookie = await cookieFor(userId);
    const first = await webPurge(cookie);
    const second = await webPurge(cookie);
    expect([first.status, second.status]).toEqual([302, 302]);
    const jobsBefore = await db().selectFrom("scrub_jobs").select("id").where("user_id", "=", userId).execute();

    const third = await webPurge(cookie);
    expect(third.status).toBe(402);
    expect(third.error).toBe(LIMIT_MESSAGE);
    const jobsAfter = await db().selectFrom("scrub_jobs").select("id").where("user_id", "=", userId).execute();
    expect(jobsAfter).toHaveLength(jobsBefore.length);

    // Another user is not affected by this user's queue.
    const other = await makeUser(db(), { plan: "business" });
    expect((await webPurge(await cookieFor(other))).status).toBe(302);

    await finishJob(db(), jobsBefore[0].id, path.join(dataDir, "results"));
    const fourth = await webPurge(cookie);
    expect(fourth.status).toBe(302);
    expect(await activeJobs(userId)).toBe(2);
  });

  it("failed jobs do not count against the limit", async () => {
    const userId = await makeUser(db(), { role: "Admin" });
    const cookie = await cookieFor(userId);
    for (let i = 0; i < 2; i++) expect((await webPurge(cookie)).status).toBe(302);
    const jobs = await db().selectFrom("scrub_jobs").select("id").where("user_id", "=", userId).execute();
    for (const j of jobs) await finishJob(db(), j.id, "", "failed");
    expect((await webPurge(cookie)).status).toBe(302);
  });

  it("API: 429 too_many_active_jobs with the message; nothing recorded; container loads are not limited", async () => {
    const userId = await makeUser(db(), { plan: "premium" });
    const { key } = await makeKey(db(), userId);
    const submit = () =>
      apiScrubs.action({
        request: apiRequest("/api/v1/scrubs", { key, json: { numbers: ["2125552142"], suppression_type: "LitigationOnly" } }),
        params: {},
        context: testContext,
      }) as Promise<Response>;
    expect((await submit()).status).toBe(202);
    expect((await submit()).status).toBe(202);
    const refused = await submit();
    expect(refused.status).toBe(429);
    expect(await bodyOf(refused)).toEqual({ error: { code: "too_many_active_jobs", message: LIMIT_MESSAGE, details: { limit: 2 } } });
    expect(await activeJobs(userId)).toBe(2);

    const container = await makeContainer(db(), userId);
    for (let i = 0; i < 3; i++) {
      const res = (await apiNumbers.action({
        request: apiRequest(`/api/v1/containers/${container}/numbers`, { key, json: { numbers: [`212555214${i}`] } }),
        params: { id: String(container) },
        context: testContext,
      })) as Response;
      expect(res.status).toBe(202);
    }
  });
});
