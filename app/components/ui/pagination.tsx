import { Link } from "@remix-run/react";
import { pageLinks, pageRange } from "~/utils/pagination";

const linkBase = "inline-flex min-w-9 items-center justify-center rounded-md border px-3 py-1.5 text-sm";
const enabled = `${linkBase} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`;
const current = `${linkBase} border-blue-600 bg-blue-600 text-white`;
const disabled = `${linkBase} cursor-not-allowed border-slate-200 bg-slate-50 text-slate-400`;

/** Inside a table card (a footer row) or below it. */
export const paginationFooterClass = "border-t border-slate-200 px-4 py-3";
export const paginationBelowClass = "mt-4";

/**
 * The one pagination of the app: "Showing X to Y of N {noun}", Previous, page links (first, last, ±2, with
 * ellipses), Next. Plain links, so it works without JavaScript. `onlyWhenSeveralPages` hides the controls
 * (not the summary) when everything fits on one page.
 */
export function Pagination({
  page,
  pageCount,
  total,
  pageSize,
  noun,
  href,
  onlyWhenSeveralPages = false,
  className = paginationFooterClass,
}: {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  noun: string;
  href: (page: number) => string;
  onlyWhenSeveralPages?: boolean;
  className?: string;
}) {
  const { from, to } = pageRange(page, pageSize, total);
  return (
    <nav aria-label="Pagination" className={`flex flex-wrap items-center justify-between gap-3 ${className}`}>
      <p className="text-sm text-slate-600" data-testid="pagination-summary">
        Showing {from} to {to} of {total} {noun}
      </p>
      {(pageCount > 1 || !onlyWhenSeveralPages) && (
        <div className="flex flex-wrap items-center gap-1">
          {page > 1 ? (
            <Link to={href(page - 1)} className={enabled} rel="prev">
              Previous
            </Link>
          ) : (
            <span className={disabled} aria-disabled="true">
              Previous
            </span>
          )}
          {pageLinks(page, pageCount).map((p, i) =>
            p === "ellipsis" ? (
              <span key={`e${i}`} className="px-2 text-slate-500" aria-hidden>
                …
              </span>
            ) : p === page ? (
              <span key={p} className={current} aria-current="page">
                {p}
              </span>
            ) : (
              <Link key={p} to={href(p)} className={enabled} aria-label={`Page ${p}`}>
                {p}
              </Link>
            ),
          )}
          {page < pageCount ? (
            <Link to={href(page + 1)} className={enabled} rel="next">
              Next
            </Link>
          ) : (
            <span className={disabled} aria-disabled="true">
              Next
            </span>
          )}
        </div>
      )}
    </nav>
  );
}
