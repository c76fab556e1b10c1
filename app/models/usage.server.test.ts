import { afterAll, describe, expect, it, vi } from "vitest";
import { sql } from "kysely";
import { useAppTestDb } from "../../tests/setup/db";
import type { RoleName } from "db/schema";
import {
  flushLookupUsage,
  getPlanState,
  LOOKUP_WRITER,
  lookupMeter,
  NoPlanError,
  recordLookupUsage,
  reserveUsage,
  stopLookupUsage,
  UsageLimitError,
} from "./usage.server";
import {
  createBankTransferTransaction,
  getUserTransaction,
  listUserTransactions,
  markTransactionPaid,
  rejectTransaction,
  ReviewConflictError,
} from "./transaction.server";
import { listPlans } from "./plan.server";

const { handle } = useAppTestDb();
const db = () => handle().db;
const DAY = 24 * 60 * 60 * 1000;

let seq = 0;
async function createUser(role: RoleName = "NormalUser") {
  seq++;
  const row = await db()
    .insertInto("users")
    .values({
      email: `u${seq}-${role}@usage.test`,
      first_name: "U",
      last_name: String(seq),
      company: "",
      phone_number: "",
      password_hash: null,
      role,
      status: "Active",
      email_confirmed: true,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function createAdmin() {
  return createUser("Admin");
}

/** A purge the way the purge area starts one: reserve, then insert the job in the same transaction. */
async function startPurge(userId: string, rows: number, opts: { now?: Date } = {}) {
  return db()
    .transaction()
    .execute(async (trx) => {
      await reserveUsage(trx, { userId, kind: "suppression", amount: rows, now: opts.now });
      const job = await trx
        .insertInto("scrub_jobs")
        .values({
          user_id: userId,
          source: "web",
          api_key_id: null,
          column_name: null,
          container_id: null,
          category_id: null,
          states: null,
          error: null,
          lease_owner: null,
          file_name: "list.csv",
          suppression_type: "LitigationOnly",
          status: "queued",
          input_path: "/tmp/x",
          usage_reserved: rows,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return job.id;
    });
}

async function finishJob(id: string, status: "completed" | "failed", totalRows: number) {
  await db().updateTable("scrub_jobs").set({ status, total_rows: totalRows }).where("id", "=", id).execute();
}

async function createContainer(userId: string) {
  const row = await db()
    .insertInto("lists")
    .values({ kind: "container", user_id: userId, name: `c${++seq}`, suppression_type: null, category_id: null, description: "" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function addToContainer(userId: string, listId: number, numbers: number) {
  return db()
    .transaction()
    .execute(async (trx) => {
      await reserveUsage(trx, { userId, kind: "container", amount: numbers });
      const load = await trx
        .insertInto("list_loads")
        .values({ list_id: listId, user_id: userId, mode: "add", status: "queued", usage_reserved: numbers, file_name: "", error: null })
        .returning("id")
        .executeTakeFirstOrThrow();
      return load.id;
    });
}

async function subscribeAndPay(userId: string, planId: string, now?: Date) {
  const { transaction } = await createBankTransferTransaction(db(), { userId, planId });
  await markTransactionPaid(db(), { id: transaction.id, adminId: await createAdmin(), now });
  return transaction.id;
}

describe("plan catalogue", () => {
  it("seeds Beginner, Business (most popular) and Premium with their prices and limits", async () => {
    const plans = await listPlans(db());
    expect(plans.map((p) => [p.name, p.priceCents, p.suppressionLimit, p.containerLimit, p.popular, p.apiAccess])).toEqual([
      ["Beginner", 10000, 100000, 25000, false, false],
      ["Business", 50000, 500000, 100000, true, true],
      ["Premium", 100000, 1000000, 1000000, false, true],
    ]);
    expect(plans[0].features).toContainEqual({ label: "API integration", available: false });
    expect(plans[0].features).toContainEqual({ label: "Duplicate suppression unlimited", available: true });
  });
});

describe("subscribe → paid → limits", () => {
  it("refuses without a plan, then enforces the period limit after the admin marks the transfer paid", async () => {
    const user = await createUser();
    const none = await getPlanState(db(), user);
    expect(none).toMatchObject({ unlimited: false, plan: null, hasAccess: false });
    await expect(startPurge(user, 10)).rejects.toBeInstanceOf(NoPlanError);
    await expect(startPurge(user, 10)).rejects.toThrow("You need an active plan to purge numbers. Choose a plan under Pricing to get started.");

    const { transaction, created } = await createBankTransferTransaction(db(), { userId: user, planId: "beginner" });
    expect(created).toBe(true);
    expect(transaction).toMatchObject({
      status: "pendingpayment",
      planName: "Beginner",
      amountCents: 10000,
      dncAndLitigationScrubs: 100000,
      customDatasetRecords: 25000,
    });
    expect(transaction.transferReference).toMatch(/^DPT-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    // A second confirm of the same plan returns the same pending transfer.
    const again = await createBankTransferTransaction(db(), { userId: user, planId: "beginner" });
    expect(again).toMatchObject({ created: false, transaction: { id: transaction.id } });
    // Pending payment gives no access yet.
    expect((await getPlanState(db(), user)).plan).toBeNull();

    const admin = await createAdmin();
    const before = Date.now();
    const paid = await markTransactionPaid(db(), { id: transaction.id, adminId: admin });
    expect(paid.startDate!.getTime()).toBeGreaterThanOrEqual(before);
    expect(paid.endDate!.getTime() - paid.startDate!.getTime()).toBe(30 * DAY);
    await expect(markTransactionPaid(db(), { id: transaction.id, adminId: admin })).rejects.toBeInstanceOf(ReviewConflictError);
    const audit = await db().selectFrom("audit_log").select(["action", "actor_id"]).where("target_id", "=", transaction.id).orderBy("created_at").execute();
    expect(audit).toEqual([
      { action: "payment.requested", actor_id: user },
      { action: "payment.paid", actor_id: admin },
    ]);

    const state = await getPlanState(db(), user);
    expect(state.plan).toMatchObject({ id: "beginner", name: "Beginner", suppressionLimit: 100000, containerLimit: 25000 });
    expect(state.suppression).toEqual({ limit: 100000, used: 0, available: 100000 });
    expect(state.container).toEqual({ limit: 25000, used: 0, available: 25000 });
    expect((await getUserTransaction(db(), { id: transaction.id, userId: user }))?.status).toBe("active");

    // Queued/running jobs hold their reservation; completed count real rows; failed count nothing.
    const a = await startPurge(user, 60000);
    expect((await getPlanState(db(), user)).suppression).toEqual({ limit: 100000, used: 60000, available: 40000 });
    await finishJob(a, "completed", 55000);
    const b = await startPurge(user, 30000);
    await finishJob(b, "failed", 0);
    expect((await getPlanState(db(), user)).suppression).toEqual({ limit: 100000, used: 55000, available: 45000 });
    await startPurge(user, 45000); // exactly to the limit
    expect((await getPlanState(db(), user)).suppression).toEqual({ limit: 100000, used: 100000, available: 0 });

    const refused = await startPurge(user, 1).catch((e) => e);
    expect(refused).toBeInstanceOf(UsageLimitError);
    expect(refused.message).toMatch(
      /^This purge needs 1 numbers of DNC suppression, but none of your Beginner plan's 100,000 are left until [A-Z][a-z]{2} \d{2}, \d{4}\. Upgrade your plan under Pricing or wait for your next period\.$/,
    );
    // The refused purge left no row behind.
    const jobs = await db().selectFrom("scrub_jobs").select("id").where("user_id", "=", user).execute();
    expect(jobs).toHaveLength(3);
  });

  it("enforces the container limit on numbers added, with a clear message", async () => {
    const user = await createUser();
    await subscribeAndPay(user, "beginner");
    const c1 = await createContainer(user);
    const c2 = await createContainer(user);
    const load = await addToContainer(user, c1, 20000);
    await db().updateTable("list_loads").set({ status: "completed", added: 18000 }).where("id", "=", load).execute();
    await addToContainer(user, c2, 7000);
    expect((await getPlanState(db(), user)).container).toEqual({ limit: 25000, used: 25000, available: 0 });
    const err = await addToContainer(user, c1, 500).catch((e) => e);
    expect(err).toBeInstanceOf(UsageLimitError);
    expect(err.message).toMatch(
      /^Adding 500 numbers would exceed your Beginner plan's container limit: none of 25,000 numbers left until .+\. Upgrade your plan under Pricing or wait for your next period\.$/,
    );
    // Another user's containers do not count against this user.
    const other = await createUser();
    await subscribeAndPay(other, "beginner");
    expect((await getPlanState(db(), other)).container.used).toBe(0);
  });

  it("says how many are left when some remain", async () => {
    const user = await createUser();
    await subscribeAndPay(user, "beginner");
    await startPurge(user, 99000);
    const err = await startPurge(user, 1500).catch((e) => e);
    expect(err.message).toContain("This purge needs 1,500 numbers of DNC suppression, but only 1,000 of your Beginner plan's 100,000 are left until");
  });

  it("two parallel purges cannot both squeeze under the limit", async () => {
    const user = await createUser();
    await subscribeAndPay(user, "beginner");
    const results = await Promise.allSettled([startPurge(user, 60000), startPurge(user, 60000), startPurge(user, 60000)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected).toHaveLength(2);
    for (const r of rejected) expect(r.reason).toBeInstanceOf(UsageLimitError);
    expect((await getPlanState(db(), user)).suppression.used).toBe(60000);
  });

  it("must run inside a transaction", async () => {
    const user = await createUser();
    await expect(reserveUsage(db() as never, { userId: user, kind: "suppression", amount: 1 })).rejects.toThrow(/inside a transaction/);
  });
});

describe("periods", () => {
  it("a new paid period starts at 0 usage; the end date passing expires the plan", async () => {
    const user = await createUser();
    const t0 = new Date(Date.now() - 40 * DAY);
    const first = await subscribeAndPay(user, "beginner", t0);
    // A purge during the first period.
    const job = await startPurge(user, 5000, { now: new Date(t0.getTime() + DAY) });
    await db()
      .updateTable("scrub_jobs")
      .set({ created_at: new Date(t0.getTime() + DAY) })
      .where("id", "=", job)
      .execute();
    await finishJob(job, "completed", 5000);
    expect((await getPlanState(db(), user, { now: new Date(t0.getTime() + 2 * DAY) })).suppression.used).toBe(5000);

    // 30 days later: expired, computed on read.
    const state = await getPlanState(db(), user);
    expect(state).toMatchObject({ plan: null, hasAccess: false });
    expect((await getUserTransaction(db(), { id: first, userId: user }))?.status).toBe("expired");
    await expect(startPurge(user, 1)).rejects.toBeInstanceOf(NoPlanError);

    // Paying again: new period from now, usage back to 0.
    await subscribeAndPay(user, "business");
    const renewed = await getPlanState(db(), user);
    expect(renewed.plan?.name).toBe("Business");
    expect(renewed.suppression).toEqual({ limit: 500000, used: 0, available: 500000 });
  });

  it("the last instant of a period is active; its end is expired", async () => {
    const user = await createUser();
    const id = await subscribeAndPay(user, "premium");
    const tx = await getUserTransaction(db(), { id, userId: user });
    const end = tx!.endDate!;
    expect((await getPlanState(db(), user, { now: new Date(end.getTime() - 1) })).plan?.name).toBe("Premium");
    expect((await getPlanState(db(), user, { now: end })).plan).toBeNull();
    expect((await getUserTransaction(db(), { id, userId: user, now: end }))?.status).toBe("expired");
  });

  it("paying for another plan while one is active replaces it from that moment, with usage reset", async () => {
    const user = await createUser();
    const first = await subscribeAndPay(user, "beginner");
    await startPurge(user, 90000);
    const second = await subscribeAndPay(user, "premium");
    const state = await getPlanState(db(), user);
    expect(state.plan).toMatchObject({ name: "Premium", transactionId: second });
    expect(state.suppression).toEqual({ limit: 1000000, used: 0, available: 1000000 });
    expect((await getUserTransaction(db(), { id: first, userId: user }))?.status).toBe("expired");
    const { rows } = await listUserTransactions(db(), { userId: user });
    expect(rows.map((r) => [r.planName, r.status])).toEqual([
      ["Premium", "active"],
      ["Beginner", "expired"],
    ]);
  });

  it("rejected transfers never activate a plan", async () => {
    const user = await createUser();
    const admin = await createAdmin();
    const { transaction } = await createBankTransferTransaction(db(), { userId: user, planId: "business" });
    await rejectTransaction(db(), { id: transaction.id, adminId: admin, note: "No transfer received" });
    expect((await getUserTransaction(db(), { id: transaction.id, userId: user }))?.status).toBe("rejected");
    expect((await getPlanState(db(), user)).plan).toBeNull();
    await expect(markTransactionPaid(db(), { id: transaction.id, adminId: admin })).rejects.toThrow("This transfer has already been reviewed.");
  });
});

describe("unlimited roles", () => {
  for (const role of ["UnlimitedUser", "Admin", "SuperAdmin"] as const) {
    it(`${role} needs no plan and has no limit`, async () => {
      const user = await createUser(role);
      const state = await getPlanState(db(), user);
      expect(state).toMatchObject({ unlimited: true, plan: null, hasAccess: true });
      expect(state.suppression.limit).toBeNull();
      await startPurge(user, 5_000_000);
      const after = await getPlanState(db(), user);
      expect(after.suppression).toEqual({ limit: null, used: 5_000_000, available: null });
      const c = await createContainer(user);
      await addToContainer(user, c, 2_000_000);
    });
  }
});

describe("ownership", () => {
  it("another user's transaction is not found", async () => {
    const owner = await createUser();
    const other = await createUser();
    const { transaction } = await createBankTransferTransaction(db(), { userId: owner, planId: "beginner" });
    expect(await getUserTransaction(db(), { id: transaction.id, userId: other })).toBeUndefined();
    expect(await getUserTransaction(db(), { id: "not-a-uuid", userId: owner })).toBeUndefined();
    expect((await listUserTransactions(db(), { userId: other })).total).toBe(0);
    // sanity: the lock query compiles on both drivers
    await sql`select 1`.execute(db());
  });
});

describe("subscriptions for user management", () => {
  it("lists active plans, filters users by plan, and grants a plan without payment", async () => {
    const { activePlansForUsers, activePlanFilter, grantPlan } = await import("./subscription.server");
    const a = await createUser();
    const b = await createUser();
    const admin = await createAdmin();
    await subscribeAndPay(a, "business");
    const granted = await grantPlan(db(), { userId: b, planId: "beginner", actorId: admin });
    expect(granted.endDate.getTime() - granted.startDate.getTime()).toBe(30 * DAY);
    const map = await activePlansForUsers(db(), [a, b]);
    expect(map.get(a)).toEqual({ planId: "business", planName: "Business" });
    expect(map.get(b)).toEqual({ planId: "beginner", planName: "Beginner" });
    expect((await getPlanState(db(), b)).suppression.limit).toBe(100000);
    const tx = await getUserTransaction(db(), { id: granted.transactionId, userId: b });
    expect(tx).toMatchObject({ amountCents: 0, status: "active", paymentMethod: "admin_grant" });

    const ids = (planId: string | null) =>
      db()
        .selectFrom("users")
        .select("id")
        .where("id", "in", [a, b, admin])
        .where(activePlanFilter(planId))
        .execute()
        .then((r) => r.map((x) => x.id).sort());
    expect(await ids("business")).toEqual([a]);
    expect(await ids("beginner")).toEqual([b]);
    expect(await ids(null)).toEqual([admin]);
    const audit = await db().selectFrom("audit_log").select("action").where("target_id", "=", granted.transactionId).execute();
    expect(audit).toEqual([{ action: "plan.granted" }]);
  });
});

describe("review races", () => {
  it("two admins marking the same transfer paid at once: one wins, one period", async () => {
    const user = await createUser();
    const { transaction } = await createBankTransferTransaction(db(), { userId: user, planId: "business" });
    const [a1, a2] = [await createAdmin(), await createAdmin()];
    const results = await Promise.allSettled([
      markTransactionPaid(db(), { id: transaction.id, adminId: a1 }),
      markTransactionPaid(db(), { id: transaction.id, adminId: a2 }),
      rejectTransaction(db(), { id: transaction.id, adminId: a2 }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ReviewConflictError);
    const audits = await db()
      .selectFrom("audit_log")
      .select("action")
      .where("target_id", "=", transaction.id)
      .where("action", "<>", "payment.requested")
      .execute();
    expect(audits).toHaveLength(1);
  });

  it("a double submit of Confirm creates one pending transfer", async () => {
    const user = await createUser();
    const results = await Promise.all([
      createBankTransferTransaction(db(), { userId: user, planId: "premium" }),
      createBankTransferTransaction(db(), { userId: user, planId: "premium" }),
    ]);
    expect(new Set(results.map((r) => r.transaction.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });
});

describe("live lookups (decision 111)", () => {
  it("count as DNC suppression usage with purges, under the same limit", async () => {
    const user = await createUser();
    await expect(recordLookupUsage(db(), { userId: user, amount: 1, unlimited: false })).rejects.toBeInstanceOf(NoPlanError);
    await subscribeAndPay(user, "business");
    await recordLookupUsage(db(), { userId: user, amount: 400, unlimited: false });
    await recordLookupUsage(db(), { userId: user, amount: 600, unlimited: false });
    expect((await getPlanState(db(), user)).suppression.used).toBe(1000);
    await startPurge(user, 498_000);
    await expect(recordLookupUsage(db(), { userId: user, amount: 1001, unlimited: false })).rejects.toBeInstanceOf(UsageLimitError);
    await recordLookupUsage(db(), { userId: user, amount: 1000, unlimited: false });
    expect((await getPlanState(db(), user)).suppression).toEqual({ limit: 500000, used: 500000, available: 0 });
    await expect(startPurge(user, 1)).rejects.toBeInstanceOf(UsageLimitError);
    await flushLookupUsage(db()); // counted in memory, written every second (decision 111)
    const rows = await db().selectFrom("lookup_usage").selectAll().where("user_id", "=", user).execute();
    expect(rows.reduce((n, r) => n + Number(r.numbers), 0)).toBe(2000);
    expect(rows.reduce((n, r) => n + r.requests, 0)).toBe(3);
  });

  it("a period that starts inside a minute counts only the lookups made from its start", async () => {
    const user = await createUser();
    const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000 + 30_000); // hh:mm:30, ten minutes ago
    await subscribeAndPay(user, "beginner", new Date(start.getTime() - 30 * DAY)); // an old period, long expired
    await db()
      .insertInto("lookup_usage")
      .values({ user_id: user, bucket_start: new Date(start.getTime() - 30_000), requests: 1, numbers: 7 }) // earlier in that minute
      .execute();
    await subscribeAndPay(user, "business", start);
    await recordLookupUsage(db(), { userId: user, amount: 5, now: new Date(start.getTime() + 10_000), unlimited: false });
    await flushLookupUsage(db());
    const bucket = await db()
      .selectFrom("lookup_usage")
      .select("bucket_start")
      .where("user_id", "=", user)
      .where("numbers", "=", BigInt(5))
      .executeTakeFirstOrThrow();
    expect(new Date(bucket.bucket_start).getTime()).toBe(start.getTime());
    expect((await getPlanState(db(), user)).suppression.used).toBe(5);
  });
});

describe("live lookups counted in memory, written in batches (decision 111)", () => {
  afterAll(() => stopLookupUsage());

  const rowsOf = (user: string) => db().selectFrom("lookup_usage").selectAll().where("user_id", "=", user).execute();

  it("writes each process's absolute totals: a repeated flush neither adds nor loses", async () => {
    const user = await createUser();
    await subscribeAndPay(user, "business");
    await recordLookupUsage(db(), { userId: user, amount: 7, unlimited: false });
    expect(await rowsOf(user)).toEqual([]);
    expect(lookupMeter.unflushed(user, 0, Date.now() + DAY)).toBe(7);
    expect((await getPlanState(db(), user)).suppression.used).toBe(7); // the dashboard sees unwritten lookups
    await flushLookupUsage(db());
    await recordLookupUsage(db(), { userId: user, amount: 3, unlimited: false });
    // The write commits but its answer is lost (a dropped connection): the counts stay unwritten here ...
    const answerLost = db().withPlugin({
      transformQuery: (a) => a.node,
      transformResult: async () => {
        throw new Error("connection lost");
      },
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      await expect(flushLookupUsage(answerLost)).rejects.toThrow(/connection lost/);
    } finally {
      warn.mockRestore();
    }
    expect(lookupMeter.unflushed(user, 0, Date.now() + DAY)).toBe(3);
    // ... and are sent again: the same absolute totals, so nothing is counted twice
    await flushLookupUsage(db());
    const rows = await rowsOf(user);
    expect(rows.map((r) => [r.writer, Number(r.numbers), r.requests])).toEqual(
      rows.length === 1
        ? [[LOOKUP_WRITER, 10, 2]]
        : [
            [LOOKUP_WRITER, 7, 1],
            [LOOKUP_WRITER, 3, 1],
          ], // the minute may turn between
    );
    expect(lookupMeter.unflushed(user, 0, Date.now() + DAY)).toBe(0);
    expect((await getPlanState(db(), user)).suppression.used).toBe(10);
  });

  it("keeps the counts when the database refuses the write, and writes them on the next flush", async () => {
    const user = await createUser();
    await subscribeAndPay(user, "business");
    await recordLookupUsage(db(), { userId: user, amount: 4, unlimited: false });
    const refusing = db().withPlugin({
      transformQuery: () => {
        throw new Error("database unavailable");
      },
      transformResult: async (a) => a.result,
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      await expect(flushLookupUsage(refusing)).rejects.toThrow(/unavailable/);
      expect(warn.mock.calls.join(" ")).toMatch(/kept for the next try/);
    } finally {
      warn.mockRestore();
    }
    expect((await getPlanState(db(), user)).suppression.used).toBe(4);
    await flushLookupUsage(db());
    expect((await rowsOf(user)).map((r) => Number(r.numbers))).toEqual([4]);
    expect((await getPlanState(db(), user)).suppression.used).toBe(4);
  });

  it("checks the limit against another process's written lookups once it reads the usage again", async () => {
    const user = await createUser();
    await subscribeAndPay(user, "business"); // 500,000
    await recordLookupUsage(db(), { userId: user, amount: 1000, unlimited: false });
    // another app process (another writer) wrote 498,000 lookups of this user
    await db().insertInto("lookup_usage").values({ user_id: user, bucket_start: new Date(), writer: "other-process", requests: 1, numbers: 498_000 }).execute();
    await flushLookupUsage(db()); // every flush reads the usage again
    await expect(recordLookupUsage(db(), { userId: user, amount: 1001, unlimited: false })).rejects.toMatchObject({
      details: { limit: 500_000, used: 499_000, requested: 1001, available: 1000 },
    });
    await recordLookupUsage(db(), { userId: user, amount: 1000, unlimited: false });
    await expect(recordLookupUsage(db(), { userId: user, amount: 1, unlimited: false })).rejects.toBeInstanceOf(UsageLimitError);
    await flushLookupUsage(db());
    expect((await getPlanState(db(), user)).suppression).toEqual({ limit: 500000, used: 500000, available: 0 });
  });

  it("parallel lookups in one process never pass the limit together", async () => {
    const user = await createUser();
    await subscribeAndPay(user, "business");
    await db().updateTable("transactions").set({ dnc_and_litigation_scrubs: 2500 }).where("user_id", "=", user).execute();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => recordLookupUsage(db(), { userId: user, amount: 1000, unlimited: false })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    await flushLookupUsage(db());
    expect((await getPlanState(db(), user)).suppression.used).toBe(2000);
  });

  it("unlimited roles are counted without a plan", async () => {
    const admin = await createAdmin();
    await recordLookupUsage(db(), { userId: admin, amount: 12, unlimited: true });
    await stopLookupUsage(); // what shutdown does: the rest is written
    expect((await rowsOf(admin)).map((r) => Number(r.numbers))).toEqual([12]);
  });
});
