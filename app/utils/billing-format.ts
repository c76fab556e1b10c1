/** Formatting shared by the billing screens, e-mails and exports (browser-safe: no server imports). */

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

/** 100,000 */
export function formatCount(n: number): string {
  return new Intl.NumberFormat("en-US").format(n);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** MMM dd, yyyy in UTC (spec date display), e.g. Nov 05, 2026; "N/A" when absent. */
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
