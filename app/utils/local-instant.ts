import { instantOf, isKnownZone } from "scrub-service/domain";

/**
 * A wall-clock time in a zone ("2026-11-30T08:00" in America/New_York, as a datetime-local field gives it) as the
 * instant it names, ISO to the second ("2026-11-30T13:00:00Z"); null when the text is no such time or the zone is
 * unknown. Read with the engine's clock, as the calling rules read wall time: a time a fall-back repeats is its
 * first occurrence, a time in a spring-forward gap is the gap's end (02:30 → 03:00 daylight time).
 */
export function instantOfLocal(local: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!m || !isKnownZone(zone)) return null;
  const [y, mo, d, h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return new Date(instantOf(zone, y, mo, d, h * 60 + mi) + s * 1000).toISOString().replace(".000Z", "Z");
}
