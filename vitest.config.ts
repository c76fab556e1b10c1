import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "scrub-service/**/*.test.ts", "db/**/*.test.ts", "scripts/**/*.test.ts", "tests/**/*.test.ts"],
    exclude: ["node_modules", "tests/e2e/**", "**/*.spec.ts", "build*/**"],
    environment: "node",
    setupFiles: ["tests/setup/console.ts", "tests/setup/isolation.ts"],
    globalSetup: ["tests/setup/global.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", ["json", { outputFile: ".test-timings/vitest.json" }]],
  },
});
