import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { historyStats, isAdminViewer, listHistory } from "~/models/purge.server";
import { isActiveStatus } from "scrub-service/domain";
import { PageHeader } from "~/components/ui/page-header";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { StatCard } from "~/components/purge/stat-card";
import { ProgressBar } from "~/components/ui/bar";
import { DataTable, type DataTableColumn } from "~/components/ui/data-table";
import { JOB_STATUS_COLOURS, StatusBadge } from "~/components/ui/status-badge";
import { Pagination } from "~/components/ui/pagination";
import { RowActions, RowFeatures, resultsHref } from "./row-actions";
import { formatNumber, formatRate, jobStatusLabel, SUPPRESSION_LABEL } from "~/utils/format";
import { buttonClass } from "~/components/ui/form";
import { DateTime } from "~/components/ui/date-time";

export const meta: MetaFunction = () => [{ title: "Purging History · Data Purging Tool" }];

const query = z.object({ page: z.coerce.number().int().min(1).max(1_000_000).catch(1) });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const { page } = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [history, stats] = await Promise.all([listHistory(db, user, { page }), historyStats(db, user)]);
  return { history, stats, isAdmin: isAdminViewer(user), viewerId: user.id };
}

const HISTORY_COLUMNS: DataTableColumn[] = [
  { label: "Date & Time" },
  { label: "File Name" },
  { label: "Suppression Type" },
  { label: "Processed", className: "text-right" },
  { label: "Status" },
  { label: "Actions", className: "text-right" },
];

export default function History() {
  const { history, stats, isAdmin, viewerId } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const anyRunning = history.rows.some((r) => isActiveStatus(r.status));
  // With JavaScript, running jobs' progress and their final results appear without a reload.
  useEffect(() => {
    if (!anyRunning) return;
    const t = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 3000);
    return () => clearInterval(t);
  }, [anyRunning, revalidator]);
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Purging History"
        subtitle={isAdmin ? "Every user's purge operations and their results." : "Your purge operations and their results."}
        actions={
          <Link to="/purge" className={buttonClass}>
            Purge Data
          </Link>
        }
      />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Operations" value={formatNumber(stats.operations)} testId="stat-operations" accent="blue" />
        <StatCard label="Numbers Processed" value={formatNumber(stats.processed)} testId="stat-processed" accent="violet" />
        <StatCard label="Average Clean Rate" value={formatRate(stats.cleanRate)} testId="stat-clean-rate" accent="green" />
        <StatCard label="Clean Numbers" value={formatNumber(stats.clean)} testId="stat-clean" accent="amber" />
      </div>

      <section className="mt-6 rounded-lg border border-slate-200 bg-white shadow-sm">
        <header className="border-b border-slate-200 px-4 py-3">
          <h2 className="text-base font-semibold">Recent Operations</h2>
        </header>
        {history.total === 0 ? (
          <div className="px-4 py-12 text-center">
            <p className="font-medium text-slate-700">No purge history found</p>
            <p className="mt-1 text-sm text-slate-500">Purged files and their results will appear here.</p>
            <Link to="/purge" className={`${buttonClass} mt-4`}>
              Start a purge
            </Link>
          </div>
        ) : (
          <>
            <DataTable columns={HISTORY_COLUMNS} headerCellClass="px-4 py-2">
              {history.rows.map((row) => (
                <tr key={row.id} className="align-top hover:bg-slate-50" data-testid="history-row">
                  <td className="px-4 py-3 whitespace-nowrap">
                    <div className="text-slate-900">
                      <DateTime value={row.createdAt} />
                    </div>
                    <div className="text-xs text-slate-500">{row.creatorName}</div>
                  </td>
                  <td className="max-w-xs px-4 py-3">
                    <div className="truncate font-medium text-slate-900" title={row.fileName}>
                      {row.userId === viewerId && row.status === "completed" ? (
                        <Link to={resultsHref(row.id)} className="hover:text-blue-700 hover:underline">
                          {row.fileName}
                        </Link>
                      ) : (
                        row.fileName
                      )}
                    </div>
                    {row.status === "completed" && (
                      <div className="text-xs text-slate-500">
                        {formatNumber(row.good)} good · {formatNumber(row.bad)} bad · {formatNumber(row.invalid)} invalid
                      </div>
                    )}
                    <RowFeatures row={row} />
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap">{SUPPRESSION_LABEL[row.suppressionType]}</td>
                  <td className="px-4 py-3 text-right whitespace-nowrap tabular-nums">{formatNumber(row.processed)}</td>
                  <td className="px-4 py-3">
                    <StatusBadge status={row.status} label={jobStatusLabel(row.status)} colours={JOB_STATUS_COLOURS} shape="insetCompact" />
                    {row.status === "failed" && row.error && <div className="mt-1 max-w-xs text-xs text-red-700">{row.error}</div>}
                    {isActiveStatus(row.status) && (
                      <div className="mt-1 w-28 space-y-1 text-xs">
                        <ProgressBar percent={row.percent} label={`Progress of ${row.fileName}`} />
                        <span className="text-slate-500">{row.percent}%</span>
                        {row.userId === viewerId && (
                          <Link to={resultsHref(row.id)} className="ml-2 text-blue-600 hover:underline">
                            View progress
                          </Link>
                        )}
                      </div>
                    )}
                  </td>
                  <td className="px-4 py-3 text-right">
                    <RowActions row={row} own={row.userId === viewerId} redirectTo={`/history?page=${history.page}`} />
                  </td>
                </tr>
              ))}
            </DataTable>
            <Pagination
              page={history.page}
              pageCount={history.pageCount}
              total={history.total}
              pageSize={history.pageSize}
              noun="operations"
              onlyWhenSeveralPages
              href={(p) => `/history?page=${p}`}
            />
          </>
        )}
      </section>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
