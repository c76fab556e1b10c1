/** How many times a job or load runs, and the status customers see (pure: the app's browser code uses it too). */

import type { JobStatus } from "db/schema";

/** A scrub job's or list load's status in the database (`scrub_jobs.status`, `list_loads.status`): the schema's. */
export type { JobStatus };

/**
 * Claims a scrub job or list load gets: one, plus retries when the process running it dies (its lease
 * runs out). Each retry starts from the beginning of the file (decision 125).
 */
export const MAX_ATTEMPTS = 3;

/** A job's or load's status as customers see it: a retry after a lost worker reads "retrying", not failed. */
export type ShownStatus = JobStatus | "retrying";

export function shownStatus(row: { status: JobStatus; attempts: number | string }): ShownStatus {
  const attempts = Number(row.attempts);
  if ((row.status === "queued" && attempts > 0) || (row.status === "running" && attempts > 1)) return "retrying";
  return row.status;
}

/** Not finished yet: queued, running or retrying. */
export const isActiveStatus = (s: ShownStatus): boolean => s !== "completed" && s !== "failed";
