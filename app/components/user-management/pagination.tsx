import { Link } from "@remix-run/react";
import { pageLinks } from "~/utils/user-permissions";

const linkBase = "inline-flex min-w-9 items-center justify-center rounded-md border px-3 py-1.5 text-sm";
const enabled = `${linkBase} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`;
const current = `${linkBase} border-blue-600 bg-blue-600 text-white`;
const disabled = `${linkBase} cursor-not-allowed border-slate-200 bg-slate-50 text-slate-400`;

/** Showing X to Y of N users, Previous, first/last/±2 page links with ellipses, Next. Plain links: works without JS. */
export function Pagination({
  page,
  pageCount,
  total,
  pageSize,
  hrefFor,
  noun = "users",
}: {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  hrefFor: (page: number) => string;
  noun?: string;
}) {
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3">
      <p className="text-sm text-slate-600" data-testid="pagination-summary">
        Showing {from} to {to} of {total} {noun}
      </p>
      <div className="flex flex-wrap items-center gap-1">
        {page > 1 ? (
          <Link to={hrefFor(page - 1)} className={enabled} rel="prev">
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
            <Link key={p} to={hrefFor(p)} className={enabled} aria-label={`Page ${p}`}>
              {p}
            </Link>
          ),
        )}
        {page < pageCount ? (
          <Link to={hrefFor(page + 1)} className={enabled} rel="next">
            Next
          </Link>
        ) : (
          <span className={disabled} aria-disabled="true">
            Next
          </span>
        )}
      </div>
    </nav>
  );
}
