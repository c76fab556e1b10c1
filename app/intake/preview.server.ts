import { type InputDescription, type ScrubService, parsePhone, readErrorMessage } from "scrub-service";
import { CSV_MESSAGES, PRECHECK_ROWS } from "~/intake/purge-wizard";
import type { StoredUpload } from "./upload-store.server";
import { CodedError } from "scrub-service/domain";

/** A message for the person or client that sent the input (web: 'Validation Error'; API: 422 on `field`). */
export class IntakeInputError extends CodedError {
  constructor(
    message: string,
    readonly field: "file" | "column" | "numbers" | "category" | "container" | "exemptions" | "states" | "suppressionType" | "at" = "file",
    /** The message as said under its field, where the form's names the field ("at 2025-… is in the past"). */
    fieldText?: string,
  ) {
    // an order's container or exemption list that is not the sender's: the API's 404, the form's field error
    super(field === "container" || field === "exemptions" ? "unknown_reference" : "invalid_input", message, { field, fieldText });
    this.name = "IntakeInputError";
  }
}

export interface CsvSummary {
  headers: string[];
  hasHeader: boolean;
  rows: string[][];
  phoneColumn: string | null;
  /** What the file was detected as (format, encoding, delimiter) and a workbook's sheets. */
  input: InputDescription | null;
}

/**
 * The one place an upload is previewed: its header and first rows (of `sheet` in a workbook; the first by
 * default), what it was detected as, or IntakeInputError with the spec's messages or the reader's own.
 */
export async function previewUpload(service: ScrubService, upload: StoredUpload, sheet: string | null = null): Promise<CsvSummary> {
  if (upload.bytes === 0) throw new IntakeInputError(CSV_MESSAGES.empty);
  let preview: Awaited<ReturnType<ScrubService["previewCsv"]>>;
  try {
    preview = await service.previewCsv(upload.path, PRECHECK_ROWS, { sheet });
  } catch (e) {
    // the readers know what is wrong with a workbook, an archive, a binary file or an open quote: say it
    throw new IntakeInputError(readErrorMessage(e) ?? CSV_MESSAGES.unreadable);
  }
  if (!preview.headers.length || preview.headers.every((h) => !h.trim())) {
    // A file with rows but no usable header cells, or nothing at all.
    throw new IntakeInputError(preview.rows.length ? CSV_MESSAGES.headers : CSV_MESSAGES.empty);
  }
  if (!preview.rows.length) throw new IntakeInputError(CSV_MESSAGES.empty);
  return { headers: preview.headers, hasHeader: preview.hasHeader, rows: preview.rows, phoneColumn: preview.phoneColumn, input: preview.input ?? null };
}

/**
 * The pre-check before a scrub (DECISIONS: invalid numbers do not block; only a column with no phone number
 * at all in the first rows, or an unreadable file, does). `column` null: the file's default phone column;
 * "" : none was chosen. Returns the column checked.
 */
export async function precheckUpload(service: ScrubService, upload: StoredUpload, column: string | null, sheet: string | null = null): Promise<string> {
  if (column === "") throw new IntakeInputError(CSV_MESSAGES.noColumn, "column");
  const summary = await previewUpload(service, upload, sheet);
  const checked = column ?? summary.phoneColumn ?? summary.headers[0];
  const index = summary.headers.indexOf(checked);
  if (index < 0) throw new IntakeInputError(CSV_MESSAGES.columnMissing(checked), "column");
  const anyPhone = summary.rows.slice(0, PRECHECK_ROWS).some((r) => parsePhone(r[index] ?? "").ok);
  if (!anyPhone) throw new IntakeInputError(CSV_MESSAGES.noPhones(checked), "column");
  return checked;
}
