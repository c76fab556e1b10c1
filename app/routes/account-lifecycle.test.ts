import { beforeEach, describe, expect, it, vi } from "vitest";
import { sql } from "kysely";
import { useAppTestDb } from "../../tests/setup/db";
import { cookieFrom, makeRequest, testContext } from "../../tests/setup/request";
import { followRedirect, statusOf, type RouteFn } from "../../tests/setup/routes";
import { action as signupAction, loader as signupLoader, SIGNUP_LIMITS } from "./signup";
import { action as forgotAction } from "./forgot-password";
import { action as activationAction, loader as activationLoader, ACTIVATION_MESSAGES } from "./auth.activation.($token).($userId)";
import { action as resetAction, loader as resetLoader } from "./auth.resetpassword.($token).($userId)";
import { action as loginAction } from "./login";
import { getOptionalUser, startUserSession } from "~/accounts/auth.server";
import { getSession } from "~/utils/session.server";
import { listOutbox } from "~/utils/email.server";
import { verifyPassword } from "~/utils/password.server";
import { settleAfterResponse } from "~/utils/after-response.server";

const { handle } = useAppTestDb();
const db = () => handle().db;

beforeEach(() => {
  vi.spyOn(console, "info").mockImplementation(() => {});
  return () => vi.restoreAllMocks();
});

type DataResult<T> = { type: "DataWithResponseInit"; data: T; init: { status?: number; headers?: HeadersInit } | null };
type Reply = { status?: string; error?: Record<string, string[] | null> | null };

let ip = 0;
/** Each call from its own address unless told, so per-IP limits do not couple the tests. */
function ctx(clientIp = `10.0.0.${++ip}`) {
  return { ...testContext, clientIp };
}

const valid = {
  firstName: "Ann",
  lastName: "Lee",
  email: "ann@example.com",
  company: "Acme",
  phoneNumber: "(555) 123-4567",
  password: "correct horse",
  confirmPassword: "correct horse",
};

async function signup(form: Record<string, string>, clientIp?: string) {
  return (await signupAction({ request: makeRequest("/signup", { form }), context: ctx(clientIp), params: {} })) as unknown as Response | DataResult<Reply>;
}

function linkIn(text: string, kind: "activation" | "resetpassword"): { path: string; token: string; userId: string } {
  const m = text.match(new RegExp(`https?://[^/\\s]+(/auth/${kind}/([^/\\s]+)/([^/\\s]+))`));
  if (!m) throw new Error(`no ${kind} link in: ${text}`);
  return { path: m[1], token: m[2], userId: m[3] };
}

/** Posts the confirmation as a browser does (following the redirect of a success to the link's page). */
async function confirm(link: { path: string; token: string; userId: string }) {
  const params = { token: link.token, userId: link.userId };
  const answer = await activationAction({ request: makeRequest(link.path, { method: "POST", form: {} }), context: ctx(), params });
  return (await followRedirect(answer, activationLoader as unknown as RouteFn, params)) as unknown as DataResult<{ state: string }>;
}

async function login(email: string, password: string) {
  return (await loginAction({
    request: makeRequest("/login", { form: { email, password, redirectTo: "/dashboard" } }),
    context: ctx(),
    params: {},
  })) as unknown as Response | DataResult<Reply>;
}

/** The answer, once the mail it may have queued after answering is written. */
async function forgot(email: string, clientIp?: string) {
  const answer = (await forgotAction({
    request: makeRequest("/forgot-password", { form: { email } }),
    context: ctx(clientIp),
    params: {},
  })) as unknown as DataResult<{
    sent: boolean;
    email: string;
    result?: Reply;
  }>;
  await settleAfterResponse();
  return answer;
}

/** Posts a new password as a browser does (following the redirect of a success to the link's page). */
async function reset(link: { path: string; token: string; userId: string }, password: string, confirmPassword = password) {
  const params = { token: link.token, userId: link.userId };
  const answer = await resetAction({ request: makeRequest(link.path, { form: { password, confirmPassword } }), context: ctx(), params });
  return (await followRedirect(answer, resetLoader as unknown as RouteFn, params)) as unknown as DataResult<{ state: string; result?: Reply }>;
}

describe("sign-up validation", () => {
  const cases: [string, Record<string, string>, string, string][] = [
    ["password mismatch", { confirmPassword: "correct horsf" }, "confirmPassword", "Password and confirm password do not match"],
    ["short password", { password: "short12", confirmPassword: "short12" }, "password", "Password must be at least 8 characters long"],
    ["long password", { password: "x".repeat(129), confirmPassword: "x".repeat(129) }, "password", "Password must be at most 128 characters long"],
    ["long phone", { phoneNumber: "+1 (555) 123-45678" }, "phoneNumber", "Phone number cannot exceed 11 digits"],
    ["phone without digits", { phoneNumber: "call me" }, "phoneNumber", "Phone number is required"],
    ["bad email", { email: "ann@" }, "email", "Please enter a valid email address"],
    ["missing first name", { firstName: "  " }, "firstName", "First name is required"],
    ["missing last name", { lastName: "" }, "lastName", "Last name is required"],
    ["missing company", { company: "" }, "company", "Company is required"],
  ];
  for (const [name, change, field, message] of cases) {
    it(`refuses ${name}`, async () => {
      const res = (await signup({ ...valid, ...change })) as DataResult<Reply>;
      expect(res.init?.status).toBe(400);
      expect(res.data.error?.[field]).toEqual([message]);
      const users = await db().selectFrom("users").select("id").execute();
      expect(users).toHaveLength(0);
    });
  }

  it("reports a password mismatch together with the other errors", async () => {
    const res = (await signup({ ...valid, firstName: "", password: "short", confirmPassword: "shorter" })) as DataResult<Reply>;
    expect(res.data.error?.firstName).toEqual(["First name is required"]);
    expect(res.data.error?.password).toEqual(["Password must be at least 8 characters long"]);
    expect(res.data.error?.confirmPassword).toEqual(["Password and confirm password do not match"]);
  });

  it("accepts an 11-digit phone with punctuation, and never echoes passwords", async () => {
    const res = (await signup({ ...valid, email: "", phoneNumber: "1 (555) 123-4567" })) as DataResult<Reply & { initialValue?: Record<string, unknown> }>;
    expect(res.data.error?.phoneNumber ?? null).toBeNull();
    expect(res.data.initialValue?.password).toBeUndefined();
    expect(res.data.initialValue?.confirmPassword).toBeUndefined();
  });
});

describe("account lifecycle", () => {
  it("signs up as a Draft NormalUser, e-mails a confirmation link, confirms on POST only, then signs in", async () => {
    const res = (await signup(valid)) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
    const toast = (await getSession(makeRequest("/login", { cookie: cookieFrom(res) }))).get("toast");
    expect(toast).toEqual({ kind: "success", title: "Account Created Successfully", description: "Please check your email to confirm your account." });

    const user = await db().selectFrom("users").selectAll().where("email", "=", "ann@example.com").executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: "NormalUser", status: "Draft", email_confirmed: false, phone_number: "5551234567", first_name: "Ann", company: "Acme" });
    expect(await verifyPassword(user.password_hash, "correct horse")).toBe(true);

    const draftLogin = (await login("ann@example.com", "correct horse")) as DataResult<Reply>;
    expect(draftLogin.data.error?.[""]?.[0]).toMatch(/confirm your email/);

    // The sign-in of the unconfirmed account sent a fresh link; the newest one works.
    const [mail, firstMail] = await listOutbox(db(), { to: "ann@example.com" });
    expect(mail.subject).toMatch(/Confirm/);
    expect(firstMail.subject).toMatch(/Confirm/);
    expect((await confirm(linkIn(firstMail.text, "activation"))).data.state).toBe("failed");
    const link = linkIn(mail.text, "activation");
    expect(link.userId).toBe(user.id);

    // Opening the link (GET) does not confirm: link scanners must not activate accounts.
    const page = (await activationLoader({
      request: makeRequest(link.path),
      context: ctx(),
      params: { token: link.token, userId: link.userId },
    })) as unknown as DataResult<{
      state: string;
    }>;
    expect(page.data.state).toBe("ready");
    expect((await db().selectFrom("users").select("status").where("id", "=", user.id).executeTakeFirstOrThrow()).status).toBe("Draft");

    const confirmed = await confirm(link);
    expect(confirmed.data.state).toBe("confirmed");
    expect(statusOf(confirmed)).toBe(200); // #13 item 10: the page after the POST is the success page, not 400
    const after = await db().selectFrom("users").select(["status", "email_confirmed"]).where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ status: "Active", email_confirmed: true });

    // The link is single use.
    const again = await confirm(link);
    expect(again.data.state).toBe("failed");
    expect(again.init?.status).toBe(400);
    expect(ACTIVATION_MESSAGES.failed).toBe("Email confirmation failed. Please try again or contact support.");

    const ok = (await login("ANN@example.com", "correct horse")) as Response;
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/dashboard");
  });

  it("refuses activation links for another user or of another kind", async () => {
    await signup({ ...valid, email: "bo@example.com" });
    await signup({ ...valid, email: "cy@example.com" });
    const bo = linkIn((await listOutbox(db(), { to: "bo@example.com" }))[0].text, "activation");
    const cy = linkIn((await listOutbox(db(), { to: "cy@example.com" }))[0].text, "activation");
    expect((await confirm({ ...bo, userId: cy.userId })).data.state).toBe("failed");
    expect((await confirm({ ...bo, userId: "not-a-uuid" })).data.state).toBe("failed");
    expect((await reset({ ...bo, path: `/auth/resetpassword/${bo.token}/${bo.userId}` }, "new-password-1")).data.state).toBe("invalid");
    expect((await confirm(bo)).data.state).toBe("confirmed");
  });

  it("a taken address gets the same answer, no second account, and a notice to its owner", async () => {
    await signup({ ...valid, email: "dup@example.com" });
    const second = (await signup({
      ...valid,
      email: "Dup@Example.com",
      firstName: "Mallory",
      password: "other-password",
      confirmPassword: "other-password",
    })) as Response;
    expect(second.status).toBe(302);
    expect(second.headers.get("Location")).toBe("/login");
    const toast = (await getSession(makeRequest("/login", { cookie: cookieFrom(second) }))).get("toast");
    expect(toast).toMatchObject({ title: "Account Created Successfully" });
    const users = await db()
      .selectFrom("users")
      .select(["first_name", "password_hash"])
      .where(sql`lower(email)`, "=", "dup@example.com")
      .execute();
    expect(users).toHaveLength(1);
    expect(users[0].first_name).toBe("Ann");
    expect(await verifyPassword(users[0].password_hash, "correct horse")).toBe(true);
    const mails = await listOutbox(db(), { to: "dup@example.com" });
    expect(mails.map((m) => m.subject)).toEqual(["You already have a Data Purging Tool account", "Confirm your Data Purging Tool account"]);
    expect(mails[0].text).not.toMatch(/\/auth\//);
  });

  it("limits sign-ups per client address", async () => {
    for (let i = 0; i < SIGNUP_LIMITS.perIp; i++) {
      const r = (await signup({ ...valid, email: `many${i}@example.com` }, "192.0.2.50")) as Response;
      expect(r.status).toBe(302);
    }
    const over = (await signup({ ...valid, email: "one-more@example.com" }, "192.0.2.50")) as DataResult<Reply>;
    expect(over.init?.status).toBe(429);
    expect(over.data.error?.[""]).toEqual(["Too many sign-ups from your network. Please try again later."]);
  });

  it("forgot password answers the same for known and unknown addresses; only known ones get mail", async () => {
    await signup({ ...valid, email: "fp@example.com" });
    const known = await forgot("FP@example.com");
    const unknown = await forgot("nobody@example.com");
    expect(known.data).toEqual({ sent: true, email: "fp@example.com" });
    expect(unknown.data).toEqual({ sent: true, email: "nobody@example.com" });
    expect(known.init?.status ?? 200).toBe(unknown.init?.status ?? 200);
    expect(await listOutbox(db(), { to: "nobody@example.com" })).toHaveLength(0);
    const [mail] = await listOutbox(db(), { to: "fp@example.com" });
    expect(mail.subject).toBe("Reset your Data Purging Tool password");
    linkIn(mail.text, "resetpassword");
    const bad = await forgot("not-an-email");
    expect(bad.init?.status).toBe(400);
    expect(bad.data.result?.error?.email).toEqual(["Please enter a valid email address"]);
  });

  it("forgot password sends nothing to blocked, invited or deleted accounts, with the same answer", async () => {
    const base = { first_name: "X", last_name: "Y", company: "C", phone_number: "", password_hash: null, role: "NormalUser" as const };
    await db()
      .insertInto("users")
      .values({ ...base, email: "blk@example.com", status: "Blocked" })
      .execute();
    await db()
      .insertInto("users")
      .values({ ...base, email: "inv@example.com", status: "Pending" })
      .execute();
    await db()
      .insertInto("users")
      .values({ ...base, email: "gone@example.com", status: "Active", deleted_at: new Date() })
      .execute();
    for (const email of ["blk@example.com", "inv@example.com", "gone@example.com"]) {
      expect((await forgot(email)).data).toEqual({ sent: true, email });
      expect(await listOutbox(db(), { to: email })).toHaveLength(0);
    }
  });

  it("reset: validates the link, sets the password once, ends every session, and the old password stops working", async () => {
    await signup({ ...valid, email: "rs@example.com" });
    await confirm(linkIn((await listOutbox(db(), { to: "rs@example.com" }))[0].text, "activation"));
    const user = await db().selectFrom("users").select("id").where("email", "=", "rs@example.com").executeTakeFirstOrThrow();
    const cookieA = (await startUserSession(makeRequest("/login"), user.id)).split(";")[0];
    const cookieB = (await startUserSession(makeRequest("/login"), user.id)).split(";")[0];
    expect(await getOptionalUser(makeRequest("/dashboard", { cookie: cookieA }))).not.toBeNull();

    await forgot("rs@example.com");
    const link = linkIn((await listOutbox(db(), { to: "rs@example.com" }))[0].text, "resetpassword");
    const page = (await resetLoader({
      request: makeRequest(link.path),
      context: ctx(),
      params: { token: link.token, userId: link.userId },
    })) as unknown as DataResult<{
      state: string;
    }>;
    expect(page.data.state).toBe("form");

    const mismatch = await reset(link, "brand-new-pass", "brand-new-pasz");
    expect(mismatch.init?.status).toBe(400);
    expect(mismatch.data.result?.error?.confirmPassword).toEqual(["Passwords do not match"]);
    const short = await reset(link, "short", "short");
    expect(short.data.result?.error?.password).toEqual(["Password must be at least 8 characters long."]);

    const done = await reset(link, "brand-new-pass");
    expect(done.data.state).toBe("done");
    expect(statusOf(done)).toBe(200); // #13 item 10: the page after the POST is the success page, not 400
    expect(await getOptionalUser(makeRequest("/dashboard", { cookie: cookieA }))).toBeNull();
    expect(await getOptionalUser(makeRequest("/dashboard", { cookie: cookieB }))).toBeNull();
    const sessions = await db().selectFrom("sessions").select("id_hash").where("user_id", "=", user.id).execute();
    expect(sessions).toHaveLength(0);

    const old = (await login("rs@example.com", "correct horse")) as DataResult<Reply>;
    expect(old.data.error?.[""]).toEqual(["Invalid email or password."]);
    expect(((await login("rs@example.com", "brand-new-pass")) as Response).status).toBe(302);

    // Single use.
    const again = await reset(link, "another-pass-1");
    expect(again.data.state).toBe("invalid");
    const reload = (await resetLoader({
      request: makeRequest(link.path),
      context: ctx(),
      params: { token: link.token, userId: link.userId },
    })) as unknown as DataResult<{
      state: string;
    }>;
    expect(reload.data.state).toBe("invalid");
  });

  it("reset: a newer link replaces an older one, expired links are refused, missing parts say Invalid Link", async () => {
    await signup({ ...valid, email: "rx@example.com" });
    await forgot("rx@example.com");
    await forgot("rx@example.com");
    const [newer, older] = (await listOutbox(db(), { to: "rx@example.com" }))
      .filter((m) => m.subject.startsWith("Reset"))
      .map((m) => linkIn(m.text, "resetpassword"));
    expect((await reset(older, "brand-new-pass")).data.state).toBe("invalid");
    await db()
      .updateTable("auth_tokens")
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where("kind", "=", "reset")
      .execute();
    expect((await reset(newer, "brand-new-pass")).data.state).toBe("invalid");

    const missing = (await resetLoader({ request: makeRequest("/auth/resetpassword"), context: ctx(), params: {} })) as unknown as DataResult<{
      state: string;
    }>;
    expect(missing.data.state).toBe("missing");
    const missingPost = (await resetAction({
      request: makeRequest("/auth/resetpassword/abc", { form: {} }),
      context: ctx(),
      params: { token: "abc" },
    })) as unknown as DataResult<{
      state: string;
    }>;
    expect(missingPost.data.state).toBe("request");
  });

  it("reset of an unconfirmed account confirms it (the link proves the mailbox)", async () => {
    await signup({ ...valid, email: "lost@example.com" });
    await forgot("lost@example.com");
    const link = linkIn((await listOutbox(db(), { to: "lost@example.com" }))[0].text, "resetpassword");
    expect((await reset(link, "brand-new-pass")).data.state).toBe("done");
    const u = await db().selectFrom("users").select(["status", "email_confirmed"]).where("email", "=", "lost@example.com").executeTakeFirstOrThrow();
    expect(u).toEqual({ status: "Active", email_confirmed: true });
  });

  it("a signed-in visitor of /signup goes to the dashboard", async () => {
    const user = await db().selectFrom("users").select("id").where("status", "=", "Active").executeTakeFirstOrThrow();
    const cookie = (await startUserSession(makeRequest("/login"), user.id)).split(";")[0];
    const res = await signupLoader({ request: makeRequest("/signup", { cookie }), context: ctx(), params: {} }).catch((e) => e);
    expect((res as Response).headers.get("Location")).toBe("/dashboard");
  });
});
