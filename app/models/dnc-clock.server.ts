import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import {
  ageInDays,
  REGISTRY_VALID_DAYS,
  REGISTRY_WARN_DAYS,
  validUntil,
  listTypeOfKind,
  STATE_LIST_KINDS,
  type AdminListKind,
} from "scrub-service/domain";
import { staleListRefusal } from "scrub-service";

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

/** A loaded state do-not-call list's age against its own freshness rule (decision 160's `validDays`). */
export interface StateListClock {
  kind: string;
  name: string;
  registryDate: string;
  ageDays: number;
  validDays: number;
  /** fresh; warning: within a week of its limit; stale: past it. */
  state: "fresh" | "warning" | "stale";
}

/** Every state list that has been loaded (it has a registry date), oldest first. Lists never loaded are not checked. */
export async function stateListClocks(db: Kysely<Database>, now: Date = new Date()): Promise<StateListClock[]> {
  const rows = await db.selectFrom("lists").select(["kind", "registry_date"]).where("kind", "in", STATE_LIST_KINDS).where("registry_date", "is not", null).execute();
  return rows
    .map((r) => {
      const type = listTypeOfKind(r.kind as AdminListKind);
      const validDays = "state" in type ? type.state.validDays : REGISTRY_VALID_DAYS;
      const ageDays = ageInDays(r.registry_date!, now);
      const state = ageDays > validDays ? "stale" : ageDays >= validDays - 7 ? "warning" : "fresh";
      return { kind: r.kind, name: type.name, registryDate: r.registry_date!.toISOString(), ageDays, validDays, state } as const;
    })
    .sort((a, b) => b.ageDays - a.ageDays);
}

/**
 * The refusal an admin can switch on ("refuse stale DNC"): null when a DNC purge may start now, else the message
 * naming every stale list at once (the federal list and each loaded state list against its own rule). The engine's
 * one check (scrub-service `staleListRefusal`), which the scrub service also runs for the CLI and at every job's
 * start (decision 174).
 */
export function staleDncRefusal(db: Kysely<Database>, now: Date = new Date()): Promise<string | null> {
  return staleListRefusal(db, "DNCAndLitigation", now);
}
