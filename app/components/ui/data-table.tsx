import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";

/**
 * The app's list tables: a grey upper-case header row and a divided body. Below 768px each row becomes a
 * card (`.data-table` in tailwind.css): every cell on its own line, labelled with its column's name, so
 * Status, downloads and actions are in view without sideways scrolling. Cells get the label from
 * `columns` (string labels) or `cardLabels`; rows must be `<tr>` elements with `<td>` children.
 */

export interface DataTableColumn {
  label: React.ReactNode;
  /** Alignment or visibility, e.g. "text-right", "hidden md:table-cell". */
  className?: string;
}

type FrameProps = Omit<React.HTMLAttributes<HTMLDivElement>, "className" | "children">;

/** Puts each column's name on its cells (`data-label`) for the phone card layout. */
function labelCells(rows: ReactNode, labels: string[]): ReactNode {
  return Children.map(rows, (row) => {
    if (!isValidElement(row) || row.type !== "tr") return row;
    const tr = row as ReactElement<{ children?: ReactNode }>;
    const cells = Children.map(tr.props.children, (cell, i) =>
      isValidElement(cell) && cell.type === "td" && labels[i] ? cloneElement(cell as ReactElement<Record<string, unknown>>, { "data-label": labels[i] }) : cell,
    );
    return cloneElement(tr, {}, cells);
  });
}

export function DataTable({
  columns,
  head,
  cardLabels,
  headerCellClass,
  className,
  children,
  ...frame
}: {
  /** Plain header cells; `head` adds cells of your own (e.g. sort links) after them. */
  columns?: DataTableColumn[];
  head?: React.ReactNode;
  /** Column names for the phone cards when the header is built with `head` (or to override `columns`). */
  cardLabels?: string[];
  /** Padding of the plain header cells (default px-4 py-3). */
  headerCellClass?: string;
  /** More classes for the frame (border, opacity while loading). */
  className?: string;
  children: React.ReactNode;
} & FrameProps) {
  const labels = cardLabels ?? columns?.map((c) => (typeof c.label === "string" ? c.label : ""));
  return (
    <div className={className ? `data-table overflow-x-auto ${className}` : "data-table overflow-x-auto"} {...frame}>
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
        <tbody className="divide-y divide-slate-100">{labels ? labelCells(children, labels) : children}</tbody>
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

/** The one row of an empty table; its message stays in view if the table scrolls sideways. */
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
