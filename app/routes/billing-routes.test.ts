import { describe, expect, it } from "vitest";
import Papa from "papaparse";
import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest } from "../../tests/setup/request";
import { callRoute, createSignedInUser, statusOf, type RouteFn as Fn } from "../../tests/setup/routes";
import { transactionRow } from "../../tests/setup/billing";
import type { RoleName } from "db/schema";
import { loader as pricingLoader } from "./_app.pricing";
import { action as confirmAction, loader as confirmLoader } from "./_app.pricing.$planId.confirm";
import { loader as paymentLoader } from "./_app.pricing.payment.$transactionId";
import { action as paymentsAction, loader as paymentsLoader } from "~/routes/_app.admin.payments/route";
import { loader as historyLoader } from "./_app.transaction-history";
import { loader as exportLoader } from "./transaction-history.export";
import { getPlanState, reserveUsage, UsageLimitError } from "~/models/usage.server";
import { getPlanGate } from "~/models/plan-gate.server";
import { isoDay, isoTimestamp } from "~/utils/format";

const { handle } = useAppTestDb();
const db = () => handle().db;
const DAY = 24 * 60 * 60 * 1000;

let seq = 0;
async function signedInUser(role: RoleName = "NormalUser") {
  seq++;
  const email = `r${seq}@billing.test`;
  const { id, cookie } = await createSignedInUser(db(), { email, role, firstName: "Rae", lastName: `N${seq}`, company: "Acme" });
  return { id, email, cookie };
}

async function call(fn: Fn, path: string, opts: { cookie: string; form?: Record<string, string>; params?: Record<string, string> }) {
  return callRoute(fn, makeRequest(path, { cookie: opts.cookie, form: opts.form }), opts.params);
}

async function outboxFor(email: string) {
  return db().selectFrom("email_outbox").select(["subject", "text_body"]).where("to_address", "=", email).orderBy("created_at").execute();
}

async function insertJob(userId: string, rows: number) {
  return db()
    .transaction()
    .execute(async (trx) => {
      await reserveUsage(trx, { userId, kind: "suppression", amount: rows });
      await trx
        .insertInto("scrub_jobs")
        .values({
          user_id: userId,
          source: "web",
          api_key_id: null,
          file_name: "f.csv",
          suppression_type: "DNCAndLitigation",
          column_name: null,
          container_id: null,
          category_id: null,
          states: null,
          status: "completed",
          error: null,
          input_path: "/tmp/f",
          total_rows: rows,
          usage_reserved: rows,
          lease_owner: null,
        })
        .execute();
    });
}

describe("subscribe → admin marks paid → limits", () => {
  it("runs the whole path through the routes", async () => {
    const user = await signedInUser();
    const admin = await signedInUser("Admin");
    const redirectTo = "/containers?dialog=create-container";

    // The gate: no plan.
    const gate = await getPlanGate(db(), user.id, redirectTo);
    expect(gate?.plans.map((p) => p.name)).toEqual(["Beginner", "Business", "Premium"]);
    expect(gate?.redirectTo).toBe(redirectTo);

    const confirm = (await call(confirmLoader as Fn, `/pricing/beginner/confirm?redirectTo=${encodeURIComponent(redirectTo)}`, {
      cookie: user.cookie,
      params: { planId: "beginner" },
    })) as { plan: { name: string; priceCents: number }; redirectTo: string; isActive: boolean };
    expect(confirm).toMatchObject({ plan: { name: "Beginner", priceCents: 10000 }, redirectTo, isActive: false });

    const res = (await call(confirmAction as Fn, "/pricing/beginner/confirm", {
      cookie: user.cookie,
      params: { planId: "beginner" },
      form: { redirectTo },
    })) as Response;
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location).toMatch(/^\/pricing\/payment\/[0-9a-f-]{36}\?redirectTo=%2Fcontainers%3Fdialog%3Dcreate-container$/);
    const txId = location.split("/")[3].split("?")[0];

    const payment = (await call(paymentLoader as Fn, location, { cookie: user.cookie, params: { transactionId: txId } })) as {
      tx: { status: string; reference: string; amountCents: number };
      redirectTo: string;
    };
    expect(payment.tx).toMatchObject({ status: "pendingpayment", amountCents: 10000 });
    expect(payment.redirectTo).toBe(redirectTo);
    const mails = await outboxFor(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Payment instructions for your Beginner plan (${payment.tx.reference})`);
    expect(mails[0].text_body).toContain(`Reference: ${payment.tx.reference}`);
    expect(mails[0].text_body).toContain("Amount: $100 (USD)");
    expect(mails[0].text_body).toContain("Routing number (ABA): 021000021");

    // Still no plan: the gate now shows the pending transfer.
    const gate2 = await getPlanGate(db(), user.id, redirectTo);
    expect(gate2?.pending).toEqual([expect.objectContaining({ id: txId, transferReference: payment.tx.reference })]);

    // Non-admins cannot review.
    const denied = await call(paymentsAction as Fn, "/admin/payments", { cookie: user.cookie, form: { intent: "paid", transactionId: txId } });
    expect(statusOf(denied)).toBe(403);

    const list = (await call(paymentsLoader as Fn, "/admin/payments", { cookie: admin.cookie })) as { rows: Array<{ id: string; reference: string }> };
    expect(list.rows.map((r) => r.id)).toContain(txId);
    const search = (await call(paymentsLoader as Fn, `/admin/payments?q=${payment.tx.reference}`, { cookie: admin.cookie })) as {
      rows: Array<{ id: string }>;
      total: number;
    };
    expect(search.total).toBe(1);

    const paid = (await call(paymentsAction as Fn, `/admin/payments?review=${txId}`, {
      cookie: admin.cookie,
      form: { intent: "paid", transactionId: txId },
    })) as Response;
    expect(paid.status).toBe(302);
    expect(paid.headers.get("Location")).toBe("/admin/payments");
    const after = (await call(paymentsLoader as Fn, "/admin/payments", { cookie: admin.cookie })) as { rows: Array<{ id: string }> };
    expect(after.rows.map((r) => r.id)).not.toContain(txId);
    const audit = await db().selectFrom("audit_log").select(["action", "actor_id"]).where("target_id", "=", txId).orderBy("created_at").execute();
    expect(audit).toEqual([
      { action: "payment.requested", actor_id: user.id },
      { action: "payment.paid", actor_id: admin.id },
    ]);
    const mails2 = await outboxFor(user.email);
    expect(mails2.map((m) => m.subject)).toEqual([mails[0].subject, "Payment received: your Beginner plan is active"]);

    // Marking it paid twice is refused with a message, nothing changes.
    const twice = (await call(paymentsAction as Fn, "/admin/payments", { cookie: admin.cookie, form: { intent: "paid", transactionId: txId } })) as Response;
    expect(twice.status).toBe(302);
    expect((await outboxFor(user.email)).length).toBe(2);

    // Limits active: the pricing dialog shows Beginner as active, the gate is gone.
    const pricing = (await call(pricingLoader as Fn, "/pricing", { cookie: user.cookie })) as { activePlanId: string };
    expect(pricing.activePlanId).toBe("beginner");
    expect(await getPlanGate(db(), user.id, redirectTo)).toBeNull();
    const confirmActive = await call(confirmAction as Fn, "/pricing/beginner/confirm", { cookie: user.cookie, params: { planId: "beginner" }, form: {} });
    expect(statusOf(confirmActive)).toBe(409);

    // Usage reaches the limit; the next purge is refused with a clear message.
    await insertJob(user.id, 100000);
    const state = await getPlanState(db(), user.id);
    expect(state.suppression).toEqual({ limit: 100000, used: 100000, available: 0 });
    const refused = await insertJob(user.id, 10).catch((e) => e);
    expect(refused).toBeInstanceOf(UsageLimitError);
    expect(refused.message).toContain("This purge needs 10 numbers of DNC suppression, but none of your Beginner plan's 100,000 are left until");

    // History shows it active.
    const history = (await call(historyLoader as Fn, "/transaction-history", { cookie: user.cookie })) as { rows: Array<{ id: string; status: string }> };
    expect(history.rows).toEqual([expect.objectContaining({ id: txId, status: "active" })]);
  });

  it("an admin rejects a transfer with a reason; the customer is told", async () => {
    const user = await signedInUser();
    const admin = await signedInUser("SuperAdmin");
    const res = (await call(confirmAction as Fn, "/pricing/business/confirm", { cookie: user.cookie, params: { planId: "business" }, form: {} })) as Response;
    const txId = res.headers.get("Location")!.split("/")[3];
    const tooLong = await call(paymentsAction as Fn, "/admin/payments", {
      cookie: admin.cookie,
      form: { intent: "reject", transactionId: txId, note: "x".repeat(501) },
    });
    expect(statusOf(tooLong)).toBe(400);
    const rejected = (await call(paymentsAction as Fn, "/admin/payments", {
      cookie: admin.cookie,
      form: { intent: "reject", transactionId: txId, note: "No transfer arrived" },
    })) as Response;
    expect(rejected.status).toBe(302);
    const mails = await outboxFor(user.email);
    expect(mails[1].subject).toMatch(/^Payment not confirmed: Business plan \(DPT-/);
    expect(mails[1].text_body).toContain("Reason: No transfer arrived");
    expect((await getPlanState(db(), user.id)).plan).toBeNull();
    const reviewed = (await call(paymentsLoader as Fn, "/admin/payments?filter=reviewed", { cookie: admin.cookie })) as {
      rows: Array<{ id: string; status: string; reviewNote: string }>;
    };
    expect(reviewed.rows.find((r) => r.id === txId)).toMatchObject({ status: "rejected", reviewNote: "No transfer arrived" });
  });
});

describe("ownership", () => {
  it("another user's transaction is unreachable (404) and never listed or exported", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const res = (await call(confirmAction as Fn, "/pricing/premium/confirm", { cookie: owner.cookie, params: { planId: "premium" }, form: {} })) as Response;
    const txId = res.headers.get("Location")!.split("/")[3];
    expect(statusOf(await call(paymentLoader as Fn, `/pricing/payment/${txId}`, { cookie: owner.cookie, params: { transactionId: txId } }))).toBe(200);
    expect(statusOf(await call(paymentLoader as Fn, `/pricing/payment/${txId}`, { cookie: other.cookie, params: { transactionId: txId } }))).toBe(404);
    expect(statusOf(await call(paymentLoader as Fn, "/pricing/payment/garbage", { cookie: other.cookie, params: { transactionId: "garbage" } }))).toBe(404);
    const history = (await call(historyLoader as Fn, "/transaction-history", { cookie: other.cookie })) as { total: number };
    expect(history.total).toBe(0);
    const csv = (await call(exportLoader as Fn, "/transaction-history/export", { cookie: other.cookie })) as Response;
    expect(await csv.text()).toBe(
      "Plan Name,Amount,Purchase Date,Start Date,End Date,Status,Description,DNC & Litigation Scrubs,Custom Dataset Records,Reference\r\n",
    );
  });
});

describe("transaction history", () => {
  async function seed(userId: string, n: number, base: Date) {
    for (let i = 0; i < n; i++) {
      await db()
        .insertInto("transactions")
        .values(
          transactionRow({
            user_id: userId,
            ...(i % 2
              ? { plan_id: "business", plan_name: "Business", amount_cents: 50000, dnc_and_litigation_scrubs: 500000, custom_dataset_records: 100000 }
              : {}),
            status: "rejected",
            transfer_reference: `TST-${userId.slice(0, 8)}-${i}`,
            description: `row ${i}`,
            created_at: new Date(base.getTime() + i * DAY),
          }),
        )
        .execute();
    }
  }

  it("pages by 10, sorts (default createdAt descending), filters by date, keeps state in the URL", async () => {
    const user = await signedInUser();
    await seed(user.id, 23, new Date("2026-01-01T12:00:00Z"));
    type H = {
      rows: Array<{ description: string; amountCents: number }>;
      total: number;
      page: number;
      pageCount: number;
      sort: string;
      dir: string;
      date?: string;
    };
    const p1 = (await call(historyLoader as Fn, "/transaction-history", { cookie: user.cookie })) as H;
    expect(p1).toMatchObject({ total: 23, page: 1, pageCount: 3, sort: "createdAt", dir: "desc" });
    expect(p1.rows.map((r) => r.description)).toEqual(Array.from({ length: 10 }, (_, i) => `row ${22 - i}`));
    const p3 = (await call(historyLoader as Fn, "/transaction-history?page=3", { cookie: user.cookie })) as H;
    expect(p3.rows.map((r) => r.description)).toEqual(["row 2", "row 1", "row 0"]);
    const clamped = (await call(historyLoader as Fn, "/transaction-history?page=99", { cookie: user.cookie })) as H;
    expect(clamped.page).toBe(3);
    const asc = (await call(historyLoader as Fn, "/transaction-history?sort=amount&dir=asc", { cookie: user.cookie })) as H;
    expect(asc.rows.every((r) => r.amountCents === 10000)).toBe(true);
    const bad = (await call(historyLoader as Fn, "/transaction-history?sort=drop&dir=sideways&page=-1&date=nope", { cookie: user.cookie })) as H;
    expect(bad).toMatchObject({ sort: "createdAt", dir: "desc", page: 1 });
    expect(bad.date).toBeUndefined();
    const day = (await call(historyLoader as Fn, "/transaction-history?date=2026-01-05", { cookie: user.cookie })) as H;
    expect(day.total).toBe(1);
    expect(day.rows[0].description).toBe("row 4");
  });

  it("exports CSV cell by cell, escaped against formula injection", async () => {
    const user = await signedInUser();
    const admin = await signedInUser("Admin");
    // A paid (active) one through the real flow.
    const res = (await call(confirmAction as Fn, "/pricing/business/confirm", { cookie: user.cookie, params: { planId: "business" }, form: {} })) as Response;
    const txId = res.headers.get("Location")!.split("/")[3];
    await call(paymentsAction as Fn, "/admin/payments", { cookie: admin.cookie, form: { intent: "paid", transactionId: txId } });
    const tx = await db().selectFrom("transactions").selectAll().where("id", "=", txId).executeTakeFirstOrThrow();
    // A hostile one (e.g. imported data): formula, quotes, comma and newline.
    await db()
      .insertInto("transactions")
      .values(
        transactionRow({
          user_id: user.id,
          plan_id: "premium",
          plan_name: '=HYPERLINK("http://evil","x")',
          amount_cents: 123456,
          dnc_and_litigation_scrubs: 1000000,
          custom_dataset_records: 1000000,
          status: "failed",
          transfer_reference: `EVIL-${user.id}`,
          description: "@SUM(1+1),\nsecond line",
          created_at: new Date("2020-03-04T05:06:07Z"),
        }),
      )
      .execute();
    const csv = (await call(exportLoader as Fn, "/transaction-history/export", { cookie: user.cookie })) as Response;
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="transaction_history_${isoDay(new Date())}.csv"`);
    const text = await csv.text();
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(parsed).toEqual([
      [
        "Plan Name",
        "Amount",
        "Purchase Date",
        "Start Date",
        "End Date",
        "Status",
        "Description",
        "DNC & Litigation Scrubs",
        "Custom Dataset Records",
        "Reference",
      ],
      [
        "Business",
        "$500",
        isoTimestamp(tx.created_at),
        isoTimestamp(tx.start_date),
        isoTimestamp(tx.end_date),
        "active",
        "Business plan, 30 days, bank transfer",
        "500000",
        "100000",
        tx.transfer_reference,
      ],
      [
        '\'=HYPERLINK("http://evil","x")',
        "$1,234.56",
        "2020-03-04T05:06:07+00:00",
        "",
        "",
        "failed",
        "'@SUM(1+1),\nsecond line",
        "1000000",
        "1000000",
        `EVIL-${user.id}`,
      ],
    ]);
    // Dates in exports are ISO-8601 with their offset (screens show the viewer's zone; a file is read by programs).
    for (const cell of parsed[1].slice(2, 5)) expect(cell).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    // Raw form: quoted fields, doubled quotes, CRLF rows.
    expect(text).toContain(
      `"'=HYPERLINK(""http://evil"",""x"")","$1,234.56",2020-03-04T05:06:07+00:00,,,failed,"'@SUM(1+1),\nsecond line",1000000,1000000,EVIL-${user.id}\r\n`,
    );
    // Sorted like the screen: ascending by purchase date puts the 2020 one first.
    const asc = (await call(exportLoader as Fn, "/transaction-history/export?sort=createdAt&dir=asc", { cookie: user.cookie })) as Response;
    expect((await asc.text()).split("\r\n")[1]).toMatch(/^"'=HYPERLINK/);
  });

  it("shows expired once the end date has passed, without any sweep", async () => {
    const user = await signedInUser();
    const start = new Date(Date.now() - 31 * DAY);
    await db()
      .insertInto("transactions")
      .values(
        transactionRow({
          user_id: user.id,
          status: "paid",
          transfer_reference: `OLD-${user.id}`,
          description: "old",
          start_date: start,
          end_date: new Date(start.getTime() + 30 * DAY),
          paid_at: start,
          reviewed_at: start,
        }),
      )
      .execute();
    const h = (await call(historyLoader as Fn, "/transaction-history", { cookie: user.cookie })) as { rows: Array<{ status: string }> };
    expect(h.rows.map((r) => r.status)).toEqual(["expired"]);
    expect((await getPlanState(db(), user.id)).plan).toBeNull();
    expect(await getPlanGate(db(), user.id, "/purge")).not.toBeNull();
  });
});

describe("no-plan gate", () => {
  it("lets unlimited roles through without a plan and keeps redirectTo on this site", async () => {
    for (const role of ["UnlimitedUser", "Admin", "SuperAdmin"] as const) {
      const u = await signedInUser(role);
      expect(await getPlanGate(db(), u.id, "/purge")).toBeNull();
    }
    const u = await signedInUser();
    expect((await getPlanGate(db(), u.id, "https://evil.example/"))?.redirectTo).toBe("/dashboard");
    const evil = (await call(confirmLoader as Fn, "/pricing/beginner/confirm?redirectTo=//evil.example", {
      cookie: u.cookie,
      params: { planId: "beginner" },
    })) as { redirectTo: string };
    expect(evil.redirectTo).toBe("/dashboard");
  });
});
