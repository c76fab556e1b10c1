import { offsetMinutes } from "./zone-names";

/**
 * A wall-clock time in a zone ("2026-11-30T08:00" in America/New_York, as a datetime-local field gives it) as the
 * instant it names, ISO to the second ("2026-11-30T13:00:00Z"); null when the text is no such time or the zone is
 * unknown. A time in a spring-forward gap moves forward by the gap (02:30 → 03:30 daylight time); a time a fall-back
 * repeats reads as its first occurrence (both as Temporal's "compatible" reading).
 */
export function instantOfLocal(local: string, zone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  const first = offsetMinutes(zone, new Date(wall));
  if (first === null) return null;
  let t = wall - first * 60_000;
  const second = offsetMinutes(zone, new Date(t));
  if (second !== null && second !== first) {
    const other = wall - second * 60_000;
    // the reading that round-trips is the one (the earlier of two: a repeated hour); in a gap neither does: forward
    t = offsetMinutes(zone, new Date(other)) === second ? Math.min(t, other) : Math.max(t, other);
  }
  return new Date(t).toISOString().replace(".000Z", "Z");
}
