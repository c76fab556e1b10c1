/**
 * npm run bench:lookup — latency of POST /api/v1/lookup at a fixed request rate (issue #17, decision 111).
 *
 * For each mode it starts the app's lookup route in its own process (a plain node:http server in front of the
 * route module: the same key check, rate limit, plan gate, scrub service call and usage record as the built app,
 * without Express and the Remix request handler):
 *   embedded  PGlite under a temporary DATA_DIR, the in-process scrub service with the embedded index (npm start);
 *   services  PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), the scrub service as its own process
 *             (npm run scrub-service) reached through SCRUB_SERVICE_URL. Skipped without both URLs.
 * It loads the lists (BENCH_DNC numbers on the DNC list, default 1,000,000; 10,000 litigation; 3 containers of
 * 10,000), then drives an open-loop load (a request every 1/BENCH_RATE s whatever the answers do, keep-alive,
 * latency counted from the moment the request was due) for BENCH_SECONDS per case with 1-number and
 * 1,000-number requests. Prints p50/p90/p99/max and the achieved rate against the targets (p99 < 10 ms for
 * 1 number, < 50 ms for 1,000 numbers): met / NOT MET. Nothing is asserted.
 *
 * The API allows 1,000 requests per key and hour, so the bench makes enough keys and spreads the requests.
 * Env: BENCH_RATE (200), BENCH_SECONDS (15), BENCH_DNC (1000000), BENCH_PORT (3313), BENCH_SERVICE_PORT (3323),
 * BENCH_MODES (embedded,services), BENCH_CPU_PROF (a directory: the app process writes a V8 CPU profile there).
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { Pool } from "undici";

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const DNC_SIZE = Number(process.env.BENCH_DNC ?? 1_000_000);
const PORT = Number(process.env.BENCH_PORT ?? 3313);
const SERVICE_PORT = Number(process.env.BENCH_SERVICE_PORT ?? 3323);
const WARMUP_SECONDS = 2;
const PER_KEY = 900; // under the 1,000 requests per key and hour
const CASES = [
  { size: 1, targetMs: 10 },
  { size: 1000, targetMs: 50 },
];

/** Valid numbers (per the engine's normalizer) drawn from a seeded generator, so each run asks the same. */
async function validNumbers(count: number, seed: number): Promise<string[]> {
  const { parsePhone } = await import("../scrub-service/src/worker/normalize");
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const out = new Set<string>();
  while (out.size < count) {
    const n = String(200 + Math.floor(next() * 800)) + String(200 + Math.floor(next() * 800)) + String(Math.floor(next() * 10_000)).padStart(4, "0");
    if (parsePhone(n).ok) out.add(n);
  }
  return [...out];
}

// ---------------------------------------------------------------- the served side (a child process)

async function serve(): Promise<void> {
  const { getDb, dbHandle } = await import("../app/utils/db.server");
  const { getScrubService } = await import("../app/utils/scrub.server");
  const { createApiKey, createIntegration } = await import("../app/models/integration.server");
  const route = await import("../app/routes/api.v1.lookup");
  const db = await getDb();
  const service = await getScrubService();
  const keys = Number(process.env.BENCH_KEYS ?? 1);

  const user = await db
    .insertInto("users")
    .values({ email: `bench-${crypto.randomBytes(4).toString("hex")}@bench.test`, first_name: "Bench", last_name: "Dialer", company: "", phone_number: "", password_hash: null, role: "NormalUser", status: "Active", email_confirmed: true })
    .returning("id")
    .executeTakeFirstOrThrow();
  const plan = await db.selectFrom("plans").selectAll().where("id", "=", "premium").executeTakeFirstOrThrow();
  await db
    .insertInto("transactions")
    .values({ user_id: user.id, plan_id: plan.id, plan_name: plan.name, amount_cents: plan.price_cents, dnc_and_litigation_scrubs: 1e12, custom_dataset_records: 1e12, status: "paid", transfer_reference: `B-${crypto.randomBytes(4).toString("hex")}`, start_date: new Date(Date.now() - 3600_000), end_date: new Date(Date.now() + 30 * 86400_000), paid_at: new Date() })
    .execute();
  const keyTexts: string[] = [];
  for (let i = 0; i < keys; i++) {
    // one integration per key: with its rate-limit toggle on, an integration's keys share one budget
    const integration = await createIntegration(db, { userId: user.id, name: `Bench dialer ${i}`, description: "", containerId: null, webhookUrl: null });
    const k = await createApiKey(db, { userId: user.id, integrationId: integration.id, name: `bench ${i}` });
    if ("error" in k) throw new Error(k.error);
    keyTexts.push(k.key);
  }

  const started = Date.now();
  const lists = await db.selectFrom("lists").select(["id", "kind"]).where("kind", "in", ["dnc", "litigation"]).execute();
  const pool = await validNumbers(DNC_SIZE + 40_000, 17);
  const dnc = pool.slice(0, DNC_SIZE);
  const litigation = pool.slice(DNC_SIZE - 5_000, DNC_SIZE + 5_000);
  for (const l of lists) {
    const numbers = l.kind === "dnc" ? dnc : litigation;
    for (let s = 0; s < numbers.length; s += 250_000) await service.loadNumbers({ listId: l.id, mode: "add", numbers: numbers.slice(s, s + 250_000) });
  }
  for (let c = 0; c < 3; c++) {
    const row = await db.insertInto("lists").values({ kind: "container", user_id: user.id, name: `Bench container ${c}`, description: "" }).returning("id").executeTakeFirstOrThrow();
    await service.loadNumbers({ listId: row.id, mode: "add", numbers: pool.slice(DNC_SIZE - 20_000 + c * 10_000, DNC_SIZE - 10_000 + c * 10_000), userId: user.id });
  }
  const loadSeconds = (Date.now() - started) / 1000;

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
  process.stdout.write(JSON.stringify({ ready: true, keys: keyTexts, dnc: dnc.slice(0, 50_000), others: pool.slice(DNC_SIZE + 5_000), loadSeconds }) + "\n");
  process.on("SIGTERM", async () => {
    server.close();
    await service.close().catch(() => {});
    await (await dbHandle()).close().catch(() => {});
    process.exit(0);
  });
}

// ---------------------------------------------------------------- the driving side

function startChild(args: string[], env: Record<string, string>, name: string): { child: ChildProcess; ready: Promise<any> } {
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  for (const k of Object.keys(merged)) if (merged[k] === "") delete merged[k]; // "" = unset
  const prof = process.env.BENCH_CPU_PROF && args[1] === "serve" ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, "--import", "tsx", ...args], { env: merged as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] as const });
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
  });
  return { child, ready };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function drive(
  label: string,
  keys: string[],
  dnc: string[],
  others: string[],
): Promise<void> {
  const client = new Pool(`http://127.0.0.1:${PORT}`, { connections: 64, pipelining: 1, keepAliveTimeout: 60_000 });
  let keyUse = 0;
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
        const key = keys[Math.floor(keyUse++ / PER_KEY) % keys.length];
        inFlight.push(
          client
            .request({ method: "POST", path: "/api/v1/lookup", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: bodies[i % bodies.length] })
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
        `${label.padEnd(9)} ${String(c.size).padStart(5)} numbers  p50 ${f(percentile(sorted, 50))} ms  p90 ${f(percentile(sorted, 90))} ms  p99 ${f(p99)} ms  max ${f(sorted[sorted.length - 1])} ms  ` +
          `rate ${(total / elapsed).toFixed(0)}/s (asked ${RATE}/s, ${total} requests, ${errors} not 200${errors ? ` ${JSON.stringify(Object.fromEntries(statuses))}` : ""})  ` +
          `target p99 < ${c.targetMs} ms: ${p99 < c.targetMs && errors === 0 ? "met" : "NOT MET"}`,
      );
    };
    await run(WARMUP_SECONDS, false);
    // Closed loop, one request at a time: the service time without queueing (what one request costs here).
    const alone: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      const res = await client.request({ method: "POST", path: "/api/v1/lookup", headers: { "content-type": "application/json", authorization: `Bearer ${keys[Math.floor(keyUse++ / PER_KEY) % keys.length]}` }, body: bodies[i % bodies.length] });
      await res.body.arrayBuffer();
      alone.push(performance.now() - t);
    }
    alone.sort((a, b) => a - b);
    console.log(`${label.padEnd(9)} ${String(c.size).padStart(5)} numbers  one at a time: p50 ${percentile(alone, 50).toFixed(1)} ms, p99 ${percentile(alone, 99).toFixed(1)} ms (at most ~${(1000 / percentile(alone, 50)).toFixed(0)} requests/s on this machine now)`);
    await run(SECONDS, true);
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
  const requestsPerMode = CASES.length * (Math.round((SECONDS + WARMUP_SECONDS) * RATE) + 100);
  const keyCount = Math.ceil(requestsPerMode / PER_KEY) + 1;
  const modes = (process.env.BENCH_MODES ?? "embedded,services").split(",");
  console.log(
    `bench:lookup — ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? "cpu"}), load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; ` +
      `${RATE} requests/s for ${SECONDS} s per case (after ${WARMUP_SECONDS} s warm-up), DNC list ${DNC_SIZE.toLocaleString("en-US")} numbers, ${keyCount} keys`,
  );
  console.log("The machine may be shared: other processes' load shows in these figures.");
  for (const mode of modes) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-lookup-${mode}-`));
    const children: ChildProcess[] = [];
    let dropDb: (() => Promise<void>) | null = null;
    let redisPrefix: string | null = null;
    try {
      const env: Record<string, string> = { DATA_DIR: dataDir, BENCH_KEYS: String(keyCount), NODE_ENV: "development", WEBHOOK_DISPATCHER: "0" };
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
        const svc = startChild(["scrub-service/src/index.ts"], { ...env, SCRUB_SERVICE_PORT: String(SERVICE_PORT), SCRUB_SERVICE_URL: "" }, "scrub-service");
        children.push(svc.child);
        await svc.ready;
      }
      const app = startChild([script, "serve"], env, `app ${mode}`);
      children.push(app.child);
      const ready = await app.ready;
      console.log(`${mode.padEnd(9)} lists loaded in ${ready.loadSeconds.toFixed(0)} s; load average now ${os.loadavg()[0].toFixed(2)}`);
      await drive(mode, ready.keys, ready.dnc, ready.others);
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

if (process.argv[2] === "serve") {
  serve().catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
