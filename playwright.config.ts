import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// Each run gets a fresh embedded data directory (PGlite, outbox e-mail, in-process scrub service):
// the e2e suite drives exactly what `npm start` ships. BUILD_DIR and E2E_PORT allow parallel runs.
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "dpt-e2e-"));
process.env.E2E_DATA_DIR = dataDir;

const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The JSON report feeds `npm run test:timings`; E2E_REPORT names it when scripts/test-e2e.mjs runs the
  // two projects side by side (each with its own server, port, data directory and output folder).
  reporter: [["list"], ["json", { outputFile: `.test-timings/playwright-${process.env.E2E_REPORT ?? "all"}.json` }]],
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: chromiumFlags },
    trace: "off",
  },
  // `setup` signs the demo admin in once through the form and stores the session (tests/e2e/auth.setup.ts);
  // `--project=js` runs it first in that process, against that process's server.
  projects: [
    { name: "setup", testMatch: "auth.setup.ts", use: { javaScriptEnabled: true } },
    { name: "js", dependencies: ["setup"], use: { javaScriptEnabled: true } },
    { name: "no-js", dependencies: ["setup"], use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: "node server.mjs",
    url: `http://localhost:${port}/login`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      DATABASE_URL: "",
      REDIS_URL: "",
      // the embedded index, never a cluster or Sentinel the environment names (CI sets REDIS_CLUSTER_NODES)
      REDIS_CLUSTER_NODES: "",
      REDIS_SENTINELS: "",
      SCRUB_SERVICE_URL: "",
      SMTP_URL: "",
      DEMO_ADMIN: "1",
      NODE_ENV: "development",
      // the webhook sender looks for due deliveries every 250 ms instead of 2 s: the integrations test waits
      // for its delivery, the same one, sooner (decision 141)
      WEBHOOK_POLL_MS: "250",
    },
  },
});
