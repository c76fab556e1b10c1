import { everyone, signedIn, type MatrixEntry, type MatrixSetupContext } from "./types";
import { createApiKey, createIntegration } from "~/models/integration.server";

const page = () => import("~/routes/_app.integrations/route");

/** An integration (with a webhook and one key) owned by the requesting role (anonymous: by NormalUser). */
async function own(ctx: MatrixSetupContext) {
  const userId = ctx.role === "anonymous" ? ctx.userIds.NormalUser : ctx.userIds[ctx.role];
  const i = await createIntegration(ctx.db, { userId, name: `M ${ctx.role}`, description: "", containerId: null, webhookUrl: "https://hooks.example.com/x" });
  const k = await createApiKey(ctx.db, { userId, integrationId: i.id, name: "matrix" });
  if ("error" in k) throw new Error(k.error);
  return { integrationId: i.id, keyId: k.id };
}

/** An integration owned by someone else (SuperAdmin's for every other role, NormalUser's for SuperAdmin). */
async function foreign(ctx: MatrixSetupContext) {
  const owner = ctx.role === "SuperAdmin" ? ctx.userIds.NormalUser : ctx.userIds.SuperAdmin;
  const i = await createIntegration(ctx.db, { userId: owner, name: "Foreign", description: "", containerId: null, webhookUrl: "https://hooks.example.com/y" });
  const k = await createApiKey(ctx.db, { userId: owner, integrationId: i.id, name: "foreign" });
  if ("error" in k) throw new Error(k.error);
  return { integrationId: i.id, keyId: k.id };
}

const othersGet404 = { ...signedIn(404) };

export const entries: MatrixEntry[] = [
  { name: "GET / (landing)", route: () => import("~/routes/_index"), kind: "loader", path: "/", expect: everyone("allowed") },
  { name: "GET /docs/api", route: () => import("~/routes/docs.api"), kind: "loader", path: "/docs/api", expect: everyone("allowed") },
  {
    name: "GET /api/v1/openapi.json",
    route: () => import("~/routes/api.v1.openapi[.json]"),
    kind: "loader",
    path: "/api/v1/openapi.json",
    expect: everyone(200),
  },
  { name: "GET /integrations", route: page, kind: "loader", path: "/integrations", expect: signedIn("allowed") },
  {
    name: "GET /integrations?dialog=create-integration",
    route: page,
    kind: "loader",
    path: "/integrations?dialog=create-integration",
    expect: signedIn("allowed"),
  },
  {
    name: "POST /integrations intent=create-integration (empty form)",
    route: page,
    kind: "action",
    path: "/integrations",
    form: { intent: "create-integration" },
    expect: signedIn(400),
  },
  {
    name: "POST /integrations intent=create-integration",
    route: page,
    kind: "action",
    path: "/integrations",
    form: { intent: "create-integration", name: "Matrix CRM", webhookUrl: "https://hooks.example.com/m" },
    expect: signedIn(200),
  },
  {
    name: "POST /integrations intent=update-integration (own)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: signedIn(302),
    setup: async (ctx) => {
      const o = await own(ctx);
      return { form: { intent: "update-integration", integrationId: o.integrationId, name: "Renamed", webhookUrl: "https://hooks.example.com/x" } };
    },
  },
  {
    name: "POST /integrations intent=update-integration (someone else's)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: othersGet404,
    setup: async (ctx) => {
      const o = await foreign(ctx);
      return { form: { intent: "update-integration", integrationId: o.integrationId, name: "Taken over" } };
    },
  },
  {
    name: "POST /integrations intent=create-key (own)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: signedIn(200),
    setup: async (ctx) => ({ form: { intent: "create-key", integrationId: (await own(ctx)).integrationId, name: "k" } }),
  },
  {
    name: "POST /integrations intent=create-key (someone else's integration)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: othersGet404,
    setup: async (ctx) => ({ form: { intent: "create-key", integrationId: (await foreign(ctx)).integrationId, name: "k" } }),
  },
  {
    name: "POST /integrations intent=revoke-key (own)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: signedIn(302),
    setup: async (ctx) => ({ form: { intent: "revoke-key", id: (await own(ctx)).keyId } }),
  },
  {
    name: "POST /integrations intent=revoke-key (someone else's)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: othersGet404,
    setup: async (ctx) => ({ form: { intent: "revoke-key", id: (await foreign(ctx)).keyId } }),
  },
  {
    name: "POST /integrations intent=rename-key (own)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: signedIn(302),
    setup: async (ctx) => ({ form: { intent: "rename-key", id: (await own(ctx)).keyId, name: "Renamed" } }),
  },
  {
    name: "POST /integrations intent=rename-key (someone else's)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: othersGet404,
    setup: async (ctx) => ({ form: { intent: "rename-key", id: (await foreign(ctx)).keyId, name: "Mine now" } }),
  },
  {
    name: "POST /integrations intent=toggle (own)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: signedIn(302),
    setup: async (ctx) => ({ form: { intent: "toggle", integrationId: (await own(ctx)).integrationId, toggle: "auto_retry_enabled", value: "off" } }),
  },
  {
    name: "POST /integrations intent=toggle (someone else's)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: othersGet404,
    setup: async (ctx) => ({ form: { intent: "toggle", integrationId: (await foreign(ctx)).integrationId, toggle: "webhook_enabled", value: "off" } }),
  },
  {
    name: "POST /integrations intent=rotate-secret (own)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: signedIn(200),
    setup: async (ctx) => ({ form: { intent: "rotate-secret", id: (await own(ctx)).integrationId } }),
  },
  {
    name: "POST /integrations intent=rotate-secret (someone else's)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: othersGet404,
    setup: async (ctx) => ({ form: { intent: "rotate-secret", id: (await foreign(ctx)).integrationId } }),
  },
  {
    name: "POST /integrations intent=delete-integration (own)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: signedIn(302),
    setup: async (ctx) => ({ form: { intent: "delete-integration", id: (await own(ctx)).integrationId } }),
  },
  {
    name: "POST /integrations intent=delete-integration (someone else's)",
    route: page,
    kind: "action",
    path: "/integrations",
    expect: othersGet404,
    setup: async (ctx) => ({ form: { intent: "delete-integration", id: (await foreign(ctx)).integrationId } }),
  },
];
