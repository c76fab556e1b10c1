/**
 * The scrub service's interface: what the app (and the HTTP API, the CLI) calls.
 *
 * Jobs and list loads are rows in PostgreSQL/PGlite (`scrub_jobs`, `list_loads`). The app uploads the file
 * itself (streamed to `${DATA_DIR}/uploads/...`), inserts the queued row with `createScrubJob` /
 * `createListLoad` (inside its plan-usage reservation transaction if it wants), then calls
 * `service.enqueue(id)` / `service.enqueueListLoad(id)`. Progress and results are read from the rows
 * (`scrub_jobs.rows_done/bytes_read/input_bytes/…`, `result_files`, `list_loads`).
 */
import fs from "node:fs";
import { staleListRefusal, StaleListsRefusal } from "./lists/freshness";
import type { Kysely } from "kysely";
import type { Database, ListLoadMode, SuppressionTypeName } from "db/schema";
import type { AdminListKind, ListKind } from "./list-types";
import type { CountOptions } from "./pipeline/read";
import type { DetectOptions } from "./pipeline/input/detect";
import type { LookupAnswer, LookupInput } from "./lists/lookup";
import type { PublishedKey } from "./certificate/keys";
import type { ScrubOrder } from "./order";
import type { CallImportResult } from "./calls/import";

export type { LookupAnswer, LookupInput, LookupList } from "./lists/lookup";
export { MAX_LOOKUP_NUMBERS, LookupBusyError } from "./lists/lookup";
export { ListStoreError } from "./lists/store";

export type { SuppressionTypeName, ListLoadMode, CountOptions, DetectOptions };
export {
  normalizePhone,
  parsePhone,
  formatPhone,
  numberKind,
  normalizeCode,
  numberRegion,
  reasonOfCode,
  invalidReasonText,
  INVALID_REASONS,
  NORMALIZER_RULES_VERSION,
  type InvalidReason,
  type NumberKind,
  type PhoneParse,
} from "./numbers/normalize";
export { US_STATES, AREA_CODE_STATES, stateOfAreaCode, stateOfNumber } from "./numbers/area-codes";
export { defaultPhoneColumn } from "./worker/csv";
export { isInputFormatError, readErrorMessage } from "./pipeline/input/errors";

export { MAX_ATTEMPTS, shownStatus, isActiveStatus, type ShownStatus } from "./job-status";

/** Why a row landed in bad.csv: on a list (its kind, list-types.ts), a duplicate, or outside the chosen states. */
export type BadReason = ListKind | "duplicate" | "state";

/** Anything Kysely-shaped: the db or a transaction (`Transaction<Database>` extends `Kysely<Database>`). */
export type Db = Kysely<Database>;

/**
 * A scrub order (order.ts, parsed where it entered: the wizard, the API, the CLI, the service's POST /v1/jobs) as the
 * engine's intake takes it, with how it runs. Tests may leave out what they do not use.
 */
export type NewScrubJob = Pick<ScrubOrder, "userId" | "fileName" | "inputPath" | "suppressionType"> &
  Partial<Omit<ScrubOrder, "states">> & {
    /** Two-letter state codes; when set, only numbers whose area code is in these states stay good. */
    states?: string[] | null;
    /** Plan usage held while the job is queued/running (e.g. countRecords(path)). */
    usageReserved?: number | bigint;
    source?: "web" | "api";
    apiKeyId?: string | null;
  };

/** The order names a container or an exemption list that is not its owner's (or does not exist). */
export class ScrubOrderRefusal extends Error {
  constructor(
    readonly field: "containerId" | "exemptionListId",
    readonly id: number,
  ) {
    super(field === "containerId" ? `No container ${id} of this user.` : `No exemption list ${id} of this user.`);
    this.name = "ScrubOrderRefusal";
  }
}

/**
 * The one ownership check of an order (issue #45): its container and its exemption list are its owner's. Run where
 * the job row is made, in the caller's transaction; the job at its start finds only a list deleted since.
 */
async function checkOrderOwnership(db: Db, order: NewScrubJob): Promise<void> {
  if (order.containerId != null) {
    const own = await db
      .selectFrom("lists")
      .select("id")
      .where("id", "=", order.containerId)
      .where("kind", "=", "container")
      .where("user_id", "=", order.userId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!own) throw new ScrubOrderRefusal("containerId", order.containerId);
  }
  if (order.exemptionListId != null) {
    const own = await db
      .selectFrom("exemption_lists")
      .select("id")
      .where("id", "=", order.exemptionListId)
      .where("user_id", "=", order.userId)
      .executeTakeFirst();
    if (!own) throw new ScrubOrderRefusal("exemptionListId", order.exemptionListId);
  }
}

/**
 * The engine's intake, for every path that queues a scrub (the web, the API, the CLI, the service's HTTP face):
 * checks the order's container and exemption list are its owner's (ScrubOrderRefusal) and, while "refuse stale DNC"
 * is on, that no list it checks is past its rule (StaleListsRefusal, every stale list named; the job's start checks
 * again, decision 174); inserts the queued job row and returns its id. Pass a transaction to reserve plan usage
 * atomically.
 */
export async function createScrubJob(db: Db, input: NewScrubJob): Promise<string> {
  await checkOrderOwnership(db, input);
  const refusal = await staleListRefusal(db, input.suppressionType);
  if (refusal) throw new StaleListsRefusal(refusal);
  let inputBytes = 0;
  try {
    inputBytes = fs.statSync(input.inputPath).size;
  } catch {
    /* the runner fails the job with a clear message if the file is missing */
  }
  const row = await db
    .insertInto("scrub_jobs")
    .values({
      user_id: input.userId,
      source: input.source ?? "web",
      api_key_id: input.apiKeyId ?? null,
      file_name: input.fileName,
      suppression_type: input.suppressionType,
      column_name: input.columnName ?? null,
      input_sheet: input.sheet ?? null,
      container_id: input.containerId ?? null,
      category_id: input.categoryId ?? null,
      states: input.states && input.states.length ? input.states.map((s) => s.toUpperCase()) : null,
      status: "queued",
      input_path: input.inputPath,
      input_bytes: inputBytes,
      usage_reserved: input.usageReserved ?? 0,
      calling_window: input.callingWindow === true,
      // a parsed order holds an instant only with the calling window or an exemption list (order.ts)
      evaluated_at: input.evaluatedAt ?? null,
      exemption_list_id: input.exemptionListId ?? null,
      call_purpose: input.purpose ?? "telemarketing",
      call_subject: input.subject ?? "default",
      debt_column: input.debtColumn ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface NewListLoad {
  listId: number;
  mode: ListLoadMode;
  userId?: string | null;
  fileName: string;
  /** CSV (phone column picked like a scrub) or one number per line. */
  inputPath: string;
  usageReserved?: number | bigint;
  /** The registry date the admin states for the download (default: the list keeps its release date; a first load takes its completion time). */
  registryDate?: Date | null;
}

/** Inserts the queued list_loads row and returns its id. */
export async function createListLoad(db: Db, input: NewListLoad): Promise<string> {
  let bytes = 0;
  try {
    bytes = input.inputPath ? fs.statSync(input.inputPath).size : 0;
  } catch {
    /* failed by the runner */
  }
  const row = await db
    .insertInto("list_loads")
    .values({
      list_id: input.listId,
      user_id: input.userId ?? null,
      mode: input.mode,
      status: "queued",
      file_name: input.fileName,
      bytes_total: bytes,
      usage_reserved: input.usageReserved ?? 0,
      input_path: input.inputPath,
      registry_date: input.registryDate ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface CsvPreview {
  /** Header cells (or "Column 1", "Column 2", … when the file has no header row). */
  headers: string[];
  hasHeader: boolean;
  /** Detected delimiter: "," ";" "\t" or "|". */
  delimiter: string;
  /** The first data rows (cells as text, quotes removed). */
  rows: string[][];
  /** defaultPhoneColumn(headers). */
  phoneColumn: string | null;
  /** What the file was detected as, in words, for the column step: "Excel workbook (.xlsx)", "UTF-16LE", "tab". */
  input: InputDescription;
}

export interface InputDescription {
  format: string;
  encoding: string;
  delimiter: string;
  /** A workbook's sheets and the one read (empty / null for text). */
  sheets: string[];
  sheet: string | null;
}

export interface LoadCounts {
  added: number;
  alreadyPresent: number;
  removed: number;
  invalid: number;
}

export interface ManualLoadInput {
  listId: number;
  /** Typed numbers are added, removed or replace the list (a change list is a file). */
  mode: Exclude<ListLoadMode, "changes">;
  /** Raw entries as typed (normalized here with the product's normalizer). */
  numbers: string[];
  userId?: string | null;
  usageReserved?: number | bigint;
  /** An existing queued list_loads row (created by createListLoad with inputPath "") to record the counts in. */
  loadId?: string;
  /** The registry date the admin states for these numbers (default: the list keeps its release date, a first load takes its completion time; ISO text over HTTP). */
  registryDate?: Date | string | null;
}

export interface ManualLoadResult extends LoadCounts {
  loadId: string;
  /** Entries rejected by the normalizer, with the reason (key) and the customer's sentence. */
  rejected: { value: string; reason: string; message: string }[];
  size: number;
  version: number;
}

export interface ListStoreState {
  listId: number;
  kind: ListKind;
  /** lists.version / lists.size in the database (source of truth). */
  version: number;
  size: number;
  /** The version the list store holds, or null when missing. Scrubs fail closed unless equal. */
  storeVersion: number | null;
  /** Redis: per master, the area codes it serves and how many serve the current copy. */
  nodes?: { node: string; areaCodes: number; current: number }[];
  /** Why the store's copy is not used beyond its version (e.g. an older key layout). */
  note?: string;
}

import type { Readiness } from "./ops/readiness";

export interface ScrubService {
  readonly kind: "in-process" | "http";
  /** Starts (or queues) a job inserted with createScrubJob. Returns at once; progress is in the row. */
  enqueue(jobId: string): Promise<void>;
  /** Starts (or queues) a list load inserted with createListLoad. */
  enqueueListLoad(loadId: string): Promise<void>;
  /** Resolves when the job or load has finished (completed or failed); for CLI and tests. */
  waitFor(kind: "job" | "load", id: string, timeoutMs?: number): Promise<"completed" | "failed">;
  /**
   * A fast upper bound of the data rows of a file (newline count of its decoded text: a .gz, .zip or .xlsx is
   * counted as the rows it holds), to reserve plan usage. `sheet`: the workbook sheet; `manyMembers`: every file
   * of a zip (list loads); `skipHeader`: less a first line without digits.
   */
  countRecords(path: string, opts?: CountOptions): Promise<number>;
  /** Headers, delimiter, the first rows and what the file was detected as, for the wizard's column step. */
  previewCsv(path: string, maxRows?: number, opts?: DetectOptions): Promise<CsvPreview>;
  /** Small synchronous add/remove/replace of typed numbers (manual entry); a list_loads row records it. */
  loadNumbers(input: ManualLoadInput): Promise<ManualLoadResult>;
  /** Each list's version in the database and in the list store (DNC admin page, health). */
  listStoreStatus(): Promise<ListStoreState[]>;
  /** Reloads the list store (Redis) from the database: every list, or the given ones. */
  rebuildLists(listIds?: number[]): Promise<ListStoreState[]>;
  /**
   * Live lookup: which admin lists and which of the user's containers hold each number, at the lists' current
   * versions. Throws ListStoreError when any list's copy cannot be read at its version (fail closed).
   */
  lookup(input: LookupInput): Promise<LookupAnswer>;
  /** Whether this service can take work: its database and list store (in-process), or the remote's /readyz. */
  ready(): Promise<Readiness>;
  close(): Promise<void>;
}

/** A scrub the command line asks for: its order (order.ts), parsed by the CLI from its arguments. */
export type BatchScrubInput = ScrubOrder;

/** A list load the command line asks for. */
export interface BatchListLoadInput {
  listId: number;
  mode: ListLoadMode;
  userId: string | null;
  inputPath: string;
  registryDate: Date | null;
}

/** A row as the command line reads it while it waits (a job also carries its files and certificate once completed). */
export type BatchRow = Record<string, unknown> & { status: string };

/**
 * What the command line does through a service: the one way the CLI reaches the engine, in this process
 * (in-process.ts, over the database it opened) or in a running one (http-client.ts: a server's Unix socket, which
 * reads the file where it lies, or SCRUB_SERVICE_URL, which is sent the file).
 */
export interface BatchScrubService extends ScrubService {
  /** How often the CLI reads a row while waiting: a local query, or a request to a server. */
  readonly pollMs: number;
  /** The built-in operator account that owns a job run without --user (decision 123). */
  operatorId(): Promise<string>;
  /** Inserts the job (no usage reserved: the CLI is the operator's) and starts it; its id. */
  submitScrub(input: BatchScrubInput): Promise<string>;
  scrubJob(id: string): Promise<BatchRow>;
  /** Resolves when this process next finishes with the job or list load (a local runner only: a remote one is polled). */
  whenSettled?(id: string): Promise<void>;
  /** Where a job's time went (lists made ready vs the pipeline), when it ran in this process. */
  jobTimings(id: string): { prepareMs: number; pipelineMs: number } | null;
  submitListLoad(input: BatchListLoadInput): Promise<string>;
  listLoad(id: string): Promise<BatchRow>;
  /** Resolves once nothing runs here (a load's Bloom filter and cache files are written after its commit). */
  idle(): Promise<void>;
  /** The id of an admin list (litigation, dnc, a state list). */
  adminListId(kind: AdminListKind): Promise<number>;
  /** A new exemption list of the user's loaded with every row of the file, or none (the error names each bad line). */
  exemptionListFromFile(userId: string, name: string, file: string): Promise<number>;
  /**
   * A call file's records added to the user's history, every row or none (`npm run calls -- import`'s path): the CLI's
   * `scrub --calls FILE` (decision 191). Throws an Error naming the bad lines (nothing recorded then).
   */
  importCalls(userId: string, file: string, zone: string | null): Promise<CallImportResult>;
  /** The published certificate keys, after making the key that signs next (or a new one with `rotate`). */
  signingKeys(opts: { rotate: boolean }): Promise<{ keys: PublishedKey[]; rotated: { keyId: string; retired: string[] } | null }>;
}
