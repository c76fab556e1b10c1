import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { promisify } from "node:util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

// These tests need PostgreSQL (a second process shares the database); CI sets DATABASE_URL.
process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";

import Redis from "ioredis";
import { createTestDb } from "../../tests/setup/db";
import { freePort, sha, until } from "../../tests/setup/processes";
import { migrateToLatest, openDatabase, type DbHandle } from "db/client";
import { createScrubJob, shownStatus } from "../src/service";
import { createHttpScrubClient } from "../src/http-client";
import { LIST_STORE_UNAVAILABLE } from "../src/jobs";
import { createInProcessScrubService, type InProcessScrubService } from "../src/in-process";
import { adminListIds, createUser, tmpDir, uniquePrefix } from "../src/test/helpers";
import { skipWithout } from "../../tests/setup/services";

const unavailable = await skipWithout("scrub-service/test/faults.test.ts", [
  { kind: "tcp", name: "PostgreSQL", url: process.env.DATABASE_URL! },
  { kind: "tcp", name: "Redis", url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" },
  { kind: "program", name: "redis-server" },
  { kind: "program", name: "pg_ctl" },
  { kind: "root" },
]);

/*
 * Faults with real processes, on loopback (docs/decisions/083):
 * - two `npm run scrub-service` replicas on one database, Redis and DATA_DIR, the one running a job killed
 *   with SIGKILL: the other retries it from the start when the lease runs out (decision 125), the customer
 *   sees "retrying", and the files equal a clean run's;
 * - Redis (our own redis-server on a spare port) flushed before a job, flushed during one, stopped during one:
 *   the job fails closed with the message naming the rebuild command; after the rebuild the scrub is right;
 * - disk full while writing results (a 1 MB tmpfs): the job fails, the results of earlier jobs stay intact;
 * - PostgreSQL restarted while the app's pool is in use (a throwaway cluster): queries work again without
 *   restarting the app.
 * Waits poll the database with generous bounds; nothing asserts a duration.
 */

let handle: DbHandle;
let userId: string;
let work: string;
let bigInput: string;
let replicaInput: string;
let smallInput: string;
const LITIGATION = ["2125552101", "3105552102"];
const ROWS = 300_000;
/** The replica test's input: a replica with one thread scrubs 300k rows before its first progress write (250 ms). */
const REPLICA_ROWS = 1_200_000;
const SLOW = 180_000; // bound for tests that scrub the big file several times on a shared machine

/** Waits until the job has done some rows but not all; fails if it ended first. */
async function midway(id: string) {
  await until("the job to be mid-way", async () => {
    const j = await jobRow(id);
    if (j.status === "completed" || j.status === "failed") throw new Error(`the job ended (${j.status}) before the fault`);
    return j.status === "running" && Number(j.rows_done) > 0;
  });
}

const jobRow = (id: string) => handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const filesOf = (id: string) => handle.db.selectFrom("result_files").selectAll().where("job_id", "=", id).orderBy("kind").execute();

async function hashesOf(id: string): Promise<Record<string, string>> {
  return Object.fromEntries((await filesOf(id)).map((f) => [f.kind, sha(f.path)]));
}

async function newJob(inputPath: string) {
  return createScrubJob(handle.db, { userId, fileName: path.basename(inputPath), inputPath, suppressionType: "LitigationOnly", columnName: "Phone" });
}

async function runJob(svc: InProcessScrubService, inputPath: string) {
  const id = await newJob(inputPath);
  await svc.enqueue(id);
  await svc.waitFor("job", id, 120_000);
  return { id, job: await jobRow(id), files: await filesOf(id) };
}

function service(extra: Partial<Parameters<typeof createInProcessScrubService>[0]> = {}) {
  // Small batches: progress (and list lookups) all through the file, so a fault lands mid-job.
  return createInProcessScrubService({
    handle,
    dataDir: path.join(work, "data"),
    threads: 1,
    leaseMs: 1000,
    progressMs: 50,
    listWaitMs: 0,
    batchBytes: 64 * 1024,
    storeRetryDelaysMs: [10, 20], // a Redis stopped here stays down: two quick retries, then the failure is checked
    ...extra,
  });
}

beforeAll(async () => {
  if (unavailable) return;
  handle = await createTestDb("postgres");
  userId = await createUser(handle);
  work = tmpDir("faults");
  // 300k rows (~8 MB): long enough that a process is surely mid-job when progress first shows. Every 997th
  // row is on the litigation list, so lookups in the list store happen all through the file.
  const rowsOf = (count: number) => {
    const rows = ["Name,Phone"];
    for (let i = 0; i < count; i++) {
      rows.push(`Row ${i},${i % 997 === 0 ? LITIGATION[i % 2] : `${200 + (i % 800)}${200 + ((i * 7) % 800)}${String(i % 10_000).padStart(4, "0")}`}`);
    }
    return rows.join("\n") + "\n";
  };
  bigInput = path.join(work, "big.csv");
  fs.writeFileSync(bigInput, rowsOf(ROWS));
  replicaInput = path.join(work, "replica.csv");
  fs.writeFileSync(replicaInput, rowsOf(REPLICA_ROWS));
  smallInput = path.join(work, "small.csv");
  fs.writeFileSync(smallInput, `Name,Phone\nAnn,${LITIGATION[0]}\nBob,4155552103\nCy,${LITIGATION[1]}\nDee,12\n`);
  // The litigation list the scrubs check against (PostgreSQL is the source of truth).
  const svc = await service({ autoStart: false });
  const { litigation } = await adminListIds(handle);
  await svc.loadNumbers({ listId: litigation, mode: "add", numbers: LITIGATION });
  await svc.close();
});

afterAll(async () => {
  if (unavailable) return;
  await handle?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.skipIf(unavailable)("two scrub-service replicas, one killed mid-job (SIGKILL)", () => {
  const replicas: ChildProcess[] = [];
  afterAll(async () => {
    for (const r of replicas) if (r.exitCode === null && r.signalCode === null) r.kill("SIGTERM");
    await Promise.all(replicas.map((r) => (r.exitCode === null && r.signalCode === null ? new Promise((ok) => r.once("exit", ok)) : null)));
  });

  /** `npm run scrub-service` as a replica would run it: its own process, port and lease; shared database, Redis, DATA_DIR. */
  async function startReplica(env: Record<string, string>) {
    const port = await freePort();
    // The replicas use this test's single Redis: a REDIS_CLUSTER_NODES of the run (CI sets one) would win over it.
    const { REDIS_CLUSTER_NODES: _cluster, ...inherited } = process.env;
    const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "../src/index.ts")], {
      env: { ...inherited, ...env, SCRUB_SERVICE_PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    replicas.push(child);
    let err = "";
    child.stderr!.on("data", (c) => (err += c));
    const url = `http://127.0.0.1:${port}`;
    await until(`replica on :${port} to answer`, async () => {
      if (child.exitCode !== null) throw new Error(`replica exited: ${err}`);
      return fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    });
    return { child, pid: servingPid(child), client: createHttpScrubClient({ url, token: env.SCRUB_SERVICE_TOKEN }), stderr: () => err };
  }

  /** The pid that holds the replica's leases: its relaunched child on huge pages (decision 173), else the process itself. */
  function servingPid(child: ChildProcess): number {
    const file = `/proc/${child.pid}/task/${child.pid}/children`;
    const kids = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split(/\s+/).filter(Boolean) : [];
    return kids.length ? Number(kids[0]) : child.pid!;
  }

  it(
    "the job is retried on the other replica from the start, shows 'retrying' (never failed), and its files equal a clean run's",
    { timeout: SLOW },
    async () => {
      const dataDir = path.join(work, "replicas");
      const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
      const prefix = uniquePrefix();
      const lists = await service({ autoStart: false, redisUrl, redisPrefix: prefix, dataDir });
      await lists.rebuildLists();
      await lists.close();
      const url = (handle.driver as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
      const env = {
        DATABASE_URL: url,
        REDIS_URL: redisUrl,
        SCRUB_REDIS_PREFIX: prefix,
        DATA_DIR: dataDir,
        SCRUB_SERVICE_TOKEN: crypto.randomBytes(16).toString("hex"),
        SCRUB_LEASE_MS: "1500",
        SCRUB_THREADS: "1",
        SCRUB_BATCH_BYTES: String(64 * 1024),
      };
      const [a, b] = [await startReplica(env), await startReplica(env)];

      const id = await newJob(replicaInput);
      await a.client.enqueue(id);
      const running = await until("a replica to be mid-job", async () => {
        const j = await jobRow(id);
        if (j.status !== "running" && j.status !== "queued") throw new Error(`the job ended (${j.status}) before the kill`);
        return j.status === "running" && Number(j.rows_done) > 0 && j;
      });
      const [victim, survivor] = String(running.lease_owner).includes(`:${a.pid}:`) ? [a, b] : [b, a];
      expect(String(running.lease_owner)).toContain(`:${victim.pid}:`);
      victim.child.kill("SIGKILL");
      await new Promise((r) => victim.child.once("exit", r));
      expect(fs.existsSync(path.join(dataDir, "jobs", id))).toBe(true); // it was writing when it died

      // Until it completes the customer sees it running, then retrying; never failed, never partial files.
      const seen = new Set<string>();
      const owners = new Set<string>();
      const done = await until(
        "the retry to complete",
        async () => {
          // Files first: they and "completed" are written in one transaction, so files seen mean completed.
          const files = await filesOf(id);
          const j = await jobRow(id);
          seen.add(shownStatus(j));
          if (j.lease_owner) owners.add(String(j.lease_owner).split(":")[1]);
          if (files.length) expect(j.status).toBe("completed");
          return j.status !== "running" && j.status !== "queued" && j;
        },
        SLOW,
      );
      expect([done.status, done.error, done.attempts]).toEqual(["completed", null, 2]);
      expect(seen).toContain("retrying");
      expect([...seen].filter((s) => !["running", "retrying", "completed"].includes(s))).toEqual([]);
      expect(owners).toEqual(new Set([String(victim.pid), String(survivor.pid)]));
      // Only the complete files are left in the job's directory (the dead attempt's parts were deleted).
      expect(fs.readdirSync(path.join(dataDir, "jobs", id)).sort()).toEqual(["bad.csv", "good.csv", "invalid.csv"]);

      const cleanId = await newJob(replicaInput);
      await survivor.client.enqueue(cleanId);
      expect(await survivor.client.waitFor("job", cleanId, SLOW)).toBe("completed");
      const clean = await jobRow(cleanId);
      expect(await hashesOf(id)).toEqual(await hashesOf(cleanId));
      expect(Number(done.total_rows)).toBe(REPLICA_ROWS);
      expect(Number(done.bad_count)).toBeGreaterThanOrEqual(Math.ceil(REPLICA_ROWS / 997));
      expect([done.good_count, done.bad_count, done.invalid_count]).toEqual([clean.good_count, clean.bad_count, clean.invalid_count]);
      expect(survivor.stderr()).toBe("");
    },
  );
});

describe.skipIf(unavailable)("a worker thread dies mid-job", () => {
  it("the job fails (no files offered), the pool replaces the thread, and a retry gives the clean run's files", { timeout: SLOW }, async () => {
    const svc = await service({ threads: 2, dataDir: path.join(work, "worker-data") });
    try {
      const clean = await runJob(svc, bigInput);
      expect(clean.job.status).toBe("completed");
      const id = await newJob(bigInput);
      await svc.enqueue(id);
      await midway(id);
      const pool = (svc.runner as unknown as { o: { pool: () => { threads: { terminate(): Promise<number> }[] } } }).o.pool();
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      await Promise.all(pool.threads.map((t) => t.terminate()));
      await svc.waitFor("job", id, 120_000);
      logged.mockRestore();
      const job = await jobRow(id);
      if (job.status === "completed") {
        // The batches in flight finished before the threads went: then the files must be exactly right.
        expect(await hashesOf(id)).toEqual(await hashesOf(clean.id));
      } else {
        expect(job.status).toBe("failed");
        expect(job.error).toBe("The scrub was interrupted (a scrub worker stopped). Please run it again.");
        expect(await filesOf(id)).toEqual([]);
        expect(fs.existsSync(path.join(work, "worker-data", "jobs", id))).toBe(false);
      }
      const retry = await runJob(svc, bigInput);
      expect(retry.job.status).toBe("completed");
      expect(await hashesOf(retry.id)).toEqual(await hashesOf(clean.id));
    } finally {
      await svc.close();
    }
  });
});

describe.skipIf(unavailable)("Redis flushed or stopped (our own redis-server)", () => {
  let port = 0;
  let url = "";
  let redis: ChildProcess | undefined;
  let svc: InProcessScrubService;
  let admin: Redis;

  async function startRedis() {
    redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    await until("redis to answer", async () => {
      const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      c.on("error", () => {});
      try {
        await c.connect();
        return (await c.ping()) === "PONG";
      } catch {
        return false;
      } finally {
        c.disconnect();
      }
    });
  }

  async function stopRedis() {
    if (!redis || redis.exitCode !== null) return;
    const exited = new Promise((r) => redis!.once("exit", r));
    redis.kill("SIGKILL");
    await exited;
  }

  beforeAll(async () => {
    port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    await startRedis();
    admin = new Redis(url, { maxRetriesPerRequest: 1 });
    admin.on("error", () => {});
    // Reconnect attempts 50 ms apart (ioredis's own pauses grow to seconds): while this Redis is stopped each
    // command fails as it would, within milliseconds instead of ~10 s.
    svc = await service({ redisUrl: url, redisPrefix: uniquePrefix(), dataDir: path.join(work, "redis-data"), redisReconnectMaxMs: 50 });
    await svc.rebuildLists();
  });
  afterAll(async () => {
    // (bounded: closing a client whose server is gone can wait on its reconnect)
    await Promise.race([svc?.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
    admin?.disconnect();
    await stopRedis();
  });

  // The operator's log gets the real cause and the rebuild command; the customer reads a human sentence.
  let logged: string[] = [];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void logged.push(a.join(" ")));
  });
  afterEach(() => vi.restoreAllMocks());

  const expectFailedClosed = async (r: Awaited<ReturnType<typeof runJob>>, message: RegExp) => {
    expect(r.job.status).toBe("failed");
    expect(r.job.error).toBe(LIST_STORE_UNAVAILABLE);
    const log = logged.filter((l) => l.includes(r.id)).join("\n");
    expect(log).toMatch(message);
    expect(log).toMatch(/npm run lists -- rebuild/);
    expect(r.files).toEqual([]);
    expect(fs.existsSync(path.join(work, "redis-data", "jobs", r.id))).toBe(false);
  };

  it("flushed before a job: fails closed naming the rebuild command; after the rebuild the scrub is right", async () => {
    const ok = await runJob(svc, smallInput);
    expect([ok.job.status, Number(ok.job.good_count), Number(ok.job.bad_count), Number(ok.job.invalid_count)]).toEqual(["completed", 1, 2, 1]);
    await admin.flushall(); // our own instance
    await expectFailedClosed(await runJob(svc, smallInput), /no current copy.*npm run lists -- rebuild/s);
    await svc.rebuildLists();
    const again = await runJob(svc, smallInput);
    expect(again.job.status).toBe("completed");
    expect(await hashesOf(again.id)).toEqual(await hashesOf(ok.id));
  });

  it("flushed during a job: the job fails, never completes against an empty list", { timeout: SLOW }, async () => {
    const id = await newJob(bigInput);
    await svc.enqueue(id);
    await midway(id);
    await admin.flushall();
    await svc.waitFor("job", id, 120_000);
    await expectFailedClosed({ id, job: await jobRow(id), files: await filesOf(id) }, /list store \(Redis\)|no current copy|replaced while/);
    await svc.rebuildLists();
    expect((await runJob(svc, smallInput)).job.status).toBe("completed");
  });

  it("stopped during a job: the job fails with a clear message; restarted empty, it fails closed until the rebuild", { timeout: SLOW }, async () => {
    const id = await newJob(bigInput);
    await svc.enqueue(id);
    await midway(id);
    await stopRedis();
    await svc.waitFor("job", id, 120_000);
    await expectFailedClosed({ id, job: await jobRow(id), files: await filesOf(id) }, /The list store \(Redis\) (did not answer|failed a lookup)/);
    // Stopped before a job: same kind of answer.
    await expectFailedClosed(await runJob(svc, smallInput), /The list store \(Redis\) (did not answer|failed)/);

    await startRedis(); // comes back empty (no persistence on this instance)
    await until("the service to reconnect", async () => (await svc.listStoreStatus().catch(() => null)) !== null);
    await expectFailedClosed(await runJob(svc, smallInput), /no current copy.*npm run lists -- rebuild/s);
    await svc.rebuildLists();
    const ok = await runJob(svc, smallInput);
    expect([ok.job.status, Number(ok.job.bad_count)]).toEqual(["completed", 2]);
  });
});

describe.skipIf(unavailable)("disk full while writing results", () => {
  let mountPoint = "";
  beforeAll(() => {
    mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "hardening-full-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint]);
  });
  afterAll(() => {
    if (!mountPoint) return;
    try {
      execFileSync("umount", [mountPoint]);
    } finally {
      fs.rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  it("the job fails, its partial files are removed, earlier results stay intact, and later jobs work again", { timeout: SLOW }, async () => {
    const svc = await service({ dataDir: mountPoint });
    try {
      const old = await runJob(svc, smallInput);
      expect(old.job.status).toBe("completed");
      const before = await hashesOf(old.id);

      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const full = await runJob(svc, bigInput); // ~15 MB of output into 1 MB
      const log = logged.mock.calls.flat().join(" ");
      logged.mockRestore();
      expect(full.job.status).toBe("failed");
      expect(full.job.error).toBe("The server ran out of disk space while writing the results. Please try again later.");
      expect(log).toMatch(new RegExp(`job ${full.id} failed: .*ENOSPC`));
      expect(full.files).toEqual([]);
      expect(fs.existsSync(path.join(mountPoint, "jobs", full.id))).toBe(false);

      expect(await hashesOf(old.id)).toEqual(before);
      const after = await runJob(svc, smallInput);
      expect(after.job.status).toBe("completed");
      expect(await hashesOf(after.id)).toEqual(before);
    } finally {
      await svc.close();
    }
  });
});

describe.skipIf(unavailable)("PostgreSQL restart (a throwaway cluster on a spare port)", () => {
  let port = 0;
  let pgDir = "";
  let bin = "";
  let pg: DbHandle | undefined;
  const asPostgres = (cmd: string, args: string[]) => execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args], { stdio: "ignore" });

  beforeAll(async () => {
    port = await freePort();
    const versions = fs.readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a));
    bin = path.join("/usr/lib/postgresql", versions[0], "bin");
    pgDir = fs.mkdtempSync(path.join(os.tmpdir(), "hardening-pg-"));
    execFileSync("chown", ["postgres", pgDir]);
    asPostgres("initdb", ["-D", path.join(pgDir, "data"), "-A", "trust", "-U", "postgres", "--no-sync"]);
    asPostgres("pg_ctl", [
      "-D",
      path.join(pgDir, "data"),
      "-o",
      `-p ${port} -k ${pgDir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      "-l",
      path.join(pgDir, "log"),
      "-w",
      "start",
    ]);
    pg = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, poolSize: 4 });
    await migrateToLatest(pg.db);
  });
  afterAll(async () => {
    await pg?.close().catch(() => {});
    if (pgDir) {
      try {
        asPostgres("pg_ctl", ["-D", path.join(pgDir, "data"), "-m", "immediate", "-w", "stop"]);
      } catch {
        /* already stopped */
      }
      fs.rmSync(pgDir, { recursive: true, force: true });
    }
  });

  it("a query in flight fails cleanly; the same pool serves queries again after the restart", { timeout: SLOW }, async () => {
    const count = async () =>
      Number(
        (
          await pg!.db
            .selectFrom("plans")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const plans = await count();
    expect(plans).toBeGreaterThan(0);
    // Fill the pool with idle connections the restart will cut.
    await Promise.all([count(), count(), count(), count()]);
    const inFlight = pg!.db.selectNoFrom((eb) => eb.fn<string>("pg_sleep", [eb.val(30)]).as("s")).execute();
    const settled = inFlight.then(
      () => "completed",
      (e: Error) => e.message,
    );
    await new Promise((r) => setTimeout(r, 200));
    // Asynchronously, so the app's event loop keeps running as in production (-l: output to the log).
    await promisify(execFile)("runuser", [
      "-u",
      "postgres",
      "--",
      path.join(bin, "pg_ctl"),
      "-D",
      path.join(pgDir, "data"),
      "-m",
      "fast",
      "-w",
      "-l",
      path.join(pgDir, "log"),
      "restart",
      "-o",
      `-p ${port} -k ${pgDir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    ]);
    expect(await settled).toMatch(/terminat|connection|shutdown/i);
    // No process restart: the next queries get new connections from the same pool.
    expect(await count()).toBe(plans);
    const many = await Promise.all(Array.from({ length: 8 }, count));
    expect(many).toEqual(Array(8).fill(plans));
  });
});
