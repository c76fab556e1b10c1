/**
 * npm run bench:lookup — latency of POST /api/v1/lookup at a fixed request rate (issue #17, decision 111).
 *
 * For each mode a setup process creates a user (plan with a huge limit), one API key and the lists, then exits;
 * then the app serves the lookups in its own process:
 *   built    the production server customers hit: `node server.mjs` (Express, the security middleware, the Remix
 *            request handler) on the build in BENCH_BUILD_DIR (default build-bench; built first when missing or
 *            with BENCH_REBUILD=1: `node scrub-service/scripts/build-worker.mjs && remix build`), NODE_ENV=production;
 *   adapter  the route module behind a plain node:http adapter (no Express, no Remix handler): what the route costs.
 * BENCH_SERVER=built (default) | adapter | both. Modes:
 *   embedded  PGlite under a temporary DATA_DIR, the in-process scrub service with the embedded index (npm start);
 *   services  PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), the scrub service as its own process
 *             (npm run scrub-service) reached through SCRUB_SERVICE_URL. Skipped without both URLs.
 * Lists: BENCH_DNC numbers on the DNC list (default 1,000,000), 10,000 litigation, 3 containers of 10,000. Then an
 * open-loop load (a request every 1/BENCH_RATE s whatever the answers do, keep-alive, latency counted from the
 * moment the request was due) for BENCH_SECONDS per case with 1-number and 1,000-number requests, all with the
 * one key (a dialer's: the lookup budget is 200 requests/s per key). Prints p50/p90/p99/max, the achieved rate and
 * the load average against the targets (p99 < 10 ms for 1 number, < 50 ms for 1,000): met / NOT MET. Nothing is
 * asserted.
 * Env: BENCH_RATE (200), BENCH_SECONDS (15), BENCH_SIZES (1,1000: which request sizes), BENCH_DNC (1000000), BENCH_PORT (3313), BENCH_SERVICE_PORT (3323),
 * BENCH_MODES (embedded,services), BENCH_SERVER, BENCH_BUILD_DIR, BENCH_CPU_PROF (a directory: the serving app
 * process, and in services mode the scrub service, write V8 CPU profiles there), BENCH_DURING_SCRUB (a row count:
 * each case's measured run starts once a scrub of that many rows, submitted through the API by the same account,
 * is running; the line says whether it was still running when the run ended).
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { Pool } from "undici";
import { SCRUB_SERVICE_ENTRY } from "scrub-service/entry-points";
import { createBenchAccount } from "./bench/bench-account";
import { ensureBuild } from "./bench/build-app";
import { validNumbers } from "scrub-service/bench";

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const DNC_SIZE = Number(process.env.BENCH_DNC ?? 1_000_000);
const PORT = Number(process.env.BENCH_PORT ?? 3313);
const SERVICE_PORT = Number(process.env.BENCH_SERVICE_PORT ?? 3323);
const WARMUP_SECONDS = 2;
const DURING_SCRUB = Number(process.env.BENCH_DURING_SCRUB ?? 0);
const BUILD_DIR = process.env.BENCH_BUILD_DIR ?? "build-bench";
const CASES = [
  { size: 1, targetMs: 10 },
  { size: 1000, targetMs: 50 },
].filter((c) => !process.env.BENCH_SIZES || process.env.BENCH_SIZES.split(",").includes(String(c.size)));

// ---------------------------------------------------------------- the served side (a child process)

const setupFile = () => path.join(process.env.DATA_DIR!, "bench-setup.json");

/** Creates the bench's user, key and lists through the app's own code, writes them to DATA_DIR, and exits. */
async function setup(): Promise<void> {
  const { getDb, dbHandle } = await import("../app/utils/db.server");
  const { getScrubService } = await import("../app/utils/scrub.server");
  const db = await getDb();
  const service = await getScrubService();
  const account = await createBenchAccount("dialer");
  const user = { id: account.userId };
  const key = { key: account.key };

  const started = Date.now();
  const lists = await db.selectFrom("lists").select(["id", "kind"]).where("kind", "in", ["dnc", "litigation"]).execute();
  const pool = validNumbers(DNC_SIZE + 40_000, 17);
  const dnc = pool.slice(0, DNC_SIZE);
  const litigation = pool.slice(DNC_SIZE - 5_000, DNC_SIZE + 5_000);
  for (const l of lists) {
    const numbers = l.kind === "dnc" ? dnc : litigation;
    for (let s = 0; s < numbers.length; s += 250_000) await service.loadNumbers({ listId: l.id, mode: "add", numbers: numbers.slice(s, s + 250_000) });
  }
  for (let c = 0; c < 3; c++) {
    const row = await db
      .insertInto("lists")
      .values({ kind: "container", user_id: user.id, name: `Bench container ${c}`, description: "" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await service.loadNumbers({
      listId: row.id,
      mode: "add",
      numbers: pool.slice(DNC_SIZE - 20_000 + c * 10_000, DNC_SIZE - 10_000 + c * 10_000),
      userId: user.id,
    });
  }
  const loadSeconds = (Date.now() - started) / 1000;
  // The lists were loaded in pieces, after which the scrub service holds no Bloom filter of the whole DNC list: a
  // rebuild leaves it one, as a scrub service has after its first scrub or a few seconds of lookups (which load
  // missing filters in the background and ask the store for every number until then).
  await service.rebuildLists();
  await service.close().catch(() => {});
  await (await dbHandle()).close();
  fs.writeFileSync(setupFile(), JSON.stringify({ ready: true, keys: [key.key], dnc: dnc.slice(0, 50_000), others: pool.slice(DNC_SIZE + 5_000), loadSeconds }));
  process.exit(0);
}

/** The route module behind a plain node:http adapter (BENCH_SERVER=adapter): the route's cost without Express and Remix. */
async function serveAdapter(): Promise<void> {
  const { getScrubService } = await import("../app/utils/scrub.server");
  const { shutdown } = await import("../app/boot.server");
  const route = await import("../app/routes/api.v1.lookup");
  await getScrubService();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request = new Request(`http://127.0.0.1:${PORT}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
    });
    const response = await route.action({ request, params: {}, context: {} } as never);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(PORT, "127.0.0.1", r));
  console.log(`[adapter] listening on ${PORT}`);
  process.on("SIGTERM", async () => {
    server.close();
    await shutdown().catch(() => {}); // writes the lookup usage counted in memory, closes the database
    process.exit(0);
  });
}

// ---------------------------------------------------------------- the driving side

function startChild(
  args: string[],
  env: Record<string, string>,
  name: string,
  opts: { tsx?: boolean; profile?: boolean; port?: number } = {},
): { child: ChildProcess; ready: Promise<any> } {
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  for (const k of Object.keys(merged)) if (merged[k] === "") delete merged[k]; // "" = unset
  const prof = process.env.BENCH_CPU_PROF && opts.profile ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const loader = opts.tsx === false ? [] : ["--import", "tsx"];
  const child = spawn(process.execPath, [...prof, ...loader, ...args], { env: merged as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] as const });
  const ready = new Promise<any>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (line.startsWith("{")) {
        try {
          const msg = JSON.parse(line);
          if (msg.ready) return resolve(msg);
        } catch {
          /* a log line */
        }
      }
      if (/listening/.test(line)) resolve({ ready: true });
    });
    child.stderr!.on("data", (d) => {
      const text = String(d);
      if (!/ExperimentalWarning|npm warn|--trace-warnings/.test(text)) process.stderr.write(`[${name}] ${text}`);
    });
    child.on("exit", (code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
    // a server is ready when its /healthz answers, whatever LOG_LEVEL keeps out of its log
    if (opts.port) {
      const poll = setInterval(() => {
        fetch(`http://127.0.0.1:${opts.port}/healthz`).then(
          (r) => r.ok && (clearInterval(poll), resolve({ ready: true })),
          () => undefined,
        );
      }, 100);
      child.on("exit", () => clearInterval(poll));
    }
  });
  ready.catch(() => undefined); // a child nobody waits on for "ready" (setup) may end first
  return { child, ready };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A CSV of `rows` valid-looking numbers (generated once per size under the temp dir). */
function scrubInput(rows: number): string {
  const file = path.join(os.tmpdir(), `bench-lookup-scrub-${rows}.csv`);
  if (fs.existsSync(file)) return file;
  const fd = fs.openSync(`${file}.part`, "w");
  let s = 12345;
  const lines: string[] = ["phone"];
  for (let i = 0; i < rows; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    lines.push(`${200 + (s % 800)}${200 + ((s >>> 10) % 800)}${String(s % 10_000).padStart(4, "0")}`);
    if (lines.length === 100_000) fs.writeSync(fd, lines.splice(0).join("\n") + "\n");
  }
  fs.writeSync(fd, lines.join("\n") + "\n");
  fs.closeSync(fd);
  fs.renameSync(`${file}.part`, file);
  return file;
}

/** Submits a scrub through the API and resolves once it is running; `status()` asks where it is now. */
async function startScrub(key: string, rows: number): Promise<{ status: () => Promise<string> }> {
  const form = new FormData();
  form.set("suppression_type", "DNCAndLitigation");
  form.set("file", new Blob([fs.readFileSync(scrubInput(rows))], { type: "text/csv" }), "bench.csv");
  const auth = { authorization: `Bearer ${key}` };
  const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/scrubs`, { method: "POST", headers: auth, body: form });
  const body = (await res.json()) as { job?: { id: string } };
  if (res.status !== 202 || !body.job) throw new Error(`the scrub was not accepted: ${res.status} ${JSON.stringify(body)}`);
  const status = async () => {
    const r = await fetch(`http://127.0.0.1:${PORT}/api/v1/scrubs/${body.job!.id}`, { headers: auth });
    return ((await r.json()) as { job: { status: string } }).job.status;
  };
  for (;;) {
    const now = await status();
    if (now !== "queued") return { status };
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function drive(label: string, keys: string[], dnc: string[], others: string[]): Promise<void> {
  const client = new Pool(`http://127.0.0.1:${PORT}`, { connections: 64, pipelining: 1, keepAliveTimeout: 60_000 });
  const key = keys[0];
  const pick = (i: number) => (i % 2 ? dnc[(i * 7919) % dnc.length] : others[(i * 104729) % others.length]);
  const bodyOf = (size: number, seed: number) => JSON.stringify({ numbers: Array.from({ length: size }, (_, j) => pick(seed * 1000 + j)) });
  for (const c of CASES) {
    const bodies = Array.from({ length: 64 }, (_, i) => bodyOf(c.size, i));
    const run = async (seconds: number, record: boolean) => {
      const total = Math.round(seconds * RATE);
      const latencies: number[] = [];
      let errors = 0;
      const statuses = new Map<number, number>();
      const t0 = performance.now() + 20;
      const inFlight: Promise<void>[] = [];
      for (let i = 0; i < total; i++) {
        const due = t0 + (i * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait - 0.5));
        while (performance.now() < due) {
          /* the last half millisecond: spin, timers are coarse */
        }
        inFlight.push(
          client
            .request({
              method: "POST",
              path: "/api/v1/lookup",
              headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
              body: bodies[i % bodies.length],
            })
            .then(async (res) => {
              await res.body.arrayBuffer();
              statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
              if (res.statusCode !== 200) errors++;
              latencies.push(performance.now() - due);
            })
            .catch(() => {
              errors++;
            }),
        );
      }
      await Promise.all(inFlight);
      const elapsed = (performance.now() - t0) / 1000;
      if (!record) return;
      const sorted = latencies.sort((a, b) => a - b);
      const p99 = percentile(sorted, 99);
      const f = (x: number) => x.toFixed(1).padStart(7);
      console.log(
        `${label.padEnd(16)} ${String(c.size).padStart(5)} numbers  p50 ${f(percentile(sorted, 50))} ms  p90 ${f(percentile(sorted, 90))} ms  p99 ${f(p99)} ms  max ${f(sorted[sorted.length - 1])} ms  ` +
          `rate ${(total / elapsed).toFixed(0)}/s (asked ${RATE}/s, ${total} requests, ${errors} not 200${errors ? ` ${JSON.stringify(Object.fromEntries(statuses))}` : ""})  ` +
          `target p99 < ${c.targetMs} ms: ${p99 < c.targetMs && errors === 0 ? "met" : "NOT MET"}  (load average ${os
            .loadavg()
            .map((l) => l.toFixed(2))
            .join(" ")})`,
      );
    };
    await run(WARMUP_SECONDS, false);
    // Closed loop, one request at a time: the service time without queueing (what one request costs here).
    const alone: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      const res = await client.request({
        method: "POST",
        path: "/api/v1/lookup",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: bodies[i % bodies.length],
      });
      await res.body.arrayBuffer();
      alone.push(performance.now() - t);
    }
    alone.sort((a, b) => a - b);
    console.log(
      `${label.padEnd(16)} ${String(c.size).padStart(5)} numbers  one at a time: p50 ${percentile(alone, 50).toFixed(1)} ms, p99 ${percentile(alone, 99).toFixed(1)} ms (at most ~${(1000 / percentile(alone, 50)).toFixed(0)} requests/s on this machine now)`,
    );
    const scrub = DURING_SCRUB ? await startScrub(key, DURING_SCRUB) : null;
    await run(SECONDS, true);
    if (scrub)
      console.log(
        `${label.padEnd(16)} ${String(c.size).padStart(5)} numbers  during a scrub of ${DURING_SCRUB.toLocaleString("en-US")} rows, which is now ${await scrub.status()}`,
      );
  }
  await client.close();
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

async function main(): Promise<void> {
  const script = path.relative(process.cwd(), new URL(import.meta.url).pathname);
  const servers = (process.env.BENCH_SERVER ?? "built") === "both" ? ["built", "adapter"] : [process.env.BENCH_SERVER ?? "built"];
  if (servers.some((x) => x !== "built" && x !== "adapter")) throw new Error("BENCH_SERVER is built, adapter or both");
  if (servers.includes("built")) ensureBuild(BUILD_DIR);
  const modes = (process.env.BENCH_MODES ?? "embedded,services").split(",");
  console.log(
    `bench:lookup — ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? "cpu"}), load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; ` +
      `${RATE} requests/s for ${SECONDS} s per case (after ${WARMUP_SECONDS} s warm-up), DNC list ${DNC_SIZE.toLocaleString("en-US")} numbers, one API key; served by ${servers.join(" and ")}`,
  );
  console.log("The machine may be shared: other processes' load shows in these figures.");
  for (const mode of modes) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-lookup-${mode}-`));
    const children: ChildProcess[] = [];
    let dropDb: (() => Promise<void>) | null = null;
    let redisPrefix: string | null = null;
    try {
      const env: Record<string, string> = { DATA_DIR: dataDir, NODE_ENV: "development", WEBHOOK_DISPATCHER: "0" };
      if (mode === "embedded") {
        env.DATABASE_URL = "";
        env.REDIS_URL = "";
        env.SCRUB_SERVICE_URL = "";
      } else {
        if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
          console.log("services  skipped: set DATABASE_URL and REDIS_URL (PostgreSQL and Redis) to measure services mode");
          continue;
        }
        const pg = (await import("pg")).default;
        const name = `bench_lookup_${crypto.randomBytes(4).toString("hex")}`;
        const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await admin.connect();
        await admin.query(`create database ${name}`);
        await admin.end();
        dropDb = async () => {
          const a = new pg.Client({ connectionString: process.env.DATABASE_URL });
          await a.connect();
          await a.query(`drop database if exists ${name} with (force)`);
          await a.end();
        };
        const url = new URL(process.env.DATABASE_URL);
        url.pathname = `/${name}`;
        const token = crypto.randomBytes(16).toString("hex");
        redisPrefix = `bench:${name}:`;
        Object.assign(env, {
          DATABASE_URL: url.toString(),
          SCRUB_SERVICE_TOKEN: token,
          SCRUB_SERVICE_URL: `http://127.0.0.1:${SERVICE_PORT}`,
          SCRUB_REDIS_PREFIX: redisPrefix,
        });
        const svc = startChild([SCRUB_SERVICE_ENTRY], { ...env, SCRUB_SERVICE_PORT: String(SERVICE_PORT), SCRUB_SERVICE_URL: "" }, "scrub-service", {
          profile: true,
          port: SERVICE_PORT,
        });
        children.push(svc.child);
        await svc.ready;
      }
      const setupChild = startChild([script, "setup"], env, `setup ${mode}`).child;
      const setupCode = await new Promise((r) => setupChild.once("exit", r));
      if (setupCode !== 0) throw new Error(`setup exited (${setupCode})`);
      const made = JSON.parse(fs.readFileSync(path.join(dataDir, "bench-setup.json"), "utf8"));
      console.log(`${mode.padEnd(9)} lists loaded in ${made.loadSeconds.toFixed(0)} s; load average now ${os.loadavg()[0].toFixed(2)}`);
      for (const server of servers) {
        const app =
          server === "built"
            ? startChild(
                ["server.mjs"],
                {
                  ...env,
                  NODE_ENV: "production",
                  PORT: String(PORT),
                  BUILD_DIR,
                  APP_URL: `http://127.0.0.1:${PORT}`,
                  SESSION_SECRET: crypto.randomBytes(24).toString("hex"),
                  SECURE_COOKIES: "0",
                },
                `server ${mode}`,
                { tsx: false, profile: true, port: PORT },
              )
            : startChild([script, "adapter"], env, `adapter ${mode}`, { profile: true, port: PORT });
        children.push(app.child);
        await app.ready;
        // the first lookup fills the embedded index from the database (embedded mode): before the clock starts
        const t = performance.now();
        const first = await fetch(`http://127.0.0.1:${PORT}/api/v1/lookup`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${made.keys[0]}` },
          body: JSON.stringify({ numbers: [made.dnc[0]] }),
        });
        await first.arrayBuffer();
        console.log(`${`${mode} ${server}`.padEnd(16)} first request ${first.status} in ${(performance.now() - t).toFixed(0)} ms`);
        await drive(`${mode} ${server}`, made.keys, made.dnc, made.others);
        await stop(app.child);
      }
    } catch (e) {
      console.log(`${mode.padEnd(9)} failed: ${e instanceof Error ? e.message : e}`);
    } finally {
      for (const c of children.reverse()) await stop(c);
      if (redisPrefix && process.env.REDIS_URL) {
        const { Redis } = await import("ioredis");
        const r = new Redis(process.env.REDIS_URL);
        const prefix = redisPrefix;
        let cursor = "0";
        do {
          const [next, found] = await r.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 10_000);
          cursor = next;
          if (found.length) await r.unlink(...found);
        } while (cursor !== "0");
        r.disconnect();
      }
      await dropDb?.().catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

const role = process.argv[2];
(role === "setup" ? setup() : role === "adapter" ? serveAdapter() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
