import type { EmailMessage } from "./email.server";

/*
 * The product's e-mails. Each returns { subject, text, html } ready for sendEmail({ to, ...mail }).
 * Links go in the text as bare URLs (the outbox log and /dev/outbox pick them up) and as buttons in HTML.
 */

export type Mail = Omit<EmailMessage, "to">;

const PRODUCT = "Data Purging Tool";

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const MAX_GREETING_NAME = 40;

/** "Hello Ann," with the name on one line and capped; "Hello," without one. */
function greeting(firstName?: string): string {
  const name = (firstName ?? "")
    .replace(/[\p{Cc}\p{Cf}\s]+/gu, " ")
    .trim()
    .slice(0, MAX_GREETING_NAME)
    .trim();
  return name ? `Hello ${name},` : "Hello,";
}

/**
 * The name a mail may greet an account holder by: only once the address is confirmed. Anyone can sign up
 * with someone else's address and choose the first name, so an unconfirmed account's name is the
 * requester's words, not the mailbox owner's.
 */
export function greetingName(user: { first_name: string; email_confirmed: boolean }): string | undefined {
  return user.email_confirmed ? user.first_name : undefined;
}

function layout(paragraphs: string[], button?: { label: string; url: string }, after: string[] = []): string {
  const p = (t: string) => `<p style="margin:0 0 16px">${escapeHtml(t)}</p>`;
  const btn = button
    ? `<p style="margin:24px 0"><a href="${escapeHtml(button.url)}" style="background:#2563eb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(button.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#475569">If the button does not work, copy this link into your browser:<br><a href="${escapeHtml(button.url)}">${escapeHtml(button.url)}</a></p>`
    : "";
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a;line-height:1.5"><div style="max-width:560px;margin:0 auto;padding:24px">${paragraphs.map(p).join("")}${btn}${after.map(p).join("")}<p style="margin:24px 0 0;font-size:13px;color:#64748b">${PRODUCT}</p></div></body></html>`;
}

/** To an unconfirmed account by definition: greets no name (see greetingName). */
export function confirmationEmail({ url }: { url: string }): Mail {
  const intro = `Thank you for signing up for ${PRODUCT}. Please confirm your e-mail address to activate your account.`;
  const note = "The link works for 7 days. If you did not sign up, you can ignore this e-mail.";
  return {
    subject: `Confirm your ${PRODUCT} account`,
    text: `${greeting()}\n\n${intro}\n\nConfirm your account:\n${url}\n\n${note}\n\n${PRODUCT}\n`,
    html: layout([greeting(), intro], { label: "Confirm your account", url }, [note]),
  };
}

/** Sent when someone signs up with an address that already has an account (no second account is made). */
export function alreadyRegisteredEmail({ firstName, loginUrl, resetUrl }: { firstName?: string; loginUrl: string; resetUrl: string }): Mail {
  const intro = `Someone (hopefully you) tried to create a new ${PRODUCT} account with this e-mail address. You already have an account, so no new one was created.`;
  const signIn = `Sign in: ${loginUrl}`;
  const forgot = `Forgot your password? Request a reset link: ${resetUrl}`;
  const note = "If this was not you, you can ignore this e-mail; nothing has changed.";
  return {
    subject: `You already have a ${PRODUCT} account`,
    text: `${greeting(firstName)}\n\n${intro}\n\n${signIn}\n${forgot}\n\n${note}\n\n${PRODUCT}\n`,
    html: layout([greeting(firstName), intro], { label: "Sign in", url: loginUrl }, [forgot, note]),
  };
}

export function passwordResetEmail({ firstName, url }: { firstName?: string; url: string }): Mail {
  const intro = `We received a request to reset the password of your ${PRODUCT} account.`;
  const note = "The link works for 1 hour and only once. If you did not ask for a reset, ignore this e-mail: your password stays as it is.";
  return {
    subject: `Reset your ${PRODUCT} password`,
    text: `${greeting(firstName)}\n\n${intro}\n\nChoose a new password:\n${url}\n\n${note}\n\n${PRODUCT}\n`,
    html: layout([greeting(firstName), intro], { label: "Reset password", url }, [note]),
  };
}

export function invitationEmail({ firstName, inviterName, url }: { firstName?: string; inviterName?: string; url: string }): Mail {
  const who = inviterName?.trim() ? `${inviterName.trim()} has invited you` : "You have been invited";
  const intro = `${who} to ${PRODUCT}. Set a password to finish setting up your account.`;
  const note = "The link works for 7 days and only once.";
  return {
    subject: `You're invited to ${PRODUCT}`,
    text: `${greeting(firstName)}\n\n${intro}\n\nSet up your account:\n${url}\n\n${note}\n\n${PRODUCT}\n`,
    html: layout([greeting(firstName), intro], { label: "Set up your account", url }, [note]),
  };
}
