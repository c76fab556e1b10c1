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
 * list loading ≥ 500,000 numbers/s.
 */
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { Redis } from "ioredis";
import { seededRandom } from "../scrub-service/src/test/random";

const run = promisify(execFile);
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const SMALL = Math.min(ROWS, Number(process.env.BENCH_SMALL_ROWS ?? 1_000_000));
const LIT = Number(process.env.BENCH_LIT ?? 100_000);
const DNC = Number(process.env.BENCH_DNC ?? 20_000_000);
const DIR = path.resolve(process.env.BENCH_DIR ?? "/tmp/bench-scrub");
const MODES = (process.env.BENCH_MODES ?? "embedded,services").split(",").map((m) => m.trim());

const r = seededRandom(20261122);
const randomNumber = () => (200 + Math.floor(r() * 800)) * 1e7 + (200 + Math.floor(r() * 800)) * 1e4 + Math.floor(r() * 1e4);

async function writeLines(file: string, count: number, line: (i: number) => string): Promise<void> {
  const out = fs.createWriteStream(file, { highWaterMark: 1 << 22 });
  let buf: string[] = [];
  for (let i = 0; i < count; i++) {
    buf.push(line(i));
    if (buf.length === 50_000) {
      if (!out.write(buf.join("\n") + "\n")) await new Promise<void>((res) => out.once("drain", () => res()));
      buf = [];
    }
  }
  if (buf.length) out.write(buf.join("\n") + "\n");
  await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
}

async function generate() {
  fs.mkdirSync(DIR, { recursive: true });
  const lit = path.join(DIR, `lit-${LIT}.txt`);
  const dnc = path.join(DIR, `dnc-${DNC}.txt`);
  const input = path.join(DIR, `input-${ROWS}.csv`);
  const small = path.join(DIR, `input-${SMALL}.csv`);
  const litSample: number[] = [];
  const dncSample: number[] = [];
  if (!fs.existsSync(lit)) await writeLines(lit, LIT, () => { const x = randomNumber(); if (litSample.length < 10_000) litSample.push(x); return String(x); });
  if (!fs.existsSync(dnc)) await writeLines(dnc, DNC, () => { const x = randomNumber(); if (dncSample.length < 100_000) dncSample.push(x); return String(x); });
  const firsts = ["Ann", "Bob", "Cara", "Dan", "Eve"];
  const cities = ["Miami", "Austin", "New York", "Denver", "Boston"];
  const row = (i: number) => {
    const roll = r();
    let phone: string;
    if (roll < 0.01) phone = "1.23457E+9";
    else if (roll < 0.02 && litSample.length) phone = String(litSample[Math.floor(r() * litSample.length)]);
    else if (roll < 0.06 && dncSample.length) phone = String(dncSample[Math.floor(r() * dncSample.length)]);
    else phone = String(randomNumber());
    return `${i},${firsts[i % 5]},Smith${i % 97},${phone},${cities[i % 5]}`;
  };
  const header = "id,first_name,last_name,phone,city";
  for (const [file, n] of [[input, ROWS], [small, SMALL]] as const) {
    if (fs.existsSync(file)) continue;
    fs.writeFileSync(file, header + "\n");
    const out = fs.createWriteStream(file, { flags: "a", highWaterMark: 1 << 22 });
    let buf: string[] = [];
    for (let i = 0; i < n; i++) {
      buf.push(row(i));
      if (buf.length === 50_000) {
        if (!out.write(buf.join("\n") + "\n")) await new Promise<void>((res) => out.once("drain", () => res()));
        buf = [];
      }
    }
    if (buf.length) out.write(buf.join("\n") + "\n");
    await new Promise<void>((res) => out.end(() => res()));
  }
  return { lit, dnc, input, small };
}

/** The floor: a bare Node line split of the file (stream, decode, split on \n). */
async function bareLineSplit(file: string): Promise<{ rows: number; seconds: number; rowsPerSecond: number }> {
  const t = performance.now();
  let rows = 0;
  let carry = "";
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    const lines = (carry + (chunk as Buffer).toString("utf8")).split("\n");
    carry = lines.pop() ?? "";
    rows += lines.length;
  }
  if (carry) rows++;
  const seconds = (performance.now() - t) / 1000;
  return { rows, seconds, rowsPerSecond: Math.round(rows / seconds) };
}

async function cli(args: string[], env: Record<string, string>): Promise<Record<string, any>> {
  // The built CLI (scripts/build-worker.mjs), as `npm run scrub` / `npm run lists` run it.
  const { stdout } = await run(process.execPath, ["scrub-service/dist/cli.mjs", ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 1 << 24,
  });
  return JSON.parse(stdout);
}

async function makeUser(env: Record<string, string>): Promise<string> {
  // A user to own the jobs: through a tiny script using the same database code.
  const code = `
    import { openDatabase, migrateToLatest } from "./db/client.ts";
    const h = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATA_DIR });
    await migrateToLatest(h.db);
    const u = await h.db.insertInto("users").values({ email: "bench@example.com", first_name: "Bench", last_name: "User",
      company: "", phone_number: "", password_hash: "x", role: "SuperAdmin", status: "Active", email_confirmed: true })
      .onConflict((oc) => oc.doNothing()).returning("id").executeTakeFirst();
    const id = u?.id ?? (await h.db.selectFrom("users").select("id").where("email", "=", "bench@example.com").executeTakeFirstOrThrow()).id;
    console.log(id);
    await h.close();`;
  const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { env: { ...process.env, ...env } });
  return stdout.trim().split("\n").pop()!;
}

async function redisUsed(redis: Redis): Promise<number> {
  const info = await redis.info("memory");
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

async function benchMode(mode: string, files: Awaited<ReturnType<typeof generate>>) {
  const env: Record<string, string> = { SCRUB_SERVICE_URL: "" };
  let cleanup = async () => {};
  let redis: Redis | null = null;
  const prefix = `bench:${crypto.randomBytes(4).toString("hex")}:`;
  if (mode === "embedded") {
    const dataDir = path.join(DIR, `data-${crypto.randomBytes(3).toString("hex")}`);
    Object.assign(env, { DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" });
    cleanup = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  } else {
    if (!process.env.DATABASE_URL || !process.env.REDIS_URL) throw new Error("services mode needs DATABASE_URL and REDIS_URL");
    const name = `bench_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    Object.assign(env, { DATABASE_URL: url.toString(), REDIS_URL: process.env.REDIS_URL, SCRUB_REDIS_PREFIX: prefix, DATA_DIR: path.join(DIR, "data-services") });
    redis = new Redis(process.env.REDIS_URL);
    cleanup = async () => {
      let cursor = "0";
      do {
        const [next, keys] = await redis!.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 10000);
        cursor = next;
        if (keys.length) await redis!.unlink(...keys);
      } while (cursor !== "0");
      redis!.disconnect();
      const a = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    };
  }
  try {
    const userId = await makeUser(env);
    const before = redis ? await redisUsed(redis) : 0;
    const litLoad = await cli(["lists", "load", "--list", "litigation", "--input", files.lit], env);
    const dncLoad = await cli(["lists", "load", "--list", "dnc", "--input", files.dnc], env);
    const after = redis ? await redisUsed(redis) : 0;
    const scrubSmall = await cli(["scrub", "--input", files.small, "--type", "DNCAndLitigation", "--out", path.join(DIR, `out-${mode}-small`), "--user", userId], env);
    const scrubFull =
      files.input === files.small
        ? scrubSmall
        : await cli(["scrub", "--input", files.input, "--type", "DNCAndLitigation", "--out", path.join(DIR, `out-${mode}-full`), "--user", userId], env);
    const listNumbers = litLoad.added + dncLoad.added;
    return {
      mode,
      load: {
        litigation: loadFigures(litLoad),
        dnc: loadFigures(dncLoad),
      },
      redisBytesPerNumber: redis ? Number(((after - before) / listNumbers).toFixed(2)) : null,
      scrubSmall: pick(scrubSmall),
      scrubFull: pick(scrubFull),
      rssGrowthBytesPerExtraRow:
        scrubFull.rows > scrubSmall.rows ? Number(((scrubFull.maxRssBytes - scrubSmall.maxRssBytes) / (scrubFull.rows - scrubSmall.rows)).toFixed(2)) : null,
    };
  } finally {
    await cleanup();
  }
}

function loadFigures(l: Record<string, any>) {
  const n = l.added + l.alreadyPresent + l.invalid;
  return {
    numbers: l.added,
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
  };
}

async function main() {
  console.log(`[bench] rows ${ROWS.toLocaleString("en-US")} (small ${SMALL.toLocaleString("en-US")}), litigation ${LIT.toLocaleString("en-US")}, DNC ${DNC.toLocaleString("en-US")}, modes ${MODES.join(", ")}; data in ${DIR}`);
  const t = performance.now();
  const files = await generate();
  console.log(`[bench] data ready in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await run(process.execPath, ["scripts/build-worker.mjs"]);
  // The fastest of three runs: the floor the goal is measured against is never flattered by a slow run.
  const splits = [];
  for (let i = 0; i < 3; i++) splits.push(await bareLineSplit(files.input));
  const bare = splits.reduce((a, b) => (b.rowsPerSecond > a.rowsPerSecond ? b : a));
  console.log(`[bench] bare line split: ${splits.map((b) => b.rowsPerSecond.toLocaleString("en-US")).join(", ")} rows/s; best ${bare.rowsPerSecond.toLocaleString("en-US")}`);
  const modes = [];
  for (const m of MODES) {
    console.log(`[bench] mode ${m}…`);
    const res = await benchMode(m, files);
    modes.push(res);
    console.log(JSON.stringify(res, null, 2));
  }
  const goals = modes.map((m) => ({
    mode: m.mode,
    rowsPerSecondVsBare: Number((m.scrubFull.rowsPerSecond / bare.rowsPerSecond).toFixed(3)),
    pipelineVsBare: m.scrubFull.pipelineRowsPerSecond ? Number((m.scrubFull.pipelineRowsPerSecond / bare.rowsPerSecond).toFixed(3)) : null,
    throughputGoalMet: m.scrubFull.rowsPerSecond >= 0.25 * bare.rowsPerSecond,
    peakRssGoalMet: m.scrubFull.maxRssMB <= 600,
    rssGrowthGoalMet: m.rssGrowthBytesPerExtraRow == null ? null : m.rssGrowthBytesPerExtraRow <= 20,
    redisGoalMet: m.redisBytesPerNumber == null ? null : m.redisBytesPerNumber <= 8,
    loadGoalMet: (m.load.dnc.loadNumbersPerSecond ?? m.load.dnc.numbersPerSecond ?? 0) >= 500_000,
    jobVsBare: m.scrubFull.jobRowsPerSecond ? Number((m.scrubFull.jobRowsPerSecond / bare.rowsPerSecond).toFixed(3)) : null,
  }));
  const result = { date: new Date().toISOString(), rows: ROWS, smallRows: SMALL, litigation: LIT, dnc: DNC, bareLineSplit: bare, bareLineSplitRuns: splits, loadAverage: os.loadavg(), modes, goals };
  const out = path.join(DIR, "bench-scrub.json");
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log(JSON.stringify({ goals }, null, 2));
  console.log(`[bench] written to ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
