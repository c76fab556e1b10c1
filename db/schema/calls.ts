import type { ColumnType, Generated } from "kysely";

/** A call or text a customer made (0028, decision 185); partitioned by month on `at`. `id` is bigint. */
export interface CallRecordsTable {
  id: Generated<bigint>;
  user_id: string;
  number: ColumnType<bigint, bigint | number | string, never>;
  at: ColumnType<Date, Date | string, Date | string>;
  subject: Generated<string>;
  channel: "call" | "text";
  outcome: "attempted" | "connected" | "conversation";
  debt_id: string | null;
  dialer_call_id: string | null;
  reserved: Generated<boolean>;
  created_at: Generated<Date>;
}

/** A dialer's call id, claimed once per user (a repeated id is ignored). */
export interface CallDialerIdsTable {
  user_id: string;
  dialer_call_id: string;
  at: ColumnType<Date, Date | string, Date | string>;
}

export interface CallsTables {
  call_records: CallRecordsTable;
  call_dialer_ids: CallDialerIdsTable;
}
