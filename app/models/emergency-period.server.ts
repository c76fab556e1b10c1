/**
 * Emergency no-call periods (decision 181) for the app: the admin screen's list, add and remove, /rules' list, and the
 * live lookup's calling table. The queries are the engine's (scrub-service/src/emergency-periods.ts), shared with the
 * scrub job and the CLI.
 */
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import {
  addEmergencyPeriod,
  cachedWithEmergencyPeriods,
  callingClassTable,
  emergencyPeriodsAt,
  insertEmergencyPeriod,
  listEmergencyPeriods,
  periodsAround,
  removeEmergencyPeriod,
  type EmergencyClassTable,
  type EmergencyPeriod,
  type StoredEmergencyPeriod,
} from "scrub-service";

export { addEmergencyPeriod, listEmergencyPeriods, removeEmergencyPeriod, type StoredEmergencyPeriod };

/** Stores a period already checked (parseEmergencyPeriod), entered by this admin. */
export const insertEmergencyPeriodFor = insertEmergencyPeriod;

/** How long the lookup reuses the periods it read (an added or removed period reaches lookups within this). */
export const LOOKUP_PERIODS_TTL_MS = 5_000;
let cached: { at: number; periods: EmergencyPeriod[] } | null = null;

/** Forget the lookup's copy (after an add or a remove in this process, and in tests). */
export function forgetEmergencyPeriods(): void {
  cached = null;
}

/**
 * The calling classes a lookup at `atMs` answers from: the periods not over at that instant applied. The periods are
 * read at most every LOOKUP_PERIODS_TTL_MS (every period not yet over now; those over at `atMs` filtered here).
 */
export async function lookupCallingTable(db: Kysely<Database>, atMs: number): Promise<EmergencyClassTable> {
  const now = Date.now();
  if (!cached || now - cached.at > LOOKUP_PERIODS_TTL_MS) cached = { at: now, periods: await emergencyPeriodsAt(db, new Date(now)) };
  // `at` is never before now (the lookup refuses it), so the periods not over now include those at `at`
  return cachedWithEmergencyPeriods(callingClassTable(), periodsAround(cached.periods, atMs));
}
