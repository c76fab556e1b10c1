import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { RouteErrorBoundary } from "./route-error-boundary";
import type { PlanFeature } from "db/schema/billing";
import { formatUsd } from "~/utils/format";

/** A plan card's data (what listPlans returns; extra fields are ignored). */
export interface PricingPlan {
  id: string;
  name: string;
  priceCents: number;
  description: string;
  features: PlanFeature[];
  popular: boolean;
}

/** The confirm route of a plan, carrying where to return afterwards. */
export function confirmHref(planId: string, redirectTo?: string | null): string {
  const qs = redirectTo ? `?${new URLSearchParams({ redirectTo })}` : "";
  return `/pricing/${encodeURIComponent(planId)}/confirm${qs}`;
}

/**
 * The three plan cards (pricing dialog, landing page, no-plan gate). The user's active plan shows an
 * Active badge and no button; the others have Get Started (to `href(plan)`, by default the confirm route).
 */
export function PricingCards({
  plans,
  activePlanId = null,
  href,
  redirectTo,
}: {
  plans: PricingPlan[];
  activePlanId?: string | null;
  /** where Get Started goes; the landing page passes () => "/signup" */
  href?: (plan: PricingPlan) => string;
  redirectTo?: string | null;
}) {
  return (
    <div className="grid gap-6 md:grid-cols-3" data-testid="pricing-cards">
      {plans.map((plan) => {
        const active = plan.id === activePlanId;
        return (
          <section
            key={plan.id}
            aria-labelledby={`plan-${plan.id}`}
            data-plan={plan.id}
            className={`relative flex flex-col rounded-xl border bg-white p-6 shadow-sm ${
              plan.popular ? "border-blue-500 ring-2 ring-blue-500" : "border-slate-200"
            }`}
          >
            {plan.popular && (
              <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-blue-600 px-3 py-1 text-xs font-semibold text-white">
                Most Popular
              </span>
            )}
            <div className="flex items-center justify-between gap-2">
              <h3 id={`plan-${plan.id}`} className="text-lg font-semibold text-slate-900">
                {plan.name}
              </h3>
              {active && <span className="rounded-full bg-green-100 px-2.5 py-0.5 text-xs font-semibold text-green-800 ring-1 ring-green-200">Active</span>}
            </div>
            {plan.description && <p className="mt-1 text-sm text-slate-600">{plan.description}</p>}
            <p className="mt-4">
              <span className="text-4xl font-bold tracking-tight text-slate-900">{formatUsd(plan.priceCents)}</span>
              <span className="text-sm text-slate-500">/month</span>
            </p>
            <ul className="mt-6 flex-1 space-y-2 text-sm">
              {plan.features.map((f) => (
                <li key={f.label} className={`flex items-start gap-2 ${f.available ? "text-slate-700" : "text-slate-400"}`}>
                  <span aria-hidden className={f.available ? "text-green-600" : "text-slate-400"}>
                    {f.available ? "✓" : "✕"}
                  </span>
                  <span className={f.available ? "" : "line-through"}>{f.label}</span>
                  {!f.available && <span className="sr-only">(not available)</span>}
                </li>
              ))}
            </ul>
            {!active && (
              <Link
                to={href ? href(plan) : confirmHref(plan.id, redirectTo)}
                className={`mt-6 inline-flex w-full items-center justify-center rounded-md px-4 py-2 text-sm font-medium shadow-sm ${
                  plan.popular ? "bg-blue-600 text-white hover:bg-blue-700" : "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50"
                }`}
                aria-label={`Get Started with ${plan.name}`}
              >
                Get Started
              </Link>
            )}
          </section>
        );
      })}
    </div>
  );
}

/** A centred dialog panel rendered by a route (works without JavaScript); `closeTo` is the × link. */
export function RouteDialog({
  title,
  description,
  closeTo,
  wide = false,
  children,
}: {
  title: string;
  description?: string;
  closeTo: string;
  wide?: boolean;
  children: React.ReactNode;
}) {
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // With JavaScript, Escape closes the topmost dialog like its × link.
    function onKey(e: KeyboardEvent) {
      if (e.key !== "Escape") return;
      const dialogs = document.querySelectorAll('[role="dialog"]');
      if (dialogs[dialogs.length - 1] === ref.current) navigate(closeTo);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [navigate, closeTo]);
  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center overflow-y-auto bg-slate-900/50 p-4 md:p-10">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby="route-dialog-title"
        className={`relative w-full rounded-xl bg-white p-6 shadow-xl ${wide ? "max-w-5xl" : "max-w-lg"}`}
      >
        <Link to={closeTo} aria-label="Close" className="absolute top-4 right-4 rounded p-1 text-xl leading-none text-slate-500 hover:bg-slate-100">
          ×
        </Link>
        <h2 id="route-dialog-title" className="pr-8 text-xl font-semibold text-slate-900">
          {title}
        </h2>
        {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
        <div className="mt-5">{children}</div>
      </div>
    </div>
  );
}

export interface NoPlanGateData {
  plans: PricingPlan[];
  pending: Array<{ id: string; planName: string; amountCents: number; transferReference: string; createdAt: string }>;
  redirectTo: string;
}

/**
 * What /containers and /purge render instead of their content when the user has no plan: the
 * subscription dialog. After confirming, the payment page offers to continue to `gate.redirectTo`.
 */
export function NoPlanGate({ gate, closeTo = "/dashboard" }: { gate: NoPlanGateData; closeTo?: string }) {
  return (
    <RouteDialog
      title="Choose Your Plan"
      description="You need an active plan to store containers and purge data. Pick a plan to get started."
      closeTo={closeTo}
      wide
    >
      {gate.pending.length > 0 && (
        <div className="mb-6 rounded-lg border border-yellow-200 bg-yellow-50 p-4 text-sm text-yellow-900" data-testid="pending-transfer">
          {gate.pending.map((p) => (
            <p key={p.id}>
              Your bank transfer for the {p.planName} plan ({formatUsd(p.amountCents)}) with reference{" "}
              <span className="font-mono font-semibold">{p.transferReference}</span> is awaiting confirmation.{" "}
              <Link to={`/pricing/payment/${p.id}?${new URLSearchParams({ redirectTo: gate.redirectTo })}`} className="font-medium underline">
                View payment instructions
              </Link>
            </p>
          ))}
        </div>
      )}
      <PricingCards plans={gate.plans} redirectTo={gate.redirectTo} />
    </RouteDialog>
  );
}

/** Error boundary for routes rendered inside the pricing dialog: shows the error above the cards. */
export function PricingDialogErrorBoundary() {
  return (
    <RouteDialog title="Pricing" closeTo="/pricing">
      <RouteErrorBoundary />
    </RouteDialog>
  );
}

/**
 * The bank-transfer box of the confirm and payment pages: a title, what to do, then the account lines
 * (`bankLines(bankDetails())` from the loader), after any rows the page puts first (e.g. the reference).
 */
export function BankTransferInstructions({
  title,
  bank,
  children,
  leadingRows,
  testId,
}: {
  title: string;
  bank: [string, string][];
  children: React.ReactNode;
  leadingRows?: React.ReactNode;
  testId?: string;
}) {
  return (
    <div className="mt-5 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm" data-testid={testId}>
      <h3 className="font-semibold text-slate-900">{title}</h3>
      <p className="mt-1 text-slate-600">{children}</p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {leadingRows}
        {bank.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-500">{k}</dt>
            <dd className="font-medium text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
