/** Grey: any status without a colour of its own. */
const GREY = "bg-slate-100 text-slate-700 ring-slate-200";
const GREEN = "bg-green-100 text-green-800 ring-green-200";
const RED = "bg-red-100 text-red-800 ring-red-200";
const YELLOW = "bg-yellow-100 text-yellow-800 ring-yellow-200";

/**
 * Spec colours of transactions and users: active, paid and Active green; expired, failed, rejected and
 * Blocked red; pending, pendingpayment and Pending yellow; anything else grey.
 */
export const STATUS_COLOURS: Readonly<Record<string, string>> = {
  active: GREEN,
  paid: GREEN,
  Active: GREEN,
  expired: RED,
  failed: RED,
  rejected: RED,
  Blocked: RED,
  pending: YELLOW,
  pendingpayment: YELLOW,
  Pending: YELLOW,
};

/** Words for the statuses stored as codes (transactions); a status that is already a word shows as it is. */
export const STATUS_WORDS: Readonly<Record<string, string>> = {
  active: "Active",
  paid: "Paid",
  expired: "Expired",
  failed: "Failed",
  rejected: "Rejected",
  pending: "Pending",
  pendingpayment: "Pending payment",
};

export function statusWord(status: string): string {
  return STATUS_WORDS[status] ?? status;
}

/** Purge jobs: the lighter tones of the purge screens. */
export const JOB_STATUS_COLOURS: Readonly<Record<string, string>> = {
  queued: GREY,
  running: "bg-blue-50 text-blue-700 ring-blue-200",
  retrying: "bg-amber-50 text-amber-800 ring-amber-200",
  completed: "bg-green-50 text-green-700 ring-green-200",
  failed: "bg-red-50 text-red-700 ring-red-200",
};

/** The pill's shape: bold in the billing screens, inset in user management and purge history. */
const SHAPES = {
  bold: "rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1",
  boldCompact: "rounded-full px-2 py-0.5 text-xs font-semibold ring-1",
  inset: "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset whitespace-nowrap",
  insetCompact: "inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
} as const;

export type BadgeShape = keyof typeof SHAPES;

type SpanProps = Omit<React.HTMLAttributes<HTMLSpanElement>, "className" | "children"> & { [data: `data-${string}`]: string | undefined };

/** A coloured pill; `colour` holds its background, text and ring classes. */
export function Badge({ colour, shape = "bold", children, ...rest }: { colour: string; shape?: BadgeShape; children: React.ReactNode } & SpanProps) {
  return (
    <span className={`${SHAPES[shape]} ${colour}`} {...rest}>
      {children}
    </span>
  );
}

/** A status pill coloured by `colours` (the spec's map unless told); shows `label`, or else the status in words. */
export function StatusBadge({
  status,
  label = statusWord(status),
  colours = STATUS_COLOURS,
  ...rest
}: { status: string; label?: React.ReactNode; colours?: Readonly<Record<string, string>>; shape?: BadgeShape } & SpanProps) {
  return (
    <Badge colour={colours[status] ?? GREY} {...rest}>
      {label}
    </Badge>
  );
}
