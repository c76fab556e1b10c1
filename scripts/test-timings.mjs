#!/usr/bin/env node
// Prints the slowest test files and tests of the last run from the JSON reports that `npm test` writes
// (.test-timings/vitest.json and .test-timings/playwright-<project>.json). `--run` runs Vitest and Playwright first.
// Usage: npm run test:timings [-- --run] [-- --top N]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const dir = path.resolve(".test-timings");
const args = process.argv.slice(2);
const top = Number(args[args.indexOf("--top") + 1]) || 20;

if (args.includes("--run")) {
  const r = spawnSync("node", ["scripts/test-all.mjs"], { stdio: "inherit" });
  if (r.status !== 0) console.log(`(npm test exited ${r.status}; timings below are still printed)`);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`;
const rel = (p) => path.relative(process.cwd(), p);

function table(title, rows) {
  console.log(`\n${title}`);
  rows.sort((a, b) => b.ms - a.ms);
  for (const r of rows.slice(0, top)) console.log(`${seconds(r.ms)}  ${r.name}`);
}

function vitest() {
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^vitest-.*\.json$/.test(f)) : [];
  if (!names.length) return console.log(`No Vitest report in ${rel(dir)}: run npm test (or npm run test:timings -- --run).`);
  for (const name of names) vitestReport(path.join(dir, name));
}

function vitestReport(file) {
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  const files = report.testResults.map((f) => ({ name: rel(f.name), ms: f.endTime - f.startTime }));
  const tests = report.testResults.flatMap((f) => f.assertionResults.map((t) => ({ name: `${rel(f.name)} › ${t.fullName}`, ms: t.duration ?? 0 })));
  const wall = Math.max(...report.testResults.map((f) => f.endTime)) - report.startTime;
  const sum = files.reduce((s, f) => s + f.ms, 0);
  console.log(
    `\nVitest (${path.basename(file)}): ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped in ${report.testResults.length} files; wall ${seconds(wall).trim()}, file time summed ${seconds(sum).trim()}`,
  );
  table(`Vitest: the ${top} slowest files`, files);
  table(`Vitest: the ${top} slowest tests`, tests);
}

function playwright() {
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^playwright-.*\.json$/.test(f)) : [];
  if (!names.length) return console.log(`No Playwright report in ${rel(dir)}: run npm test (or npm run test:timings -- --run).`);
  for (const name of names) playwrightReport(path.join(dir, name));
}

function playwrightReport(file) {
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  const tests = [];
  const files = new Map();
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        const ms = t.results.reduce((s, r) => s + (r.duration ?? 0), 0);
        tests.push({ name: `[${t.projectName}] ${spec.file} › ${[...titles, spec.title].join(" › ")}`, ms });
        const key = `[${t.projectName}] ${spec.file}`;
        files.set(key, (files.get(key) ?? 0) + ms);
      }
    }
    for (const s of suite.suites ?? []) walk(s, s.title && !s.title.endsWith(".spec.ts") ? [...titles, s.title] : titles);
  };
  for (const s of report.suites) walk(s, []);
  const st = report.stats ?? {};
  console.log(
    `\nPlaywright (${path.basename(file)}): ${st.expected ?? "?"} passed, ${st.unexpected ?? "?"} failed, ${st.skipped ?? "?"} skipped; wall ${seconds(st.duration ?? 0).trim()}`,
  );
  table(
    `Playwright: the ${top} slowest files (per project)`,
    [...files].map(([name, ms]) => ({ name, ms })),
  );
  table(`Playwright: the ${top} slowest tests`, tests);
}

vitest();
playwright();
