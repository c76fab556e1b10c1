import { beforeAll, describe, expect, it, vi } from "vitest";
import { useAppTestDb } from "../../../tests/setup/db";
import { makeRequest, testContext } from "../../../tests/setup/request";
import { createJob, createUser } from "../../../tests/fixtures/purge";
import * as usage from "~/models/usage.server";
import { startOfUtcMonth } from "~/models/dashboard.server";
import { loader } from "./route";

vi.mock("~/models/usage.server", async (importOriginal) => {
  const orig = await importOriginal<typeof import("~/models/usage.server")>();
  return { ...orig, getPlanState: vi.fn(orig.getPlanState) };
});

const { handle } = useAppTestDb();
const DAY = 86_400_000;

let ann: Awaited<ReturnType<typeof createUser>>;
let bob: Awaited<ReturnType<typeof createUser>>;
let admin: Awaited<ReturnType<typeof createUser>>;

async function container(userId: string, createdAt: Date, deletedAt: Date | null = null) {
  await handle()
    .db.insertInto("lists")
    .values({
      kind: "container",
      suppression_type: null,
      user_id: userId,
      category_id: null,
      name: `c${Math.random()}`,
      description: "",
      created_at: createdAt,
      deleted_at: deletedAt,
    })
    .execute();
}

beforeAll(async () => {
  const db = handle().db;
  ann = await createUser(db, { firstName: "Ann" });
  bob = await createUser(db, { firstName: "Bob" });
  admin = await createUser(db, { role: "SuperAdmin", firstName: "Ada" });
  const now = new Date();
  const lastMonth = new Date(startOfUtcMonth(now).getTime() - 3 * DAY);
  // Ann: 2 containers before this month (one deleted this month), 3 now (2 new this month) → 2 → 3 = +50%.
  await container(ann.id, lastMonth);
  await container(ann.id, lastMonth, new Date(Math.max(startOfUtcMonth(now).getTime(), now.getTime() - 1000)));
  await container(ann.id, now);
  await container(ann.id, now);
  // Bob: one container this month.
  await container(bob.id, now);

  // Ann's jobs: inside the 30-day window 80 good of 100, and 30 of 50; outside the window 1000 rows.
  await createJob(db, { userId: ann.id, good: 80, bad: 15, invalid: 5, createdAt: new Date(now.getTime() - 2 * DAY) });
  await createJob(db, { userId: ann.id, good: 30, bad: 20, invalid: 0, createdAt: now });
  await createJob(db, { userId: ann.id, good: 1000, createdAt: new Date(now.getTime() - 40 * DAY) });
  // Distinct creation times, so "latest" is unambiguous.
  await createJob(db, { userId: ann.id, status: "running", fileName: "running.csv", createdAt: new Date(now.getTime() + 1000) });
  await createJob(db, { userId: ann.id, status: "failed", fileName: "failed.csv", createdAt: new Date(now.getTime() + 2000) });
  await createJob(db, { userId: ann.id, fileName: "latest.csv", good: 1, createdAt: new Date(now.getTime() + 3000) });
  // Bob: 10 rows, all good.
  await createJob(db, { userId: bob.id, good: 10, createdAt: now });
});

const call = (cookie: string) => loader({ request: makeRequest("/dashboard", { cookie }), params: {}, context: testContext });

describe("/dashboard", () => {
  it("shows a user's own figures over the last 30 days", async () => {
    const d = await call(ann.cookie);
    expect(d.admin).toBe(false);
    expect(d.stats.containers).toEqual({ total: 3, previousMonth: 2, growthPercent: 50 });
    expect(d.stats.purged).toBe(151);
    expect(d.stats.successRate).toBeCloseTo(111 / 151, 10);
    expect(d.stats.activeUsers).toBeNull();
    expect(d.stats.perDay).toHaveLength(30);
    expect(d.stats.perDay.reduce((s, x) => s + x.processed, 0)).toBe(151);
    const today = new Date().toISOString().slice(0, 10);
    expect(d.stats.perDay[29]).toEqual({ day: today, processed: 51 });
  });

  it("lists the user's 5 latest scrubs as recent activity", async () => {
    const d = await call(ann.cookie);
    expect(d.activity).toHaveLength(5);
    expect(d.activity[0].detail).toContain("latest.csv");
    expect(d.activity.map((a) => a.title)).toContain("Purge failed");
  });

  it("shows admins every user's figures, active users and the audit log", async () => {
    const db = handle().db;
    await db
      .insertInto("audit_log")
      .values({ actor_id: bob.id, action: "scrub.completed", target_type: "scrub_job", target_id: null, details: JSON.stringify({ fileName: "x.csv" }) })
      .execute();
    const d = await call(admin.cookie);
    expect(d.admin).toBe(true);
    expect(d.stats.containers.total).toBe(4);
    expect(d.stats.purged).toBe(161);
    expect(d.stats.activeUsers).toBe(3);
    expect(d.activity[0]).toMatchObject({ kind: "audit", title: 'Finished a purge "x.csv"', detail: "", actor: "Bob Tester" });
  });

  it("reports usage limits from the plan state: unlimited for admins, zero for a user without a plan", async () => {
    const a = await call(admin.cookie);
    expect(a.limits?.unlimited).toBe(true);
    expect(a.limits?.rows.map((r) => r.available)).toEqual([null, null, null]);
    const u = await call(ann.cookie);
    expect(u.limits?.planName).toBeNull();
    expect(u.limits?.rows[0]).toMatchObject({ label: "Suppression", available: 0 });
    expect(u.limits?.rows[2]).toMatchObject({ label: "Exemption records", available: 0, limit: 0 });
  });

  it("keeps the page when the limits fail to load (Unable to Load Usage Limits)", async () => {
    vi.mocked(usage.getPlanState).mockRejectedValueOnce(new Error("database down"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const d = await call(ann.cookie);
    expect(d.limits).toBeNull();
    expect(d.stats.purged).toBe(151);
    warn.mockRestore();
  });

  it("counts opt-outs received and honoured in 30 days, and names the late ones at the 10-business-day edge across Thanksgiving (decision 195)", async () => {
    const db = handle().db;
    const optOut = (userId: string, number: number, receivedAt: string, honouredAt: string | null, offset = 0) =>
      db
        .insertInto("opt_outs")
        .values({
          user_id: userId,
          number,
          received_at: receivedAt,
          received_offset_minutes: offset,
          honoured_at: honouredAt,
          channel: "call",
          words: "Take me off your list",
          source: "csv",
        })
        .execute();
    // Received Monday 17 November 2025: the tenth business day after it is Tuesday 2 December (Thanksgiving, 27
    // November, is not one), so it is due by midnight UTC starting 3 December
    await optOut(ann.id, 2125550001, "2025-11-17T15:00:00Z", "2025-12-02T23:59:59Z");
    await optOut(ann.id, 2125550002, "2025-11-17T15:00:00Z", "2025-12-03T00:00:00Z");
    // on a California clock the day of receipt is still the 17th: due by midnight there (08:00 UTC)
    await optOut(ann.id, 2125550003, "2025-11-18T04:00:00Z", "2025-12-03T07:59:59Z", -480);
    // a Toronto number is held to the CRTC's 14 days: due by midnight UTC starting 2 December, Thanksgiving or not
    await optOut(ann.id, 4165550001, "2025-11-17T15:00:00Z", "2025-12-01T23:59:59Z");
    await optOut(ann.id, 4165550002, "2025-11-17T15:00:00Z", "2025-12-02T00:00:00Z");
    // never honoured, long past due
    await optOut(ann.id, 2125550004, "2025-06-02T15:00:00Z", null);
    // in the last 30 days: received and honoured at once; not honoured yet and not yet due
    const now = Date.now();
    await optOut(ann.id, 2125550005, new Date(now - 2 * DAY).toISOString(), new Date(now - 2 * DAY + 60_000).toISOString());
    await optOut(ann.id, 2125550006, new Date(now - DAY).toISOString(), null);
    // Bob's late one is never Ann's
    await optOut(bob.id, 2125550007, "2025-06-02T15:00:00Z", null);
    const d = await call(ann.cookie);
    expect(d.optOuts).toMatchObject({ received30d: 2, honoured30d: 1, lateCount: 3 });
    expect(d.optOuts!.late.map((l) => [l.number, l.honouredAt, l.deadline, l.deadlineRule])).toEqual([
      ["2125550004", null, "2025-06-17T00:00:00.000Z", "47 CFR 64.1200(d)(3)"],
      ["2125550002", "2025-12-03T00:00:00.000Z", "2025-12-03T00:00:00.000Z", "47 CFR 64.1200(d)(3)"],
      ["4165550002", "2025-12-02T00:00:00.000Z", "2025-12-02T00:00:00.000Z", "CRTC Unsolicited Telecommunications Rules, internal list within 14 days"],
    ]);
    expect((await call(bob.cookie)).optOuts).toMatchObject({ received30d: 0, honoured30d: 0, lateCount: 1 });
  });
});
