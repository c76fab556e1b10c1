import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/accounts/auth.server";
import { safeRedirectPath } from "~/utils/safe-redirect-path";
import { getDb } from "~/utils/db.server";
import { listPlans } from "~/models/plan.server";
import { getPlanState } from "~/models/usage.server";
import { listPendingForUser } from "~/models/transaction.server";
import { PricingCards, RouteDialog } from "~/components/pricing";
import { formatUsd } from "~/utils/format";
import { DateOnly } from "~/components/ui/date-time";

export const meta: MetaFunction = () => [{ title: "Pricing · Data Purging Tool" }];

/** The pricing dialog as a route: /pricing?redirectTo=… (works without JavaScript). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const url = new URL(request.url);
  const rawRedirect = url.searchParams.get("redirectTo");
  const redirectTo = rawRedirect ? safeRedirectPath(rawRedirect, "/dashboard") : null;
  const [plans, state, pending] = await Promise.all([listPlans(db), getPlanState(db, user.id), listPendingForUser(db, user.id)]);
  return {
    plans,
    activePlanId: state.plan?.id ?? null,
    activeUntil: state.plan ? state.periodEnd.toISOString() : null,
    unlimited: state.unlimited,
    pending: pending.map((p) => ({ id: p.id, planName: p.planName, amountCents: p.amountCents, reference: p.transferReference })),
    redirectTo,
  };
}

export default function Pricing() {
  const { plans, activePlanId, activeUntil, unlimited, pending, redirectTo } = useLoaderData<typeof loader>();
  const back = redirectTo ? `?${new URLSearchParams({ redirectTo })}` : "";
  return (
    <>
      <RouteDialog
        title="Choose Your Plan"
        description="Monthly plans in USD. Pay by bank transfer; your plan starts when the payment is confirmed."
        closeTo={redirectTo ?? "/dashboard"}
        wide
      >
        {unlimited && !activePlanId && (
          <p className="mb-4 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">Your role has unlimited usage: you do not need a plan.</p>
        )}
        {activePlanId && activeUntil && (
          <p className="mb-4 text-sm text-slate-600">
            Your current plan is active until <DateOnly value={activeUntil} />.
          </p>
        )}
        {pending.length > 0 && (
          <ul className="mb-6 space-y-1 rounded-lg border border-yellow-200 bg-yellow-50 p-4 text-sm text-yellow-900" data-testid="pending-transfer">
            {pending.map((p) => (
              <li key={p.id}>
                Bank transfer for the {p.planName} plan ({formatUsd(p.amountCents)}), reference <span className="font-mono font-semibold">{p.reference}</span>:
                awaiting payment.{" "}
                <Link to={`/pricing/payment/${p.id}${back}`} className="font-medium underline">
                  Payment instructions
                </Link>
              </li>
            ))}
          </ul>
        )}
        <PricingCards plans={plans} activePlanId={activePlanId} redirectTo={redirectTo} />
      </RouteDialog>
      <Outlet />
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error-boundary";
