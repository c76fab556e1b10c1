import type { ColumnType, Generated } from "kysely";

/** An emergency no-call period (0026, decision 181). `date` columns: read them as text (`first_day::text`). */
export interface EmergencyPeriodsTable {
  id: Generated<number>;
  states: string[];
  area_codes: number[] | null;
  first_day: ColumnType<string, string, string>;
  last_day: ColumnType<string, string, string>;
  authority: Generated<string>;
  source_url: string;
  created_at: Generated<Date>;
  created_by: string | null;
  removed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  removed_by: string | null;
}

export interface EmergencyTables {
  emergency_periods: EmergencyPeriodsTable;
}
