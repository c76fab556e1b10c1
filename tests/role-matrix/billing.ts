import crypto from "node:crypto";
import { adminOnly, signedIn, type MatrixEntry, type MatrixSetupContext } from "./types";
import { transactionRow } from "../setup/billing";

/** A fresh pending bank transfer owned by `owner` (the role's own user, or NormalUser for anonymous). */
async function pendingTransfer(ctx: MatrixSetupContext, owner?: string): Promise<string> {
  const userId = owner ?? (ctx.role === "anonymous" ? ctx.userIds.NormalUser : ctx.userIds[ctx.role]);
  const row = await ctx.db
    .insertInto("transactions")
    .values(transactionRow({ user_id: userId, transfer_reference: `MTX-${crypto.randomBytes(6).toString("hex")}` }))
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

const notFound = { ...signedIn(404), anonymous: "login" as const };
const someUuid = "00000000-0000-4000-8000-000000000000";

export const entries: MatrixEntry[] = [
  { name: "GET /pricing", route: () => import("~/routes/_app.pricing"), kind: "loader", path: "/pricing", expect: signedIn("allowed") },
  {
    name: "GET /pricing/beginner/confirm",
    route: () => import("~/routes/_app.pricing.$planId.confirm"),
    kind: "loader",
    path: "/pricing/beginner/confirm",
    params: { planId: "beginner" },
    expect: signedIn("allowed"),
  },
  {
    name: "GET /pricing/unknown/confirm",
    route: () => import("~/routes/_app.pricing.$planId.confirm"),
    kind: "loader",
    path: "/pricing/unknown/confirm",
    params: { planId: "unknown" },
    expect: notFound,
  },
  {
    name: "POST /pricing/beginner/confirm",
    route: () => import("~/routes/_app.pricing.$planId.confirm"),
    kind: "action",
    path: "/pricing/beginner/confirm",
    params: { planId: "beginner" },
    form: {},
    expect: signedIn(302),
  },
  {
    name: "GET /pricing/payment/$id (not the user's)",
    route: () => import("~/routes/_app.pricing.payment.$transactionId"),
    kind: "loader",
    path: `/pricing/payment/${someUuid}`,
    params: { transactionId: someUuid },
    expect: notFound,
  },
  {
    name: "GET /transaction-history",
    route: () => import("~/routes/_app.transaction-history"),
    kind: "loader",
    path: "/transaction-history",
    expect: signedIn("allowed"),
  },
  {
    name: "GET /transaction-history/export",
    route: () => import("~/routes/transaction-history.export"),
    kind: "loader",
    path: "/transaction-history/export",
    expect: signedIn(200),
  },
  { name: "GET /admin/payments", route: () => import("~/routes/_app.admin.payments/route"), kind: "loader", path: "/admin/payments", expect: adminOnly },
  {
    name: "POST /admin/payments (empty)",
    route: () => import("~/routes/_app.admin.payments/route"),
    kind: "action",
    path: "/admin/payments",
    form: {},
    expect: { ...adminOnly, Admin: 400, SuperAdmin: 400 },
  },
  {
    name: "POST /admin/payments intent=paid (unknown id)",
    route: () => import("~/routes/_app.admin.payments/route"),
    kind: "action",
    path: "/admin/payments",
    form: { intent: "paid", transactionId: someUuid },
    expect: { ...adminOnly, Admin: 404, SuperAdmin: 404 },
  },
  {
    name: "POST /admin/payments intent=reject (unknown id)",
    route: () => import("~/routes/_app.admin.payments/route"),
    kind: "action",
    path: "/admin/payments",
    form: { intent: "reject", transactionId: someUuid, note: "x" },
    expect: { ...adminOnly, Admin: 404, SuperAdmin: 404 },
  },
  {
    name: "GET /pricing/payment/$id (own transaction)",
    route: () => import("~/routes/_app.pricing.payment.$transactionId"),
    kind: "loader",
    path: "/pricing/payment/x",
    expect: signedIn(200),
    setup: async (ctx) => {
      const id = await pendingTransfer(ctx);
      return { path: `/pricing/payment/${id}`, params: { transactionId: id } };
    },
  },
  {
    name: "POST /admin/payments intent=paid (a real pending transfer)",
    route: () => import("~/routes/_app.admin.payments/route"),
    kind: "action",
    path: "/admin/payments",
    expect: { ...adminOnly, Admin: 302, SuperAdmin: 302 },
    setup: async (ctx) => ({ form: { intent: "paid", transactionId: await pendingTransfer(ctx, ctx.userIds.NormalUser) } }),
  },
  {
    name: "POST /admin/payments intent=reject (a real pending transfer)",
    route: () => import("~/routes/_app.admin.payments/route"),
    kind: "action",
    path: "/admin/payments",
    expect: { ...adminOnly, Admin: 302, SuperAdmin: 302 },
    setup: async (ctx) => ({ form: { intent: "reject", transactionId: await pendingTransfer(ctx, ctx.userIds.UnlimitedUser), note: "matrix" } }),
  },
];
