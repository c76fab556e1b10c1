/**
 * bench:hostile's served half (BENCH_SERVED=1): the production server (`node server.mjs`, embedded defaults, its
 * own data directory) takes each case's files as API scrub submissions from one customer while another customer
 * keeps asking for a page (/login, rendered by Remix) and an authenticated API answer (/api/v1/usage) every
 * 100 ms (exemption cases: the files are new exemption lists through /api/v1/exemption-lists). Prints the other customer's latencies (the goal: every answer under 1 s), the server's peak RSS and what
 * the attacker's submissions and jobs came to. Figures only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createBenchAccount } from "./bench-account";
import { ensureBuild } from "./build-app";

const BUILD_DIR = process.env.BENCH_BUILD_DIR ?? "build-bench";
const PORT = Number(process.env.BENCH_PORT ?? 3333);
const base = `http://127.0.0.1:${PORT}`;

export interface ServedCase {
  name: string;
  files: string[];
  /** Where the files go: API scrubs (default), or new exemption lists (issue #49). */
  as?: "scrub" | "exemptions";
}

/** In a child with DATA_DIR set: the two customers, written to DATA_DIR/hostile-accounts.json. */
export async function setupAccounts(): Promise<void> {
  const attacker = await createBenchAccount("attacker");
  const victim = await createBenchAccount("neighbour");
  fs.writeFileSync(path.join(process.env.DATA_DIR!, "hostile-accounts.json"), JSON.stringify({ attacker, victim }));
  const { dbHandle } = await import("../../app/utils/db.server");
  await (await dbHandle()).close();
  process.exit(0);
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

/** A new, empty database beside the one `url` names (the server migrates it at start). */
async function freshDatabase(url: string): Promise<string> {
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = `bench_hostile_${crypto.randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The process that serves: the relaunched child of `pid` when there is one, else `pid`. */
function servingPid(pid: number): number {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return children.length === 1 ? children[0] : pid;
}

function run(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] });
}

async function waitFor(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not happen within ${ms / 1000} s`);
}

/** A new exemption list of the attacker's from one file: the one-line answer. */
async function exemptionAttack(key: string, file: string): Promise<string> {
  const form = new FormData();
  form.set("name", path.basename(file));
  form.set("file", await fs.openAsBlob(file), path.basename(file));
  const res = await fetch(`${base}/api/v1/exemption-lists`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  const body = (await res.json().catch(() => ({}))) as { exemption_list?: { size: number }; error?: { message?: string } };
  return res.status === 201
    ? `exemption list loaded: ${body.exemption_list!.size.toLocaleString("en-US")} numbers`
    : `${res.status}: ${(body.error?.message ?? "").slice(0, 110)}`;
}

/** The attacker's submission of one file and, when accepted, its job to the end: a one-line answer. */
async function attack(key: string, file: string): Promise<string> {
  const form = new FormData();
  form.set("suppression_type", "DNCAndLitigation");
  form.set("file", await fs.openAsBlob(file), path.basename(file));
  const auth = { authorization: `Bearer ${key}` };
  const res = await fetch(`${base}/api/v1/scrubs`, { method: "POST", headers: auth, body: form });
  const body = (await res.json().catch(() => ({}))) as { job?: { id: string }; error?: { message?: string } };
  if (res.status !== 202 || !body.job) return `submission ${res.status}: ${(body.error?.message ?? JSON.stringify(body)).slice(0, 110)}`;
  for (;;) {
    const r = await fetch(`${base}/api/v1/scrubs/${body.job.id}`, { headers: auth });
    const job = ((await r.json()) as { job: { status: string; error?: string | null; counts?: unknown } }).job;
    if (job.status === "completed" || job.status === "failed") return `job ${job.status}${job.error ? `: ${String(job.error).slice(0, 100)}` : ""}`;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The neighbour's requests every 100 ms until `stop` resolves: latencies by path, and any answer that was not 200. */
async function neighbour(key: string, stop: Promise<unknown>): Promise<{ latencies: number[]; bad: string[] }> {
  let done = false;
  void stop.then(() => (done = true));
  const latencies: number[] = [];
  const bad: string[] = [];
  const paths = [
    { path: "/login", headers: {} as Record<string, string> },
    { path: "/api/v1/usage", headers: { authorization: `Bearer ${key}` } },
  ];
  for (let i = 0; !done; i++) {
    const p = paths[i % paths.length];
    const t = performance.now();
    try {
      const r = await fetch(`${base}${p.path}`, { headers: p.headers, signal: AbortSignal.timeout(30_000) });
      await r.arrayBuffer();
      if (r.status !== 200) bad.push(`${p.path} ${r.status}`);
    } catch (e) {
      bad.push(`${p.path} ${(e as Error).message}`);
    }
    latencies.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { latencies, bad };
}

export async function servedRuns(cases: ServedCase[], script: string): Promise<void> {
  ensureBuild(BUILD_DIR);
  console.log(
    `\nserved: node server.mjs (${process.env.BENCH_SERVED_DATABASE_URL ? "PostgreSQL" : "embedded defaults"}, NODE_ENV=production) on :${PORT}; a neighbour asks for /login and /api/v1/usage every 100 ms`,
  );
  for (const c of cases) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-hostile-served-"));
    // BENCH_SERVED_DATABASE_URL: the server on PostgreSQL (a fresh database per case) instead of the embedded defaults
    const databaseUrl = process.env.BENCH_SERVED_DATABASE_URL ? await freshDatabase(process.env.BENCH_SERVED_DATABASE_URL) : "";
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: "",
      REDIS_CLUSTER_NODES: "",
      REDIS_SENTINELS: "",
      SCRUB_SERVICE_URL: "",
      SMTP_URL: "",
      DEMO_ADMIN: "0",
    };
    let server: ChildProcess | null = null;
    try {
      const setup = run(["--import", "tsx", script, "--served-setup"], env);
      const code = await new Promise((r) => setup.once("exit", r));
      if (code !== 0) throw new Error(`setup exited ${code}`);
      const { attacker, victim } = JSON.parse(fs.readFileSync(path.join(dataDir, "hostile-accounts.json"), "utf8"));
      // BENCH_SERVER_NODE_ARGS: node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it
      const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
      server = run([...nodeArgs, "server.mjs"], {
        ...env,
        NODE_ENV: "production",
        PORT: String(PORT),
        BUILD_DIR,
        APP_URL: base,
        SESSION_SECRET: crypto.randomBytes(24).toString("hex"),
        SECURE_COOKIES: "0",
        LOG_LEVEL: "warn",
      });
      server.stdout!.resume();
      await waitFor("the server answering /healthz", () => fetch(`${base}/healthz`).then((r) => r.ok), 120_000);
      // the server relaunches itself once on huge pages (decision 173): its memory is the relaunched child's
      const pid = servingPid(server.pid!);
      // the neighbour's first answers compile routes and open the database: before the clock starts
      await neighbour(victim.key, new Promise((r) => setTimeout(r, 1_000)));
      const t0 = performance.now();
      const attacks = Promise.all(c.files.map((f) => (c.as === "exemptions" ? exemptionAttack : attack)(attacker.key, f)));
      const seen = neighbour(victim.key, attacks);
      const answers = await attacks;
      const { latencies, bad } = await seen;
      const seconds = (performance.now() - t0) / 1000;
      const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;
      const sorted = [...latencies].sort((a, b) => a - b);
      const max = sorted[sorted.length - 1];
      console.log(
        `${c.name} (served)\n  neighbour: ${latencies.length} requests, p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${max.toFixed(0)} ms` +
          `, ${bad.length} not 200${bad.length ? ` (${bad.slice(0, 3).join("; ")})` : ""} — goal every answer < 1 s: ${max < 1000 && !bad.length ? "met" : "NOT MET"}` +
          `\n  server peak RSS ${hwm.toFixed(0)} MB, ${seconds.toFixed(1)} s, load average ${os
            .loadavg()
            .map((l) => l.toFixed(2))
            .join(" ")}`,
      );
      for (const a of answers) console.log(`  ${a}`);
    } catch (e) {
      console.log(`${c.name} (served) failed: ${(e as Error).message}`);
    } finally {
      if (server && server.exitCode === null) {
        const exited = new Promise((r) => server!.once("exit", r));
        server.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
        if (server.exitCode === null) server.kill("SIGKILL");
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
