#!/usr/bin/env node
// `npm test`: the whole suite in phases that use both cores (decision 141), each phase timed:
//   1. Chromium present (scripts/ensure-chromium.mjs)
//   2. Vitest's `serial` project (process-fault suites, one at a time, after the build) side by side with the
//      type check then the linter (nice 19) and Vitest's `parallel` project (two files at a time, nice 9): the fault suites
//      wait on failover timers and use under half of the two cores; the other two take the rest at a lower
//      CPU priority, so the fault suites' own processes (Redis, Sentinel, the cluster's nodes, the web and
//      scrub processes) get a core when they want one. TEST_OVERLAP=0 runs the old phases instead: type
//      check ∥ build, then parallel, then serial.
//   3. Playwright, its two projects side by side
// Overlapping the serial suites with Playwright was tried: Playwright's 10 s waits failed when the fault suites' scrubs took the cores.
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
  return new Promise((resolve) => child.on("close", (code) => resolve({ name, code: code ?? 1, seconds: (Date.now() - started) / 1000 })));
}

// This run's reports only (npm run test:timings reads them).
fs.rmSync(".test-timings", { recursive: true, force: true });

const timings = [];
// The machine may be shared: every figure carries the 1-minute load average at its start and end.
const load = () => os.loadavg()[0].toFixed(1);
async function phase(title, parts) {
  const started = Date.now();
  const loadBefore = load();
  console.log(
    `\n== ${title} (load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")})`,
  );
  const results = await Promise.all(parts);
  timings.push({ title, seconds: (Date.now() - started) / 1000, results, load: `${loadBefore} -> ${load()}` });
  const failed = results.filter((r) => r.code !== 0);
  for (const r of results) console.log(`== ${r.name}: ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`} in ${r.seconds.toFixed(1)} s`);
  return failed.length === 0;
}

function summary() {
  console.log("\n== test phases");
  for (const t of timings)
    console.log(
      `${t.seconds.toFixed(1).padStart(7)} s  ${t.title}  [${t.results.map((r) => `${r.name} ${r.seconds.toFixed(0)} s`).join(", ")}]  load ${t.load}`,
    );
  console.log(
    `${timings
      .reduce((s, t) => s + t.seconds, 0)
      .toFixed(1)
      .padStart(7)} s  in all`,
  );
}

const npx = (args, opts) => run(args[0], "npx", args, opts);
// A lower CPU priority for the parts that only fill the cores the fault suites leave (not on Windows).
const niced = (level) => (name, cmd, args, opts) =>
  process.platform === "win32" ? run(name, cmd, args, opts) : run(name, "nice", ["-n", String(level), cmd, ...args], opts);
// The parallel project at nice 9, not 19: its thread-priority test checks that scrub threads lower themselves
// to nice 10 (SCRUB_WORKER_NICE's default), which a thread never does from 19 (it only ever lowers).
// Side by side, each line of output is prefixed with its part's name.
const vitestParallel = (lowPriority) =>
  (lowPriority ? niced(9) : run)("vitest", "npx", ["vitest", "run", "--project", "parallel"], { env: { VITEST_REPORT: "parallel" }, prefix: lowPriority });
const vitestSerial = (prefix) => run("vitest-serial", "npx", ["vitest", "run", "--project", "serial"], { env: { VITEST_REPORT: "serial" }, prefix });
const build = () => run("build", "npm", ["run", "build"], { prefix: true });
/** ESLint (zero warnings) and Prettier's check: `npm run lint` (issue #45). */
const lint = (runner) => runner("lint", "npm", ["run", "--silent", "lint"], { prefix: true });
/** `first`, then `next` when `first` passed (the result of the failing one otherwise). */
const then = async (first, next) => {
  const r = await first;
  if (r.code !== 0) return r;
  const r2 = await next();
  return { ...r2, name: `${r.name} ${r.seconds.toFixed(0)} s, then ${r2.name}` };
};

const chromium = () => phase("Chromium", [run("chromium", process.execPath, ["scripts/ensure-chromium.mjs"])]);
const playwright = () => phase("Playwright (JS on ∥ JS off)", [run("e2e", process.execPath, ["scripts/test-e2e.mjs"])]);
const ok =
  process.env.TEST_OVERLAP === "0"
    ? (await chromium()) &&
      (await phase("type check, lint and build", [then(npx(["tsc", "--noEmit"], { prefix: true }), () => lint(run)), build()])) &&
      (await phase("Vitest, parallel project", [vitestParallel(false)])) &&
      (await phase("Vitest, serial project", [vitestSerial(false)])) &&
      (await playwright())
    : (await chromium()) &&
      (await phase("build, then Vitest serial ∥ type check (nice 19) ∥ Vitest parallel (nice 9)", [
        then(build(), () => vitestSerial(true)),
        then(niced(19)("tsc", "npx", ["tsc", "--noEmit"], { prefix: true }), () => lint(niced(19))),
        vitestParallel(true),
      ])) &&
      (await playwright());
summary();
process.exit(ok ? 0 : 1);
