import path from "node:path";
import { engineConfig } from "./config";

/*
 * The thread entry files built by scrub-service/scripts/build-worker.mjs. The app's server code is bundled into build/,
 * so they are resolved from the project root (or set explicitly, e.g. in a container image).
 */

export function defaultWorkerPath(): string {
  return engineConfig().SCRUB_WORKER_PATH ?? path.resolve(process.cwd(), "scrub-service/dist/worker.mjs");
}

export function defaultDedupeThreadPath(): string {
  return engineConfig().SCRUB_DEDUPE_THREAD_PATH ?? path.resolve(process.cwd(), "scrub-service/dist/dedupe-thread.mjs");
}

export function defaultWorkbookThreadPath(): string {
  return engineConfig().SCRUB_WORKBOOK_THREAD_PATH ?? path.resolve(process.cwd(), "scrub-service/dist/workbook-thread.mjs");
}

export function defaultExemptionThreadPath(): string {
  return engineConfig().SCRUB_EXEMPTION_THREAD_PATH ?? path.resolve(process.cwd(), "scrub-service/dist/exemption-thread.mjs");
}
