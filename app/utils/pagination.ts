/**
 * Page links for every paginated screen: the first, the last and those within 2 of the current page,
 * with "ellipsis" for each gap (1 … 4 5 6 7 8 … 12).
 */
export function pageLinks(page: number, pageCount: number): Array<number | "ellipsis"> {
  const out: Array<number | "ellipsis"> = [];
  let last = 0;
  for (let p = 1; p <= pageCount; p++) {
    if (p === 1 || p === pageCount || Math.abs(p - page) <= 2) {
      if (last && p - last > 1) out.push("ellipsis");
      out.push(p);
      last = p;
    }
  }
  return out;
}

/** The 1-based first and last row numbers shown on a page ("Showing 0 to 0" when there are none). */
export function pageRange(page: number, pageSize: number, total: number): { from: number; to: number } {
  return { from: total === 0 ? 0 : (page - 1) * pageSize + 1, to: Math.min(page * pageSize, total) };
}
