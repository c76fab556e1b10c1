/**
 * npm run bench:compat — the dialer compatibility layer's figures (issue #48, decision 189):
 *   1. a 50,000-number DNCScrub-compatible scrub as VICIdial's filter sends it (multipart, loginId field, no output),
 *      timed BENCH_SCRUBS times (target: each answered in ≤ 2 s on services, a quiet machine);
 *   2. the yes/no check GET /api/v1/check at BENCH_RATE requests a second (default 500; open loop: a request every
 *      1/rate s whatever the answers do, latency counted from the moment it was due) for BENCH_SECONDS, spread over
 *      enough keys that the live lookup's per-key budget (200/s) is not what is measured: p50/p90/p99/max printed.
 * The app's route modules are served by a child process behind a plain node:http adapter (the routes' cost without
 * Express and Remix), on the stores the environment names: embedded defaults (PGlite in a temporary DATA_DIR, the
 * embedded index), or PostgreSQL and Redis with DATABASE_URL and REDIS_URL. The child first creates a bench account
 * and loads BENCH_DNC numbers (default 100,000) on the DNC list and 10,000 on the litigation list. Every figure is
 * printed; nothing is asserted.
 * Env: BENCH_DNC (100000), BENCH_NUMBERS (50000), BENCH_SCRUBS (3), BENCH_RATE (500), BENCH_SECONDS (10), BENCH_PORT (3314).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { Pool } from "undici";

const DNC_SIZE = Number(process.env.BENCH_DNC ?? 100_000);
const NUMBERS = Number(process.env.BENCH_NUMBERS ?? 50_000);
const SCRUBS = Number(process.env.BENCH_SCRUBS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 3314);
/** Each key's share of the check's rate, under the lookup budget of 200 a second per key. */
const PER_KEY = 150;

/** Valid numbers (per the engine's normalizer) from a seeded generator, so each run asks the same. */
async function validNumbers(count: number, seed: number): Promise<string[]> {
  const { parsePhone } = await import("scrub-service/domain");
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const out = new Set<string>();
  while (out.size < count) {
    const n = String(200 + Math.floor(next() * 800)) + String(200 + Math.floor(next() * 800)) + String(Math.floor(next() * 10_000)).padStart(4, "0");
    if (parsePhone(n).ok) out.add(n);
  }
  return [...out];
}

// ---------------------------------------------------------------- the served side (a child process)

async function serve(): Promise<void> {
  const { getDb } = await import("../../app/utils/db.server");
  const { getScrubService } = await import("../../app/utils/scrub.server");
  const { shutdown } = await import("../../app/boot.server");
  const { createApiKey } = await import("../../app/models/integration.server");
  const { createBenchAccount } = await import("./bench-account");
  const scrub = await import("../../app/routes/api.compat.dncscrub.scrub");
  const check = await import("../../app/routes/api.v1.check");
  const db = await getDb();
  const service = await getScrubService();
  const started = Date.now();
  const account = await createBenchAccount("compat");
  const keys = [account.key];
  const integration = await db.selectFrom("integrations").select("id").where("user_id", "=", account.userId).executeTakeFirstOrThrow();
  // The integration's shared rate-limit toggle off, as a dialer operator sending 500 checks a second would set it:
  // with it on, every key of the integration draws from one 200/s bucket and the run would measure the 429s.
  await db.updateTable("integrations").set({ rate_limit_enabled: false }).where("id", "=", integration.id).execute();
  while (keys.length < Math.max(1, Math.ceil(RATE / PER_KEY))) {
    const k = await createApiKey(db, { userId: account.userId, integrationId: integration.id, name: `bench ${keys.length}` });
    if ("error" in k) throw new Error(k.error);
    keys.push(k.key);
  }
  const pool = await validNumbers(DNC_SIZE + NUMBERS, 23);
  const lists = await db.selectFrom("lists").select(["id", "kind"]).where("kind", "in", ["dnc", "litigation"]).execute();
  for (const l of lists) {
    const numbers = l.kind === "dnc" ? pool.slice(0, DNC_SIZE) : pool.slice(DNC_SIZE - 10_000, DNC_SIZE);
    for (let s = 0; s < numbers.length; s += 250_000) await service.loadNumbers({ listId: l.id, mode: "add", numbers: numbers.slice(s, s + 250_000) });
  }
  await service.rebuildLists();
  // the scrub's numbers: half on the DNC list, half on none
  const asked = [...pool.slice(0, NUMBERS / 2), ...pool.slice(DNC_SIZE, DNC_SIZE + NUMBERS - NUMBERS / 2)];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request = new Request(`http://127.0.0.1:${PORT}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
    });
    const route = req.url!.startsWith("/api/v1/check") ? check : scrub;
    const response = await (req.method === "GET" ? route.loader : route.action)({ request, params: {}, context: {} } as never);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(PORT, "127.0.0.1", r));
  console.log(JSON.stringify({ ready: true, keys, asked, setupSeconds: (Date.now() - started) / 1000 }));
  process.on("SIGTERM", async () => {
    server.close();
    await shutdown().catch(() => {});
    process.exit(0);
  });
}

// ---------------------------------------------------------------- the driving side

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function main(): Promise<void> {
  const env: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" };
  if (!env.DATA_DIR) env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "bench-compat-"));
  const mode = env.DATABASE_URL && env.REDIS_URL ? "services (PostgreSQL, Redis)" : "embedded (PGlite, embedded index)";
  console.log(`bench:compat — ${mode}; ${os.cpus().length} cores; DNC list ${DNC_SIZE.toLocaleString("en-US")} numbers`);
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_PROF ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []), "--import", "tsx", process.argv[1], "serve"],
    { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "inherit"] },
  );
  const ready = await new Promise<{ keys: string[]; asked: string[]; setupSeconds: number }>((resolve, reject) => {
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
  console.log(`setup (account, lists): ${ready.setupSeconds.toFixed(1)} s`);
  const client = new Pool(`http://127.0.0.1:${PORT}`, { connections: 64, pipelining: 1 });
  try {
    // 1. the 50,000-number scrub, as VICIdial's filter sends it
    const form = new FormData();
    form.append("loginId", ready.keys[0]);
    form.append("version", "3");
    form.append("projId", "");
    form.append("campaignId", "BENCH");
    form.append("phoneList", ready.asked.join(","));
    const encoded = new Response(form);
    const type = encoded.headers.get("Content-Type")!;
    const body = Buffer.from(await encoded.arrayBuffer());
    console.log(
      `\n1. compatible scrub: ${ready.asked.length.toLocaleString("en-US")} numbers, ${(body.length / 1024).toFixed(0)} KB multipart (target ≤ 2000 ms)`,
    );
    const times: number[] = [];
    for (let i = 0; i < SCRUBS; i++) {
      const t0 = performance.now();
      const res = await client.request({ path: "/api/compat/dncscrub/scrub", method: "POST", headers: { "content-type": type }, body });
      const text = await res.body.text();
      const t = performance.now() - t0;
      times.push(t);
      const lines = text.split("\n").filter((l) => l !== "").length;
      const d = (text.match(/^\d+,D,/gm) ?? []).length;
      console.log(
        `   run ${i + 1}: ${ms(t)} · HTTP ${res.statusCode} · ${lines.toLocaleString("en-US")} lines, ${d.toLocaleString("en-US")} D · ${t <= 2000 ? "met" : "NOT MET"}`,
      );
      if (i === 0) {
        // what the answers were (result code and calling window), so a run whose every answer is "not now" is seen
        const tally = new Map<string, number>();
        for (const line of text.split("\n")) {
          const f = line.split(",");
          if (f.length > 10) tally.set(`${f[1]}/${f[10] || "-"}`, (tally.get(`${f[1]}/${f[10] || "-"}`) ?? 0) + 1);
        }
        console.log(`   code/window: ${[...tally].map(([k, n]) => `${k} ${n.toLocaleString("en-US")}`).join(" · ")}`);
      }
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(`   p50 ${ms(pct(sorted, 50))} · max ${ms(sorted[sorted.length - 1])}`);

    // 2. the yes/no check at RATE requests a second, open loop
    console.log(`\n2. yes/no check: ${RATE} requests/s for ${SECONDS} s over ${ready.keys.length} keys (open loop)`);
    const total = Math.round(RATE * SECONDS);
    const latencies: number[] = [];
    const statuses = new Map<string, number>();
    const start = performance.now() + 200;
    const pending: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      // alternately from the listed half and the unlisted half of the asked numbers, so both answers are measured
      const half = ready.asked.length >> 1;
      const phone = ready.asked[((i >> 1) % half) + (i & 1) * half];
      const key = ready.keys[i % ready.keys.length];
      pending.push(
        client
          .request({ path: `/api/v1/check?phone=${phone}&campaign=BENCH`, method: "GET", headers: { authorization: `Bearer ${key}` } })
          .then(async (res) => {
            const text = await res.body.text();
            latencies.push(performance.now() - due);
            const k = `${res.statusCode} ${text}`;
            statuses.set(k, (statuses.get(k) ?? 0) + 1);
          })
          .catch((e) => {
            latencies.push(performance.now() - due);
            statuses.set(`error ${e.code ?? e.message}`, (statuses.get(`error ${e.code ?? e.message}`) ?? 0) + 1);
          }),
      );
    }
    await Promise.all(pending);
    const elapsed = (performance.now() - start) / 1000;
    const l = [...latencies].sort((a, b) => a - b);
    console.log(
      `   ${total} requests in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)}/s) · p50 ${ms(pct(l, 50))} · p90 ${ms(pct(l, 90))} · p99 ${ms(pct(l, 99))} · max ${ms(l[l.length - 1])}`,
    );
    console.log(`   answers: ${[...statuses].map(([k, n]) => `${k}: ${n}`).join(" · ")}`);
    console.log(
      `   load average: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    await client.close();
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

(process.argv[2] === "serve" ? serve() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
