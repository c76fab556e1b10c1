/**
 * Replica benchmark (not a test): scrub throughput with one and with two `npm run scrub-service` replicas on
 * one PostgreSQL, one Redis and one shared DATA_DIR (decision 125). Each round starts the replicas as their
 * own processes, queues BENCH_JOBS scrubs of a BENCH_ROWS-row file at once, and times from queueing to the
 * last one completed (replica start-up excluded; one untimed scrub first fills the shared caches). Rounds alternate 1, 2, 1, 2, … (BENCH_ROUNDS each) in the
 * same minutes, since other work on the machine makes any one figure noisy; each line carries the load
 * average read when it was taken.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 npm run bench:replicas
 *   BENCH_JOBS=6 BENCH_ROWS=500000 BENCH_ROUNDS=3 SCRUB_THREADS=1 npm run bench:replicas
 *
 * The lists may be on any store the environment names (REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS);
 * a fresh database (dropped afterwards) and a unique Redis key prefix (deleted afterwards) are used.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateToLatest, openDatabase, type DbHandle } from "db/client";
import { createHttpScrubClient } from "../src/http-client";
import { createInProcessScrubService } from "../src/in-process";
import { describeRedisTarget, redisTargetFromEnv } from "../src/lists/redis-client";
import { RedisListStore } from "../src/lists/redis-store";
import { createScrubJob } from "../src/service";
import { freePort, until } from "../../tests/setup/processes";
import { scratchDatabase } from "../src/test/bench";

const JOBS = Number(process.env.BENCH_JOBS ?? 6);
const ROWS = Number(process.env.BENCH_ROWS ?? 500_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const THREADS = process.env.SCRUB_THREADS ?? "1";
const BASE_DB = process.env.DATABASE_URL;

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

async function main() {
  const target = redisTargetFromEnv();
  if (!BASE_DB || !target) throw new Error("Set DATABASE_URL and REDIS_URL (or REDIS_CLUSTER_NODES / REDIS_SENTINELS): replicas share PostgreSQL and Redis.");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-replicas-"));
  const dataDir = path.join(work, "data");
  const scratchDb = await scratchDatabase("bench_replicas");
  const databaseUrl = scratchDb.url;
  const prefix = `bench-replicas:${crypto.randomBytes(4).toString("hex")}:`;
  let handle: DbHandle | undefined;
  const running: ChildProcess[] = [];

  try {
    handle = await openDatabase({ databaseUrl, poolSize: 2 });
    await migrateToLatest(handle.db);
    const user = await handle.db
      .insertInto("users")
      .values({
        email: "bench@replicas.test",
        first_name: "Bench",
        last_name: "User",
        company: "",
        phone_number: "",
        password_hash: "x",
        role: "UnlimitedUser",
        status: "Active",
        email_confirmed: true,
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    // The input: valid numbers over many area codes; every 50th on the litigation list (Redis lookups throughout).
    const input = path.join(work, "leads.csv");
    const out = fs.createWriteStream(input);
    out.write("Name,Phone\n");
    const listed: string[] = [];
    for (let i = 0; i < ROWS; i++) {
      const n = `${200 + ((i * 31) % 780)}${200 + ((i * 7) % 780)}${String((i * 13) % 10_000).padStart(4, "0")}`;
      if (i % 50 === 0) listed.push(n);
      if (!out.write(`Lead ${i},${n}\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
    }
    await new Promise<void>((r) => out.end(() => r()));
    const lists = await createInProcessScrubService({ handle, dataDir, redis: target, redisPrefix: prefix, autoStart: false });
    const litigation = await lists.manager.adminListId("litigation");
    await lists.loadNumbers({ listId: litigation, mode: "add", numbers: listed });
    await lists.close();

    const token = crypto.randomBytes(16).toString("hex");
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SCRUB_REDIS_PREFIX: prefix,
      DATA_DIR: dataDir,
      SCRUB_SERVICE_TOKEN: token,
      SCRUB_THREADS: THREADS,
    };
    async function startReplica() {
      const port = await freePort();
      const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "../src/index.ts")], {
        env: { ...env, SCRUB_SERVICE_PORT: String(port) },
        stdio: ["ignore", "ignore", "pipe"],
      });
      running.push(child);
      let err = "";
      child.stderr!.on("data", (c) => (err += c));
      const base = `http://127.0.0.1:${port}`;
      await until(`replica on :${port}`, async () => {
        if (child.exitCode !== null) throw new Error(`replica exited: ${err}`);
        return fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      });
      return { child, client: createHttpScrubClient({ url: base, token }) };
    }
    async function stop(child: ChildProcess) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
    }

    console.log(
      `bench:replicas — ${JOBS} scrubs of ${ROWS.toLocaleString("en-US")} rows each (${(fs.statSync(input).size / 1e6).toFixed(1)} MB), ` +
        `${THREADS} thread(s) per replica, one job at a time per replica; ${os.availableParallelism()} cores; ` +
        `PostgreSQL + ${describeRedisTarget(target)}; shared DATA_DIR`,
    );
    const results: Record<number, number[]> = { 1: [], 2: [] };
    let expectBad: number | undefined;
    // Round 0 (not counted): the first job of the run builds the Bloom filter and saves it to the shared
    // DATA_DIR/cache, which every later replica reads.
    for (let round = 0; round <= ROUNDS; round++) {
      for (const n of round === 0 ? [1] : [1, 2]) {
        const replicas = [];
        for (let r = 0; r < n; r++) replicas.push(await startReplica());
        const ids: string[] = [];
        for (let j = 0; j < (round === 0 ? 1 : JOBS); j++) {
          const copy = path.join(work, `in-${round}-${n}-${j}.csv`);
          fs.linkSync(input, copy);
          ids.push(
            await createScrubJob(handle.db, {
              userId: user.id,
              fileName: "leads.csv",
              inputPath: copy,
              suppressionType: "LitigationOnly",
              columnName: "Phone",
            }),
          );
        }
        const before = load();
        const t0 = performance.now();
        for (const id of ids) for (const r of replicas) await r.client.enqueue(id);
        const db = handle.db;
        const owners = new Set<string>(); // the pids that ran a job (the lease is cleared at completion)
        const rows = await until(
          "the scrubs to finish",
          async () => {
            const r = await db.selectFrom("scrub_jobs").select(["status", "lease_owner", "bad_count"]).where("id", "in", ids).execute();
            for (const x of r) if (x.lease_owner) owners.add(String(x.lease_owner).split(":")[1]);
            return r.every((x) => x.status !== "queued" && x.status !== "running") && r;
          },
          30 * 60_000,
        );
        const seconds = (performance.now() - t0) / 1000;
        const bad = rows.filter((r) => r.status !== "completed");
        if (bad.length) throw new Error(`${bad.length} scrubs did not complete (${bad.map((b) => b.status).join(", ")})`);
        // every scrub of the one file finds the same listed rows, whichever replica ran it
        for (const r of rows) if (Number(r.bad_count) !== (expectBad ??= Number(r.bad_count))) throw new Error("two scrubs of one file differ");
        if (round === 0) {
          console.log(`warm-up: one scrub in ${seconds.toFixed(1)} s (the Bloom filter built and saved to DATA_DIR/cache)`);
          for (const r of replicas) await stop(r.child);
          continue;
        }
        results[n].push(seconds);
        console.log(
          `round ${round}  ${n} replica${n > 1 ? "s" : " "}  ${seconds.toFixed(1).padStart(6)} s  ` +
            `${((JOBS * ROWS) / seconds / 1e6).toFixed(2)} M rows/s  ${(JOBS / seconds).toFixed(2)} jobs/s  ` +
            `jobs run by ${owners.size} process(es)  load average ${before} → ${load()}`,
        );
        for (const r of replicas) await stop(r.child);
      }
    }
    const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
    const m1 = median(results[1]);
    const m2 = median(results[2]);
    console.log(
      `listed rows per scrub: ${expectBad}; median: 1 replica ${m1.toFixed(1)} s, 2 replicas ${m2.toFixed(1)} s → ${(m1 / m2).toFixed(2)}x the throughput with two ` +
        `(load average at the end ${load()})`,
    );
  } finally {
    for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await handle?.close();
    await scratchDb.drop();
    const keys = new RedisListStore({ target: target!, prefix });
    await keys.clearAll().catch(() => {});
    await keys.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
