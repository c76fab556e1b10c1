import { describe, expect, it } from "vitest";
import { appUrl } from "~/utils/env.server";
import { useAppTestDb } from "../../../tests/setup/db";
import { makeRequest, testContext } from "../../../tests/setup/request";
import { statusOf } from "../../../tests/setup/routes";
import { action, loader } from "./route";
import { requireUser, startUserSession } from "~/accounts/auth.server";
import { getSession } from "~/utils/session.server";
import { linksIn } from "~/utils/email.server";
import type { RoleName, UserStatus } from "db/schema";

const { handle } = useAppTestDb();
const db = () => handle().db;

let seq = 0;
async function makeUser(opts: { role?: RoleName; status?: UserStatus; email?: string; first?: string; last?: string; company?: string } = {}) {
  const email = opts.email ?? `user${++seq}@example.com`;
  const row = await db()
    .insertInto("users")
    .values({
      email,
      first_name: opts.first ?? "Test",
      last_name: opts.last ?? `User${seq}`,
      company: opts.company ?? "Acme",
      phone_number: "",
      password_hash: "x",
      role: opts.role ?? "NormalUser",
      status: opts.status ?? "Active",
      email_confirmed: true,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const cookie = (await startUserSession(makeRequest("/login"), row.id)).split(";")[0];
  return { id: row.id, email, cookie };
}

type LoaderResult = Awaited<ReturnType<typeof loader>>;

async function load(cookie: string, search = ""): Promise<LoaderResult> {
  return loader({ request: makeRequest(`/user-management${search}`, { cookie }), params: {}, context: testContext });
}

async function post(cookie: string, form: Record<string, string>, search = "") {
  try {
    return await action({ request: makeRequest(`/user-management${search}`, { cookie, form }), params: {}, context: testContext });
  } catch (e) {
    return e;
  }
}

async function toastOf(cookie: string) {
  return (await getSession(makeRequest("/", { cookie }))).get("toast") as { kind: string; title: string; description?: string } | undefined;
}

async function userRow(id: string) {
  return db().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

const validNew = (email: string, extra: Record<string, string> = {}) => ({
  intent: "create",
  firstName: "Nina",
  lastName: "Invited",
  email,
  phoneNumber: "(555) 123-4567",
  company: "Invited Co",
  role: "NormalUser",
  plan: "none",
  status: "Active",
  ...extra,
});

describe("User Management access", () => {
  it("denies NormalUser and UnlimitedUser with the spec's panel data and 403, for the page and every action", async () => {
    for (const role of ["NormalUser", "UnlimitedUser"] as const) {
      const u = await makeUser({ role });
      const denied = await load(u.cookie).catch((e) => e);
      expect(statusOf(denied)).toBe(403);
      expect(denied.data).toEqual({
        accessDenied: true,
        message: "You need Admin or SuperAdmin role to access User Management.",
        roles: [role],
      });
      const victim = await makeUser();
      for (const form of [validNew(`sneaky-${role}@example.com`), { intent: "toggle-status", userId: victim.id }, { intent: "delete", userId: victim.id }]) {
        expect(statusOf(await post(u.cookie, form))).toBe(403);
      }
      expect((await userRow(victim.id)).status).toBe("Active");
      expect(await db().selectFrom("users").select("id").where("email", "=", `sneaky-${role}@example.com`).executeTakeFirst()).toBeUndefined();
    }
  });

  it("sends anonymous visitors to sign in", async () => {
    const r = await loader({ request: makeRequest("/user-management?page=2"), params: {}, context: testContext }).catch((e) => e);
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/login?redirectTo=%2Fuser-management%3Fpage%3D2");
  });
});

describe("User Management list", () => {
  it("searches, filters by status, paginates by 10 newest first and counts", async () => {
    // Start from an empty list: users of earlier tests are soft-deleted (they then count nowhere).
    await db().updateTable("users").set({ deleted_at: new Date() }).where("deleted_at", "is", null).execute();
    const admin = await makeUser({ role: "SuperAdmin", first: "Ada", last: "Admin" });
    for (let i = 0; i < 12; i++) await makeUser({ first: "Page", last: `Person${i}`, company: "Pager Inc", email: `pager${i}@example.com` });
    await makeUser({ status: "Blocked", email: "blocked-one@example.com", company: "Zeta 50%_Corp" });
    await makeUser({ role: "UnlimitedUser", status: "Pending", first: "", last: "", email: "nameless@example.com" });

    const all = await load(admin.cookie);
    expect(all.total).toBe(15);
    expect(all.users).toHaveLength(10);
    expect(all.pageCount).toBe(2);
    expect(all.users[0].email).toBe("nameless@example.com");
    expect(all.users[0].name).toBe("Unknown User");
    expect(all.users[0].initials).toBe("N");
    // An instant: the page shows it as a date in the viewer's zone (<DateOnly>).
    expect(all.users[0].created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(all.stats).toMatchObject({ totalUsers: 15, activeUsers: 13, normalUsers: 13, unlimitedUsers: 1 });

    const page2 = await load(admin.cookie, "?page=2");
    expect(page2.page).toBe(2);
    expect(page2.users).toHaveLength(5);
    expect(page2.users.at(-1)?.email).toBe(admin.email);
    // Out-of-range and garbage pages clamp instead of failing.
    expect((await load(admin.cookie, "?page=99")).page).toBe(2);
    expect((await load(admin.cookie, "?page=abc")).page).toBe(1);

    const byName = await load(admin.cookie, "?search=page%20person1");
    expect(byName.users.map((u) => u.email).sort()).toEqual(["pager10@example.com", "pager11@example.com", "pager1@example.com"]);
    expect((await load(admin.cookie, "?search=PAGER%20INC")).total).toBe(12);
    expect((await load(admin.cookie, "?search=pager3%40")).total).toBe(1);
    // LIKE wildcards are literal.
    expect((await load(admin.cookie, "?search=50%25_")).users.map((u) => u.email)).toEqual(["blocked-one@example.com"]);
    expect((await load(admin.cookie, "?search=%25")).total).toBe(1);

    expect((await load(admin.cookie, "?status=Blocked")).users.map((u) => u.email)).toEqual(["blocked-one@example.com"]);
    expect((await load(admin.cookie, "?status=Pending")).users.map((u) => u.email)).toEqual(["nameless@example.com"]);
    expect((await load(admin.cookie, "?status=Nonsense")).total).toBe(15);
    const none = await load(admin.cookie, "?search=nobody-matches-this");
    expect(none.users).toEqual([]);
    expect(none.total).toBe(0);

    // No plan yet: every user is No Plan; the plan filter is wired.
    expect(all.users.every((u) => u.plan === null)).toBe(true);
    expect((await load(admin.cookie, "?plan=none")).total).toBe(15);
    expect((await load(admin.cookie, "?plan=business")).total).toBe(0);
    expect(all.plans.map((p) => p.name)).toEqual(["Beginner", "Business", "Premium"]);
  });

  it("shows the actions each viewer may take on each row", async () => {
    const superAdmin = await makeUser({ role: "SuperAdmin" });
    const admin = await makeUser({ role: "Admin" });
    const normal = await makeUser();
    const asAdmin = await load(admin.cookie, `?search=${encodeURIComponent("@example.com")}`);
    const row = (id: string, list: LoaderResult) => list.users.find((u) => u.id === id)!;
    expect(row(normal.id, asAdmin).can).toEqual({ edit: true, block: true, delete: false, resend: false });
    expect(row(superAdmin.id, asAdmin).can).toEqual({ edit: false, block: false, delete: false, resend: false });
    expect(row(admin.id, asAdmin).can).toEqual({ edit: true, block: false, delete: false, resend: false });
    expect(asAdmin.grantable).toEqual(["NormalUser", "UnlimitedUser"]);
    const asSuper = await load(superAdmin.cookie);
    expect(row(normal.id, asSuper).can).toEqual({ edit: true, block: true, delete: true, resend: false });
    expect(row(superAdmin.id, asSuper).can).toEqual({ edit: true, block: false, delete: false, resend: false });
    expect(asSuper.grantable).toEqual(["NormalUser", "UnlimitedUser", "Admin", "SuperAdmin"]);
  });

  it("opens dialogs from the URL and refuses dialogs the viewer may not use", async () => {
    const superAdmin = await makeUser({ role: "SuperAdmin" });
    const admin = await makeUser({ role: "Admin" });
    const normal = await makeUser({ first: "Edna", last: "Edit" });
    expect((await load(admin.cookie, "?dialog=create")).dialog).toEqual({ kind: "create" });
    const edit = await load(admin.cookie, `?dialog=edit&id=${normal.id}`);
    expect(edit.dialog).toMatchObject({ kind: "edit", user: { id: normal.id, firstName: "Edna", plan: "none" }, canChangeRole: true });
    expect(statusOf(await load(admin.cookie, `?dialog=edit&id=${superAdmin.id}`).catch((e) => e))).toBe(403);
    expect(statusOf(await load(admin.cookie, `?dialog=delete&id=${normal.id}`).catch((e) => e))).toBe(403);
    expect(statusOf(await load(superAdmin.cookie, `?dialog=delete&id=${superAdmin.id}`).catch((e) => e))).toBe(403);
    expect((await load(superAdmin.cookie, `?dialog=delete&id=${normal.id}`)).dialog).toEqual({
      kind: "delete",
      user: { id: normal.id, name: "Edna Edit", email: normal.email },
    });
    expect(statusOf(await load(superAdmin.cookie, "?dialog=edit&id=not-a-uuid").catch((e) => e))).toBe(404);
  });
});

describe("Create New User (invitation)", () => {
  it("creates an unconfirmed user with the chosen status, role and plan, and e-mails the invitation", async () => {
    const admin = await makeUser({ role: "SuperAdmin", first: "Sam", last: "Super" });
    const res = (await post(
      admin.cookie,
      validNew("New.Person@Example.com", { role: "UnlimitedUser", plan: "business" }),
      "?dialog=create&search=x",
    )) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/user-management");
    expect(await toastOf(admin.cookie)).toEqual({
      kind: "success",
      title: "User created successfully",
      description: "Invitation sent! User will receive setup email at new.person@example.com",
    });
    const user = await db().selectFrom("users").selectAll().where("email", "=", "new.person@example.com").executeTakeFirstOrThrow();
    expect(user).toMatchObject({ status: "Active", email_confirmed: false, password_hash: null, role: "UnlimitedUser", phone_number: "5551234567" });
    const list = await load(admin.cookie);
    expect(list.users[0]).toMatchObject({ email: "new.person@example.com", status: "Active", emailConfirmed: false, awaitingSetup: true, plan: "Business" });
    expect((await load(admin.cookie, "?plan=business")).users.map((u) => u.email)).toEqual(["new.person@example.com"]);
    expect((await load(admin.cookie, "?plan=none")).users.map((u) => u.email)).not.toContain("new.person@example.com");

    const mail = await db().selectFrom("email_outbox").selectAll().where("to_address", "=", "new.person@example.com").executeTakeFirstOrThrow();
    expect(mail.text_body).toContain("Sam Super has invited you");
    const [link] = linksIn(mail.text_body);
    expect(link).toMatch(new RegExp(`^${appUrl()}/auth/invitation/[A-Za-z0-9_-]{43}/${user.id}$`));
    const token = await db().selectFrom("auth_tokens").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(token.kind).toBe("invitation");
    expect(link).not.toContain(token.token_hash);

    const grant = await db().selectFrom("transactions").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(grant).toMatchObject({ plan_id: "business", status: "paid", payment_method: "admin_grant", amount_cents: 0 });
    const audit = await db().selectFrom("audit_log").select(["action", "actor_id"]).where("actor_id", "=", admin.id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(["plan.granted", "user.invitation_sent", "user.invited"]);
  });

  it("applies Blocked and Pending, validates fields with the spec's messages, rejects duplicates and escalation", async () => {
    const admin = await makeUser({ role: "Admin" });
    await post(admin.cookie, validNew("blocked-invite@example.com", { status: "Blocked" }));
    expect((await db().selectFrom("users").select("status").where("email", "=", "blocked-invite@example.com").executeTakeFirstOrThrow()).status).toBe(
      "Blocked",
    );
    await post(admin.cookie, validNew("pending-invite@example.com", { status: "Pending" }));
    expect((await db().selectFrom("users").select("status").where("email", "=", "pending-invite@example.com").executeTakeFirstOrThrow()).status).toBe(
      "Pending",
    );

    const tooLong = (await post(admin.cookie, validNew("phone@example.com", { phoneNumber: "123456789012" }))) as {
      data: { error: Record<string, string[]> };
      init: { status: number };
    };
    expect(tooLong.init.status).toBe(400);
    expect(tooLong.data.error.phoneNumber).toEqual(["Phone number cannot exceed 11 digits"]);

    const blanks = (await post(admin.cookie, { intent: "create", email: "not-an-email" })) as typeof tooLong;
    expect(blanks.init.status).toBe(400);
    expect(blanks.data.error).toMatchObject({
      firstName: ["First name is required"],
      lastName: ["Last name is required"],
      email: ["Please enter a valid email address"],
      role: ["Role is required"],
      status: ["Status is required"],
    });

    const existing = await makeUser({ email: "taken@example.com" });
    const dup = (await post(admin.cookie, validNew("TAKEN@example.com"))) as typeof tooLong;
    expect(dup.init.status).toBe(409);
    expect(dup.data.error.email).toEqual(["User with this email already exists."]);
    expect(existing.id).toBeTruthy();

    const badPlan = (await post(admin.cookie, validNew("plan@example.com", { plan: "enterprise" }))) as typeof tooLong;
    expect(badPlan.init.status).toBe(400);

    const escalate = await post(admin.cookie, validNew("wannabe@example.com", { role: "Admin" }));
    expect(statusOf(escalate)).toBe(403);
    expect(await db().selectFrom("users").select("id").where("email", "=", "wannabe@example.com").executeTakeFirst()).toBeUndefined();
    expect(await db().selectFrom("email_outbox").select("id").where("to_address", "in", ["wannabe@example.com", "phone@example.com"]).execute()).toEqual([]);
  });
});

describe("Edit User", () => {
  it("updates profile and role, audits, and enforces who may grant what", async () => {
    const superAdmin = await makeUser({ role: "SuperAdmin" });
    const admin = await makeUser({ role: "Admin" });
    const target = await makeUser({ email: "edit-me@example.com" });
    const form = (extra: Record<string, string> = {}) => ({
      intent: "update",
      userId: target.id,
      firstName: "Edited",
      lastName: "Person",
      email: "edit-me@example.com",
      phoneNumber: "5551112222",
      company: "New Co",
      role: "NormalUser",
      plan: "none",
      status: "Active",
      ...extra,
    });
    const ok = (await post(admin.cookie, form({ role: "UnlimitedUser" }), `?dialog=edit&id=${target.id}&page=1&status=Active`)) as Response;
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/user-management?page=1&status=Active");
    expect(await toastOf(admin.cookie)).toEqual({ kind: "success", title: "User updated successfully!", description: "User role updated successfully" });
    expect(await userRow(target.id)).toMatchObject({ first_name: "Edited", company: "New Co", phone_number: "5551112222", role: "UnlimitedUser" });
    const actions = await db().selectFrom("audit_log").select("action").where("target_id", "=", target.id).execute();
    expect(actions.map((a) => a.action).sort()).toEqual(["user.role_changed", "user.updated"]);

    // Admin may not grant Admin; the user is unchanged.
    expect(statusOf(await post(admin.cookie, form({ role: "Admin", firstName: "Nope" })))).toBe(403);
    expect(await userRow(target.id)).toMatchObject({ first_name: "Edited", role: "UnlimitedUser" });
    // Admin may not edit a SuperAdmin at all.
    expect(statusOf(await post(admin.cookie, { ...form(), userId: superAdmin.id, email: superAdmin.email, role: "SuperAdmin", firstName: "Hacked" }))).toBe(
      403,
    );
    expect((await userRow(superAdmin.id)).first_name).toBe("Test");
    // Nobody changes their own role.
    expect(statusOf(await post(admin.cookie, { ...form(), userId: admin.id, email: admin.email, role: "NormalUser" }))).toBe(403);
    // SuperAdmin grants Admin.
    expect(statusOf(await post(superAdmin.cookie, form({ role: "Admin" })))).toBe(302);
    expect((await userRow(target.id)).role).toBe("Admin");

    // Duplicate e-mail.
    await makeUser({ email: "someone-else@example.com" });
    const dup = (await post(superAdmin.cookie, form({ role: "Admin", email: "Someone-Else@example.com" }))) as {
      data: { error: Record<string, string[]> };
      init: { status: number };
    };
    expect(dup.init.status).toBe(409);
    expect(dup.data.error.email).toEqual(["User with this email already exists."]);
  });

  it("blocking through the dialog ends the user's sessions; a plan can be granted", async () => {
    const superAdmin = await makeUser({ role: "SuperAdmin" });
    const target = await makeUser();
    const res = await post(superAdmin.cookie, {
      intent: "update",
      userId: target.id,
      firstName: "Test",
      lastName: "User",
      email: target.email,
      role: "NormalUser",
      plan: "premium",
      status: "Blocked",
    });
    expect((res as { data?: unknown }).data).toBeUndefined();
    expect(statusOf(res)).toBe(302);
    expect((await userRow(target.id)).status).toBe("Blocked");
    const after = await requireUser(makeRequest("/dashboard", { cookie: target.cookie })).catch((e) => e);
    expect(after.headers.get("Location")).toBe("/login?redirectTo=%2Fdashboard");
    expect(await db().selectFrom("sessions").select("id_hash").where("user_id", "=", target.id).execute()).toEqual([]);
    expect((await load(superAdmin.cookie, "?status=Blocked")).users.find((u) => u.id === target.id)?.plan).toBe("Premium");
  });
});

describe("Block/Unblock and Delete", () => {
  it("toggles Active → Blocked (ending sessions) → Active, Pending → Active, never oneself", async () => {
    const admin = await makeUser({ role: "Admin" });
    const target = await makeUser();
    const blocked = (await post(admin.cookie, { intent: "toggle-status", userId: target.id }, "?status=Active&page=1")) as Response;
    expect(blocked.headers.get("Location")).toBe("/user-management?status=Active&page=1");
    expect(await toastOf(admin.cookie)).toEqual({ kind: "success", title: "User blocked successfully!" });
    expect((await userRow(target.id)).status).toBe("Blocked");
    const next = await requireUser(makeRequest("/containers", { cookie: target.cookie })).catch((e) => e);
    expect(next.headers.get("Location")).toMatch(/^\/login/);

    await post(admin.cookie, { intent: "toggle-status", userId: target.id });
    expect(await toastOf(admin.cookie)).toEqual({ kind: "success", title: "User activated successfully!" });
    expect((await userRow(target.id)).status).toBe("Active");

    const pending = await makeUser({ status: "Pending" });
    await post(admin.cookie, { intent: "toggle-status", userId: pending.id });
    expect((await userRow(pending.id)).status).toBe("Active");

    expect(statusOf(await post(admin.cookie, { intent: "toggle-status", userId: admin.id }))).toBe(403);
    const superAdmin = await makeUser({ role: "SuperAdmin" });
    expect(statusOf(await post(admin.cookie, { intent: "toggle-status", userId: superAdmin.id }))).toBe(403);
    expect((await userRow(superAdmin.id)).status).toBe("Active");

    const gone = (await post(admin.cookie, { intent: "toggle-status", userId: "00000000-0000-4000-8000-000000000000" })) as Response;
    expect(gone.status).toBe(302);
    expect(await toastOf(admin.cookie)).toEqual({ kind: "error", title: "Failed to update user status", description: "User not found." });
    const actions = await db().selectFrom("audit_log").select("action").where("target_id", "=", target.id).orderBy("created_at").execute();
    expect(actions.map((a) => a.action)).toEqual(["user.blocked", "user.activated"]);
  });

  it("SuperAdmin deletes for real: hidden, sessions ended, e-mail reusable; Admin and self may not", async () => {
    const superAdmin = await makeUser({ role: "SuperAdmin" });
    const admin = await makeUser({ role: "Admin" });
    const target = await makeUser({ email: "delete-me@example.com" });
    expect(statusOf(await post(admin.cookie, { intent: "delete", userId: target.id }))).toBe(403);
    expect(statusOf(await post(superAdmin.cookie, { intent: "delete", userId: superAdmin.id }))).toBe(403);
    expect((await userRow(target.id)).deleted_at).toBeNull();

    const res = (await post(superAdmin.cookie, { intent: "delete", userId: target.id }, `?dialog=delete&id=${target.id}&search=delete`)) as Response;
    expect(res.headers.get("Location")).toBe("/user-management?search=delete");
    expect(await toastOf(superAdmin.cookie)).toEqual({ kind: "success", title: "User deleted successfully!" });
    expect((await userRow(target.id)).deleted_at).toBeInstanceOf(Date);
    const next = await requireUser(makeRequest("/dashboard", { cookie: target.cookie })).catch((e) => e);
    expect(next.headers.get("Location")).toMatch(/^\/login/);
    expect((await load(superAdmin.cookie, "?search=delete-me")).users).toEqual([]);
    expect(await db().selectFrom("audit_log").select("action").where("target_id", "=", target.id).execute()).toEqual([{ action: "user.deleted" }]);

    // The e-mail is free again.
    const again = (await post(superAdmin.cookie, validNew("delete-me@example.com"))) as Response;
    expect(again.status).toBe(302);
    expect((await load(superAdmin.cookie, "?search=delete-me")).users).toHaveLength(1);
    // Deleting twice is a clear error, not a crash.
    await post(superAdmin.cookie, { intent: "delete", userId: target.id });
    expect(await toastOf(superAdmin.cookie)).toEqual({ kind: "error", title: "Failed to delete user", description: "User not found." });
  });

  it("answers bad input (NUL bytes, oversized values) with 400 or a harmless list, never a 500", async () => {
    const admin = await makeUser({ role: "SuperAdmin" });
    expect((await load(admin.cookie, "?search=a%00b&plan=%00&status=%00")).users).toBeDefined();
    expect((await load(admin.cookie, `?search=${"x".repeat(5000)}`)).users).toBeDefined();
    const nul = (await post(admin.cookie, validNew("nul@example.com", { firstName: "Bad\u0000Name", company: "C\u0000" }))) as {
      data: { error: Record<string, string[]> };
      init: { status: number };
    };
    expect(nul.init.status).toBe(400);
    expect(nul.data.error.firstName).toEqual(["Contains characters that are not allowed"]);
    expect(statusOf(await post(admin.cookie, { intent: "toggle-status", userId: "\u0000" }))).toBe(302);
  });

  it("answers 400 to an unknown intent", async () => {
    const admin = await makeUser({ role: "Admin" });
    expect(statusOf(await post(admin.cookie, { intent: "explode" }))).toBe(400);
  });
});
