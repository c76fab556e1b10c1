import type { Kysely } from "kysely";
import type { Database } from "db/schema";

/** Admin settings of the proof features (decision 110). */
export interface ProofSettings {
  /** Purges that include the DNC list refuse to start while the list is older than 31 days. */
  refuseStaleDnc: boolean;
  /** Result files are deleted this many days after the purge (null: kept); certificates are never deleted. */
  resultRetentionDays: number | null;
}

export const DEFAULT_SETTINGS: ProofSettings = { refuseStaleDnc: false, resultRetentionDays: null };

export async function getSettings(db: Kysely<Database>): Promise<ProofSettings> {
  const rows = await db.selectFrom("app_settings").select(["name", "value"]).where("name", "in", ["refuseStaleDnc", "resultRetentionDays"]).execute();
  const s = { ...DEFAULT_SETTINGS };
  for (const r of rows) {
    const v = typeof r.value === "string" ? JSON.parse(r.value) : r.value;
    if (r.name === "refuseStaleDnc") s.refuseStaleDnc = v === true;
    if (r.name === "resultRetentionDays") s.resultRetentionDays = typeof v === "number" && v > 0 ? v : null;
  }
  return s;
}

export async function saveSettings(db: Kysely<Database>, settings: ProofSettings, userId: string): Promise<void> {
  for (const [name, value] of Object.entries(settings)) {
    await db
      .insertInto("app_settings")
      .values({ name, value: JSON.stringify(value), updated_by: userId })
      .onConflict((oc) => oc.column("name").doUpdateSet({ value: JSON.stringify(value), updated_by: userId, updated_at: new Date() }))
      .execute();
  }
}
