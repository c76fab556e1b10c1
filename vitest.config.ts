import path from "node:path";
import { defineConfig } from "vitest/config";

const include = ["app/**/*.test.{ts,tsx}", "scrub-service/**/*.test.ts", "db/**/*.test.ts", "scripts/**/*.test.ts", "tests/**/*.test.ts"];
const exclude = ["node_modules", "tests/e2e/**", "**/*.spec.ts", "build*/**"];
// Tests that stop, fail over and restart processes of their own against time bounds (Redis replicas and
// Sentinels, cluster masters, replicas of the scrub service, a PostgreSQL restart): one at a time, after the rest.
const serial = [
  "scrub-service/test/faults.test.ts",
  "scrub-service/test/cluster-failover.test.ts",
  "scrub-service/test/cluster-faults.test.ts",
  "scrub-service/test/sentinel-faults.test.ts",
  "tests/ops/**/*.test.ts",
];

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    environment: "node",
    setupFiles: ["tests/setup/console.ts", "tests/setup/isolation.ts"],
    globalSetup: ["tests/setup/global.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", ["json", { outputFile: `.test-timings/vitest-${process.env.VITEST_REPORT ?? "all"}.json` }]],
    // Most files wait on PostgreSQL, Redis, child processes or timers: two at a time on two cores (decision 141;
    // each file has its own database, data directory and Redis prefix). VITEST_MAX_WORKERS overrides.
    projects: [
      {
        extends: true,
        test: {
          name: "parallel",
          include,
          exclude: [...exclude, ...serial],
          maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 2,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: "serial", include: serial, exclude, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
