import { Link } from "@remix-run/react";

/** Page numbers with ellipses: 1 … 4 5 6 … 20 (all pages when there are few). */
export function pageItems(page: number, pageCount: number): (number | "…")[] {
  if (pageCount <= 7) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const items: (number | "…")[] = [1];
  const start = Math.max(2, page - 1);
  const end = Math.min(pageCount - 1, page + 1);
  if (start > 2) items.push("…");
  for (let p = start; p <= end; p++) items.push(p);
  if (end < pageCount - 1) items.push("…");
  items.push(pageCount);
  return items;
}

const linkCls = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50";
const disabledCls = "rounded-md border border-slate-200 bg-slate-50 px-3 py-1.5 text-sm text-slate-400";

export function Pagination({
  page,
  pageCount,
  total,
  pageSize,
  noun,
  href,
}: {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  noun: string;
  href: (page: number) => string;
}) {
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3">
      <p className="text-sm text-slate-600" data-testid="pagination-summary">
        Showing {from} to {to} of {total} {noun}
      </p>
      {pageCount > 1 && (
        <ul className="flex flex-wrap items-center gap-1">
          <li>
            {page > 1 ? (
              <Link to={href(page - 1)} className={linkCls} rel="prev">
                Previous
              </Link>
            ) : (
              <span className={disabledCls} aria-disabled="true">
                Previous
              </span>
            )}
          </li>
          {pageItems(page, pageCount).map((p, i) =>
            p === "…" ? (
              <li key={`e${i}`} className="px-2 text-slate-400" aria-hidden>
                …
              </li>
            ) : (
              <li key={p}>
                <Link
                  to={href(p)}
                  aria-current={p === page ? "page" : undefined}
                  className={p === page ? "rounded-md bg-slate-900 px-3 py-1.5 text-sm text-white" : linkCls}
                >
                  {p}
                </Link>
              </li>
            ),
          )}
          <li>
            {page < pageCount ? (
              <Link to={href(page + 1)} className={linkCls} rel="next">
                Next
              </Link>
            ) : (
              <span className={disabledCls} aria-disabled="true">
                Next
              </span>
            )}
          </li>
        </ul>
      )}
    </nav>
  );
}
