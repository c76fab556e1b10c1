/**
 * Emergency no-call periods in PostgreSQL (migration 0026, decision 181): the queries the scrub job, the CLI
 * (`npm run lists -- emergency …`), the admin screen, /rules and the live lookup share. A removed period keeps its
 * row (removed_at): certificates name periods by id.
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "db/schema";
import { parseEmergencyPeriod, periodsAround, type EmergencyPeriod, type EmergencyPeriodInput, type NewEmergencyPeriod } from "./calling/emergency";

type Db = Kysely<Database>;

/** A stored period with who entered it and when. */
export interface StoredEmergencyPeriod extends EmergencyPeriod {
  createdAt: Date;
  createdBy: string | null;
  removedAt: Date | null;
}

const columns = (db: Db) =>
  db
    .selectFrom("emergency_periods")
    .select([
      "id",
      "states",
      "area_codes",
      sql<string>`first_day::text`.as("first_day"),
      sql<string>`last_day::text`.as("last_day"),
      "authority",
      "source_url",
      "created_at",
      "created_by",
      "removed_at",
    ]);

type Row = {
  id: number;
  states: string[];
  area_codes: number[] | null;
  first_day: string;
  last_day: string;
  authority: string;
  source_url: string;
  created_at: Date;
  created_by: string | null;
  removed_at: Date | null;
};

const fromRow = (r: Row): StoredEmergencyPeriod => ({
  id: Number(r.id),
  states: [...r.states],
  areaCodes: r.area_codes && r.area_codes.length ? r.area_codes.map(Number) : null,
  firstDay: r.first_day,
  lastDay: r.last_day,
  authority: r.authority,
  sourceUrl: r.source_url,
  createdAt: new Date(r.created_at),
  createdBy: r.created_by,
  removedAt: r.removed_at ? new Date(r.removed_at) : null,
});

/** Every period not removed, by first day (with `includeRemoved`, the removed ones too). */
export async function listEmergencyPeriods(db: Db, o: { includeRemoved?: boolean } = {}): Promise<StoredEmergencyPeriod[]> {
  let q = columns(db);
  if (!o.includeRemoved) q = q.where("removed_at", "is", null);
  const rows = (await q.orderBy("first_day").orderBy("id").execute()) as Row[];
  return rows.map(fromRow);
}

/** The periods a scrub or a lookup at `at` applies: not removed, last day not over everywhere (pure data, no dates). */
export async function emergencyPeriodsAt(db: Db, at: Date): Promise<EmergencyPeriod[]> {
  const cutoff = new Date(at.getTime() - 86_400_000).toISOString().slice(0, 10);
  const rows = (await columns(db).where("removed_at", "is", null).where("last_day", ">=", cutoff).orderBy("first_day").orderBy("id").execute()) as Row[];
  return periodsAround(rows.map(fromRow), at.getTime()).map(({ id, states, areaCodes, firstDay, lastDay, authority, sourceUrl }) => ({
    id,
    states,
    areaCodes,
    firstDay,
    lastDay,
    authority,
    sourceUrl,
  }));
}

export type AddEmergencyPeriodResult = { ok: true; period: StoredEmergencyPeriod } | { ok: false; errors: { field: string; message: string }[] };

/** Checks what the operator typed and stores it (parseEmergencyPeriod's messages when it is refused). */
export async function addEmergencyPeriod(db: Db, input: EmergencyPeriodInput, createdBy: string | null = null): Promise<AddEmergencyPeriodResult> {
  const parsed = parseEmergencyPeriod(input);
  if (!parsed.ok) return parsed;
  return { ok: true, period: await insertEmergencyPeriod(db, parsed.value, createdBy) };
}

export async function insertEmergencyPeriod(db: Db, p: NewEmergencyPeriod, createdBy: string | null = null): Promise<StoredEmergencyPeriod> {
  const { id } = await db
    .insertInto("emergency_periods")
    .values({
      states: p.states,
      area_codes: p.areaCodes,
      first_day: p.firstDay,
      last_day: p.lastDay,
      authority: p.authority,
      source_url: p.sourceUrl,
      created_by: createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const row = (await columns(db).where("id", "=", id).executeTakeFirstOrThrow()) as Row;
  return fromRow(row);
}

/** Marks a period removed (its row stays for the certificates); false when there is no such period in force. */
export async function removeEmergencyPeriod(db: Db, id: number, removedBy: string | null = null): Promise<boolean> {
  const r = await db
    .updateTable("emergency_periods")
    .set({ removed_at: new Date(), removed_by: removedBy })
    .where("id", "=", id)
    .where("removed_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
