import type { ColumnType, Generated } from "kysely";

/** How an opt-out reached the customer (0031, decision 195). */
export type OptOutChannel = "call" | "text" | "e-mail" | "web" | "in-person";
/** How it reached us: the API, the containers screen's form, or its CSV import. */
export type OptOutSource = "api" | "web" | "csv";

/** A do-not-call request or a revocation of consent received by a customer (0031, decision 195); kept five years. `id` is bigint. */
export interface OptOutsTable {
  id: Generated<bigint>;
  user_id: string;
  number: ColumnType<bigint, bigint | number | string, never>;
  /** When the consumer's request was received. */
  received_at: ColumnType<Date, Date | string, never>;
  /** The UTC offset (minutes) the instant was said in: the day of receipt is that clock's calendar day. */
  received_offset_minutes: Generated<number>;
  /** When it took effect in the internal do-not-call list; null while the load adding it has not run. */
  honoured_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  channel: OptOutChannel;
  words: string;
  subject: string | null;
  source: OptOutSource;
  created_by: string | null;
  list_id: number | null;
  load_id: string | null;
  created_at: Generated<Date>;
}

export interface OptOutsTables {
  opt_outs: OptOutsTable;
}
