import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { markTransactionPaid, rejectTransaction } from "~/models/transaction.server";
import { sendEmail } from "~/utils/email.server";
import { appUrl } from "~/utils/env.server";
import { paymentReceivedEmail, paymentRejectedEmail } from "./emails.server";

/*
 * An admin's review of a bank transfer: the transaction's new state and the customer's e-mail, in that order
 * (the e-mail goes to the outbox or SMTP after the state is committed; a lost e-mail never undoes a payment).
 * Both throw ReviewConflictError (models/transaction.server.ts) when the transfer is gone or already reviewed.
 */

export async function confirmPayment(db: Kysely<Database>, input: { transactionId: string; adminId: string }) {
  const t = await markTransactionPaid(db, { id: input.transactionId, adminId: input.adminId });
  await sendEmail(
    {
      to: t.userEmail,
      ...paymentReceivedEmail({
        firstName: t.firstName,
        planName: t.planName,
        amountCents: t.amountCents,
        reference: t.transferReference,
        startDate: t.startDate!,
        endDate: t.endDate!,
        dashboardUrl: `${appUrl()}/dashboard`,
      }),
    },
    db,
  );
  return t;
}

export async function rejectPayment(db: Kysely<Database>, input: { transactionId: string; adminId: string; note?: string }) {
  const t = await rejectTransaction(db, { id: input.transactionId, adminId: input.adminId, note: input.note });
  await sendEmail(
    {
      to: t.userEmail,
      ...paymentRejectedEmail({
        firstName: t.firstName,
        planName: t.planName,
        amountCents: t.amountCents,
        reference: t.transferReference,
        note: input.note,
        pricingUrl: `${appUrl()}/pricing`,
      }),
    },
    db,
  );
  return t;
}
