import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { ageInDays, REGISTRY_VALID_DAYS, REGISTRY_WARN_DAYS, validUntil } from "../../scrub-service/src/certificate/document";
import { getSettings } from "./settings.server";

export { REGISTRY_VALID_DAYS, REGISTRY_WARN_DAYS };

/** The DNC registry clock: how old the DNC list's registry download is (decision 110). */
export interface DncClock {
  registryDate: string | null;
  ageDays: number | null;
  /** never: no registry date yet; fresh; warning: 25 days or more; stale: older than 31 days. */
  state: "never" | "fresh" | "warning" | "stale";
  /** A purge run now is valid for calls until then. */
  validUntil: string | null;
  version: number;
}

export function clockOf(registryDate: Date | null, version: number, now: Date): DncClock {
  if (!registryDate) return { registryDate: null, ageDays: null, state: "never", validUntil: null, version };
  const ageDays = ageInDays(registryDate, now);
  const state = ageDays > REGISTRY_VALID_DAYS ? "stale" : ageDays >= REGISTRY_WARN_DAYS ? "warning" : "fresh";
  return { registryDate: registryDate.toISOString(), ageDays, state, validUntil: validUntil(registryDate).toISOString(), version };
}

export async function dncClock(db: Kysely<Database>, now: Date = new Date()): Promise<DncClock> {
  const row = await db.selectFrom("lists").select(["registry_date", "version"]).where("kind", "=", "dnc").executeTakeFirstOrThrow();
  return clockOf(row.registry_date, Number(row.version), now);
}

export function staleDncMessage(clock: DncClock): string {
  return `The DNC list is ${clock.ageDays} days old (registry date ${clock.registryDate?.slice(0, 10)}): purges that include DNC are refused past ${REGISTRY_VALID_DAYS} days until an admin loads a newer registry download.`;
}

/** The refusal an admin can switch on: null when a DNC purge may start now, else the message. */
export async function staleDncRefusal(db: Kysely<Database>, now: Date = new Date()): Promise<string | null> {
  const [settings, clock] = await Promise.all([getSettings(db), dncClock(db, now)]);
  return settings.refuseStaleDnc && clock.state === "stale" ? staleDncMessage(clock) : null;
}
