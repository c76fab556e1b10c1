#!/usr/bin/env node
// `npm test`: the whole suite in phases that use both cores (decision 141), each phase timed:
//   1. Chromium present (scripts/ensure-chromium.mjs)
//   2. type check ∥ build
//   3. Vitest's `parallel` project (two files at a time)
//   4. Vitest's `serial` project (process-fault suites, one at a time)
//   5. Playwright, its two projects side by side
// Overlapping 4 and 5 was tried: Playwright's 10 s waits failed when the fault suites' scrubs took the cores.
// A failing phase stops the run after it (as `a && b` did); inside a phase every part runs to its end.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

const prefixed = (name, stream, out) => {
  let rest = "";
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) out.write(`${name} ${line}\n`);
  });
  stream.on("end", () => rest && out.write(`${name} ${rest}\n`));
};

function run(name, cmd, args, { env = {}, prefix = false } = {}) {
  const started = Date.now();
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit" });
  if (prefix) {
    prefixed(`[${name}]`, child.stdout, process.stdout);
    prefixed(`[${name}]`, child.stderr, process.stderr);
  }
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ name, code: code ?? 1, seconds: (Date.now() - started) / 1000 })),
  );
}

// This run's reports only (npm run test:timings reads them).
fs.rmSync(".test-timings", { recursive: true, force: true });

const timings = [];
// The machine may be shared: every figure carries the 1-minute load average at its start and end.
const load = () => os.loadavg()[0].toFixed(1);
async function phase(title, parts) {
  const started = Date.now();
  const loadBefore = load();
  console.log(`\n== ${title} (load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")})`);
  const results = await Promise.all(parts);
  timings.push({ title, seconds: (Date.now() - started) / 1000, results, load: `${loadBefore} -> ${load()}` });
  const failed = results.filter((r) => r.code !== 0);
  for (const r of results) console.log(`== ${r.name}: ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`} in ${r.seconds.toFixed(1)} s`);
  return failed.length === 0;
}

function summary() {
  console.log("\n== test phases");
  for (const t of timings) console.log(`${t.seconds.toFixed(1).padStart(7)} s  ${t.title}  [${t.results.map((r) => `${r.name} ${r.seconds.toFixed(0)} s`).join(", ")}]  load ${t.load}`);
  console.log(`${timings.reduce((s, t) => s + t.seconds, 0).toFixed(1).padStart(7)} s  in all`);
}

const npx = (args, opts) => run(args[0], "npx", args, opts);
const ok =
  (await phase("Chromium", [run("chromium", process.execPath, ["scripts/ensure-chromium.mjs"])])) &&
  (await phase("type check and build", [npx(["tsc", "--noEmit"], { prefix: true }), run("build", "npm", ["run", "build"], { prefix: true })])) &&
  (await phase("Vitest, parallel project", [run("vitest", "npx", ["vitest", "run", "--project", "parallel"], { env: { VITEST_REPORT: "parallel" } })])) &&
  (await phase("Vitest, serial project", [run("vitest-serial", "npx", ["vitest", "run", "--project", "serial"], { env: { VITEST_REPORT: "serial" } })])) &&
  (await phase("Playwright (JS on ∥ JS off)", [run("e2e", process.execPath, ["scripts/test-e2e.mjs"])]));
summary();
process.exit(ok ? 0 : 1);
