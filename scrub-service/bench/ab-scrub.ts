/**
 * A/B of the scrub between two trees (not a test): the same generated input and lists (src/test/bench/data.ts)
 * scrubbed by each tree's built CLI in fresh processes, alternating A, B, A, B … so both see the same load.
 *
 *   BENCH_OLD=/work/wt/old5c npx tsx scrub-service/bench/ab-scrub.ts
 *   BENCH_NEW (default: this tree)  BENCH_ROUNDS=5  BENCH_MODES=services,embedded  BENCH_ROWS=3000000
 *   BENCH_DNC=3000000  BENCH_LIT=100000  BENCH_DIR=/tmp/ab-scrub  BENCH_PROF=DIR (CPU profiles, one run each)
 *
 * Each tree gets its own database (or data directory) and Redis prefix, loaded once with its own CLI; then only
 * the scrub is repeated. Per run: end-to-end rows/s (the job's own clock), pipeline seconds (read → written),
 * and the process's CPU seconds (user + sys from /usr/bin/time, every thread), which other load disturbs less
 * than wall time. Prints per-round rows, medians and bests, the load average at each run, and writes JSON.
 * Services mode needs DATABASE_URL and REDIS_URL.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { generate, makeUser, scratch } from "../src/test/bench";

const run = promisify(execFile);
const ROWS = Number(process.env.BENCH_ROWS ?? 3_000_000);
const LIT = Number(process.env.BENCH_LIT ?? 100_000);
const DNC = Number(process.env.BENCH_DNC ?? 3_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DIR = path.resolve(process.env.BENCH_DIR ?? "/tmp/ab-scrub");
const MODES = (process.env.BENCH_MODES ?? "services,embedded").split(",").map((m) => m.trim());
const PROF = process.env.BENCH_PROF ? path.resolve(process.env.BENCH_PROF) : null;
const TREES = [
  { name: "old", dir: path.resolve(process.env.BENCH_OLD ?? "/work/wt/old5c") },
  { name: "new", dir: path.resolve(process.env.BENCH_NEW ?? ".") },
];

type Tree = (typeof TREES)[number];
type Env = Record<string, string>;

interface Run {
  tree: string;
  mode: string;
  round: number;
  rows: number;
  good: number;
  bad: number;
  invalid: number;
  rowsPerSecond: number;
  pipelineSeconds: number;
  cpuSeconds: number;
  wallSeconds: number;
  maxRssMB: number;
  load1: number;
}

async function cli(tree: Tree, args: string[], env: Env, nodeFlags: string[] = []) {
  const { stdout, stderr } = await run("/usr/bin/time", ["-f", "TIME %U %S %e", process.execPath, ...nodeFlags, "scrub-service/dist/cli.mjs", ...args], {
    cwd: tree.dir,
    env: { ...process.env, ...env },
    maxBuffer: 1 << 24,
  });
  const t = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(stderr);
  if (!t) throw new Error(`no /usr/bin/time line in: ${stderr.slice(-500)}`);
  return { out: JSON.parse(stdout) as Record<string, any>, cpu: Number(t[1]) + Number(t[2]), wall: Number(t[3]) };
}

/** A fresh database (or data directory) and Redis prefix for one tree, with both lists loaded by its CLI. */
async function setUp(tree: Tree, mode: string, files: { lit: string; dnc: string }) {
  const { env, cleanup } = await scratch(mode, DIR, `ab_${tree.name}`);
  const user = await makeUser(env, tree.dir);
  for (const [list, file] of [
    ["litigation", files.lit],
    ["dnc", files.dnc],
  ]) {
    const { out } = await cli(tree, ["lists", "replace", "--list", list, "--input", file], env);
    if (out.status !== "completed") throw new Error(`${tree.name} ${mode}: loading ${list} ${out.status}: ${out.error}`);
  }
  return { env, user, cleanup };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

async function main() {
  fs.mkdirSync(DIR, { recursive: true });
  console.log(
    `[ab] ${TREES.map((t) => `${t.name} = ${t.dir}`).join(", ")}; rows ${fmt(ROWS)}, litigation ${fmt(LIT)}, DNC ${fmt(DNC)}, ${ROUNDS} rounds, modes ${MODES.join(", ")}`,
  );
  console.log(`[ab] machine: ${os.availableParallelism()} cores, load average ${loadavg()}`);
  const files = await generate({ dir: DIR, rows: ROWS, small: ROWS, lit: LIT, dnc: DNC, change: 0, gzip: false });
  for (const t of TREES) {
    // Where the tree keeps its build script: scrub-service/scripts/ since issue #27, scripts/ before.
    const builder = ["scrub-service/scripts/build-worker.mjs", "scripts/build-worker.mjs"].find((f) => fs.existsSync(path.join(t.dir, f)));
    if (!builder) throw new Error(`${t.dir}: no build-worker.mjs`);
    await run(process.execPath, [builder], { cwd: t.dir });
    const head = await run("git", ["-C", t.dir, "log", "-1", "--format=%h %s"]);
    console.log(
      `[ab] ${t.name}: ${head.stdout.trim().slice(0, 100)}${(await run("git", ["-C", t.dir, "status", "--porcelain", "--untracked-files=no"])).stdout ? " (+ uncommitted changes)" : ""}`,
    );
  }
  const runs: Run[] = [];
  for (const mode of MODES) {
    const setups = [];
    for (const t of TREES) setups.push(await setUp(t, mode, files));
    try {
      if (PROF) {
        for (const [i, t] of TREES.entries()) {
          const dir = path.join(PROF, `${mode}-${t.name}`);
          fs.rmSync(dir, { recursive: true, force: true });
          const args = [
            "scrub",
            "--input",
            files.input,
            "--type",
            "DNCAndLitigation",
            "--out",
            path.join(DIR, `out-${t.name}-${mode}`),
            "--user",
            setups[i].user,
          ];
          await cli(t, args, setups[i].env, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
          console.log(`[ab] ${mode} ${t.name}: CPU profiles in ${dir} (node scripts/bench/profile-summary.mjs ${dir})`);
        }
        continue;
      }
      console.log(`\n[ab] ${mode} mode          rows/s     pipeline s   CPU s   wall s   RSS MB   load 1m`);
      for (let round = 1; round <= ROUNDS; round++) {
        for (const [i, t] of TREES.entries()) {
          const args = [
            "scrub",
            "--input",
            files.input,
            "--type",
            "DNCAndLitigation",
            "--out",
            path.join(DIR, `out-${t.name}-${mode}`),
            "--user",
            setups[i].user,
          ];
          const load1 = os.loadavg()[0];
          const { out, cpu, wall } = await cli(t, args, setups[i].env);
          if (out.status !== "completed") throw new Error(`${t.name} ${mode}: scrub ${out.status}: ${out.error}`);
          const r: Run = {
            tree: t.name,
            mode,
            round,
            rows: out.rows,
            good: out.good,
            bad: out.bad,
            invalid: out.invalid,
            rowsPerSecond: out.rowsPerSecond,
            pipelineSeconds: out.timings.pipelineMs / 1000,
            cpuSeconds: cpu,
            wallSeconds: wall,
            maxRssMB: Math.round(out.maxRssBytes / 1e6),
            load1,
          };
          runs.push(r);
          console.log(
            `[ab] round ${round} ${t.name}  ${fmt(r.rowsPerSecond).padStart(10)}  ${r.pipelineSeconds.toFixed(2).padStart(9)}  ${r.cpuSeconds.toFixed(2).padStart(6)}  ${r.wallSeconds.toFixed(2).padStart(6)}  ${String(r.maxRssMB).padStart(6)}  ${load1.toFixed(2).padStart(7)}`,
          );
        }
      }
      const counts = TREES.map((t) => runs.find((r) => r.mode === mode && r.tree === t.name)!).map(
        (r) => `${r.tree} ${fmt(r.good)}/${fmt(r.bad)}/${fmt(r.invalid)}`,
      );
      console.log(`[ab] ${mode} counts good/bad/invalid: ${counts.join(", ")}`);
      const of = (t: string) => runs.filter((r) => r.mode === mode && r.tree === t);
      for (const t of TREES) {
        const rs = of(t.name);
        console.log(
          `[ab] ${mode} ${t.name}: median ${fmt(median(rs.map((r) => r.rowsPerSecond)))} rows/s, pipeline ${median(rs.map((r) => r.pipelineSeconds)).toFixed(2)} s, CPU ${median(rs.map((r) => r.cpuSeconds)).toFixed(2)} s; ` +
            `best ${fmt(Math.max(...rs.map((r) => r.rowsPerSecond)))} rows/s, pipeline ${Math.min(...rs.map((r) => r.pipelineSeconds)).toFixed(2)} s, CPU ${Math.min(...rs.map((r) => r.cpuSeconds)).toFixed(2)} s`,
        );
      }
      const [a, b] = TREES.map((t) => of(t.name));
      const pct = (x: number, y: number) => `${(((y - x) / x) * 100).toFixed(1)} %`;
      console.log(
        `[ab] ${mode} new vs old: rows/s median ${pct(median(a.map((r) => r.rowsPerSecond)), median(b.map((r) => r.rowsPerSecond)))}, ` +
          `pipeline median ${pct(median(a.map((r) => r.pipelineSeconds)), median(b.map((r) => r.pipelineSeconds)))} (best ${pct(Math.min(...a.map((r) => r.pipelineSeconds)), Math.min(...b.map((r) => r.pipelineSeconds)))}), ` +
          `CPU median ${pct(median(a.map((r) => r.cpuSeconds)), median(b.map((r) => r.cpuSeconds)))} (best ${pct(Math.min(...a.map((r) => r.cpuSeconds)), Math.min(...b.map((r) => r.cpuSeconds)))})`,
      );
    } finally {
      for (const s of setups) await s.cleanup();
    }
  }
  console.log(`[ab] load average after: ${loadavg()}`);
  const out = path.join(DIR, "ab-scrub.json");
  fs.writeFileSync(
    out,
    JSON.stringify({ date: new Date().toISOString(), trees: TREES, rows: ROWS, lit: LIT, dnc: DNC, loadAverageAfter: os.loadavg(), runs }, null, 2),
  );
  console.log(`[ab] written to ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
