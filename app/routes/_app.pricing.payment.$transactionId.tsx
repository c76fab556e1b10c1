import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/accounts/auth.server";
import { safeRedirectPath } from "~/utils/safe-redirect-path";
import { getDb } from "~/utils/db.server";
import { bankDetails, bankLines } from "~/billing/emails.server";
import { getUserTransaction } from "~/models/transaction.server";
import { BankTransferInstructions, RouteDialog } from "~/components/pricing";
import { buttonClass, secondaryButtonClass } from "~/components/ui/form";
import { formatUsd } from "~/utils/format";
import { StatusBadge } from "~/components/ui/status-badge";
import { DateOnly } from "~/components/ui/date-time";

export const meta: MetaFunction = () => [{ title: "Complete Payment · Data Purging Tool" }];

/** The Complete Payment view of one of the user's own transactions (another user's id: 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const tx = await getUserTransaction(db, { id: params.transactionId ?? "", userId: user.id });
  if (!tx) throw data("Transaction not found", { status: 404 });
  const raw = new URL(request.url).searchParams.get("redirectTo");
  return {
    tx: {
      id: tx.id,
      planName: tx.planName,
      amountCents: tx.amountCents,
      status: tx.status,
      reference: tx.transferReference,
      startDate: tx.startDate?.toISOString() ?? null,
      endDate: tx.endDate?.toISOString() ?? null,
      reviewNote: tx.reviewNote,
    },
    bank: bankLines(bankDetails()),
    redirectTo: raw ? safeRedirectPath(raw, "/dashboard") : null,
  };
}

export default function CompletePayment() {
  const { tx, bank, redirectTo } = useLoaderData<typeof loader>();
  const back = redirectTo ? `/pricing?${new URLSearchParams({ redirectTo })}` : "/pricing";
  return (
    <RouteDialog title="Complete Payment" closeTo={back}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-500">Plan</dt>
        <dd className="font-medium text-slate-900">{tx.planName}</dd>
        <dt className="text-slate-500">Amount</dt>
        <dd className="font-medium text-slate-900">{formatUsd(tx.amountCents)}/month</dd>
        <dt className="text-slate-500">Status</dt>
        <dd>
          <StatusBadge status={tx.status} data-testid="payment-status" />
        </dd>
      </dl>
      {tx.status === "pendingpayment" && (
        <BankTransferInstructions
          title="Pay by bank transfer"
          bank={bank}
          testId="bank-instructions"
          leadingRows={
            <>
              <dt className="text-slate-500">Reference</dt>
              <dd className="font-mono text-base font-semibold text-slate-900" data-testid="transfer-reference">
                {tx.reference}
              </dd>
            </>
          }
        >
          Send {formatUsd(tx.amountCents)} (USD) to the account below. Put the reference in the transfer&apos;s memo so we can match your payment; your plan
          starts as soon as we confirm it, and we e-mail you then.
        </BankTransferInstructions>
      )}
      {tx.status === "active" && (
        <p className="mt-5 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
          Payment received. Your {tx.planName} plan is active until <DateOnly value={tx.endDate} />.
        </p>
      )}
      {tx.status === "rejected" && (
        <p className="mt-5 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          This transfer could not be confirmed{tx.reviewNote ? `: ${tx.reviewNote}` : "."}
        </p>
      )}
      <p className="mt-5 text-sm text-slate-600">Credit Card Payment: Coming Soon</p>
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <Link to={back} className={secondaryButtonClass}>
          Back to Plan
        </Link>
        {redirectTo && (
          <Link to={redirectTo} className={buttonClass}>
            Continue
          </Link>
        )}
      </div>
    </RouteDialog>
  );
}

export { PricingDialogErrorBoundary as ErrorBoundary } from "~/components/pricing";
