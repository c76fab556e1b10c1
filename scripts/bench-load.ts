/**
 * Load benchmark (not a test): the built app on loopback, signed-in users browsing with autocannon, first
 * alone, then while several large purges run through the public API. Prints requests/s, p50/p97.5/p99 latency
 * and errors per phase, the purges' rows/s, and sign-in timing for known vs unknown e-mails (account
 * enumeration: the answers must be alike in time too). Writes the figures to bench-results/load-<time>.json.
 *
 *   npm run bench:load                        # builds nothing: uses BUILD_DIR (default build), starts server.mjs
 *   BENCH_USERS=4 BENCH_PURGES=4 BENCH_ROWS=1500000 BENCH_SECONDS=15 BENCH_CONNECTIONS=2 npm run bench:load
 *
 * A fresh PostgreSQL database (DATABASE_URL, default the local server; dropped afterwards) and a fresh data
 * directory; the embedded list store (no Redis keys touched). Bounded: each phase runs BENCH_SECONDS, the
 * purges are waited for at most BENCH_PURGE_TIMEOUT seconds, everything is stopped at the end.
 * Goal: with the purges running, browsing p99 stays under 500 ms.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { migrateToLatest, openDatabase } from "db/client";
import { hashPassword } from "../app/utils/password.server";
import { createApiKey, createIntegration } from "../app/models/integration.server";
import { scratchDatabase } from "scrub-service/bench";

/** The part of autocannon's API used here (the package ships no types). */
interface CannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p97_5: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Cannon = (
  opts: { url: string; connections: number; duration: number; timeout: number; headers: Record<string, string>; requests: { method: "GET"; path: string }[] },
  cb: (err: Error | null, result: CannonResult) => void,
) => unknown;
const autocannon = createRequire(import.meta.url)("autocannon") as Cannon;

const USERS = Number(process.env.BENCH_USERS ?? 4);
const PURGES = Number(process.env.BENCH_PURGES ?? 4);
const ROWS = Number(process.env.BENCH_ROWS ?? 1_500_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 2);
const PURGE_TIMEOUT = Number(process.env.BENCH_PURGE_TIMEOUT ?? 300);
const BUILD_DIR = process.env.BUILD_DIR ?? "build";
const BASE_DB = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PAGES = ["/dashboard", "/history", "/purge", "/containers", "/integrations", "/transaction-history"];
const PASSWORD = "bench-password-123";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main() {
  const started = new Date();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-load-"));
  const scratchDb = await scratchDatabase("bench_load", BASE_DB);
  const databaseUrl = scratchDb.url;
  let server: ChildProcess | undefined;

  try {
    // Users (UnlimitedUser: no plan needed) with an API key each, straight into the fresh database.
    const handle = await openDatabase({ databaseUrl, poolSize: 2 });
    await migrateToLatest(handle.db);
    const hash = await hashPassword(PASSWORD);
    const users: { email: string; id: string; key: string; cookie: string }[] = [];
    for (let i = 0; i < USERS; i++) {
      const email = `bench-${i}@load.test`;
      const row = await handle.db
        .insertInto("users")
        .values({
          email,
          first_name: "Bench",
          last_name: `User ${i}`,
          company: "Bench",
          phone_number: "",
          password_hash: hash,
          role: "UnlimitedUser",
          status: "Active",
          email_confirmed: true,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const integration = await createIntegration(handle.db, { userId: row.id, name: "Bench", description: "", containerId: null, webhookUrl: null });
      const key = await createApiKey(handle.db, { userId: row.id, integrationId: integration.id, name: "bench" });
      if ("error" in key) throw new Error(key.error);
      users.push({ email, id: row.id, key: key.key, cookie: "" });
    }
    await handle.close();

    // Large files to purge.
    const files: string[] = [];
    for (let f = 0; f < PURGES; f++) {
      const p = path.join(work, `leads-${f}.csv`);
      const out = fs.createWriteStream(p);
      out.write("Name,Phone,City\n");
      for (let i = 0; i < ROWS; i++) {
        const n = (200 + ((i * 31 + f) % 800)) * 1e7 + (200 + ((i * 7) % 800)) * 1e4 + ((i * 13 + f) % 10_000);
        if (!out.write(`Lead ${i},${n},Town ${i % 97}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
      }
      await new Promise<void>((r) => out.end(() => r()));
      files.push(p);
    }
    const fileMb = fs.statSync(files[0]).size / 1024 / 1024;

    // The app.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ["server.mjs"], {
      env: {
        ...process.env,
        BUILD_DIR,
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(work, "data"),
        REDIS_URL: "",
        SCRUB_SERVICE_URL: "",
        WEBHOOK_DISPATCHER: "0",
        NODE_ENV: "development",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let serverLog = "";
    server.stdout!.on("data", (c) => (serverLog += c));
    server.stderr!.on("data", (c) => (serverLog += c));
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`server exited:\n${serverLog}`);
      try {
        if ((await fetch(`${base}/login`)).ok) break;
      } catch {
        /* not yet */
      }
      if (i > 600) throw new Error(`server did not start:\n${serverLog}`);
      await sleep(100);
    }

    // Sign in (a real POST /login per user).
    for (const u of users) {
      const res = await fetch(`${base}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
        body: new URLSearchParams({ email: u.email, password: PASSWORD, redirectTo: "/dashboard" }),
      });
      const set = res.headers.get("set-cookie") ?? "";
      if (res.status !== 302 || !set.includes("__session=")) throw new Error(`sign-in failed for ${u.email}: ${res.status}`);
      u.cookie = set.split(";")[0];
    }

    // Account enumeration: wrong password for a known address vs an unknown one (printed, not judged here).
    const loginMs = async (email: string) => {
      const t = performance.now();
      await fetch(`${base}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
        body: new URLSearchParams({ email, password: "wrong-password", redirectTo: "/dashboard" }),
      });
      return performance.now() - t;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    await loginMs("warm-up@load.test");
    for (let i = 0; i < 12; i++) {
      // alternate which goes first; at most 3 failures per known address (under the lockout threshold)
      const k = () => loginMs(users[i % users.length].email).then((t) => known.push(t));
      const u = () => loginMs(`nobody-${i}@load.test`).then((t) => unknown.push(t));
      if (i % 2) await k().then(u);
      else await u().then(k);
    }
    const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

    const browse = async (label: string) => {
      const results = await Promise.all(
        users.map(
          (u) =>
            new Promise<CannonResult>((resolve, reject) => {
              autocannon(
                {
                  url: base,
                  connections: CONNECTIONS,
                  duration: SECONDS,
                  timeout: 10,
                  headers: { Cookie: u.cookie },
                  requests: PAGES.map((p) => ({ method: "GET" as const, path: p })),
                },
                (err, r) => (err ? reject(err) : resolve(r)),
              );
            }),
        ),
      );
      // Merge: totals add up; latency percentiles are the worst user's (conservative).
      const merged = {
        phase: label,
        requests: results.reduce((s, r) => s + r.requests.total, 0),
        requestsPerSec: results.reduce((s, r) => s + r.requests.average, 0),
        p50: Math.max(...results.map((r) => r.latency.p50)),
        p97_5: Math.max(...results.map((r) => r.latency.p97_5)),
        p99: Math.max(...results.map((r) => r.latency.p99)),
        max: Math.max(...results.map((r) => r.latency.max)),
        errors: results.reduce((s, r) => s + r.errors, 0),
        timeouts: results.reduce((s, r) => s + r.timeouts, 0),
        non2xx: results.reduce((s, r) => s + r.non2xx, 0),
      };
      console.log(
        `${label.padEnd(24)} ${merged.requests} requests, ${merged.requestsPerSec.toFixed(0)} req/s, p50 ${ms(merged.p50)}, ` +
          `p97.5 ${ms(merged.p97_5)}, p99 ${ms(merged.p99)}, max ${ms(merged.max)}, errors ${merged.errors}, timeouts ${merged.timeouts}, non-2xx ${merged.non2xx}`,
      );
      return merged;
    };

    console.log(
      `bench:load — ${USERS} users, ${PURGES} purges of ${ROWS.toLocaleString("en-US")} rows (${fileMb.toFixed(1)} MB each), ${SECONDS}s phases, ${CONNECTIONS} connections per user, ${os.cpus().length} CPUs`,
    );
    const idle = await browse("browsing alone");

    // Purges through the API (streamed multipart upload), one per user in turn.
    const purgeStart = performance.now();
    const jobs = await Promise.all(
      files.map(async (file, i) => {
        const u = users[i % users.length];
        const form = new FormData();
        form.append("suppression_type", "DNCAndLitigation");
        form.append("column", "Phone");
        form.append("file", new Blob([fs.readFileSync(file)], { type: "text/csv" }), path.basename(file));
        const res = await fetch(`${base}/api/v1/scrubs`, { method: "POST", headers: { Authorization: `Bearer ${u.key}` }, body: form });
        const body = (await res.json()) as { job?: { id: string }; error?: { message: string } };
        if (res.status !== 202 || !body.job) throw new Error(`purge refused: ${res.status} ${JSON.stringify(body)}`);
        return { id: body.job.id, key: u.key };
      }),
    );
    const uploadedMs = performance.now() - purgeStart;
    // Poll the jobs (through the API, like a client) while the browsing phase runs.
    const deadline = Date.now() + PURGE_TIMEOUT * 1000;
    let lastEnd = purgeStart;
    const polling = Promise.all(
      jobs.map(async (j) => {
        for (;;) {
          const res = await fetch(`${base}/api/v1/scrubs/${j.id}`, { headers: { Authorization: `Bearer ${j.key}` } });
          const { job } = (await res.json()) as { job: { status: string } };
          if (job.status === "completed" || job.status === "failed") {
            lastEnd = Math.max(lastEnd, performance.now());
            return { id: j.id, status: job.status };
          }
          if (Date.now() > deadline) return { id: j.id, status: `${job.status} (gave up)` };
          await sleep(200);
        }
      }),
    );
    const loaded = await browse("browsing during purges");
    const ends = await polling;
    const purgeSeconds = (lastEnd - purgeStart) / 1000;
    const overlap = lastEnd - purgeStart <= SECONDS * 1000 ? "all finished within the browsing phase" : "some ran past the browsing phase";
    const purgedRows = PURGES * ROWS;
    console.log(
      `purges                   ${ends.map((e) => e.status).join(", ")}; uploads ${(uploadedMs / 1000).toFixed(1)} s; ` +
        `${purgedRows.toLocaleString("en-US")} rows in ${purgeSeconds.toFixed(1)} s (${Math.round(purgedRows / purgeSeconds).toLocaleString("en-US")} rows/s, all purges together; ${overlap})`,
    );
    console.log(
      `sign-in, wrong password  known e-mail median ${ms(median(known))}, unknown e-mail median ${ms(median(unknown))} (same answer; timing should be alike)`,
    );
    const verdict = loaded.p99 < 500 && loaded.errors === 0 && loaded.timeouts === 0 && loaded.non2xx === 0;
    console.log(`goal: p99 under 500 ms with purges running, no errors — ${verdict ? "MET" : "NOT MET"}`);

    const out = {
      startedAt: started.toISOString(),
      machine: { cpus: os.cpus().length, node: process.version },
      settings: { USERS, PURGES, ROWS, SECONDS, CONNECTIONS, pages: PAGES, fileMb },
      phases: [idle, loaded],
      purges: { jobs: ends, seconds: purgeSeconds, rowsPerSecond: purgedRows / purgeSeconds, uploadSeconds: uploadedMs / 1000 },
      signInTiming: { knownMs: known, unknownMs: unknown, knownMedianMs: median(known), unknownMedianMs: median(unknown) },
      goalMet: verdict,
    };
    fs.mkdirSync("bench-results", { recursive: true });
    const file = path.join("bench-results", `load-${started.toISOString().replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(file, JSON.stringify(out, null, 2) + "\n");
    console.log(`written ${file}`);
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once("exit", r));
      server.kill("SIGTERM");
      await Promise.race([exited, sleep(10_000)]);
      if (server.exitCode === null) server.kill("SIGKILL");
    }
    await scratchDb.drop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
