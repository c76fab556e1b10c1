import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import {
  REGISTRY_VALID_DAYS,
  REGISTRY_WARN_DAYS,
  listTypeOfKind,
  listFreshness,
  freshnessTone,
  STATE_LIST_KINDS,
  type AdminListKind,
} from "scrub-service/domain";

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
  // the one tone rule of every list with a freshness rule (the federal list: amber from day 25, red after 31)
  const f = listFreshness("dnc", registryDate, now)!;
  return { registryDate: f.registryDate, ageDays: f.ageDays, state: freshnessTone(f), validUntil: f.validUntil, version };
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
  /** registry date + the list's rule: the last day calls may rely on this release. */
  validUntil: string;
  /** fresh; warning: within a week of its limit; stale: past it (`freshnessTone`). */
  state: "fresh" | "warning" | "stale";
}

/** A loaded list's clock against its own freshness rule, or null (no rule, or never loaded). */
export function listClockOf(kind: string, registryDate: Date | string | null, now: Date): StateListClock | null {
  const f = listFreshness(kind, registryDate, now);
  if (!f) return null;
  const name = listTypeOfKind(kind as AdminListKind).name;
  return { kind, name, registryDate: f.registryDate, ageDays: f.ageDays, validDays: f.ruleDays, validUntil: f.validUntil, state: freshnessTone(f) };
}

/** Every state list that has been loaded (it has a registry date), oldest first. Lists never loaded are not checked. */
export async function stateListClocks(db: Kysely<Database>, now: Date = new Date()): Promise<StateListClock[]> {
  const rows = await db
    .selectFrom("lists")
    .select(["kind", "registry_date"])
    .where("kind", "in", STATE_LIST_KINDS)
    .where("registry_date", "is not", null)
    .execute();
  return rows
    .map((r) => listClockOf(r.kind, r.registry_date, now))
    .filter((c): c is StateListClock => c !== null)
    .sort((a, b) => b.ageDays - a.ageDays);
}
