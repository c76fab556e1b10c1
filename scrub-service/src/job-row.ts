/**
 * A claimed scrub job's row as the job handler reads it (jobs.ts claims it with `returning *`): parsed once, typed
 * from the schema, so the handler reads fields, not casts (issue #45). The fields the order put there (order.ts)
 * and what the claim set (started_at, attempts).
 */
import { z } from "zod";
import type { Selectable } from "kysely";
import type { ScrubJobsTable } from "db/schema";
import { SUPPRESSION_TYPE_NAMES } from "./list-types";

const ClaimedJobRow = z.object({
  id: z.string(),
  user_id: z.string(),
  file_name: z.string(),
  input_path: z.string(),
  suppression_type: z.enum(SUPPRESSION_TYPE_NAMES),
  column_name: z.string().nullable(),
  input_sheet: z.string().nullable(),
  container_id: z.coerce.number().int().nullable(),
  states: z.array(z.string()).nullable(),
  calling_window: z.boolean(),
  /** The order's evaluation instant; null = the scrub's start. */
  evaluated_at: z.coerce.date().nullable(),
  exemption_list_id: z.coerce.number().int().nullable(),
  /** Decision 191: the caps the calling columns count (the purpose), the calls' subject, each row's debt column. */
  call_purpose: z.enum(["telemarketing", "debt-collection"]),
  call_subject: z.string(),
  debt_column: z.string().nullable(),
  started_at: z.coerce.date().nullable(),
  attempts: z.coerce.number().int(),
});

export type JobRow = z.output<typeof ClaimedJobRow>;

/** Each field as the database schema types it (a column renamed or retyped there fails the type check here). */
type Columns = Selectable<ScrubJobsTable>;
type SameAsSchema = { [K in keyof JobRow]: JobRow[K] extends Columns[K] ? (Columns[K] extends JobRow[K] | string | number | bigint ? true : false) : false };
const _sameAsSchema: SameAsSchema = {
  id: true,
  user_id: true,
  file_name: true,
  input_path: true,
  suppression_type: true,
  column_name: true,
  input_sheet: true,
  container_id: true,
  states: true,
  calling_window: true,
  evaluated_at: true,
  exemption_list_id: true,
  call_purpose: true,
  call_subject: true,
  debt_column: true,
  started_at: true,
  attempts: true,
};
void _sameAsSchema;

/** The row a claim returned, typed (the driver's dates and numbers as the schema says). */
export function parseJobRow(row: unknown): JobRow {
  return ClaimedJobRow.parse(row);
}
