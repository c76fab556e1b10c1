import { describe, expect, it, vi } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest, testContext } from "../../tests/setup/request";
import { action as loginAction } from "~/routes/login";
import { LOGIN_MESSAGES } from "./sign-in.server";
import { hashPassword } from "~/utils/password.server";
import { THROTTLE, THROTTLED_MESSAGE } from "~/utils/throttle.server";
import type { UserStatus } from "db/schema";
import { CONFIRMATION_RESEND_LIMIT } from "~/accounts/mail.server";
import { listOutbox } from "~/utils/email.server";

const { handle } = useAppTestDb();

async function createUser(email: string, password: string, status: UserStatus, deleted = false) {
  await handle()
    .db.insertInto("users")
    .values({
      email,
      first_name: "Ann",
      last_name: "Lee",
      company: "Acme",
      phone_number: "",
      password_hash: await hashPassword(password),
      role: "NormalUser",
      status,
      email_confirmed: status === "Active",
      deleted_at: deleted ? new Date() : null,
    })
    .execute();
}

type Failed = { data: { error: Record<string, string[]> }; init: { status: number } };

async function login(email: string, password: string, clientIp = "198.51.100.1") {
  return (await loginAction({
    request: makeRequest("/login", { form: { email, password, redirectTo: "/dashboard" } }),
    context: { ...testContext, clientIp },
    params: {},
  })) as unknown as Response | Failed;
}

describe("sign-in refusals", () => {
  it("gives each account state its clear message once the password is right", async () => {
    await createUser("draft@example.com", "password-123", "Draft");
    await createUser("pending@example.com", "password-123", "Pending");
    await createUser("blocked@example.com", "password-123", "Blocked");
    expect(((await login("draft@example.com", "password-123")) as Failed).data.error[""]).toEqual([LOGIN_MESSAGES.unconfirmedResent]);
    expect(((await login("pending@example.com", "password-123")) as Failed).data.error[""]).toEqual([LOGIN_MESSAGES.pending]);
    expect(((await login("blocked@example.com", "password-123")) as Failed).data.error[""]).toEqual([LOGIN_MESSAGES.blocked]);
  });

  it("an unconfirmed account that signs in gets a fresh confirmation link, a few times an hour", async () => {
    vi.spyOn(console, "info").mockImplementation(() => {});
    await createUser("again@example.com", "password-123", "Draft");
    const messages: string[] = [];
    for (let i = 0; i < CONFIRMATION_RESEND_LIMIT.max + 1; i++) messages.push(((await login("again@example.com", "password-123")) as Failed).data.error[""][0]);
    expect(messages).toEqual([...Array(CONFIRMATION_RESEND_LIMIT.max).fill(LOGIN_MESSAGES.unconfirmedResent), LOGIN_MESSAGES.unconfirmed]);
    const mails = await listOutbox(handle().db, { to: "again@example.com" });
    expect(mails).toHaveLength(CONFIRMATION_RESEND_LIMIT.max);
    // Only the newest link works.
    const tokens = await handle()
      .db.selectFrom("auth_tokens")
      .innerJoin("users", "users.id", "auth_tokens.user_id")
      .select("auth_tokens.used_at")
      .where("users.email", "=", "again@example.com")
      .where("kind", "=", "activation")
      .execute();
    expect(tokens).toHaveLength(CONFIRMATION_RESEND_LIMIT.max);
    expect(tokens.filter((t) => t.used_at === null)).toHaveLength(1);
    // A wrong password sends nothing.
    await login("again@example.com", "wrong-password");
    expect(await listOutbox(handle().db, { to: "again@example.com" })).toHaveLength(CONFIRMATION_RESEND_LIMIT.max);
    vi.restoreAllMocks();
  });

  it("does not reveal an account's state or existence to a wrong password", async () => {
    await createUser("b2@example.com", "password-123", "Blocked");
    await createUser("d2@example.com", "password-123", "Draft");
    for (const email of ["b2@example.com", "d2@example.com", "nobody@example.com"]) {
      const res = (await login(email, "wrong-password")) as Failed;
      expect(res.init.status).toBe(401);
      expect(res.data.error[""]).toEqual([LOGIN_MESSAGES.invalid]);
    }
  });

  it("refuses a deleted account like an unknown one, even with its right password", async () => {
    await createUser("deleted@example.com", "password-123", "Active", true);
    const res = (await login("deleted@example.com", "password-123")) as Failed;
    expect(res.data.error[""]).toEqual([LOGIN_MESSAGES.invalid]);
  });

  it("locks an address after too many failures across accounts; other addresses still sign in", async () => {
    await createUser("victim@example.com", "right-password", "Active");
    const attacker = "203.0.113.77";
    // Spread over many accounts so no single account reaches its own limit.
    for (let i = 0; i < THROTTLE.perIp; i++) await login(`guess${i}@example.com`, "wrong-password", attacker);
    const locked = (await login("victim@example.com", "right-password", attacker)) as Failed;
    expect(locked.data.error[""]).toEqual([THROTTLED_MESSAGE]);
    const elsewhere = (await login("victim@example.com", "right-password", "203.0.113.78")) as Response;
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.headers.get("Location")).toBe("/dashboard");
  });

  it("an address just under the limit is not locked", async () => {
    await createUser("under@example.com", "right-password", "Active");
    const ip = "203.0.113.90";
    for (let i = 0; i < THROTTLE.perIp - 1; i++) await login(`other${i}@example.com`, "wrong-password", ip);
    expect(((await login("under@example.com", "right-password", ip)) as Response).status).toBe(302);
  });
});
