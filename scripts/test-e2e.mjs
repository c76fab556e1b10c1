#!/usr/bin/env node
// Runs Playwright's two projects (JavaScript on, JavaScript off) side by side, each in its own Playwright
// process with its own app server, port, fresh data directory and output folder, so the two never share state
// and the suite uses both cores. Extra arguments go to both (a spec file, --grep …). Exit code: non-zero
// when either failed. E2E_SERIAL=1 runs them one after the other (same isolation).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { copyPgliteTemplate } from "./pglite-template.mjs";

const extra = process.argv.slice(2);
const reports = path.resolve(".test-timings");
if (fs.existsSync(reports)) for (const f of fs.readdirSync(reports)) if (f.startsWith("playwright-")) fs.rmSync(path.join(reports, f));
const basePort = Number(process.env.E2E_PORT ?? 3100);
const projects = [
  { name: "js", port: basePort },
  { name: "no-js", port: basePort + 1 },
];

function run({ name, port }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `dpt-e2e-${name}-`));
  // the migrated empty database a first start makes, when Vitest's set-up has built the template (npm test
  // runs Vitest first); without it the server creates and migrates its own
  copyPgliteTemplate(dataDir);
  const child = spawn("npx", ["playwright", "test", `--project=${name}`, ...extra], {
    env: { ...process.env, E2E_PORT: String(port), E2E_DATA_DIR: dataDir, E2E_REPORT: name, E2E_OUTPUT_DIR: `test-results/${name}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const prefix = `[${name}] `.padEnd(9);
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream.on("data", (chunk) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(prefix + line + "\n");
    });
    stream.on("end", () => rest && process.stdout.write(prefix + rest + "\n"));
  }
  return new Promise((resolve) => child.on("close", (code) => resolve({ name, code: code ?? 1 })));
}

const results = process.env.E2E_SERIAL === "1" ? [await run(projects[0]), await run(projects[1])] : await Promise.all(projects.map(run));
const failed = results.filter((r) => r.code !== 0);
for (const r of results) console.log(`Playwright project ${r.name}: ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`}`);
process.exit(failed.length ? 1 : 0);
