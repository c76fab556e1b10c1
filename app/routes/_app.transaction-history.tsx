import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { listUserTransactions } from "~/models/transaction.server";
import { PageHeader } from "~/components/ui/page-header";
import { inputClass, secondaryButtonClass } from "~/components/ui/form";
import { formatNumber, formatUsd } from "~/utils/format";
import { DataTable, EmptyTableRow, HeaderCell } from "~/components/ui/data-table";
import { StatusBadge } from "~/components/ui/status-badge";
import { Pagination, paginationBelowClass } from "~/components/ui/pagination";
import { HISTORY_PAGE_SIZE, parseHistoryParams, type HistorySort } from "~/billing/transaction-history";
import { DateOnly } from "~/components/ui/date-time";

export const meta: MetaFunction = () => [{ title: "Transaction History · Data Purging Tool" }];

/** The signed-in user's own transactions; every bit of state (page, sort, date) is in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const params = parseHistoryParams(new URL(request.url).searchParams);
  const query = { userId: user.id, date: params.date, sort: params.sort, dir: params.dir, pageSize: HISTORY_PAGE_SIZE };
  let page = params.page;
  let result = await listUserTransactions(db, { ...query, page });
  const pageCount = Math.max(1, Math.ceil(result.total / HISTORY_PAGE_SIZE));
  if (page > pageCount) {
    page = pageCount;
    result = await listUserTransactions(db, { ...query, page });
  }
  return {
    ...params,
    page,
    pageCount,
    total: result.total,
    rows: result.rows.map((t) => ({
      id: t.id,
      planName: t.planName,
      amountCents: t.amountCents,
      createdAt: t.createdAt.toISOString(),
      startDate: t.startDate?.toISOString() ?? null,
      endDate: t.endDate?.toISOString() ?? null,
      status: t.status,
      description: t.description,
      dnc: t.dncAndLitigationScrubs,
      container: t.customDatasetRecords,
      reference: t.transferReference,
    })),
  };
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return "NA";
  return parts
    .slice(0, 2)
    .map((p) => p.charAt(0).toUpperCase())
    .join("");
}

export default function TransactionHistory() {
  const { rows, total, page, pageCount, sort, dir, date } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const submit = useSubmit();
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/transaction-history";

  const href = (patch: Record<string, string | null>) => {
    const p = new URLSearchParams(searchParams);
    for (const [k, v] of Object.entries(patch)) {
      if (v == null || v === "") p.delete(k);
      else p.set(k, v);
    }
    const s = p.toString();
    return `/transaction-history${s ? `?${s}` : ""}`;
  };
  const exportParams = new URLSearchParams();
  if (date) exportParams.set("date", date);
  exportParams.set("sort", sort);
  exportParams.set("dir", dir);

  const exportDisabled = loading || total === 0;

  function SortHeader({ column, label, className = "" }: { column: HistorySort; label: string; className?: string }) {
    const activeSort = sort === column;
    const nextDir = activeSort && dir === "desc" ? "asc" : activeSort ? "desc" : column === "createdAt" ? "desc" : "asc";
    return (
      <HeaderCell className={className} aria-sort={activeSort ? (dir === "asc" ? "ascending" : "descending") : "none"}>
        <Link to={href({ sort: column, dir: nextDir, page: null })} className="inline-flex items-center gap-1 hover:text-slate-900">
          {label}
          <span aria-hidden className={activeSort ? "text-slate-900" : "text-slate-300"}>
            {activeSort ? (dir === "asc" ? "▲" : "▼") : "↕"}
          </span>
        </Link>
      </HeaderCell>
    );
  }

  return (
    <div>
      <PageHeader
        title="Transaction History"
        subtitle="View your subscription and payment history"
        actions={
          <>
            <Link to={href({})} className={secondaryButtonClass} reloadDocument={false}>
              Refresh
            </Link>
            {exportDisabled ? (
              <button type="button" disabled className={secondaryButtonClass}>
                Export CSV
              </button>
            ) : (
              <a href={`/transaction-history/export?${exportParams}`} className={secondaryButtonClass} download>
                Export CSV
              </a>
            )}
          </>
        }
      />

      <Form method="get" className="mb-4 flex flex-wrap items-end gap-2" role="search">
        <input type="hidden" name="sort" value={sort} />
        <input type="hidden" name="dir" value={dir} />
        <div>
          <label htmlFor="history-date" className="mb-1 block text-sm font-medium text-slate-700">
            Purchase date
          </label>
          <input
            id="history-date"
            type="date"
            name="date"
            defaultValue={date ?? ""}
            key={date ?? ""}
            className={`${inputClass} w-48`}
            onChange={(e) => {
              // With JavaScript the table reloads as soon as a whole date is picked; without it, Apply submits.
              const v = e.currentTarget.value;
              if (v === "" || (/^\d{4}-\d{2}-\d{2}$/.test(v) && v >= "1900")) submit(e.currentTarget.form);
            }}
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Apply
        </button>
        {date && (
          <Link to={href({ date: null, page: null })} className="px-2 py-2 text-sm text-blue-600 hover:underline">
            Clear date
          </Link>
        )}
      </Form>

      <DataTable
        className={`rounded-xl border border-slate-200 bg-white shadow-sm ${loading ? "opacity-60" : ""}`}
        aria-busy={loading}
        cardLabels={["Plan", "Amount", "Purchase Date", "Status", "Start Date", "Features"]}
        head={
          <>
            <SortHeader column="planName" label="Plan" />
            <SortHeader column="amount" label="Amount" />
            <SortHeader column="createdAt" label="Purchase Date" />
            <SortHeader column="status" label="Status" />
            <SortHeader column="startDate" label="Start Date" className="hidden md:table-cell" />
            <HeaderCell>Features</HeaderCell>
          </>
        }
      >
        {rows.length === 0 ? (
          <EmptyTableRow colSpan={6} className="px-4 py-12 text-center">
            <p className="font-medium text-slate-900">No transactions found</p>
            <p className="mt-1 text-slate-500">No transaction history available</p>
          </EmptyTableRow>
        ) : (
          rows.map((t) => (
            <tr key={t.id} data-testid="transaction-row">
              <td className="px-4 py-3">
                <div className="flex items-center gap-3">
                  <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-blue-100 text-xs font-semibold text-blue-800">
                    {initials(t.planName || "N/A")}
                  </span>
                  <div>
                    <div className="font-medium text-slate-900">{t.planName || "N/A"}</div>
                    <div className="text-xs text-slate-500">
                      {formatUsd(t.amountCents)} · ends <DateOnly value={t.endDate} />
                    </div>
                  </div>
                </div>
              </td>
              <td className="px-4 py-3 font-medium">{formatUsd(t.amountCents)}</td>
              <td className="px-4 py-3">
                <DateOnly value={t.createdAt} />
              </td>
              <td className="px-4 py-3">
                <StatusBadge status={t.status} data-status={t.status} />
              </td>
              <td className="hidden px-4 py-3 md:table-cell">
                <DateOnly value={t.startDate} />
              </td>
              <td className="px-4 py-3 text-xs text-slate-600">
                <div>DNC: {formatNumber(t.dnc)}</div>
                <div>Container: {formatNumber(t.container)}</div>
                <div className="text-slate-500">{t.description}</div>
                <div className="text-slate-500">
                  Reference: <span className="font-mono">{t.reference}</span>
                </div>
                {t.status === "pendingpayment" && (
                  <Link to={`/pricing/payment/${t.id}`} className="text-blue-600 hover:underline">
                    Payment instructions
                  </Link>
                )}
              </td>
            </tr>
          ))
        )}
      </DataTable>

      <Pagination
        page={page}
        pageCount={pageCount}
        total={total}
        pageSize={HISTORY_PAGE_SIZE}
        noun="transactions"
        href={(p) => href({ page: String(p) })}
        onlyWhenSeveralPages
        className={paginationBelowClass}
      />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error-boundary";
