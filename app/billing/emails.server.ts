import { env } from "~/utils/env.server";
import { escapeHtml } from "~/utils/email-templates.server";
import { formatDate, formatUsd } from "~/utils/format";

/* Bank details (env, with demo defaults) and the billing e-mails. */

export interface BankDetails {
  bankName: string;
  accountName: string;
  accountNumber: string;
  routingNumber: string;
  swift: string | null;
}

export function bankDetails(): BankDetails {
  const e = env();
  return {
    bankName: e.BANK_NAME,
    accountName: e.BANK_ACCOUNT_NAME,
    accountNumber: e.BANK_ACCOUNT,
    routingNumber: e.BANK_ROUTING,
    swift: e.BANK_SWIFT ?? null,
  };
}

export function bankLines(bank: BankDetails): Array<[string, string]> {
  const lines: Array<[string, string]> = [
    ["Bank", bank.bankName],
    ["Account name", bank.accountName],
    ["Account number", bank.accountNumber],
    ["Routing number (ABA)", bank.routingNumber],
  ];
  if (bank.swift) lines.push(["SWIFT/BIC", bank.swift]);
  return lines;
}

const PRODUCT = "Data Purging Tool";

function html(paragraphs: string[], table?: Array<[string, string]>): string {
  const p = (t: string) => `<p style="margin:0 0 16px">${escapeHtml(t)}</p>`;
  const tbl = table
    ? `<table style="border-collapse:collapse;margin:0 0 16px">${table
        .map(
          ([k, v]) =>
            `<tr><td style="padding:4px 12px 4px 0;color:#475569">${escapeHtml(k)}</td><td style="padding:4px 0;font-weight:600">${escapeHtml(v)}</td></tr>`,
        )
        .join("")}</table>`
    : "";
  const [first, ...rest] = paragraphs;
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#0f172a;line-height:1.5"><div style="max-width:560px;margin:0 auto;padding:24px">${p(first)}${tbl}${rest.map(p).join("")}<p style="margin:24px 0 0;font-size:13px;color:#64748b">${PRODUCT}</p></div></body></html>`;
}

function hello(firstName?: string) {
  return firstName?.trim() ? `Hello ${firstName.trim()},` : "Hello,";
}

export function paymentInstructionsEmail(input: {
  firstName?: string;
  planName: string;
  amountCents: number;
  reference: string;
  bank: BankDetails;
  paymentUrl: string;
}) {
  const amount = formatUsd(input.amountCents);
  const intro = `You chose the ${input.planName} plan for ${amount}/month. To activate it, send ${amount} by bank transfer with the reference below.`;
  const table: Array<[string, string]> = [["Amount", `${amount} (USD)`], ["Reference", input.reference], ...bankLines(input.bank)];
  const note =
    "Put the reference in the transfer's memo so we can match your payment. Your plan starts as soon as we confirm the transfer, and you will get an e-mail then.";
  const link = `These instructions are also in your account: ${input.paymentUrl}`;
  return {
    subject: `Payment instructions for your ${input.planName} plan (${input.reference})`,
    text: `${hello(input.firstName)}\n\n${intro}\n\n${table.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${note}\n\n${link}\n\n${PRODUCT}\n`,
    html: html([hello(input.firstName), intro, note, link], table),
  };
}

export function paymentReceivedEmail(input: {
  firstName?: string;
  planName: string;
  amountCents: number;
  reference: string;
  startDate: Date;
  endDate: Date;
  dashboardUrl: string;
}) {
  const intro = `We received your payment of ${formatUsd(input.amountCents)} (reference ${input.reference}). Your ${input.planName} plan is active from ${formatDate(input.startDate)} until ${formatDate(input.endDate)}, and this period's usage starts at zero.`;
  const link = `Start working: ${input.dashboardUrl}`;
  return {
    subject: `Payment received: your ${input.planName} plan is active`,
    text: `${hello(input.firstName)}\n\n${intro}\n\n${link}\n\n${PRODUCT}\n`,
    html: html([hello(input.firstName), intro, link]),
  };
}

export function paymentRejectedEmail(input: {
  firstName?: string;
  planName: string;
  amountCents: number;
  reference: string;
  note?: string | null;
  pricingUrl: string;
}) {
  const intro = `We could not confirm your bank transfer of ${formatUsd(input.amountCents)} for the ${input.planName} plan (reference ${input.reference}), so the plan was not activated.`;
  const reason = input.note ? `Reason: ${input.note}` : "If you believe this is a mistake, reply to this e-mail with your transfer receipt.";
  const link = `Choose a plan again: ${input.pricingUrl}`;
  return {
    subject: `Payment not confirmed: ${input.planName} plan (${input.reference})`,
    text: `${hello(input.firstName)}\n\n${intro}\n\n${reason}\n\n${link}\n\n${PRODUCT}\n`,
    html: html([hello(input.firstName), intro, reason, link]),
  };
}
