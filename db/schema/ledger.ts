import type { ColumnType, Generated } from "kysely";

/** What an entry of the decision ledger records (0032, decision 197). */
export type LedgerKind = "scrub" | "lookup" | "reservation" | "opt_out" | "opt_out_honoured" | "exemption_list" | "list_version";

/** One customer's chain head (0032): locked FOR UPDATE by every append, so a customer's appends are serial. */
export interface LedgerHeadsTable {
  user_id: string;
  /** The ledger's name in what is published (never the user id). */
  public_id: string;
  seq: ColumnType<bigint, bigint | number | string | undefined, bigint | number | string>;
  /** SHA-256 (hex) of the last entry; 64 zeros before the first. */
  hash: string;
  /** recorded_at of the last entry. */
  last_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The last UTC day whose head was signed (YYYY-MM-DD): later appends are stamped after it. */
  signed_through: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
}

/** An entry of a customer's chain (0032), partitioned by month on recorded_at; `payload` is canonical JSON text. */
export interface LedgerEntriesTable {
  user_id: string;
  seq: ColumnType<bigint, bigint | number | string, never>;
  recorded_at: ColumnType<Date, Date | string, never>;
  kind: LedgerKind;
  numbers: ColumnType<string[], (bigint | number | string)[] | undefined, never>;
  ref: string | null;
  payload: string;
  /** SHA-256 (hex) of the canonical entry: a dossier's proof links an entry it does not show by it. */
  digest: string;
  prev_hash: string;
  hash: string;
}

/** A customer's chain head at the end of a UTC day, signed with the certificate key (0032); never dropped. */
export interface LedgerDayHeadsTable {
  user_id: string;
  /** YYYY-MM-DD (UTC). */
  day: ColumnType<string, string, never>;
  seq: ColumnType<bigint, bigint | number | string, never>;
  hash: string;
  signed_at: ColumnType<Date, Date | string, never>;
  key_id: string;
  /** Ed25519 over the head's canonical JSON, base64. */
  signature: string;
}

export interface LedgerTables {
  ledger_heads: LedgerHeadsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_day_heads: LedgerDayHeadsTable;
}
