import type { ColumnType, Generated } from "kysely";

type BigintCount = ColumnType<bigint, bigint | number | undefined, bigint | number>;

/** Migration 0021 (decision 161): a customer's exemption list (established business relationships, written consent). */
export interface ExemptionListsTable {
  id: Generated<number>;
  user_id: string;
  name: string;
  description: Generated<string>;
  /** Numbers on the list. */
  size: BigintCount;
  /** Increases with every load; a scrub records the version it read. */
  version: BigintCount;
  /** SHA-256 (hex) of the rows as `phone,basis,date` lines sorted by phone; null before the first load. */
  sha256: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** 0024: the generation of exemption_records readers read (decision 176). */
  generation: BigintCount;
  /** 0024: a load of the list is writing a new generation since then (one at a time); null when none is. */
  loading_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** One number's exemption: its basis and the date (a purchase, an inquiry, or written consent). */
export interface ExemptionRecordsTable {
  list_id: number;
  /** 0024: the load that wrote the row; only the list's own generation is read. */
  generation: BigintCount;
  number: bigint | number;
  basis: "purchase" | "inquiry" | "consent";
  /** A `date` column: written as "YYYY-MM-DD", read through `on_date - date '1970-01-01'` (days). */
  on_date: string;
}

export interface ExemptionsTables {
  exemption_lists: ExemptionListsTable;
  exemption_records: ExemptionRecordsTable;
}
