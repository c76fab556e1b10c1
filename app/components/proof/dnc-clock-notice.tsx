import { formatDate } from "~/utils/format";
import { REGISTRY_VALID_DAYS, REGISTRY_WARN_DAYS } from "scrub-service/domain";

export interface DncClockView {
  registryDate: string | null;
  ageDays: number | null;
  state: "never" | "fresh" | "warning" | "stale";
  validUntil: string | null;
}

/**
 * The DNC list's age. `banner` shows only when action is due (25 days or more, or never loaded); `line`
 * always states the age (DNC Management, the dashboard).
 */
export function DncClockNotice({ clock, variant, refusing = false }: { clock: DncClockView; variant: "banner" | "line"; refusing?: boolean }) {
  // Registry dates are calendar days (stated as YYYY-MM-DD): named in UTC, never shifted into the viewer's zone.
  const age =
    clock.state === "never"
      ? "The DNC list has no registry download loaded yet."
      : `DNC list age: ${clock.ageDays} days (registry date ${formatDate(clock.registryDate!)}); purges run now are valid for calls until ${formatDate(clock.validUntil!)}.`;
  if (variant === "line") {
    return (
      <p
        className={`text-sm ${clock.state === "stale" ? "font-medium text-red-700" : clock.state === "warning" ? "text-amber-800" : "text-slate-600"}`}
        data-testid="dnc-age"
      >
        {age}
      </p>
    );
  }
  if (clock.state === "fresh") return null;
  const stale = clock.state === "stale" || clock.state === "never";
  const what = stale
    ? refusing
      ? `Purges that include DNC are refused until an admin loads a registry download less than ${REGISTRY_VALID_DAYS} days old.`
      : `A purge that includes DNC now checks against a list older than the ${REGISTRY_VALID_DAYS} days the safe harbor allows.`
    : `Load a new registry download before it passes ${REGISTRY_VALID_DAYS} days (warning from ${REGISTRY_WARN_DAYS} days).`;
  return (
    <div
      role="alert"
      data-testid="dnc-clock-banner"
      className={`mb-4 rounded-md border px-4 py-3 text-sm ${stale ? "border-red-200 bg-red-50 text-red-800" : "border-amber-200 bg-amber-50 text-amber-900"}`}
    >
      <p className="font-medium">{age}</p>
      <p>{what}</p>
    </div>
  );
}
