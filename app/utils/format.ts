/**
 * The one formatting module for numbers, money, sizes and dates, shared by server, browser, e-mails and exports.
 * Locale en-US. Dates on screens are shown in the viewer's time zone with the zone named ("Nov 05, 2026, 3:04 PM
 * EST"); the zone comes from app/utils/time-zone.tsx (`useTimeZone()`, UTC until the browser has said). Texts
 * built on the server without a viewer (e-mails, messages) use UTC; CSV exports use `isoTimestamp`.
 */
import {
  CONTAINER_REASON,
  INTERNAL_DNC_REASON,
  LIST_TYPES,
  SUPPRESSION_LIST_TYPES,
  type SuppressionTypeName,
  INVALID_REASON_LABELS,
} from "scrub-service/domain";

export function formatNumber(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** A fraction (0..1) as a percentage with one decimal: 0.8765 → "87.7%". */
export function formatRate(fraction: number): string {
  const v = Number.isFinite(fraction) ? fraction * 100 : 0;
  return `${v.toFixed(1)}%`;
}

/** Shown when the viewer's time zone is unknown (no cookie yet, JavaScript off): named on screen as "UTC". */
export const DEFAULT_TIME_ZONE = "UTC";

/** An IANA zone name the runtime knows ("America/New_York"), checked before it reaches Intl. */
export function isValidTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const zone = isValidTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const key = `${zone}|${withTime}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "short",
      day: "2-digit",
      ...(withTime ? { hour: "numeric", minute: "2-digit", hour12: true, timeZoneName: "short" } : {}),
    });
    formatters.set(key, f);
  }
  return f;
}

function toDate(value: Date | string | null | undefined): Date | null {
  if (value == null) return null;
  const d = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? null : d;
}

function dateParts(d: Date, timeZone: string, withTime: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of formatter(timeZone, withTime).formatToParts(d)) out[p.type] = p.value;
  return out;
}

/** MMM dd, yyyy (the spec's date display) in the given zone: "Nov 05, 2026"; "N/A" when absent. */
export function formatDate(value: Date | string | null | undefined, timeZone: string = DEFAULT_TIME_ZONE): string {
  const d = toDate(value);
  if (!d) return "N/A";
  const p = dateParts(d, timeZone, false);
  return `${p.month} ${p.day}, ${p.year}`;
}

/** The same date with the time and the zone named: "Nov 05, 2026, 3:04 PM EST"; "N/A" when absent. */
export function formatDateTime(value: Date | string | null | undefined, timeZone: string = DEFAULT_TIME_ZONE): string {
  const d = toDate(value);
  if (!d) return "N/A";
  const p = dateParts(d, timeZone, true);
  return `${p.month} ${p.day}, ${p.year}, ${p.hour}:${p.minute} ${p.dayPeriod} ${p.timeZoneName}`;
}

/** A calendar day (yyyy-MM-dd, no zone) as "Nov 05". */
export function formatDay(isoDay: string): string {
  const p = dateParts(new Date(`${isoDay}T12:00:00Z`), "UTC", false);
  return `${p.month} ${p.day}`;
}

/** ISO-8601 with its offset, to the second, for CSV exports and machine-read text: "2026-11-05T20:04:05+00:00". */
export function isoTimestamp(value: Date | string | null | undefined): string {
  const d = toDate(value);
  return d ? d.toISOString().replace(/\.\d{3}Z$/, "+00:00") : "";
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${+(n / (1024 * 1024 * 1024)).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

export const SUPPRESSION_LABEL = Object.fromEntries(SUPPRESSION_LIST_TYPES.map((t) => [t.suppressionType, t.label])) as Record<SuppressionTypeName, string>;

export const REASON_LABEL: Record<string, string> = {
  ...Object.fromEntries(LIST_TYPES.map((t) => [t.kind, t.reasonLabel])),
  [CONTAINER_REASON.reason]: CONTAINER_REASON.label,
  [INTERNAL_DNC_REASON.reason]: INTERNAL_DNC_REASON.label,
  duplicate: "Duplicate in file",
  state: "Outside chosen states",
  ...INVALID_REASON_LABELS,
};

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
