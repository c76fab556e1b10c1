import { afterEach, describe, expect, it, vi } from "vitest";
import { useAppTestDb } from "../../tests/setup/db";
import { makeRequest, testContext } from "../../tests/setup/request";
import { linksIn, listOutbox, outboxPageEnabled, sendEmail, splitLinks, usesOutbox } from "./email.server";
import { confirmationEmail, escapeHtml, invitationEmail, passwordResetEmail } from "./email-templates.server";
import { paymentReceivedEmail } from "~/billing/emails.server";
import { loader as outboxLoader } from "~/routes/dev.outbox";

const { handle } = useAppTestDb();

afterEach(() => vi.restoreAllMocks());

describe("e-mail", () => {
  it("without SMTP_URL stores the message in the outbox and logs the subject and links (not as an error)", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const mail = confirmationEmail({ url: "http://localhost:3000/auth/activation/tok/uid" });
    const res = await sendEmail({ to: "ann@example.com", ...mail });
    expect(res).toMatchObject({ ok: true, via: "outbox" });
    const rows = await listOutbox(handle().db, { to: "ANN@example.com" });
    expect(rows).toHaveLength(1);
    expect(rows[0].subject).toBe(mail.subject);
    expect(rows[0].text).toContain("http://localhost:3000/auth/activation/tok/uid");
    const logged = info.mock.calls.map((c) => c.join(" ")).join("\n");
    expect(logged).toContain(mail.subject);
    expect(logged).toContain("http://localhost:3000/auth/activation/tok/uid");
  });

  it("with SMTP_URL hands the message to nodemailer", async () => {
    const sent: unknown[] = [];
    const g = globalThis as unknown as { __singletons: Map<string, unknown> };
    g.__singletons.set("mailTransport", { sendMail: async (m: unknown) => void sent.push(m) });
    const before = process.env.SMTP_URL;
    const { env } = await import("./env.server");
    const e = env();
    e.SMTP_URL = "smtp://mail.example.com:587";
    try {
      const res = await sendEmail({ to: "bob@example.com", subject: "Hi", text: "Body" });
      expect(res).toEqual({ ok: true, via: "smtp" });
      expect(sent).toEqual([expect.objectContaining({ to: "bob@example.com", subject: "Hi", text: "Body", from: e.MAIL_FROM })]);
      expect(await listOutbox(handle().db, { to: "bob@example.com" })).toHaveLength(0);
      // The dev page is gone with SMTP.
      const res404 = await outboxLoader({ request: makeRequest("/dev/outbox"), context: testContext, params: {} }).catch((x) => x);
      expect((res404 as Response).status).toBe(404);
      // A delivery failure is reported, logged, and not thrown.
      g.__singletons.set("mailTransport", { sendMail: async () => Promise.reject(new Error("connection refused")) });
      const err = vi.spyOn(console, "error").mockImplementation(() => {});
      expect(await sendEmail({ to: "bob@example.com", subject: "Hi", text: "Body" })).toEqual({ ok: false, error: "connection refused" });
      expect(err).toHaveBeenCalledTimes(1);
    } finally {
      e.SMTP_URL = before;
      g.__singletons.delete("mailTransport");
    }
  });

  it("in production without SMTP stores the message and warns, without printing its links", async () => {
    const { env } = await import("./env.server");
    const e = env();
    const before = e.NODE_ENV;
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    e.NODE_ENV = "production";
    try {
      const res = await sendEmail({ to: "prod@example.com", subject: "Reset", text: "http://app.example.com/auth/resetpassword/secret/uid" });
      expect(res).toMatchObject({ ok: true, via: "outbox" });
      const logged = [...info.mock.calls, ...warn.mock.calls].map((c) => c.join(" ")).join("\n");
      expect(logged).toContain("SMTP_URL is not set");
      expect(logged).not.toContain("secret");
      const res404 = await outboxLoader({ request: makeRequest("/dev/outbox"), context: testContext, params: {} }).catch((x) => x);
      expect((res404 as Response).status).toBe(404);
    } finally {
      e.NODE_ENV = before;
    }
  });

  it("knows when the outbox page exists", () => {
    expect(usesOutbox({ SMTP_URL: undefined })).toBe(true);
    expect(outboxPageEnabled({ SMTP_URL: undefined, NODE_ENV: "development" })).toBe(true);
    expect(outboxPageEnabled({ SMTP_URL: undefined, NODE_ENV: "production" })).toBe(false);
    expect(outboxPageEnabled({ SMTP_URL: "smtp://x", NODE_ENV: "development" })).toBe(false);
  });

  it("the outbox page lists messages newest first, only to local requests", async () => {
    vi.spyOn(console, "info").mockImplementation(() => {});
    await sendEmail({ to: "page@example.com", subject: "First", text: "one http://localhost/a" });
    await sendEmail({ to: "page@example.com", subject: "Second", text: "two" });
    const res = (await outboxLoader({ request: makeRequest("/dev/outbox?to=page@example.com"), context: testContext, params: {} })) as unknown as {
      data: { messages: { subject: string; parts: { text: string; link: boolean }[] }[] };
    };
    expect(res.data.messages.map((m) => m.subject)).toEqual(["Second", "First"]);
    expect(res.data.messages[1].parts).toEqual([
      { text: "one ", link: false },
      { text: "http://localhost/a", link: true },
    ]);
    const remote = await outboxLoader({ request: makeRequest("/dev/outbox"), context: { ...testContext, clientIp: "203.0.113.9" }, params: {} }).catch(
      (x) => x,
    );
    expect((remote as Response).status).toBe(404);
  });

  it("templates carry the link in text and escaped HTML", () => {
    const url = "https://app.example.com/auth/resetpassword/a_b-c/0b6f3c5e-2d2c-4b59-9d8e-0f4f7c1a2b3c";
    for (const mail of [
      confirmationEmail({ url }),
      passwordResetEmail({ firstName: "<b>Ann</b>", url }),
      invitationEmail({ firstName: "Ann", inviterName: "Bob Admin", url }),
      paymentReceivedEmail({
        planName: "Business",
        amountCents: 50_000,
        reference: "PAY-1",
        startDate: new Date("2026-11-21"),
        endDate: new Date("2026-12-21"),
        dashboardUrl: url,
      }),
    ]) {
      expect(linksIn(mail.text)).toEqual([url]);
      expect(mail.html).toContain(url);
      expect(mail.html).not.toContain("<b>Ann</b>");
    }
    expect(escapeHtml(`<a href="x">&'`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    expect(splitLinks("no links")).toEqual([{ text: "no links", link: false }]);
  });
});
