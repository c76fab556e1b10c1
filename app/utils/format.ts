/**
 * The one formatting module for numbers, money, sizes and dates, shared by server, browser, e-mails and exports
 * (fixed locale and UTC, so server and client render the same text).
 */
import { CONTAINER_REASON, LIST_TYPES, type SuppressionTypeName } from "../../scrub-service/src/list-types";
import { INVALID_REASON_LABELS } from "../../scrub-service/src/worker/invalid-reasons";

export function formatNumber(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** A fraction (0..1) as a percentage with one decimal: 0.8765 → "87.7%". */
export function formatRate(fraction: number): string {
  const v = Number.isFinite(fraction) ? fraction * 100 : 0;
  return `${v.toFixed(1)}%`;
}

/** "Nov 21, 2026, 11:46 PM UTC" — always UTC so server and browser agree. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return `${d.toLocaleString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: "UTC",
  })} UTC`;
}

export function formatDay(isoDay: string): string {
  return new Date(`${isoDay}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${+(n / (1024 * 1024 * 1024)).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

export const SUPPRESSION_LABEL = Object.fromEntries(LIST_TYPES.map((t) => [t.suppressionType, t.label])) as Record<
  SuppressionTypeName,
  string
>;

export const REASON_LABEL: Record<string, string> = {
  ...Object.fromEntries(LIST_TYPES.map((t) => [t.kind, t.reasonLabel])),
  [CONTAINER_REASON.reason]: CONTAINER_REASON.label,
  duplicate: "Duplicate in file",
  state: "Outside chosen states",
  ...INVALID_REASON_LABELS,
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** MMM dd, yyyy in UTC (the spec's date display), e.g. Nov 05, 2026; "N/A" when absent. */
export function formatDate(value: Date | string | null | undefined): string {
  if (value == null) return "N/A";
  const d = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return "N/A";
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, "0")}, ${d.getUTCFullYear()}`;
}

/** yyyy-MM-dd in UTC. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** USD, en-US: $1,000 for whole dollars, $12.50 otherwise. */
export function formatUsd(cents: number): string {
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}

const STATUS_LABEL = { queued: "Queued", running: "Processing", retrying: "Retrying", completed: "Completed", failed: "Failed" } as const;
/** A purge job's status as shown in tables. */
export const jobStatusLabel = (s: keyof typeof STATUS_LABEL): string => STATUS_LABEL[s];

/** A bad or invalid reason for people: "invalid_area_code" → "Invalid area code". */
export function reasonLabel(reason: string): string {
  const known = REASON_LABEL[reason];
  if (known) return known;
  const words = reason.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What an upload was read as, in one line for the column step: "Excel workbook (.xlsx), sheet Leads",
 * "CSV, UTF-16LE, tab-delimited", "gzip-compressed CSV, UTF-8, comma-delimited".
 */
export function inputSummary(input: { format: string; encoding: string; delimiter: string; sheet: string | null }): string {
  if (input.sheet !== null) return `${input.format}, sheet ${input.sheet}`;
  return `${input.format}, ${input.encoding}, ${input.delimiter}-delimited`;
}
