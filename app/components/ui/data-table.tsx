/** The app's list tables: a frame that scrolls sideways, a grey upper-case header row and a divided body. */

export interface DataTableColumn {
  label: React.ReactNode;
  /** Alignment or visibility, e.g. "text-right", "hidden md:table-cell". */
  className?: string;
}

type FrameProps = Omit<React.HTMLAttributes<HTMLDivElement>, "className" | "children">;

export function DataTable({
  columns,
  head,
  headerCellClass,
  className,
  children,
  ...frame
}: {
  /** Plain header cells; `head` adds cells of your own (e.g. sort links) after them. */
  columns?: DataTableColumn[];
  head?: React.ReactNode;
  /** Padding of the plain header cells (default px-4 py-3). */
  headerCellClass?: string;
  /** More classes for the frame (border, opacity while loading). */
  className?: string;
  children: React.ReactNode;
} & FrameProps) {
  return (
    <div className={className ? `overflow-x-auto ${className}` : "overflow-x-auto"} {...frame}>
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr>
            {columns?.map((c, i) => (
              <HeaderCell key={i} padding={headerCellClass} className={c.className}>
                {c.label}
              </HeaderCell>
            ))}
            {head}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

/** A column header (`scope="col"`). */
export function HeaderCell({
  padding = "px-4 py-3",
  className,
  children,
  ...rest
}: { padding?: string; className?: string; children: React.ReactNode } & Omit<React.ThHTMLAttributes<HTMLTableCellElement>, "className" | "children">) {
  return (
    <th scope="col" className={className ? `${padding} ${className}` : padding} {...rest}>
      {children}
    </th>
  );
}

/** The one row of an empty table; its message stays in view on phones, where the table scrolls sideways. */
export function EmptyTableRow({ colSpan, className, children }: { colSpan: number; className: string; children: React.ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className={className}>
        {/* 3rem rail + page padding */}
        <div className="sticky left-4 max-w-[calc(100vw-7rem)] md:max-w-none">{children}</div>
      </td>
    </tr>
  );
}
