import { execFileSync } from "node:child_process";
import { ensurePgliteTemplate } from "./pglite-template";

/**
 * Builds the scrub worker bundle once before the tests (piscina loads it as a file), and the migrated PGlite
 * template fresh embedded databases start from (tests/setup/pglite-template.ts).
 */
export default async function setup() {
  execFileSync(process.execPath, ["scrub-service/scripts/build-worker.mjs"], { stdio: "inherit" });
  await ensurePgliteTemplate();
  if (process.env.CI === "true") {
    const missing = ["DATABASE_URL", "REDIS_URL"].filter((k) => !process.env[k]);
    if (missing.length) throw new Error(`CI=true but ${missing.join(" and ")} unset: CI tests real services, never skips them.`);
  }
}
