import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { requireUser } from "~/accounts/auth.server";
import { safeRedirectPath } from "~/utils/safe-redirect-path";
import { getDb } from "~/utils/db.server";
import { appUrl } from "~/utils/env.server";
import { flashToast } from "~/utils/session.server";
import { sendEmail } from "~/utils/email.server";
import { bankDetails, bankLines, paymentInstructionsEmail } from "~/billing/emails.server";
import { getPlan } from "~/models/plan.server";
import { getPlanState } from "~/models/usage.server";
import { createBankTransferTransaction } from "~/models/transaction.server";
import { BankTransferInstructions, RouteDialog } from "~/components/pricing";
import { buttonClass, FormErrors, secondaryButtonClass } from "~/components/ui/form";
import { formatUsd } from "~/utils/format";

export const meta: MetaFunction = () => [{ title: "Confirm Subscription · Data Purging Tool" }];

const schema = z.object({
  redirectTo: z.string().max(2000).optional(),
});

function returnParam(redirectTo: string | null | undefined): string {
  return redirectTo ? `?${new URLSearchParams({ redirectTo: safeRedirectPath(redirectTo, "/dashboard") })}` : "";
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const plan = await getPlan(db, params.planId ?? "");
  if (!plan) throw data("Plan not found", { status: 404 });
  const state = await getPlanState(db, user.id);
  const raw = new URL(request.url).searchParams.get("redirectTo");
  return {
    plan: { id: plan.id, name: plan.name, priceCents: plan.priceCents },
    isActive: state.plan?.id === plan.id,
    bank: bankLines(bankDetails()),
    redirectTo: raw ? safeRedirectPath(raw, "/dashboard") : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const submission = parseWithZod(await request.formData(), { schema });
  const plan = await getPlan(db, params.planId ?? "");
  if (!plan) throw data("Plan not found", { status: 404 });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const state = await getPlanState(db, user.id);
  if (state.plan?.id === plan.id) {
    return data(submission.reply({ formErrors: [`The ${plan.name} plan is already your active plan.`] }), { status: 409 });
  }
  const { transaction, created } = await createBankTransferTransaction(db, { userId: user.id, planId: plan.id });
  const back = returnParam(submission.value.redirectTo);
  const paymentPath = `/pricing/payment/${transaction.id}`;
  if (created) {
    await sendEmail(
      {
        to: user.email,
        ...paymentInstructionsEmail({
          firstName: user.firstName,
          planName: transaction.planName,
          amountCents: transaction.amountCents,
          reference: transaction.transferReference,
          bank: bankDetails(),
          paymentUrl: `${appUrl()}${paymentPath}`,
        }),
      },
      db,
    );
  }
  return redirect(`${paymentPath}${back}`, {
    headers: {
      "Set-Cookie": await flashToast(request, {
        kind: "success",
        title: created ? "Subscription Requested" : "Payment Pending",
        description: `Transfer ${formatUsd(transaction.amountCents)} with reference ${transaction.transferReference} to activate your ${transaction.planName} plan.`,
      }),
    },
  });
}

export default function ConfirmSubscription() {
  const { plan, isActive, bank, redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [form] = useForm({ lastResult, onValidate: ({ formData }) => parseWithZod(formData, { schema }) });
  const back = redirectTo ? `/pricing?${new URLSearchParams({ redirectTo })}` : "/pricing";
  return (
    <RouteDialog title="Confirm Subscription" closeTo={back}>
      <p className="text-sm text-slate-700" data-testid="confirm-text">
        You are about to subscribe to the {plan.name} plan for {formatUsd(plan.priceCents)}/month.
      </p>
      {isActive ? (
        <p className="mt-4 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">This is already your active plan.</p>
      ) : (
        <>
          <BankTransferInstructions title="Bank transfer instructions" bank={bank}>
            Choose Bank Transfer to get your unique transfer reference. Send {formatUsd(plan.priceCents)} (USD) to the account below with that reference in the
            memo; your plan starts as soon as we confirm the payment. We also e-mail you these instructions.
          </BankTransferInstructions>
          <Form method="post" {...getFormProps(form)} className="mt-5">
            <FormErrors errors={form.errors} />
            {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
            <div className="mt-3 flex flex-wrap justify-end gap-2">
              <Link to={back} className={secondaryButtonClass}>
                Cancel
              </Link>
              <button type="button" disabled className={secondaryButtonClass} title="Card payments are not available yet">
                Credit Card - Coming Soon
              </button>
              <button type="submit" className={buttonClass} disabled={busy}>
                {busy ? "Completing subscription..." : "Bank Transfer"}
              </button>
            </div>
          </Form>
        </>
      )}
    </RouteDialog>
  );
}

export { PricingDialogErrorBoundary as ErrorBoundary } from "~/components/pricing";
