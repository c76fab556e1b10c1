import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { cookieFrom, makeRequest, testContext } from "../../tests/setup/request";
import { action as loginAction } from "~/routes/login";
import { action as logoutAction } from "~/routes/logout";
import { requireRole, requireUser } from "./auth.server";
import { hashPassword } from "~/utils/password.server";
import { THROTTLE, THROTTLED_MESSAGE } from "~/utils/throttle.server";

const { handle } = useAppTestDb();

async function createUser(email: string, password: string, role: "NormalUser" | "Admin" = "NormalUser", status: "Active" | "Draft" | "Blocked" = "Active") {
  await handle()
    .db.insertInto("users")
    .values({
      email,
      first_name: "Ann",
      last_name: "Lee",
      company: "Acme",
      phone_number: "",
      password_hash: await hashPassword(password),
      role,
      status,
      email_confirmed: status !== "Draft",
    })
    .execute();
}

async function login(email: string, password: string, redirectTo = "/dashboard") {
  const res = await loginAction({ request: makeRequest("/login", { form: { email, password, redirectTo } }), context: testContext, params: {} });
  return res as unknown as Response | { type: string; data: unknown; init?: { status?: number } };
}

describe("sign-in, guards and sign-out", () => {
  it("signs in, guards by role, and logout ends the server session", async () => {
    await createUser("ann@example.com", "correct horse battery");
    const res = (await login("Ann@Example.com", "correct horse battery", "/containers")) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/containers");
    const cookie = cookieFrom(res);
    expect(res.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
    expect(res.headers.get("Set-Cookie")).toMatch(/SameSite=Lax/i);

    const user = await requireUser(makeRequest("/dashboard", { cookie }));
    expect(user.email).toBe("ann@example.com");

    const denied = await requireRole(makeRequest("/dnc", { cookie }), ["Admin", "SuperAdmin"]).catch((e) => e);
    expect(denied.init?.status).toBe(403);
    expect(denied.data).toMatchObject({ accessDenied: true, roles: ["NormalUser"] });

    const out = (await logoutAction({ request: makeRequest("/logout", { method: "POST", cookie }), context: testContext, params: {} })) as Response;
    expect(out.headers.get("Location")).toBe("/login");
    const rows = await handle().db.selectFrom("sessions").select("id_hash").where("user_id", "is not", null).execute();
    expect(rows).toHaveLength(0);
    // The old cookie no longer works.
    const after = await requireUser(makeRequest("/dashboard", { cookie })).catch((e) => e);
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toBe("/login?redirectTo=%2Fdashboard");
  });

  it("refuses wrong passwords, unknown e-mails, unconfirmed and blocked accounts with clear messages", async () => {
    await createUser("draft@example.com", "password-123", "NormalUser", "Draft");
    await createUser("blocked@example.com", "password-123", "NormalUser", "Blocked");
    const wrong = (await login("ann@example.com", "nope-nope")) as { data: { error: Record<string, string[]> }; init: { status: number } };
    expect(wrong.init.status).toBe(401);
    expect(wrong.data.error[""]).toEqual(["Invalid email or password."]);
    const unknown = (await login("nobody@example.com", "nope-nope")) as typeof wrong;
    expect(unknown.data.error[""]).toEqual(["Invalid email or password."]);
    const draft = (await login("draft@example.com", "password-123")) as typeof wrong;
    expect(draft.data.error[""][0]).toMatch(/confirm your email/);
    const blocked = (await login("blocked@example.com", "password-123")) as typeof wrong;
    expect(blocked.data.error[""][0]).toMatch(/blocked/);
  });

  it("locks an account after repeated failures, even for the right password", async () => {
    await createUser("target@example.com", "right-password");
    for (let i = 0; i < THROTTLE.perAccountIp; i++) await login("target@example.com", "wrong-password");
    const locked = (await login("target@example.com", "right-password")) as { data: { error: Record<string, string[]> } };
    expect(locked.data.error[""]).toEqual([THROTTLED_MESSAGE]);
  });

  it("only redirects to same-site paths after sign-in", async () => {
    await createUser("redir@example.com", "right-password");
    const res = (await login("redir@example.com", "right-password", "//evil.example.com")) as Response;
    expect(res.headers.get("Location")).toBe("/dashboard");
  });
});
