import type { ActionFunctionArgs } from "@remix-run/node";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useAppTestDb } from "../setup/db";
import { testContext } from "../setup/request";
import { action as signupAction } from "~/routes/signup";
import { action as forgotAction } from "~/routes/forgot-password";
import { settleAfterResponse } from "~/utils/after-response.server";
import { listOutbox } from "~/utils/email.server";
import { appUrl, parseEnv } from "~/utils/env.server";

/*
 * Links in e-mails never come from the request (issue #13 item 3) and an unconfirmed account's mail never
 * greets the name its requester chose (item 10). Every request here is forged: Host, X-Forwarded-Host,
 * X-Forwarded-Proto and the request URL all name the attacker's site.
 */
const { handle } = useAppTestDb();
const db = () => handle().db;
let ip = 0;

beforeEach(() => {
  vi.spyOn(console, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

function forged(path: string, form: Record<string, string>): Request {
  return new Request(`https://evil.example:8443${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Host: "evil.example:8443",
      "X-Forwarded-Host": "evil.example:8443",
      "X-Forwarded-Proto": "https",
    },
    body: new URLSearchParams(form),
  });
}
const call = async (fn: (args: ActionFunctionArgs) => Promise<unknown>, request: Request) => {
  await fn({ request, context: { ...testContext, clientIp: `10.7.0.${++ip}` }, params: {} }).catch((e: unknown) => e);
  await settleAfterResponse();
};
const person = (email: string, firstName: string) => ({
  firstName,
  lastName: "Lee",
  email,
  company: "Acme",
  phoneNumber: "(555) 123-4567",
  password: "correct horse",
  confirmPassword: "correct horse",
});
const linksOf = (text: string) => text.match(/https?:\/\/\S+/g) ?? [];

describe("links are built on the configured origin, never the request's", () => {
  it("confirmation, reset and already-registered mails link to this server whatever Host the request forged", async () => {
    await call(signupAction, forged("/signup", person("victim@example.com", "Vic")));
    await db().updateTable("users").set({ email_confirmed: true, status: "Active" }).where("email", "=", "victim@example.com").execute();
    await call(forgotAction, forged("/forgot-password", { email: "victim@example.com" }));
    await call(signupAction, forged("/signup", person("victim@example.com", "Again")));
    const mails = await listOutbox(db(), { to: "victim@example.com" });
    expect(mails.map((m) => m.subject).sort()).toHaveLength(3);
    const links = mails.flatMap((m) => linksOf(m.text));
    expect(links.length).toBeGreaterThanOrEqual(4);
    for (const link of links) expect(new URL(link).origin).toBe(appUrl());
    expect(appUrl()).toBe(`http://localhost:${process.env.PORT ?? 3000}`);
  });

  it("production refuses to start without APP_URL, with the reason; with it, links use it", () => {
    const production = { NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) };
    expect(() => parseEnv(production)).toThrow(/APP_URL: required in production.*never from a request's Host/s);
    expect(parseEnv({ ...production, APP_URL: "https://app.example.com/" }).APP_URL).toBe("https://app.example.com/");
    expect(() => parseEnv({ ...production, APP_URL: "javascript:alert(1)" })).toThrow(/APP_URL/);
  });
});

describe("an unconfirmed account's mail greets no chosen name", () => {
  it("confirmation, and a reset or already-registered notice to a Draft account, say only Hello", async () => {
    const name = "Visit https://evil.example to claim your prize";
    await call(signupAction, forged("/signup", person("target@example.com", name)));
    await call(forgotAction, forged("/forgot-password", { email: "target@example.com" }));
    await call(signupAction, forged("/signup", person("target@example.com", "Owner")));
    const mails = await listOutbox(db(), { to: "target@example.com" });
    expect(mails).toHaveLength(3);
    for (const m of mails) {
      expect(m.text.startsWith("Hello,\n"), m.subject).toBe(true);
      expect(m.text).not.toContain("evil.example");
    }
  });

  it("a confirmed owner is greeted by name, on one line and capped", async () => {
    await db()
      .insertInto("users")
      .values({
        email: "conf@example.com",
        first_name: `Ann\r\nBcc: x@evil.example ${"y".repeat(200)}`,
        last_name: "L",
        company: "C",
        phone_number: "",
        password_hash: null,
        role: "NormalUser",
        status: "Active",
        email_confirmed: true,
      })
      .execute();
    await call(forgotAction, forged("/forgot-password", { email: "conf@example.com" }));
    const [reset] = await listOutbox(db(), { to: "conf@example.com" });
    const first = reset.text.split("\n")[0];
    expect(first.startsWith("Hello Ann Bcc: x@evil.example y")).toBe(true);
    expect(first.length).toBeLessThanOrEqual("Hello ,".length + 40);
  });
});
