/**
 * npm run bench:calls — issue #46's figures (decisions 185, 187), every one printed, met or not, with the load average:
 *   1. import BENCH_CALLS call records (default 10,000,000) with the CLI (`npm run calls -- import`), a fresh process
 *      on a fresh database, beside the simplest fast alternative on the same file: PostgreSQL's COPY into a table of
 *      the same columns (services), DuckDB's read_csv into a table (embedded). Goal: ≤ 60 s on services.
 *   2. `reserve` lookups of one number each at BENCH_RATE requests a second (default 500; open loop: latency from the
 *      moment a request was due) for BENCH_SECONDS: p50/p90/p99/max. Goal p99 ≤ 10 ms services, ≤ 5 ms embedded.
 *   3. a BENCH_ROWS-row scrub with calling times (default 10,000,000) for an account holding the imported history and
 *      for one holding none, alternating, best of BENCH_ROUNDS: the ratio. Goal ≤ 1.25. It says whether the batch read
 *      the history (good.csv's calls_24h column).
 *   4. Memory per number with history in the live call counters (decision 196) after the reserve run: Redis's MEMORY
 *      USAGE of the counter buckets over the numbers they hold (services); the embedded counters' estimate (embedded).
 * The reserve lookups go through the live counters beside the lists (decision 196): Redis in services mode, this
 * process's memory in embedded mode; the served child waits until they are built from the database before it is ready.
 * Stores: embedded defaults, or PostgreSQL + Redis with DATABASE_URL and REDIS_URL (BENCH_MODES=services,embedded).
 * Env: BENCH_CALLS, BENCH_CALL_NUMBERS (distinct numbers called, default BENCH_CALLS / 5), BENCH_RATE, BENCH_SECONDS,
 * BENCH_ROWS, BENCH_ROUNDS (2), BENCH_DIR (/tmp/bench-calls), BENCH_PORT (3315), BENCH_ONLY=import,reserve,scrub.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { promisify } from "node:util";
import pg from "pg";
import { Pool } from "undici";
import { CLI_BUNDLE } from "scrub-service/entry-points";
import { generate, makeUser, scratch, validNumbers } from "scrub-service/bench";

const run = promisify(execFile);
const CALLS = Number(process.env.BENCH_CALLS ?? 10_000_000);
const CALL_NUMBERS = Number(process.env.BENCH_CALL_NUMBERS ?? Math.max(1, Math.floor(CALLS / 5)));
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const DIR = path.resolve(process.env.BENCH_DIR ?? "/tmp/bench-calls");
const PORT = Number(process.env.BENCH_PORT ?? 3315);
const ONLY = new Set((process.env.BENCH_ONLY ?? "import,reserve,scrub").split(",").map((s) => s.trim()));
const MODES = (process.env.BENCH_MODES ?? (process.env.DATABASE_URL && process.env.REDIS_URL ? "services,embedded" : "embedded")).split(",");

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

/** BENCH_CALLS records over CALL_NUMBERS numbers in the last 30 days, as a dialer's export (number,at,subject,channel,outcome). */
function writeCallFile(file: string): void {
  if (fs.existsSync(file)) return;
  const called = validNumbers(CALL_NUMBERS, 46);
  const fd = fs.openSync(`${file}.part`, "w");
  const now = Date.now();
  const SUBJECTS = ["spring", "summer", "autumn"];
  let buf = "number,at,subject,channel,outcome\n";
  for (let i = 0; i < CALLS; i++) {
    const at = new Date(now - 60_000 - ((i * 2_654_435_761) % (30 * 86_400_000))).toISOString();
    buf += `${called[i % CALL_NUMBERS]},${at},${SUBJECTS[i % 3]},${i % 4 === 0 ? "text" : "call"},${i % 5 === 0 ? "connected" : "attempted"}\n`;
    if (buf.length > 1 << 20) {
      fs.writeSync(fd, buf);
      buf = "";
    }
  }
  fs.writeSync(fd, buf);
  fs.closeSync(fd);
  fs.renameSync(`${file}.part`, file);
}

async function timed<T>(f: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const t = performance.now();
  const value = await f();
  return { seconds: (performance.now() - t) / 1000, value };
}

// ---------------------------------------------------------------- 1. import

async function importFigure(mode: string, callFile: string): Promise<{ env: Record<string, string>; userId: string; cleanup: () => Promise<void> }> {
  const s = await scratch(mode, DIR, "calls");
  const userId = await makeUser(s.env);
  const env = { ...process.env, ...s.env, LOG_LEVEL: "warn" } as NodeJS.ProcessEnv;
  const cli = await timed(() => run(process.execPath, [CLI_BUNDLE, "calls", "import", "--input", callFile, "--user", userId], { env, maxBuffer: 1 << 24 }));
  const answer = JSON.parse(cli.value.stdout.trim().split("\n").pop()!);
  const goal = mode === "services" ? ` · goal ≤ 60 s: ${cli.seconds <= 60 ? "met" : "NOT MET"}` : "";
  console.log(
    `1. import (${mode}): ${fmt(answer.recorded)} recorded of ${fmt(answer.rows)} in ${cli.seconds.toFixed(1)} s = ${fmt(answer.rows / cli.seconds)} rows/s${goal} · load ${load()}`,
  );
  // the yardstick: the same file into a table of the same columns, by the store's own bulk path
  if (mode === "services") {
    const c = new pg.Client({ connectionString: s.env.DATABASE_URL });
    await c.connect();
    try {
      await c.query("create table bench_copy (number text, at timestamptz, subject text, channel text, outcome text)");
      const copy = await timed(async () => {
        const { from } = await import("pg-copy-streams");
        const stream = c.query(from("copy bench_copy from stdin with (format csv, header true)"));
        await new Promise<void>((resolve, reject) => {
          fs.createReadStream(callFile, { highWaterMark: 1 << 20 })
            .on("error", reject)
            .pipe(stream)
            .on("finish", () => resolve())
            .on("error", reject);
        });
      });
      console.log(`   yardstick: PostgreSQL COPY of the same file in ${copy.seconds.toFixed(1)} s = ${fmt(CALLS / copy.seconds)} rows/s · load ${load()}`);
      await c.query("drop table bench_copy");
    } finally {
      await c.end();
    }
  } else {
    const code = `
      import { DuckDBInstance } from "@duckdb/node-api";
      const i = await DuckDBInstance.create(":memory:", { threads: "2" });
      const db = await i.connect();
      const t = performance.now();
      await db.run("create table calls as select * from read_csv(${JSON.stringify(callFile).replaceAll('"', "'")}, header = true)");
      console.log((performance.now() - t) / 1000);`;
    const peer = await run(process.execPath, ["--input-type=module", "-e", code], { maxBuffer: 1 << 20 });
    const seconds = Number(peer.stdout.trim());
    console.log(`   yardstick: DuckDB read_csv of the same file in ${seconds.toFixed(1)} s = ${fmt(CALLS / seconds)} rows/s · load ${load()}`);
  }
  return { env: s.env, userId, cleanup: s.cleanup };
}

// ---------------------------------------------------------------- 2. reserve lookups (a served child)

async function serve(): Promise<void> {
  const { getDb } = await import("../../app/utils/db.server");
  const { shutdown } = await import("../../app/boot.server");
  const { createApiKey } = await import("../../app/models/integration.server");
  const { createBenchAccount } = await import("./bench-account");
  const lookup = await import("../../app/routes/api.v1.lookup");
  const { getCallCounters } = await import("../../app/utils/call-counters.server");
  const db = await getDb();
  // the live counters (decision 196), built from the database before the first request
  const counters = await getCallCounters();
  await counters?.rebuild();
  const account = await createBenchAccount("calls");
  const keys = [account.key];
  const integration = await db.selectFrom("integrations").select("id").where("user_id", "=", account.userId).executeTakeFirstOrThrow();
  // the lookup's budget is 200 a second per key, and with the integration's shared toggle on, per integration: the
  // toggle off (as a dialer sending 500 a second would set it) and enough keys that the budget is not what is measured
  await db.updateTable("integrations").set({ rate_limit_enabled: false }).where("id", "=", integration.id).execute();
  while (keys.length < Math.max(1, Math.ceil(RATE / 150))) {
    const k = await createApiKey(db, { userId: account.userId, integrationId: integration.id, name: `bench ${keys.length}` });
    if ("error" in k) throw new Error(k.error);
    keys.push(k.key);
  }
  const server = http.createServer(async (req, res) => {
    if (req.url === "/__counters") {
      const usage = counters ? await counters.usage() : null;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ kind: counters?.kind ?? "database", ...usage }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request = new Request(`http://127.0.0.1:${PORT}${req.url}`, {
      method: "POST",
      headers: req.headers as Record<string, string>,
      body: Buffer.concat(chunks),
    });
    const response = await lookup.action({ request, params: {}, context: {} } as never);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(PORT, "127.0.0.1", r));
  console.log(JSON.stringify({ ready: true, keys }));
  process.on("SIGTERM", async () => {
    server.close();
    await shutdown().catch(() => {});
    process.exit(0);
  });
}

async function reserveFigure(mode: string): Promise<void> {
  const s = await scratch(mode, DIR, "reserve");
  const env = { ...process.env, ...s.env, LOG_LEVEL: "warn" } as NodeJS.ProcessEnv;
  const child = spawn(process.execPath, ["--import", "tsx", process.argv[1], "serve"], { env, stdio: ["ignore", "pipe", "inherit"] });
  try {
    const ready = await new Promise<{ keys: string[] }>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).on("line", (line) => {
        if (!line.startsWith("{")) return;
        try {
          const msg = JSON.parse(line);
          if (msg.ready) resolve(msg);
        } catch {
          /* a log line */
        }
      });
      child.on("exit", (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
    });
    const client = new Pool(`http://127.0.0.1:${PORT}`, { connections: 64, pipelining: 1 });
    const total = Math.round(RATE * SECONDS);
    const latencies: number[] = [];
    const answers = new Map<string, number>();
    const start = performance.now() + 200;
    const pending: Promise<void>[] = [];
    const asked = validNumbers(Math.ceil(total / 3), 47);
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      // one number a request, each asked three times over the run: the third reservation meets a 3-a-day cap
      const body = JSON.stringify({ numbers: [asked[Math.floor(i / 3)]], reserve: true, subject: "bench" });
      pending.push(
        client
          .request({
            path: "/api/v1/lookup",
            method: "POST",
            headers: { authorization: `Bearer ${ready.keys[i % ready.keys.length]}`, "content-type": "application/json" },
            body,
          })
          .then(async (res) => {
            const json = (await res.body.json()) as { data?: { reserved?: boolean }[] };
            latencies.push(performance.now() - due);
            const k = `${res.statusCode}${res.statusCode === 200 ? (json.data?.[0]?.reserved ? " reserved" : " not reserved") : ""}`;
            answers.set(k, (answers.get(k) ?? 0) + 1);
          })
          .catch((e) => {
            latencies.push(performance.now() - due);
            answers.set(`error ${e.code ?? e.message}`, (answers.get(`error ${e.code ?? e.message}`) ?? 0) + 1);
          }),
      );
    }
    await Promise.all(pending);
    const counted = (await (await client.request({ path: "/__counters", method: "GET" })).body.json()) as {
      kind: string;
      bytes?: number;
      numbers?: number;
      keys?: number;
    };
    await client.close();
    const elapsed = (performance.now() - start) / 1000;
    const l = [...latencies].sort((a, b) => a - b);
    const goal = mode === "services" ? 10 : 5;
    console.log(
      `2. reserve lookups (${mode}): ${total} in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)}/s) · p50 ${pct(l, 50).toFixed(1)} ms · p90 ${pct(l, 90).toFixed(1)} ms · ` +
        `p99 ${pct(l, 99).toFixed(1)} ms · max ${l[l.length - 1].toFixed(1)} ms · goal p99 ≤ ${goal} ms: ${pct(l, 99) <= goal ? "met" : "NOT MET"} · load ${load()}`,
    );
    console.log(`   answers: ${[...answers].map(([k, n]) => `${k}: ${n}`).join(" · ")} · counts from: ${counted.kind} counters`);
    if (counted.kind === "redis" && counted.numbers)
      console.log(
        `4. Redis memory per number with history (${mode}): ${(counted.bytes! / counted.numbers).toFixed(1)} bytes (MEMORY USAGE of the counter buckets / ${fmt(counted.numbers)} numbers, ` +
          `~${(total / counted.numbers).toFixed(1)} asked each, ${(counted.numbers / counted.keys!).toFixed(1)} numbers per NPA-N bucket) · ` +
          `goal ≤ 100 bytes: ${counted.bytes! / counted.numbers <= 100 ? "met" : "NOT MET"}`,
      );
    else if (counted.numbers)
      console.log(
        `4. memory per number with history (${mode}, ${counted.kind} counters): ~${(counted.bytes! / counted.numbers).toFixed(0)} bytes (an estimate of the process's objects, not Redis)`,
      );
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    await s.cleanup();
  }
}

// ---------------------------------------------------------------- 3. a scrub with and without the history

async function scrubFigure(mode: string, withHistory: { env: Record<string, string>; userId: string }): Promise<void> {
  const files = await generate({
    dir: path.join(DIR, "scrub-data"),
    rows: ROWS,
    small: Math.min(ROWS, 1000),
    lit: 10_000,
    dnc: 100_000,
    change: 0,
    gzip: false,
  });
  const env = { ...process.env, ...withHistory.env, LOG_LEVEL: "warn" } as NodeJS.ProcessEnv;
  const none = await makeUser(withHistory.env, process.cwd(), "bench-no-history@example.com");
  const seconds: Record<string, number[]> = { history: [], none: [] };
  let readsHistory = false;
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, user] of [
      ["history", withHistory.userId],
      ["none", none],
    ] as const) {
      const out = path.join(DIR, `scrub-${mode}-${name}-${r}`);
      fs.rmSync(out, { recursive: true, force: true });
      const t = await timed(() =>
        run(process.execPath, [CLI_BUNDLE, "scrub", "--input", files.input, "--type", "LitigationOnly", "--calling-window", "--out", out, "--user", user], {
          env,
          maxBuffer: 1 << 24,
        }),
      );
      seconds[name].push(t.seconds);
      const head = fs.readFileSync(path.join(out, "good.csv"), "utf8").slice(0, 2000).split("\n")[0];
      if (name === "history") readsHistory = head.includes("calls_24h");
      console.log(`   round ${r + 1} ${name}: ${t.seconds.toFixed(1)} s · load ${load()}`);
      fs.rmSync(out, { recursive: true, force: true });
    }
  }
  const best = (xs: number[]) => Math.min(...xs);
  const ratio = best(seconds.history) / best(seconds.none);
  console.log(
    `3. scrub of ${fmt(ROWS)} rows with calling times (${mode}): with a ${fmt(CALLS)}-record history ${best(seconds.history).toFixed(1)} s, without ${best(seconds.none).toFixed(1)} s · ` +
      `ratio ${ratio.toFixed(2)} · goal ≤ 1.25: ${ratio <= 1.25 ? "met" : "NOT MET"} · the batch ${readsHistory ? "read" : "did NOT read"} the history (calls_24h in good.csv)`,
  );
}

async function main(): Promise<void> {
  fs.mkdirSync(DIR, { recursive: true });
  console.log(`bench:calls — modes ${MODES.join(", ")}; ${os.cpus().length} cores; ${fmt(CALLS)} call records over ${fmt(CALL_NUMBERS)} numbers`);
  const callFile = path.join(DIR, `calls-${CALLS}-${CALL_NUMBERS}.csv`);
  if (ONLY.has("import") || ONLY.has("scrub")) writeCallFile(callFile);
  for (const mode of MODES) {
    let imported: Awaited<ReturnType<typeof importFigure>> | null = null;
    try {
      if (ONLY.has("import") || ONLY.has("scrub")) imported = await importFigure(mode, callFile);
      if (ONLY.has("reserve")) await reserveFigure(mode);
      if (ONLY.has("scrub") && imported) await scrubFigure(mode, imported);
    } finally {
      await imported?.cleanup();
    }
  }
}

(process.argv[2] === "serve" ? serve() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
