import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest, testContext } from "../../tests/setup/request";
import { action, loader } from "./auth.invitation.$";
import { action as umAction } from "~/routes/_app.user-management/route";
import { startUserSession } from "~/accounts/auth.server";
import { verifyLogin } from "~/accounts/sign-in.server";
import { linksIn } from "~/utils/email.server";
import { followRedirect, type RouteFn } from "../../tests/setup/routes";

const { handle } = useAppTestDb();
const db = () => handle().db;

type Result = { data: { state: string; email?: string; result?: { error?: Record<string, string[]> } | null }; init?: { status?: number } };

async function adminCookie(): Promise<string> {
  const row = await db()
    .insertInto("users")
    .values({
      email: `boss-${Math.random()}@example.com`,
      first_name: "Boss",
      last_name: "Admin",
      company: "HQ",
      phone_number: "",
      password_hash: "x",
      role: "SuperAdmin",
      status: "Active",
      email_confirmed: true,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return (await startUserSession(makeRequest("/login"), row.id)).split(";")[0];
}

/** Invites through the real User Management action and returns the e-mailed link's path parts. */
async function invite(email: string, status = "Active"): Promise<{ token: string; userId: string; path: string }> {
  const cookie = await adminCookie();
  const res = (await umAction({
    request: makeRequest("/user-management?dialog=create", {
      cookie,
      form: { intent: "create", firstName: "Ivy", lastName: "Invitee", email, role: "NormalUser", plan: "none", status },
    }),
    params: {},
    context: testContext,
  })) as Response;
  expect(res.status).toBe(302);
  const mail = await db()
    .selectFrom("email_outbox")
    .select("text_body")
    .where("to_address", "=", email)
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  const path = new URL(linksIn(mail.text_body)[0]).pathname;
  const [, , , token, userId] = path.split("/");
  return { token, userId, path };
}

async function get(splat: string): Promise<Result> {
  return (await loader({ request: makeRequest(`/auth/invitation/${splat}`), params: { "*": splat }, context: testContext })) as unknown as Result;
}

/** Posts the form as a browser does (following the redirect of a success to the link's page). */
async function submit(splat: string, form: Record<string, string>): Promise<Result> {
  const answer = await action({ request: makeRequest(`/auth/invitation/${splat}`, { form }), params: { "*": splat }, context: testContext });
  return (await followRedirect(answer, loader as unknown as RouteFn, { "*": splat })) as unknown as Result;
}

describe("invitation account setup", () => {
  it("validates the link, checks the password with the spec's messages, activates once", async () => {
    const { token, userId } = await invite("ivy@example.com");
    const splat = `${token}/${userId}`;
    const page = await get(splat);
    expect(page.data).toEqual({ state: "form", email: "ivy@example.com" });

    const empty = await submit(splat, {});
    expect(empty.init?.status).toBe(400);
    expect(empty.data.result?.error?.password).toEqual(["Password is required"]);
    const short = await submit(splat, { password: "short", confirmPassword: "short" });
    expect(short.data.result?.error?.password).toEqual(["Password must be at least 8 characters long"]);
    const mismatch = await submit(splat, { password: "long enough 1", confirmPassword: "long enough 2" });
    expect(mismatch.data.result?.error?.confirmPassword).toEqual(["Passwords do not match"]);
    const tooLong = await submit(splat, { password: "x".repeat(129), confirmPassword: "x".repeat(129) });
    expect(tooLong.data.result?.error?.password).toEqual(["Password must be at most 128 characters long"]);
    // Failed attempts do not use the link up.
    expect((await get(splat)).data.state).toBe("form");

    const done = await submit(splat, { password: "a good password", confirmPassword: "a good password" });
    expect(done.data.state).toBe("done");
    expect(done.init?.status ?? 200).toBe(200); // #13 item 10: the page after the POST is the success page, not 404
    const user = await db().selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ status: "Active", email_confirmed: true });
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    await expect(verifyLogin("ivy@example.com", "a good password", "10.0.0.1")).resolves.toEqual({ id: userId });
    const audit = await db().selectFrom("audit_log").select(["action", "actor_id"]).where("action", "=", "user.invitation_completed").execute();
    expect(audit).toEqual([{ action: "user.invitation_completed", actor_id: userId }]);

    // Single use.
    expect((await get(splat)).data.state).toBe("invalid");
    const again = await submit(splat, { password: "another password", confirmPassword: "another password" });
    expect(again.data.state).toBe("invalid");
    expect(again.init?.status).toBe(404);
  });

  it("answers missing parts, bad, expired and superseded links with the error states", async () => {
    expect((await get("")).data).toEqual({ state: "missing" });
    expect((await get("")).init?.status).toBe(400);
    const { token, userId } = await invite("late@example.com");
    expect((await get(token)).data.state).toBe("missing");
    expect((await get(`${token}/not-a-uuid`)).data.state).toBe("invalid");
    expect((await get(`${token}/${userId}/extra`)).data.state).toBe("invalid");
    expect((await get(`${"A".repeat(43)}/${userId}`)).data.state).toBe("invalid");
    expect((await submit(`${"A".repeat(43)}/${userId}`, { password: "a good password", confirmPassword: "a good password" })).data.state).toBe("invalid");

    // A resent invitation replaces the old link.
    const second = await invite("second@example.com");
    const cookie = await adminCookie();
    await umAction({
      request: makeRequest("/user-management", { cookie, form: { intent: "resend-invitation", userId: second.userId } }),
      params: {},
      context: testContext,
    });
    expect((await get(`${second.token}/${second.userId}`)).data.state).toBe("invalid");
    const mails = await db().selectFrom("email_outbox").select("text_body").where("to_address", "=", "second@example.com").execute();
    expect(mails).toHaveLength(2);

    // Expired.
    await db()
      .updateTable("auth_tokens")
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where("user_id", "=", userId)
      .execute();
    expect((await get(`${token}/${userId}`)).data.state).toBe("invalid");
    expect((await db().selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow()).password_hash).toBeNull();
  });

  it("keeps an account Blocked when the admin chose Blocked, and a deleted user's link is dead", async () => {
    const blocked = await invite("blocked-setup@example.com", "Blocked");
    const done = await submit(`${blocked.token}/${blocked.userId}`, { password: "a good password", confirmPassword: "a good password" });
    expect(done.data.state).toBe("done");
    expect((await db().selectFrom("users").select("status").where("id", "=", blocked.userId).executeTakeFirstOrThrow()).status).toBe("Blocked");

    const gone = await invite("gone@example.com");
    const cookie = await adminCookie();
    await umAction({ request: makeRequest("/user-management", { cookie, form: { intent: "delete", userId: gone.userId } }), params: {}, context: testContext });
    expect((await get(`${gone.token}/${gone.userId}`)).data.state).toBe("invalid");
  });
});
