import path from "node:path";

/*
 * The files a test or a benchmark outside the package starts as a process of its own (`scrub-service/entry-points`),
 * absolute wherever it runs from: the scrub service's entry (`npm run scrub-service`) and the CLI's bundle
 * (`npm run scrub`, `npm run lists`; built by scrub-service/scripts/build-worker.mjs). No other import: cheap to
 * load in a benchmark's driver.
 */

/** The scrub service's HTTP entry, TypeScript: start it with `node --import tsx`. */
export const SCRUB_SERVICE_ENTRY = path.resolve(import.meta.dirname, "index.ts");

/** The CLI bundle (scrub, lists, verify, keys): run it with `node` after `npm run build:worker`. */
export const CLI_BUNDLE = path.resolve(import.meta.dirname, "../dist/cli.mjs");
