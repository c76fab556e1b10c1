import nodemailer, { type Transporter } from "nodemailer";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { getDb } from "./db.server";
import { env, type Env } from "./env.server";
import { singleton } from "./singleton.server";

/*
 * Outgoing e-mail. With SMTP_URL: nodemailer over SMTP. Without: the message is stored in the
 * email_outbox table, its subject and links are printed to the log, and /dev/outbox lists it
 * (development only), so a newcomer can confirm an account on first run and e2e tests can read mails.
 */

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export type SendResult = { ok: true; via: "smtp" | "outbox"; id?: string } | { ok: false; error: string };

/** Outbox mode: no SMTP_URL. */
export function usesOutbox(e: Pick<Env, "SMTP_URL"> = env()): boolean {
  return !e.SMTP_URL;
}

/** The dev outbox page exists only in outbox mode outside production. */
export function outboxPageEnabled(e: Pick<Env, "SMTP_URL" | "NODE_ENV"> = env()): boolean {
  return usesOutbox(e) && e.NODE_ENV !== "production";
}

/** The SMTP transport, created once. Tests may install their own under the singleton key "mailTransport". */
export const mailTransport = (): Transporter => singleton("mailTransport", () => nodemailer.createTransport(env().SMTP_URL as string));

const LINK = /https?:\/\/[^\s<>"')]+/g;

/** The http(s) links in a text, in order, without duplicates. */
export function linksIn(text: string): string[] {
  return [...new Set(text.match(LINK) ?? [])];
}

/** The text cut into plain and link parts (the dev outbox renders links clickable). */
export function splitLinks(text: string): { text: string; link: boolean }[] {
  const parts: { text: string; link: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(LINK)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), link: false });
    parts.push({ text: m[0], link: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), link: false });
  return parts;
}

/**
 * Sends one e-mail. Never throws for a delivery failure: it logs it and returns { ok: false } so callers
 * that must tell the user (e.g. an invitation) can, and callers that must not (forgot password) need not.
 */
export async function sendEmail(message: EmailMessage, db?: Kysely<Database>): Promise<SendResult> {
  if (!usesOutbox()) {
    try {
      await mailTransport().sendMail({
        from: env().MAIL_FROM,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      return { ok: true, via: "smtp" };
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      console.error(`[mail] sending "${message.subject}" failed: ${error}`);
      return { ok: false, error };
    }
  }
  const conn = db ?? (await getDb());
  const row = await conn
    .insertInto("email_outbox")
    .values({ to_address: message.to, subject: message.subject, text_body: message.text, html_body: message.html ?? null })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (env().NODE_ENV === "production") {
    console.warn(`[mail] SMTP_URL is not set: "${message.subject}" to ${message.to} was stored in email_outbox, not delivered`);
    return { ok: true, via: "outbox", id: row.id };
  }
  const links = linksIn(message.text);
  console.info(
    `[mail] outbox: "${message.subject}" to ${message.to}` +
      (links.length ? `\n${links.map((l) => `[mail]   ${l}`).join("\n")}` : "") +
      (outboxPageEnabled() ? `\n[mail]   (all messages: /dev/outbox)` : ""),
  );
  return { ok: true, via: "outbox", id: row.id };
}

/**
 * For answers that must not reveal by their timing whether an e-mail was sent (forgot password, sign-up
 * with a taken address): over SMTP the delivery is not awaited (its outcome is logged); the outbox insert
 * is local and quick, so it is awaited (tests and the dev page then see the message at once).
 */
export async function sendEmailWithoutWaiting(message: EmailMessage): Promise<void> {
  if (usesOutbox()) {
    await sendEmail(message);
    return;
  }
  void sendEmail(message);
}

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** Newest first; optionally only the messages to one address. */
export async function listOutbox(db: Kysely<Database>, opts: { to?: string; limit?: number } = {}): Promise<OutboxMessage[]> {
  let q = db
    .selectFrom("email_outbox")
    .select(["id", "to_address", "subject", "text_body", "created_at"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(opts.limit ?? 100);
  if (opts.to) q = q.where((eb) => eb(eb.fn("lower", ["to_address"]), "=", opts.to!.trim().toLowerCase()));
  const rows = await q.execute();
  return rows.map((r) => ({ id: r.id, to: r.to_address, subject: r.subject, text: r.text_body, createdAt: r.created_at.toISOString() }));
}
