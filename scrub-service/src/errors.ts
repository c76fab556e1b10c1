/**
 * The one error catalogue (issue #45 step 5, decision 194): every refusal or failure the intake and the engine name
 * on purpose has a code here, with its HTTP status and API code, the title and status a form shows, and the
 * customer's words when the error's own message is not for the customer (our side's failures: the operator reads
 * the cause in the log). Two mappers read it: the API's (app/api/api.server.ts `apiErrorOf`) and the forms'
 * (app/utils/action-reply.server.ts `formErrorOf`); the engine's job failures read it too (`failureText`). Nothing
 * maps an error by its message.
 *
 * Pure: no I/O, no Node built-ins (the app's browser bundle may import `scrub-service/domain`).
 */

/** A stable API code (app/api/error-codes.ts lists the public ones; this file names the ones the catalogue uses). */
type ApiCode =
  | "validation_failed"
  | "not_found"
  | "conflict"
  | "no_plan"
  | "usage_limit_exceeded"
  | "too_many_active_jobs"
  | "payload_too_large"
  | "insufficient_storage"
  | "service_unavailable"
  | "internal_error";

export interface ErrorEntry {
  /** The API's answer: status and stable code. */
  http: number;
  api: ApiCode;
  /** A form's answer: its status and the dialog's title. */
  form: number;
  title: string;
  /** The customer's words when the error's message is the operator's (null: the message is fit to show). */
  customer: string | null;
  /** Retry-After seconds the API sends with it, if any. */
  retryAfter?: number;
}

/** What a customer reads when the suppression lists could not be checked (Redis down, flushed, stale). */
export const LIST_STORE_UNAVAILABLE =
  "The suppression lists could not be checked just now, so this scrub was stopped and no results were kept. Please run it again in a few minutes.";
/** What a customer reads for a failure on our side we have no better words for. */
export const SCRUB_FAILED_OUR_SIDE = "The scrub failed because of a problem on our side. Please run it again.";

export const ERROR_CATALOGUE = {
  /** The sender's input is wrong (a field, a file, a column): the message says what and where. */
  invalid_input: { http: 422, api: "validation_failed", form: 400, title: "Validation Error", customer: null },
  /** What the request names is not there, or not the caller's. */
  not_found: { http: 404, api: "not_found", form: 404, title: "Not Found", customer: null },
  /** A field of an order names a container or list that is not the caller's: the API's 404, the form's field error. */
  unknown_reference: { http: 404, api: "not_found", form: 400, title: "Validation Error", customer: null },
  /** The thing changed meanwhile (already reviewed, a name taken, dialed). */
  conflict: { http: 409, api: "conflict", form: 409, title: "Conflict", customer: null },
  no_plan: { http: 403, api: "no_plan", form: 402, title: "Subscription Required", customer: null },
  usage_limit: { http: 403, api: "usage_limit_exceeded", form: 402, title: "Usage Limit Reached", customer: null },
  active_jobs_limit: { http: 429, api: "too_many_active_jobs", form: 402, title: "Purges In Progress", customer: null },
  too_large: { http: 413, api: "payload_too_large", form: 413, title: "File Too Large", customer: null },
  /** The server's disk was full while storing an upload: never the sender's fault. */
  storage_full: { http: 507, api: "insufficient_storage", form: 507, title: "Error", customer: null },
  /** The disk filled while a scrub wrote its results. */
  disk_full: {
    http: 507,
    api: "insufficient_storage",
    form: 507,
    title: "Error",
    customer: "The server ran out of disk space while writing the results. Please try again later.",
  },
  /** The job or load was recorded but the scrub service did not take it (it is marked failed, nothing charged). */
  hand_off_failed: { http: 503, api: "service_unavailable", form: 503, title: "Purge Failed", customer: null, retryAfter: 60 },
  /** The list store did not answer or holds a stale copy: fail closed, never "clean". */
  list_store_unavailable: { http: 503, api: "service_unavailable", form: 503, title: "Error", customer: LIST_STORE_UNAVAILABLE, retryAfter: 30 },
  /**
   * The live call counters (decision 196) did not take call records, so none was written (a record PostgreSQL holds
   * must be counted): the dialer sends them again, its call ids keep a retry from counting twice.
   */
  call_counters_unavailable: {
    http: 503,
    api: "service_unavailable",
    form: 503,
    title: "Error",
    customer: "The call records could not be counted just now, so none was recorded. Please send them again in a minute.",
    retryAfter: 30,
  },
  /** A scrub worker thread stopped under the job. */
  worker_stopped: {
    http: 503,
    api: "service_unavailable",
    form: 503,
    title: "Error",
    customer: "The scrub was interrupted (a scrub worker stopped). Please run it again.",
  },
  /** Anything else on our side. */
  internal: { http: 500, api: "internal_error", form: 500, title: "Error", customer: SCRUB_FAILED_OUR_SIDE },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * An error named on purpose: its catalogue code, and optionally the input field it is about, the API's details and
 * an operator's hint for the log (what to run). Subclasses keep their own fields (a plan's limit, a job's id).
 */
export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      /** The input field it is about (the API answers 422 on it; a form shows it there). */
      field?: string;
      /** The message as said under its field, when the message itself names the field. */
      fieldText?: string;
      operatorHint?: string;
      cause?: unknown;
      details?: Record<string, unknown>;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CodedError";
  }

  /** The API's `details` of the error (a plan's limit, the failed job's id). */
  get apiDetails(): Record<string, unknown> | undefined {
    return this.options.details;
  }
}

/**
 * Errors that reach here from another bundle (the CLI's and the threads' bundles carry their own copies of the
 * classes, so `instanceof` fails; the name holds) are known by name.
 */
const CODE_OF_NAME: Record<string, ErrorCode> = {
  InputFormatError: "invalid_input",
  NotTextFileError: "invalid_input",
  ScrubInputError: "invalid_input",
  ListStoreError: "list_store_unavailable",
  WorkerStoppedError: "worker_stopped",
};

/** The catalogue code of any thrown value: by class, by name across bundles and threads, by errno; else `internal`. */
export function errorCodeOf(e: unknown): ErrorCode {
  if (e instanceof CodedError) return e.code;
  if (e instanceof Error) {
    const byName = CODE_OF_NAME[e.name];
    if (byName) return byName;
    const errno = (e as Error & { code?: unknown }).code;
    if (errno === "ENOSPC" || errno === "EDQUOT") return "disk_full";
  }
  return "internal";
}

/** The catalogue entry of any thrown value. */
export function errorEntryOf(e: unknown): ErrorEntry {
  return ERROR_CATALOGUE[errorCodeOf(e)];
}

/** The words a customer reads for any thrown value: the entry's, or the error's own message when it is fit to show. */
export function customerTextOf(e: unknown): string {
  const entry = errorEntryOf(e);
  if (entry.customer !== null) return entry.customer;
  return e instanceof Error ? e.message : String(e);
}
