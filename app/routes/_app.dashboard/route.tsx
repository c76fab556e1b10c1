import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { DncClockNotice } from "~/components/proof/dnc-clock-notice";
import { dncClock, stateListClocks } from "~/models/dnc-clock.server";
import { ListAgesLine } from "~/components/proof/state-lists-notice";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { isAdminViewer } from "~/models/purge.server";
import {
  activeUserCount,
  containerGrowth,
  purgedPerDay,
  recentAuditActivity,
  recentScrubActivity,
  windowTotals,
  type ActivityItem,
  type ContainerGrowth,
} from "~/models/dashboard.server";
import { getPlanState } from "~/models/usage.server";
import { OPT_OUT_WINDOW_DAYS, optOutSummary } from "~/models/opt-out.server";
import { HONOUR_BUSINESS_DAYS, HONOUR_CALENDAR_DAYS_CANADA } from "scrub-service/domain";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { StatCard } from "~/components/purge/stat-card";
import { DailyChart } from "~/components/purge/daily-chart";
import { formatNumber, formatRate } from "~/utils/format";
import { StackedBar } from "~/components/ui/bar";
import { DateOnly, DateTime } from "~/components/ui/date-time";

export const meta: MetaFunction = () => [{ title: "Dashboard · Data Purging Tool" }];

/** Spec: the Usage Limits refresh every 300000 ms. */
export const LIMITS_REFRESH_MS = 300_000;

interface UsageRow {
  label: "Suppression" | "Container" | "Exemption records";
  available: number | null;
  used: number;
  limit: number | null;
}

interface DashboardStats {
  containers: ContainerGrowth;
  purged: number;
  successRate: number;
  activeUsers: number | null;
  perDay: { day: string; processed: number }[];
}

const emptyStats = (days: { day: string; processed: number }[]): DashboardStats => ({
  containers: { total: 0, previousMonth: 0, growthPercent: null },
  purged: 0,
  successRate: 0,
  activeUsers: null,
  perDay: days,
});

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const now = new Date();
  const admin = isAdminViewer(user);

  // Each panel fails on its own (spec: zeros / 'No activity found.' / 'Unable to Load Usage Limits').
  const stats = await (async (): Promise<DashboardStats> => {
    const [containers, totals, perDay, activeUsers] = await Promise.all([
      containerGrowth(db, user, now),
      windowTotals(db, user, now),
      purgedPerDay(db, user, now),
      admin ? activeUserCount(db) : Promise.resolve(null),
    ]);
    return { containers, purged: totals.processed, successRate: totals.cleanRate, activeUsers, perDay };
  })().catch((e: unknown) => {
    console.warn(`[dashboard] stats failed: ${e instanceof Error ? e.message : e}`);
    return emptyStats([]);
  });

  const activity = await (admin ? recentAuditActivity(db, 25) : recentScrubActivity(db, user.id, 5)).catch((e: unknown) => {
    console.warn(`[dashboard] activity failed: ${e instanceof Error ? e.message : e}`);
    return [] as ActivityItem[];
  });

  const limits = await getPlanState(db, user.id, { now })
    .then((s) => ({
      unlimited: s.unlimited,
      planName: s.plan?.name ?? null,
      hasAccess: s.hasAccess,
      periodStart: s.periodStart.toISOString(),
      periodEnd: s.periodEnd.toISOString(),
      rows: [
        { label: "Suppression", available: s.suppression.available, used: s.suppression.used, limit: s.suppression.limit },
        { label: "Container", available: s.container.available, used: s.container.used, limit: s.container.limit },
        // held across the exemption lists now, not used up per period (decision 176)
        { label: "Exemption records", available: s.exemption.available, used: s.exemption.used, limit: s.exemption.limit },
      ] satisfies UsageRow[],
    }))
    .catch((e: unknown) => {
      console.warn(`[dashboard] limits failed: ${e instanceof Error ? e.message : e}`);
      return null;
    });

  // the customer's opt-outs (decision 195): received and honoured in 30 days, and any late under 47 CFR 64.1200(d)(3)
  const optOuts = await optOutSummary(db, user.id, now)
    .then((o) => ({
      windowDays: OPT_OUT_WINDOW_DAYS,
      received30d: o.received30d,
      honoured30d: o.honoured30d,
      lateCount: o.lateCount,
      late: o.late.map((l) => ({
        id: l.id,
        number: l.number,
        receivedAt: l.receivedAt.toISOString(),
        honouredAt: l.honouredAt?.toISOString() ?? null,
        deadline: l.deadline.toISOString(),
        deadlineRule: l.deadlineRule,
        channel: l.channel,
      })),
    }))
    .catch((e: unknown) => {
      console.warn(`[dashboard] opt-outs failed: ${e instanceof Error ? e.message : e}`);
      return null;
    });

  const [clock, listAges] = await Promise.all([dncClock(db), stateListClocks(db)]);
  return { firstName: user.firstName, admin, stats, activity, limits, clock, listAges, optOuts };
}

function growthText(g: ContainerGrowth): string {
  if (g.growthPercent === null) {
    const added = g.total - g.previousMonth;
    return added > 0 ? `+${formatNumber(added)} new this month` : "No change from last month";
  }
  const sign = g.growthPercent > 0 ? "+" : "";
  return `${sign}${g.growthPercent.toFixed(1)}% from last month`;
}

function UsageLimits({ limits }: { limits: ReturnType<typeof useLoaderData<typeof loader>>["limits"] }) {
  if (!limits) {
    return (
      <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
        Unable to Load Usage Limits
      </div>
    );
  }
  return (
    <div>
      <p className="mb-3 text-sm text-slate-600" data-testid="plan-summary">
        {limits.unlimited ? (
          "Your account has no usage limits."
        ) : limits.planName ? (
          <>
            {limits.planName} plan · current period <DateOnly value={limits.periodStart} /> to <DateOnly value={limits.periodEnd} />
          </>
        ) : (
          <>
            No active plan.{" "}
            <Link to="/pricing" className="text-blue-600 hover:underline">
              Choose a plan
            </Link>{" "}
            to purge numbers and fill containers.
          </>
        )}
      </p>
      <table className="min-w-full text-sm" data-testid="usage-limits">
        <thead className="text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-4">
              Limit
            </th>
            <th scope="col" className="py-2 pr-4 text-right">
              Available
            </th>
            <th scope="col" className="py-2 text-right">
              Used
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {limits.rows.map((r) => {
            const pct = r.limit ? Math.min(100, (r.used / r.limit) * 100) : 0;
            return (
              <tr key={r.label} data-testid={`usage-${r.label.toLowerCase()}`}>
                <th scope="row" className="py-2 pr-4 text-left font-medium text-slate-900">
                  {r.label}
                  {r.limit !== null && r.limit > 0 && (
                    <StackedBar className="mt-1 h-1.5 w-32" segments={[{ key: "used", percent: pct, fill: pct >= 90 ? "fill-red-500" : "fill-blue-500" }]} />
                  )}
                </th>
                <td className="py-2 pr-4 text-right tabular-nums" data-testid="available">
                  {r.available === null ? "Unlimited" : formatNumber(r.available)}
                </td>
                <td className="py-2 text-right tabular-nums" data-testid="used">
                  {formatNumber(r.used)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

type OptOutPanel = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["optOuts"]>;

/** Opt-outs received and honoured, and the late ones a lawyer asks about first (decision 195). */
function OptOuts({ o }: { o: OptOutPanel | null }) {
  if (!o) return <p className="text-sm text-slate-500">Unable to load opt-outs.</p>;
  return (
    <div data-testid="opt-outs">
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div>
          <dt className="text-slate-500">Received</dt>
          <dd className="text-xl font-semibold" data-testid="opt-outs-received">
            {formatNumber(o.received30d)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Honoured</dt>
          <dd className="text-xl font-semibold" data-testid="opt-outs-honoured">
            {formatNumber(o.honoured30d)}
          </dd>
        </div>
      </dl>
      <p className="mt-1 text-xs text-slate-500">Last {o.windowDays} days</p>
      {o.lateCount > 0 ? (
        <div role="alert" className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="opt-outs-late">
          <p className="font-medium">
            {formatNumber(o.lateCount)} opt-out{o.lateCount === 1 ? " was" : "s were"} not honoured within {HONOUR_BUSINESS_DAYS} business days of receipt (47
            CFR 64.1200(d)(3)), or {HONOUR_CALENDAR_DAYS_CANADA} days for a Canadian number (CRTC Unsolicited Telecommunications Rules).
          </p>
          <ul className="mt-2 space-y-1">
            {o.late.map((l) => (
              <li key={l.id} className="break-words">
                <span className="font-mono">{l.number}</span> · received <DateTime value={l.receivedAt} /> ·{" "}
                {l.honouredAt ? (
                  <>
                    honoured <DateTime value={l.honouredAt} />
                  </>
                ) : (
                  "not honoured"
                )}{" "}
                · due by <DateTime value={l.deadline} /> ({l.deadlineRule})
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="mt-3 text-sm text-slate-600">None late.</p>
      )}
      <Link to="/containers" className="mt-3 inline-block text-sm text-blue-600 hover:underline">
        Record an opt-out
      </Link>
    </div>
  );
}

const quickActions = [
  { to: "/containers?dialog=create-container", label: "Create Container", icon: "▤" },
  { to: "/containers?dialog=create-category", label: "Create Category", icon: "+" },
  { to: "/purge", label: "Purge Data", icon: "⌫" },
  { to: "/history", label: "View History", icon: "⟲" },
];

export default function Dashboard() {
  const { firstName, admin, stats, activity, limits, clock, listAges, optOuts } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();

  useEffect(() => {
    const t = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, LIMITS_REFRESH_MS);
    return () => clearInterval(t);
  }, [revalidator]);

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Dashboard" subtitle={`Welcome back, ${firstName}.`} />
      {admin ? <DncClockNotice clock={clock} variant="banner" /> : null}
      <DncClockNotice clock={clock} variant="line" />
      <ListAgesLine clocks={listAges} />
      <div className={`grid gap-4 sm:grid-cols-2 ${admin ? "lg:grid-cols-4" : "lg:grid-cols-3"}`}>
        <StatCard
          label="Total Containers"
          value={formatNumber(stats.containers.total)}
          hint={growthText(stats.containers)}
          testId="card-containers"
          accent="blue"
        />
        <StatCard label="Numbers Purged" value={formatNumber(stats.purged)} hint="Last 30 days" testId="card-purged" accent="violet" />
        <StatCard label="Clean Rate" value={formatRate(stats.successRate)} hint="Share of numbers that were clean" testId="card-success" accent="green" />
        {admin && <StatCard label="Active Users" value={formatNumber(stats.activeUsers ?? 0)} hint="Team members" testId="card-active-users" accent="amber" />}
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm lg:col-span-2">
          <h2 className="mb-3 text-base font-semibold">Usage Limits</h2>
          <UsageLimits limits={limits} />
        </section>
        <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 className="mb-3 text-base font-semibold">Quick Actions</h2>
          <ul className="grid grid-cols-2 gap-2">
            {quickActions.map((a) => (
              <li key={a.to}>
                <Link
                  to={a.to}
                  className="flex h-full flex-col items-center justify-center gap-1 rounded-md border border-slate-200 px-2 py-3 text-center text-sm font-medium text-slate-700 hover:border-blue-300 hover:bg-blue-50"
                >
                  <span aria-hidden className="text-lg">
                    {a.icon}
                  </span>
                  {a.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <h2 className="mb-3 text-base font-semibold">Opt-outs</h2>
        <OptOuts o={optOuts} />
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm lg:col-span-2">
          <h2 className="text-base font-semibold">Numbers Purged per Day</h2>
          <p className="mb-3 text-xs text-slate-500">Last 30 days{admin ? ", all users" : ""}</p>
          {stats.perDay.length ? <DailyChart data={stats.perDay} /> : <p className="text-sm text-slate-500">No data.</p>}
        </section>
        <section className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 className="mb-3 text-base font-semibold">Recent Activity</h2>
          {activity.length === 0 ? (
            <p className="text-sm text-slate-500">No activity found.</p>
          ) : (
            <ol className="max-h-96 space-y-3 overflow-y-auto" data-testid="recent-activity">
              {activity.map((a) => (
                <li key={a.id} className="border-l-2 border-blue-200 pl-3">
                  <p className="text-sm font-medium text-slate-900">{a.title}</p>
                  {a.detail && <p className="text-xs break-words text-slate-600">{a.detail}</p>}
                  <p className="text-xs text-slate-400">
                    {a.actor ? `${a.actor} · ` : ""}
                    <DateTime value={a.at} />
                  </p>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
