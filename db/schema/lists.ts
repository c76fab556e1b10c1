import type { ColumnType, Generated } from "kysely";
import type { NullableTimestamp } from "./accounts";

/** scrub_jobs.status and list_loads.status, as their CHECK constraints (migration 0003) allow. */
export type JobStatus = "queued" | "running" | "completed" | "failed";
/** lists.suppression_type and scrub_jobs.suppression_type, as their CHECK constraints (migration 0003) allow. */
export type SuppressionTypeName = "LitigationOnly" | "DNCAndLitigation";
/**
 * lists.kind: a container, or an admin list's kind from the engine's list registry (migration 0017 checks only its
 * shape, so a new list type needs no migration). The engine narrows it to its `ListKind`.
 */
export type ListKind = string;
export type ResultKind = "good" | "bad" | "invalid";
/** `changes`: an FTC change list, its additions and deletions applied in one load (docs/decisions/106). */
export type ListLoadMode = "add" | "remove" | "replace" | "changes";

type BigintCount = ColumnType<bigint, bigint | number | undefined, bigint | number>;
/** A column that is null until set (optional on insert). */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** A customer's category (the old client's "vertical"). */
export interface CategoriesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  description: string;
  created_at: Generated<Date>;
}

/**
 * Every suppression list: the two admin lists (litigation = DNC type 0, dnc = DNC type 1) and each
 * customer's containers. Numbers live in list_blocks; `version` increases with every change so the
 * list store can tell when its copy is stale.
 */
export interface ListsTable {
  id: Generated<number>;
  kind: ListKind;
  /** 0 = Litigation Only, 1 = DNC and Litigation; null for containers. */
  suppression_type: number | null;
  user_id: string | null;
  category_id: string | null;
  name: string;
  description: string;
  size: BigintCount;
  version: BigintCount;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  deleted_at: NullableTimestamp;
  /** 0007: the registry date of the current version (as stated by the admin who loaded it, else load time). */
  registry_date: NullableTimestamp;
  /** 0007: the version whose 25-day age warning was e-mailed (once per version). */
  age_warned_version: Optional<bigint>;
  /** 0031: the customer's internal do-not-call list (a container; at most one live per customer, decision 195). */
  internal_dnc: Generated<boolean>;
}

/**
 * A list's numbers as exchange blocks (migration 0022, decision 162): one row per list × NPA-NXX (`exchange` =
 * NPA × 1000 + NXX) holding that exchange's line numbers, as sorted big-endian 16-bit lines (< 1,250 bytes) or a
 * 10,000-bit bitmap (1,250 bytes); scrub-service/src/worker/exchange-blocks.ts reads and writes them. Partitioned
 * by list: one partition `list_blocks_<id>` per list, created by a trigger when the list row is inserted and
 * dropped when it is deleted (no foreign key). Written only by the scrub service's ListManager; always filter by
 * list_id.
 */
export interface ListBlocksTable {
  list_id: number;
  exchange: number;
  lines: Uint8Array;
}

export interface ScrubJobsTable {
  id: Generated<string>;
  user_id: string;
  source: "web" | "api";
  api_key_id: string | null;
  file_name: string;
  suppression_type: SuppressionTypeName;
  column_name: string | null;
  container_id: number | null;
  category_id: string | null;
  states: string[] | null;
  status: JobStatus;
  error: string | null;
  input_path: string;
  input_bytes: BigintCount;
  bytes_read: BigintCount;
  rows_done: BigintCount;
  total_rows: BigintCount;
  good_count: BigintCount;
  bad_count: BigintCount;
  invalid_count: BigintCount;
  /** Per-reason counts, e.g. {"duplicate": 3, "litigation": 2, "dnc": 1, "container": 0, "state": 0}. */
  reason_counts: ColumnType<Record<string, number>, string | undefined, string>;
  /** Plan usage held while queued/running (an upper bound of the rows); completed jobs count total_rows. */
  usage_reserved: BigintCount;
  /** Which scrub-service process holds the job, and until when (crash recovery). */
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  /** 0007: SHA-256 of the input bytes (hashed while read). */
  input_sha256: Optional<string>;
  /** 0007: DNC purges: the Good file is valid for calls until this time (registry date + 31 days). */
  valid_until: NullableTimestamp;
  /** 0007: the DNC list's age in whole days when the job completed. */
  dnc_age_days: Optional<number>;
  /** 0007: the customer asked for a re-scrub reminder, due at this time. */
  remind_at: NullableTimestamp;
  reminder_sent_at: NullableTimestamp;
  /** 0007: housekeeping deleted the result files (the certificate stays). */
  results_deleted_at: NullableTimestamp;
  /** Added by 0013_input_formats: what the upload was detected as (labels), and the workbook sheet read. */
  input_format: string | null;
  input_encoding: string | null;
  input_delimiter: string | null;
  input_sheet: string | null;
  /** 0019: append time_zone, callable_now, next_call_at to good.csv (decision 131). */
  calling_window: Generated<boolean>;
  /**
   * 0019 (as calling_at), 0027: the order's evaluation instant, of the calling columns and the exemptions alike
   * (decision 183); null = the scrub's start (set to the instant used when the job completes with either).
   */
  evaluated_at: NullableTimestamp;
  /** 0019: the completed job's calling summary (CallingSummary), null without the columns. */
  calling_summary: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** 0021: the customer's exemption list applied (decision 161); null without one. */
  exemption_list_id: Optional<number>;
  /** 0021: the completed job's ExemptionProof (list version, SHA-256, instant, good rows per basis). */
  exemption_summary: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** 0030: why the calls are made (telemarketing, debt-collection): the caps the calling columns count (decision 191). */
  call_purpose: Generated<"telemarketing" | "debt-collection">;
  /** 0030: the subject (campaign) of the scrub's calls, for the per-subject caps. */
  call_subject: Generated<string>;
  /** 0030: the column holding each row's debt id (debt collection); null: none. */
  debt_column: Optional<string>;
}

export interface ResultFilesTable {
  id: Generated<string>;
  job_id: string;
  user_id: string;
  kind: ResultKind;
  file_name: string;
  path: string;
  records: BigintCount;
  bytes: BigintCount;
  created_at: Generated<Date>;
}

/** One add/remove/replace of numbers into a list, with its progress and counts. */
export interface ListLoadsTable {
  id: Generated<string>;
  list_id: number;
  user_id: string | null;
  mode: ListLoadMode;
  status: JobStatus;
  file_name: string;
  bytes_total: BigintCount;
  bytes_read: BigintCount;
  added: BigintCount;
  already_present: BigintCount;
  removed: BigintCount;
  invalid: BigintCount;
  /** Container-limit usage held while queued/running; completed loads count `added`. */
  usage_reserved: BigintCount;
  error: string | null;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
  /** Added by 0005_scrub_engine: the file to load, and the lease of the process running it. */
  input_path: Generated<string>;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  started_at: NullableTimestamp;
  /** 0007 provenance: SHA-256 of the bytes received, the format detected, the registry date stated. */
  source_sha256: Optional<string>;
  source_format: Optional<string>;
  registry_date: NullableTimestamp;
  /** 0007: the list version this load produced and the list's size then. */
  list_version: Optional<bigint>;
  list_size: Optional<bigint>;
  /** Added by 0013_input_formats: the file's text encoding and delimiter; deletions of numbers the list lacked. */
  input_encoding: string | null;
  input_delimiter: string | null;
  not_present: BigintCount;
  /** Added by 0010_list_load_attempts: claims so far (a load whose worker died is retried, decision 125). */
  attempts: Generated<number>;
}

export interface ListsTables {
  categories: CategoriesTable;
  lists: ListsTable;
  list_blocks: ListBlocksTable;
  scrub_jobs: ScrubJobsTable;
  result_files: ResultFilesTable;
  list_loads: ListLoadsTable;
}
