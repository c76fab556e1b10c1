import type { Kysely } from "kysely";
import type { Database, RoleName, UserStatus } from "db/schema";
import { issueToken } from "~/models/auth-token.server";
import { everyone, type MatrixEntry, type MatrixRole, type Outcome } from "./types";

/** User Management (/user-management, every intent) and the invitation setup page. */

const route = () => import("~/routes/_app.user-management/route");
const invitation = () => import("~/routes/auth.invitation.$");
const unknownId = "00000000-0000-4000-8000-000000000000";

/** Admin and SuperAdmin get exactly `admins`; everyone else is refused. */
const adminsGet = (admins: Outcome): Record<MatrixRole, Outcome> => ({
  anonymous: "login",
  NormalUser: "denied",
  UnlimitedUser: "denied",
  Admin: admins,
  SuperAdmin: admins,
});
const superAdminGets = (o: Outcome): Record<MatrixRole, Outcome> => ({ ...adminsGet("denied"), SuperAdmin: o });
const nobody: Record<MatrixRole, Outcome> = { ...adminsGet("denied") };

let n = 0;
/** A fresh user per request, so one role's allowed change never shapes what the next role sees. */
async function freshUser(db: Kysely<Database>, role: RoleName = "NormalUser", status: UserStatus = "Active"): Promise<string> {
  const row = await db
    .insertInto("users")
    .values({
      email: `um-target-${Date.now()}-${++n}@matrix.test`,
      first_name: "Target",
      last_name: String(n),
      company: "Matrix",
      phone_number: "",
      password_hash: status === "Pending" ? null : "x",
      role,
      status,
      email_confirmed: status !== "Pending",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

const profile = (userId: string, extra: Record<string, string> = {}) => ({
  intent: "update",
  userId,
  firstName: "Changed",
  lastName: "Name",
  email: `um-edited-${++n}@matrix.test`,
  phoneNumber: "5550001111",
  company: "Changed Co",
  role: "NormalUser",
  plan: "none",
  status: "Active",
  ...extra,
});

const invite = (extra: Record<string, string> = {}) => ({
  intent: "create",
  firstName: "Invited",
  lastName: "Person",
  email: `um-invite-${Date.now()}-${++n}@matrix.test`,
  role: "NormalUser",
  plan: "none",
  status: "Active",
  ...extra,
});

export const entries: MatrixEntry[] = [
  { name: "GET /user-management", route, kind: "loader", path: "/user-management", expect: adminsGet(200) },
  {
    name: "GET /user-management (search, filters, page)",
    route,
    kind: "loader",
    path: "/user-management?search=a%25b&status=Blocked&plan=business&page=3",
    expect: adminsGet(200),
  },
  { name: "GET /user-management?dialog=create", route, kind: "loader", path: "/user-management?dialog=create", expect: adminsGet(200) },
  {
    name: "GET /user-management?dialog=edit (NormalUser)",
    route,
    kind: "loader",
    path: "/user-management",
    setup: async ({ db }) => ({ path: `/user-management?dialog=edit&id=${await freshUser(db)}` }),
    expect: adminsGet(200),
  },
  {
    name: "GET /user-management?dialog=edit (SuperAdmin)",
    route,
    kind: "loader",
    path: "/user-management",
    setup: async ({ db }) => ({ path: `/user-management?dialog=edit&id=${await freshUser(db, "SuperAdmin")}` }),
    expect: superAdminGets(200),
  },
  {
    name: "GET /user-management?dialog=edit (unknown id)",
    route,
    kind: "loader",
    path: `/user-management?dialog=edit&id=${unknownId}`,
    expect: adminsGet(404),
  },
  {
    name: "GET /user-management?dialog=delete",
    route,
    kind: "loader",
    path: "/user-management",
    setup: async ({ db }) => ({ path: `/user-management?dialog=delete&id=${await freshUser(db)}` }),
    expect: superAdminGets(200),
  },
  {
    name: "GET /user-management?dialog=delete (oneself)",
    route,
    kind: "loader",
    path: "/user-management",
    setup: async ({ role, userIds }) => ({ path: `/user-management?dialog=delete&id=${role === "anonymous" ? unknownId : userIds[role]}` }),
    expect: nobody,
  },

  // Actions (one entry per intent and per rule that refuses).
  {
    name: "POST /user-management intent=create",
    route,
    kind: "action",
    path: "/user-management",
    setup: async () => ({ form: invite() }),
    expect: adminsGet(302),
  },
  {
    name: "POST /user-management intent=create with a plan",
    route,
    kind: "action",
    path: "/user-management",
    setup: async () => ({ form: invite({ plan: "beginner", role: "UnlimitedUser" }) }),
    expect: adminsGet(302),
  },
  {
    name: "POST /user-management intent=create role=Admin",
    route,
    kind: "action",
    path: "/user-management",
    setup: async () => ({ form: invite({ role: "Admin" }) }),
    expect: superAdminGets(302),
  },
  {
    name: "POST /user-management intent=create (empty form)",
    route,
    kind: "action",
    path: "/user-management",
    form: { intent: "create" },
    expect: adminsGet(400),
  },
  {
    name: "POST /user-management intent=update",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ db }) => ({ form: profile(await freshUser(db)) }),
    expect: adminsGet(302),
  },
  {
    name: "POST /user-management intent=update role=Admin",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ db }) => ({ form: profile(await freshUser(db), { role: "Admin" }) }),
    expect: superAdminGets(302),
  },
  {
    name: "POST /user-management intent=update (a SuperAdmin)",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ db }) => ({ form: profile(await freshUser(db, "SuperAdmin"), { role: "SuperAdmin" }) }),
    expect: superAdminGets(302),
  },
  {
    name: "POST /user-management intent=update (own role)",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ role, userIds }) => ({ form: profile(role === "anonymous" ? unknownId : userIds[role], { role: "UnlimitedUser" }) }),
    expect: nobody,
  },
  {
    name: "POST /user-management intent=toggle-status",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ db }) => ({ form: { intent: "toggle-status", userId: await freshUser(db) } }),
    expect: adminsGet(302),
  },
  {
    name: "POST /user-management intent=toggle-status (Pending → Active)",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ db }) => ({ form: { intent: "toggle-status", userId: await freshUser(db, "NormalUser", "Pending") } }),
    expect: adminsGet(302),
  },
  {
    name: "POST /user-management intent=toggle-status (a SuperAdmin)",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ db }) => ({ form: { intent: "toggle-status", userId: await freshUser(db, "SuperAdmin") } }),
    expect: superAdminGets(302),
  },
  {
    name: "POST /user-management intent=toggle-status (oneself)",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ role, userIds }) => ({ form: { intent: "toggle-status", userId: role === "anonymous" ? unknownId : userIds[role] } }),
    expect: nobody,
  },
  {
    name: "POST /user-management intent=delete",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ db }) => ({ form: { intent: "delete", userId: await freshUser(db) } }),
    expect: superAdminGets(302),
  },
  {
    name: "POST /user-management intent=delete (oneself)",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ role, userIds }) => ({ form: { intent: "delete", userId: role === "anonymous" ? unknownId : userIds[role] } }),
    expect: nobody,
  },
  {
    name: "POST /user-management intent=resend-invitation",
    route,
    kind: "action",
    path: "/user-management",
    setup: async ({ db }) => ({ form: { intent: "resend-invitation", userId: await freshUser(db, "NormalUser", "Pending") } }),
    expect: adminsGet(302),
  },
  { name: "POST /user-management (unknown intent)", route, kind: "action", path: "/user-management", form: { intent: "nope" }, expect: adminsGet(400) },

  // Invitation setup: public (the link is the credential).
  { name: "GET /auth/invitation (missing parts)", route: invitation, kind: "loader", path: "/auth/invitation", params: { "*": "" }, expect: everyone(400) },
  {
    name: "GET /auth/invitation/$token/$userId (valid)",
    route: invitation,
    kind: "loader",
    path: "/auth/invitation",
    setup: async ({ db }) => {
      const userId = await freshUser(db, "NormalUser", "Pending");
      const { token } = await issueToken(db, { userId, kind: "invitation" });
      return { path: `/auth/invitation/${token}/${userId}`, params: { "*": `${token}/${userId}` } };
    },
    expect: everyone(200),
  },
  {
    name: "GET /auth/invitation/$token/$userId (bad token)",
    route: invitation,
    kind: "loader",
    path: `/auth/invitation/${"A".repeat(43)}/${unknownId}`,
    params: { "*": `${"A".repeat(43)}/${unknownId}` },
    expect: everyone(404),
  },
  {
    name: "POST /auth/invitation/$token/$userId (valid)",
    route: invitation,
    kind: "action",
    path: "/auth/invitation",
    setup: async ({ db }) => {
      const userId = await freshUser(db, "NormalUser", "Pending");
      const { token } = await issueToken(db, { userId, kind: "invitation" });
      return {
        path: `/auth/invitation/${token}/${userId}`,
        params: { "*": `${token}/${userId}` },
        form: { password: "matrix-password-1", confirmPassword: "matrix-password-1" },
      };
    },
    // Success answers 303 back to the link, whose page then shows the done state (used-link-pages.test.ts).
    expect: everyone(303),
  },
  {
    name: "POST /auth/invitation/$token/$userId (bad token)",
    route: invitation,
    kind: "action",
    path: `/auth/invitation/${"A".repeat(43)}/${unknownId}`,
    params: { "*": `${"A".repeat(43)}/${unknownId}` },
    form: { password: "matrix-password-1", confirmPassword: "matrix-password-1" },
    expect: everyone(404),
  },
];
