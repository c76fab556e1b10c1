/**
 * Scrub benchmark (not a test): generates its own data, loads the lists and scrubs through the real CLI in
 * child processes (so RSS is the scrub process's own), in both modes, and prints + writes the figures.
 *
 *   npm run bench:scrub                                  # 10M rows, 100k litigation, 20M DNC, both modes
 *   BENCH_ROWS=1000000 BENCH_DNC=2000000 npm run bench:scrub   # small, for development
 *   BENCH_MODES=embedded|services|embedded,services   BENCH_DIR=/tmp/bench-scrub   BENCH_SMALL_ROWS=1000000
 *
 * Services mode needs DATABASE_URL and REDIS_URL (a fresh database and a unique Redis key prefix are used
 * and removed afterwards). Goals (2-core machine): rows/s ≥ 0.25 × bare line split; peak RSS ≤ 600 MB at
 * 10M rows and ≤ 20 B per extra row from the small to the full input; Redis ≤ 8 B per list number;
 * list loading ≥ 500,000 numbers/s; the same input as .csv.gz scrubbed at ≥ 0.6 × the uncompressed rate.
 * BENCH_GZIP=0 leaves the gzip case out. BENCH_CPU_PROF=DIR profiles every CLI run (see scrub-service/src/test/bench/cli.ts).
 * The calling-window columns (decision 131): the full input is scrubbed twice more with --calling-window and once more
 * without, alternating; the best of each is compared (goal: the columns cost ≤ 15 % of the throughput).
 * BENCH_CALLING=0 leaves them out. BENCH_LOAD_ROUNDS (default 3; 1 for the national registry): how many times the DNC
 * load and DuckDB's are timed, alternating in fresh processes; the goal compares the best of each.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { fairFloor } from "./bench/floor";
import { cli, generate, makeUser, scratch, type BenchFiles } from "scrub-service/bench";
import { listStorage } from "./bench/list-storage";

const run = promisify(execFile);
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const SMALL = Math.min(ROWS, Number(process.env.BENCH_SMALL_ROWS ?? 1_000_000));
const LIT = Number(process.env.BENCH_LIT ?? 100_000);
const DNC = Number(process.env.BENCH_DNC ?? 20_000_000);
const DIR = path.resolve(process.env.BENCH_DIR ?? "/tmp/bench-scrub");
const MODES = (process.env.BENCH_MODES ?? "embedded,services").split(",").map((m) => m.trim());
const PEER = process.env.BENCH_PEER !== "0";
const CHANGE = Number(process.env.BENCH_CHANGE ?? 1_000_000);
const GZIP = process.env.BENCH_GZIP !== "0";
const CALLING = process.env.BENCH_CALLING !== "0";
/**
 * The DNC load against DuckDB's: each is timed this many times in fresh processes (the first in the run itself, then
 * alternating rounds of their own), and the best of each is compared (the yardstick's best against ours). One for the
 * national registry (a round is minutes).
 */
const LOAD_ROUNDS = Math.max(1, Number(process.env.BENCH_LOAD_ROUNDS ?? (DNC >= 200_000_000 ? 1 : 3)));
/** A fixed instant for the calling columns, so runs repeat (a Wednesday afternoon on the US east coast). */
const CALLING_AT = "2026-11-25T19:00:00Z";

async function redisUsed(redis: Redis): Promise<number> {
  const info = await redis.info("memory");
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

/** Bytes of the saved Bloom filters under a data directory (one file per list version). */
function bloomBytes(dir: string): number {
  let total = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.startsWith("bloom-") && e.name.endsWith(".bin")) total += fs.statSync(path.join(e.parentPath, e.name)).size;
  }
  return total;
}

async function benchMode(mode: string, files: BenchFiles) {
  const place = await scratch(mode, DIR, "bench");
  const { env } = place;
  const dataDir = env.DATA_DIR;
  const redis = mode === "embedded" ? null : new Redis(process.env.REDIS_URL!);
  const cleanup = async () => {
    redis?.disconnect();
    await place.cleanup();
  };
  try {
    const userId = await makeUser(env);
    const before = redis ? await redisUsed(redis) : 0;
    const litLoad = await cli(["lists", "replace", "--list", "litigation", "--input", files.lit], env);
    const dncLoad = await cli(["lists", "replace", "--list", "dnc", "--input", files.dnc], env);
    const after = redis ? await redisUsed(redis) : 0;
    const bloomBytesAfterLoad = bloomBytes(dataDir); // the loads save each list's filter for the scrubs to read
    const scrubSmall = await cli(
      ["scrub", "--input", files.small, "--type", "DNCAndLitigation", "--out", path.join(DIR, `out-${mode}-small`), "--user", userId],
      env,
    );
    const scrubFull =
      files.input === files.small
        ? scrubSmall
        : await cli(["scrub", "--input", files.input, "--type", "DNCAndLitigation", "--out", path.join(DIR, `out-${mode}-full`), "--user", userId], env);
    // The same rows as .csv.gz: decoded on the way (gunzip in the read path), in a fresh process too.
    const scrubGzip = files.gz
      ? await cli(["scrub", "--input", files.gz, "--type", "DNCAndLitigation", "--out", path.join(DIR, `out-${mode}-gzip`), "--user", userId], env)
      : null;
    // The calling-window columns on the same file, alternating with plain runs (each in a fresh process).
    const callingRuns: Record<string, any>[] = [];
    const plainRuns: Record<string, any>[] = [scrubFull];
    if (CALLING) {
      const calling = (k: number) => [
        "scrub",
        "--input",
        files.input,
        "--type",
        "DNCAndLitigation",
        "--out",
        path.join(DIR, `out-${mode}-calling-${k}`),
        "--user",
        userId,
        "--calling-window",
        "--at",
        CALLING_AT,
      ];
      callingRuns.push(await cli(calling(1), env));
      plainRuns.push(
        await cli(["scrub", "--input", files.input, "--type", "DNCAndLitigation", "--out", path.join(DIR, `out-${mode}-plain-2`), "--user", userId], env),
      );
      callingRuns.push(await cli(calling(2), env));
    }
    // Changes into the loaded list, after the scrubs (which the peer's counts are compared with).
    const addLoad = CHANGE > 0 ? await cli(["lists", "load", "--list", "dnc", "--input", files.add], env) : null;
    const removeLoad = CHANGE > 0 ? await cli(["lists", "remove", "--list", "dnc", "--input", files.remove], env) : null;
    const ftcLoad = await cli(["lists", "apply-changes", "--list", "dnc", "--input", files.ftcChanges], env);
    const storage = await listStorage(env, "dnc");
    const listNumbers = litLoad.added + dncLoad.added;
    return {
      mode,
      load: {
        litigation: loadFigures(litLoad),
        dnc: loadFigures(dncLoad),
        addIntoDnc: addLoad && loadFigures(addLoad),
        removeFromDnc: removeLoad && loadFigures(removeLoad),
        ftcChanges: loadFigures(ftcLoad),
      },
      storage,
      redisBytesPerNumber: redis ? Number(((after - before) / listNumbers).toFixed(2)) : null,
      bloomBytesAfterLoad,
      bloomBytes: bloomBytes(dataDir),
      scrubSmall: pick(scrubSmall),
      scrubFull: pick(scrubFull),
      scrubGzip: scrubGzip && pick(scrubGzip),
      callingWindow: callingRuns.length ? callingFigures(plainRuns.map(pick), callingRuns.map(pick), callingRuns[0].calling) : null,
      rssGrowthBytesPerExtraRow:
        scrubFull.rows > scrubSmall.rows ? Number(((scrubFull.maxRssBytes - scrubSmall.maxRssBytes) / (scrubFull.rows - scrubSmall.rows)).toFixed(2)) : null,
    };
  } finally {
    await cleanup();
  }
}

/** Best plain vs best --calling-window run on the same file: the columns' cost in throughput. */
function callingFigures(plain: ReturnType<typeof pick>[], calling: ReturnType<typeof pick>[], summary: Record<string, unknown> | null) {
  const best = (runs: ReturnType<typeof pick>[]) => Math.max(...runs.map((r) => r.rowsPerSecond ?? 0));
  const plainBest = best(plain);
  const callingBest = best(calling);
  return {
    at: CALLING_AT,
    plainRowsPerSecond: plain.map((r) => r.rowsPerSecond),
    callingRowsPerSecond: calling.map((r) => r.rowsPerSecond),
    callingPipelineRowsPerSecond: calling.map((r) => r.pipelineRowsPerSecond),
    plainPipelineRowsPerSecond: plain.map((r) => r.pipelineRowsPerSecond),
    costPercent: plainBest ? Number((100 * (1 - callingBest / plainBest)).toFixed(1)) : null,
    // CPU seconds of the scrub process (every thread): steadier than wall time when others share the cores
    plainCpuSeconds: plain.map((r) => r.cpuSeconds),
    callingCpuSeconds: calling.map((r) => r.cpuSeconds),
    cpuCostPercent: cpuCost(plain, calling),
    callingMaxRssMB: Math.max(...calling.map((r) => r.maxRssMB)),
    sameCounts: calling.every((r) => r.good === plain[0].good && r.bad === plain[0].bad && r.invalid === plain[0].invalid),
    summary,
  };
}

/** Extra CPU of the calling runs over the plain ones (least of each), in percent of the plain run's. */
function cpuCost(plain: ReturnType<typeof pick>[], calling: ReturnType<typeof pick>[]): number | null {
  const least = (runs: ReturnType<typeof pick>[]) => Math.min(...runs.map((r) => r.cpuSeconds ?? Infinity));
  const p = least(plain);
  const c = least(calling);
  return Number.isFinite(p) && Number.isFinite(c) ? Number((100 * (c / p - 1)).toFixed(1)) : null;
}

function loadFigures(l: Record<string, any>) {
  const n = l.added + (l.removed ?? 0) + l.alreadyPresent + l.invalid;
  return {
    numbers: l.added,
    removed: l.removed,
    seconds: l.seconds,
    numbersPerSecond: l.numbersPerSecond,
    loadSeconds: l.loadSeconds,
    loadNumbersPerSecond: l.loadSeconds ? Math.round(n / l.loadSeconds) : null,
    status: l.status,
    error: l.error,
  };
}

function pick(s: Record<string, any>) {
  const pipelineSeconds = s.timings ? s.timings.pipelineMs / 1000 : null;
  return {
    status: s.status,
    error: s.error,
    rows: s.rows,
    good: s.good,
    bad: s.bad,
    invalid: s.invalid,
    seconds: s.seconds,
    rowsPerSecond: s.rowsPerSecond,
    jobSeconds: s.jobSeconds,
    jobRowsPerSecond: s.jobSeconds ? Math.round(s.rows / s.jobSeconds) : null,
    prepareSeconds: s.timings ? s.timings.prepareMs / 1000 : null,
    pipelineSeconds,
    pipelineRowsPerSecond: pipelineSeconds ? Math.round(s.rows / pipelineSeconds) : null,
    maxRssMB: Math.round(s.maxRssBytes / 1e6),
    cpuSeconds: s.cpuSeconds ?? null,
  };
}

async function duckdbPeer(files: BenchFiles) {
  const out = path.join(DIR, "out-duckdb");
  const args = { input: files.input, lists: { litigation: files.lit, dnc: files.dnc }, out, threads: os.availableParallelism(), phone: "phone" };
  const { stdout } = await run(process.execPath, ["scripts/bench/duckdb-peer.mjs", JSON.stringify(args)], { maxBuffer: 1 << 24 });
  const res = JSON.parse(stdout);
  return { ...res, maxRssMB: Math.round(res.maxRssBytes / 1e6) };
}

/** DuckDB's DNC load alone, in a fresh process. */
async function duckdbLoad(files: BenchFiles): Promise<number> {
  const args = { lists: { dnc: files.dnc }, threads: os.availableParallelism(), loadsOnly: true };
  const { stdout } = await run(process.execPath, ["scripts/bench/duckdb-peer.mjs", JSON.stringify(args)], { maxBuffer: 1 << 24 });
  return JSON.parse(stdout).loads.dnc.seconds;
}

/** Our DNC load alone (`lists replace` into a fresh place of `mode`). */
async function ourLoad(mode: string, files: BenchFiles): Promise<number> {
  const place = await scratch(mode, DIR, "race");
  try {
    await makeUser(place.env);
    return (await cli(["lists", "replace", "--list", "dnc", "--input", files.dnc], place.env)).seconds;
  } finally {
    await place.cleanup();
  }
}

/** The DNC loads of LOAD_ROUNDS - 1 more rounds, DuckDB's then each mode's, after the run's own (its first round). */
async function loadRounds(files: BenchFiles, modes: { mode: string; load: { dnc: { seconds: number } } }[], peer: { loads: { dnc: { seconds: number } } }) {
  const rounds = { duckdb: [peer.loads.dnc.seconds], ours: Object.fromEntries(modes.map((m) => [m.mode, [m.load.dnc.seconds]])) as Record<string, number[]> };
  for (let r = 1; r < LOAD_ROUNDS; r++) {
    rounds.duckdb.push(await duckdbLoad(files));
    for (const m of modes) rounds.ours[m.mode].push(await ourLoad(m.mode, files));
  }
  return rounds;
}

const fmt = (n: number | null | undefined) => (n == null ? "—" : n.toLocaleString("en-US"));
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? Number((a / b).toFixed(3)) : null);

function goalsOf(
  m: Awaited<ReturnType<typeof benchMode>>,
  floor: number,
  peer: Awaited<ReturnType<typeof duckdbPeer>> | null,
  rounds: Awaited<ReturnType<typeof loadRounds>> | null,
) {
  const ourBest = rounds ? Math.min(...rounds.ours[m.mode]) : m.load.dnc.seconds;
  const duckBest = rounds ? Math.min(...rounds.duckdb) : peer?.loads.dnc.seconds;
  const dncRate = m.load.dnc.numbersPerSecond ?? 0;
  const change = [m.load.addIntoDnc, m.load.removeFromDnc].filter(Boolean).map((l) => l!.numbersPerSecond ?? 0);
  const goal = (name: string, value: number | null, target: string, met: boolean | null) => ({ goal: name, value, target, met });
  return [
    goal("scrub rows/s vs fair bare split", ratio(m.scrubFull.rowsPerSecond, floor), "≥ 0.25", m.scrubFull.rowsPerSecond >= 0.25 * floor),
    goal(
      "DuckDB scrub time / ours",
      peer ? ratio(peer.scrub.seconds, m.scrubFull.seconds) : null,
      "≥ 5",
      peer ? peer.scrub.seconds >= 5 * m.scrubFull.seconds : null,
    ),
    goal(
      "our peak RSS / DuckDB's",
      peer ? ratio(m.scrubFull.maxRssMB, peer.maxRssMB) : null,
      "≤ 0.25",
      peer ? m.scrubFull.maxRssMB <= 0.25 * peer.maxRssMB : null,
    ),
    goal(
      "counts equal DuckDB's",
      null,
      "good, bad, invalid equal",
      peer ? peer.scrub.good === m.scrubFull.good && peer.scrub.bad === m.scrubFull.bad && peer.scrub.invalid === m.scrubFull.invalid : null,
    ),
    goal(
      `DNC ${fmt(DNC)} replace numbers/s`,
      dncRate,
      mode(m) === "services" ? "≥ 1,500,000" : "≥ 1,000,000",
      dncRate >= (mode(m) === "services" ? 1_500_000 : 1_000_000),
    ),
    goal(
      "add/remove into the DNC list numbers/s (slower of the two)",
      change.length ? Math.min(...change) : null,
      "≥ 500,000",
      change.length ? Math.min(...change) >= 500_000 : null,
    ),
    goal("peak RSS at full size (MB)", m.scrubFull.maxRssMB, "≤ 600", m.scrubFull.maxRssMB <= 600),
    goal("RSS growth per extra row (B)", m.rssGrowthBytesPerExtraRow, "≤ 20", m.rssGrowthBytesPerExtraRow == null ? null : m.rssGrowthBytesPerExtraRow <= 20),
    goal("Redis bytes per list number", m.redisBytesPerNumber, "≤ 8", m.redisBytesPerNumber == null ? null : m.redisBytesPerNumber <= 8),
    // issue #28 (decision 162): lists as exchange blocks
    goal(
      `DNC ${fmt(DNC)} load s, best of ${LOAD_ROUNDS}, vs DuckDB's best (${duckBest ? duckBest.toFixed(2) : "—"} s)`,
      ourBest,
      mode(m) === "services" ? "< DuckDB's" : "≤ 1.5 × DuckDB's",
      duckBest ? ourBest < (mode(m) === "services" ? 1 : 1.5) * duckBest : null,
    ),
    goal(
      "PostgreSQL bytes per listed number (DNC partition, key included)",
      m.storage.bytesPerNumber,
      "≤ 4",
      m.storage.bytesPerNumber == null ? null : m.storage.bytesPerNumber <= 4,
    ),
    ...(DNC >= 200_000_000
      ? [
          goal("national registry: load s", m.load.dnc.seconds, "≤ 120", m.load.dnc.seconds <= 120),
          goal("national registry: database MB", Math.round(m.storage.databaseBytes / 1e6), "≤ 1,000", m.storage.databaseBytes <= 1e9),
        ]
      : []),
    goal(
      `add ${fmt(CHANGE)} into the DNC list: load s (job)`,
      m.load.addIntoDnc?.loadSeconds ?? null,
      "≤ 1 (services)",
      mode(m) === "services" && m.load.addIntoDnc ? m.load.addIntoDnc.loadSeconds! <= 1 : null,
    ),
    goal(
      "FTC change list of 10,000 records: load s (job)",
      m.load.ftcChanges.loadSeconds,
      "≤ 0.2",
      m.load.ftcChanges.loadSeconds == null ? null : m.load.ftcChanges.loadSeconds <= 0.2,
    ),
    goal(
      "calling-window columns: throughput cost (%)",
      m.callingWindow?.costPercent ?? null,
      "≤ 15",
      m.callingWindow ? m.callingWindow.costPercent != null && m.callingWindow.costPercent <= 15 && m.callingWindow.sameCounts : null,
    ),
    goal(
      ".csv.gz scrub rows/s vs the uncompressed file's",
      m.scrubGzip ? ratio(m.scrubGzip.rowsPerSecond, m.scrubFull.rowsPerSecond) : null,
      "≥ 0.6",
      m.scrubGzip ? m.scrubGzip.status === "completed" && m.scrubGzip.rowsPerSecond >= 0.6 * m.scrubFull.rowsPerSecond : null,
    ),
  ];
}
const mode = (m: { mode: string }) => m.mode;

async function main() {
  console.log(
    `[bench] rows ${fmt(ROWS)} (small ${fmt(SMALL)}), litigation ${fmt(LIT)}, DNC ${fmt(DNC)}, change ${fmt(CHANGE)}, modes ${MODES.join(", ")}; data in ${DIR}`,
  );
  console.log(
    `[bench] machine: ${os.availableParallelism()} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const t = performance.now();
  const files = await generate({ dir: DIR, rows: ROWS, small: SMALL, lit: LIT, dnc: DNC, change: CHANGE, gzip: GZIP });
  console.log(`[bench] data ready in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await run(process.execPath, ["scrub-service/scripts/build-worker.mjs"]);
  const floor = await fairFloor(files.input);
  for (const f of floor.byReadSize)
    console.log(`[bench] bare line split, fresh process, ${f.readBytes >> 10} KiB reads: ${f.runs.map(fmt).join(", ")} rows/s; best ${fmt(f.best)}`);
  console.log(`[bench] floor (best of all): ${fmt(floor.best.rowsPerSecond)} rows/s`);
  let peer: Awaited<ReturnType<typeof duckdbPeer>> | null = null;
  if (PEER) {
    console.log("[bench] peer: DuckDB…");
    peer = await duckdbPeer(files);
    console.log(JSON.stringify(peer, null, 2));
  }
  const modes = [];
  for (const m of MODES) {
    console.log(`[bench] mode ${m}…`);
    const res = await benchMode(m, files);
    modes.push(res);
    console.log(JSON.stringify(res, null, 2));
    if (res.callingWindow) {
      const c = res.callingWindow;
      console.log(
        `[bench] calling window (${m}): without ${c.plainRowsPerSecond.map(fmt).join(", ")} rows/s, with --calling-window ${c.callingRowsPerSecond.map(fmt).join(", ")} rows/s: ` +
          `cost ${c.costPercent} % (goal ≤ 15 %); CPU seconds without ${c.plainCpuSeconds.join(", ")}, with ${c.callingCpuSeconds.join(", ")}: ` +
          `+${c.cpuCostPercent} %; same counts ${c.sameCounts}, load average ${os
            .loadavg()
            .map((l) => l.toFixed(2))
            .join(" ")}`,
      );
    }
    if (res.scrubGzip) {
      console.log(
        `[bench] gzip (${m}): ${fmt(res.scrubGzip.rowsPerSecond)} rows/s vs ${fmt(res.scrubFull.rowsPerSecond)} uncompressed = ` +
          `${ratio(res.scrubGzip.rowsPerSecond, res.scrubFull.rowsPerSecond)}× (goal ≥ 0.6), peak RSS ${res.scrubGzip.maxRssMB} MB`,
      );
    }
  }
  const rounds = peer ? await loadRounds(files, modes, peer) : null;
  if (rounds) {
    const line = (runs: number[]) => `${runs.map((x) => x.toFixed(2)).join(", ")} s (best ${Math.min(...runs).toFixed(2)})`;
    console.log(
      `[bench] DNC ${fmt(DNC)} load, ${LOAD_ROUNDS} rounds in fresh processes, DuckDB first in each: DuckDB ${line(rounds.duckdb)}; ` +
        modes.map((m) => `ours (${m.mode}) ${line(rounds.ours[m.mode])}`).join("; "),
    );
  }
  console.log(
    `[bench] load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const goals = Object.fromEntries(modes.map((m) => [m.mode, goalsOf(m, floor.best.rowsPerSecond, peer, rounds)]));
  for (const [m, gs] of Object.entries(goals)) {
    console.log(`\n[bench] goals, ${m} mode:`);
    for (const g of gs)
      console.log(`  ${g.met == null ? "n/a    " : g.met ? "met    " : "NOT MET"}  ${g.goal}: ${g.value == null ? "—" : fmt(g.value)} (goal ${g.target})`);
  }
  if (peer) {
    for (const m of modes) {
      console.log(
        `[bench] vs DuckDB (${m.mode}): scrub ${m.scrubFull.seconds.toFixed(2)} s vs ${peer.scrub.seconds.toFixed(2)} s, peak RSS ${m.scrubFull.maxRssMB} MB vs ${peer.maxRssMB} MB, DNC load ${m.load.dnc.seconds.toFixed(2)} s vs ${peer.loads.dnc.seconds.toFixed(2)} s`,
      );
      const counts = (c: { good: number; bad: number; invalid: number }) => `${fmt(c.good)} good / ${fmt(c.bad)} bad / ${fmt(c.invalid)} invalid`;
      console.log(
        `[bench] list storage (${m.mode}): DNC ${fmt(m.storage.listNumbers)} numbers in ${fmt(m.storage.blocks)} blocks, ${fmt(m.storage.listBytes)} bytes = ${m.storage.bytesPerNumber} B/number; database ${fmt(Math.round(m.storage.databaseBytes / 1e6))} MB`,
      );
      console.log(`[bench] counts (${m.mode}): ours ${counts(m.scrubFull)}, DuckDB's ${counts(peer.scrub)}`);
    }
  }
  const result = {
    date: new Date().toISOString(),
    cores: os.availableParallelism(),
    rows: ROWS,
    smallRows: SMALL,
    litigation: LIT,
    dnc: DNC,
    change: CHANGE,
    floor,
    loadAverage: os.loadavg(),
    peer,
    modes,
    loadRounds: rounds,
    goals,
  };
  const out = path.join(DIR, "bench-scrub.json");
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log(`[bench] written to ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
