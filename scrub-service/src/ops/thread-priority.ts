/**
 * Scrub threads run at a lower scheduling priority than the threads that answer people (decision 156).
 *
 * On Linux a nice value belongs to a thread, and `os.setPriority(n)` (pid 0) sets the calling thread's: each
 * scrub worker thread lowers its own at start, so on a busy machine the scheduler runs the main threads (web
 * pages, live lookups, the job runner) and PostgreSQL/Redis first and gives the scrub what is left. An idle
 * machine runs the scrub at full speed: a nice value only matters when threads compete for a core.
 * SCRUB_WORKER_NICE: 0–19, default 10; 0 leaves the threads as they are. An unprivileged process may only lower a
 * priority, which is all this does; where the platform refuses, the thread runs at its inherited priority.
 */
import { engineConfig, type EngineConfig } from "../config";
import os from "node:os";

export const DEFAULT_SCRUB_WORKER_NICE = 10;

/** The nice value of the config (checked, 0–19, when the entry parsed it: engineConfigSchema). */
export function scrubWorkerNice(config: Pick<EngineConfig, "SCRUB_WORKER_NICE"> = engineConfig()): number {
  return config.SCRUB_WORKER_NICE;
}

/** Lowers the calling thread's priority to `nice` (never raises it). */
export function lowerThisThreadPriority(nice = scrubWorkerNice()): void {
  try {
    if (nice > os.getPriority(0)) os.setPriority(0, nice);
  } catch {
    /* the platform refused: the thread keeps its inherited priority */
  }
}
