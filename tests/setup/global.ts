import { execFileSync } from "node:child_process";

/** Builds the scrub worker bundle once before the tests (piscina loads it as a file). */
export default function setup() {
  execFileSync(process.execPath, ["scripts/build-worker.mjs"], { stdio: "inherit" });
  if (process.env.CI === "true") {
    const missing = ["DATABASE_URL", "REDIS_URL"].filter((k) => !process.env[k]);
    if (missing.length) throw new Error(`CI=true but ${missing.join(" and ")} unset: CI tests real services, never skips them.`);
  }
}
