import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../setup/db";
import { freePort, sha, until } from "../setup/processes";
import { skipWithout } from "../setup/services";
import type { DbHandle } from "db/client";
import { createScrubJob } from "scrub-service";
import { createHttpScrubClient } from "scrub-service/http-client";
import { createInProcessScrubService } from "scrub-service/in-process";
import { adminListIds, createUser } from "scrub-service/testing";
import { jsonLines, startScrubService, startWeb, type RunningProcess } from "./web-process";

const THP_MODE = "/sys/kernel/mm/transparent_hugepage/enabled";

const DATABASE_URL = process.env.DATABASE_URL ?? "";
const unavailable = await skipWithout("tests/ops/readiness-and-shutdown.test.ts", [
  { kind: "tcp", name: "PostgreSQL", url: DATABASE_URL },
  { kind: "tcp", name: "Redis", url: process.env.REDIS_URL ?? "" },
  { kind: "program", name: "redis-server" },
]);

const readiness = async (url: string) => {
  const r = await fetch(`${url}/readyz`);
  return { status: r.status, body: (await r.json()) as { status: string; checks: Record<string, string> } };
};

/**
 * /readyz asked until it stops answering ready, for at most 10 s: the answer is shared for a second (issue #49), so
 * an outage shows within that second plus the check's own bound.
 */
async function untilNotReady(url: string) {
  const started = Date.now();
  let answer = await readiness(url);
  while (answer.status === 200 && Date.now() - started < 10_000) answer = await readiness(url);
  return answer;
}

/** A Redis of this test's own (never the shared one), started and stopped at will on one port. */
class PrivateRedis {
  child: ChildProcess | null = null;
  constructor(
    readonly port: number,
    readonly dir: string,
  ) {}
  async start() {
    this.child = spawn("redis-server", ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.dir], {
      stdio: "ignore",
    });
    await until("the private Redis", async () => {
      const r = await import("ioredis").then(
        ({ default: Redis }) => new Redis(this.port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null }),
      );
      r.on("error", () => {}); // refused until it listens: the loop asks again
      try {
        await r.connect();
        return (await r.ping()) === "PONG";
      } catch {
        return false;
      } finally {
        r.disconnect();
      }
    });
  }
  async stop() {
    const c = this.child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGKILL");
    await exited;
  }
}

/** A TCP relay in front of PostgreSQL that can be cut (tests/setup/tcp-relay.mjs): PostgreSQL gone, for this app only. */
async function relayTo(upstreamPort: number) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "../setup/tcp-relay.mjs"), String(port), String(upstreamPort)], {
    stdio: ["pipe", "pipe", "ignore"],
  });
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  return {
    port,
    cut: () => new Promise<void>((resolve) => (child.stdout!.once("data", () => resolve()), child.stdin!.write("cut\n"))),
    close: () => child.kill(),
  };
}

describe.skipIf(unavailable)("/readyz tells a load balancer the truth", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dpt-readyz-"));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("Redis stops: 503 naming the list store within the check's bound; Redis back: ready again", { timeout: 300_000 }, async () => {
    const redis = new PrivateRedis(await freePort(), work);
    await redis.start();
    const web = await startWeb({ REDIS_URL: `redis://127.0.0.1:${redis.port}` });
    try {
      expect(await readiness(web.url)).toEqual({ status: 200, body: { status: "ready", checks: { database: "ok", migrations: "ok", listStore: "ok" } } });
      await redis.stop();
      const started = Date.now();
      const down = await untilNotReady(web.url);
      expect(Date.now() - started).toBeLessThan(10_000); // bounded (2 s a check + the cached second), never a hang
      expect(down).toEqual({ status: 503, body: { status: "not ready", checks: { database: "ok", migrations: "ok", listStore: "not answering" } } });
      expect(JSON.stringify(down.body)).not.toContain(String(redis.port)); // nothing about the deployment
      expect((await fetch(`${web.url}/healthz`)).status).toBe(200); // alive, only not ready
      await redis.start();
      await until("ready again", async () => (await readiness(web.url)).status === 200, 30_000);
    } finally {
      await web.stop();
      await redis.stop();
    }
  });

  it("PostgreSQL unreachable: 503 naming the database; the process stays alive", { timeout: 300_000 }, async () => {
    const base = new URL(DATABASE_URL);
    const name = `ops_ready_${crypto.randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const relay = await relayTo(Number(base.port || 5432));
    const url = new URL(DATABASE_URL);
    url.port = String(relay.port);
    url.pathname = `/${name}`;
    const web = await startWeb({ DATABASE_URL: url.toString(), DEMO_ADMIN: "0" });
    try {
      expect((await readiness(web.url)).status).toBe(200);
      await relay.cut();
      const down = await untilNotReady(web.url);
      expect(down.status).toBe(503);
      expect(down.body.status).toBe("not ready");
      expect(down.body.checks.database).toBe("not answering");
      expect((await fetch(`${web.url}/healthz`)).status).toBe(200);
    } finally {
      await web.stop("SIGKILL");
      relay.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});

describe("SIGTERM to a web process", () => {
  it("readiness answers 503 during the grace period, then the process closes its pools and exits 0", { timeout: 300_000 }, async () => {
    const web = await startWeb({ SHUTDOWN_GRACE_MS: "5000" });
    expect((await readiness(web.url)).status).toBe(200);
    const exited = new Promise<number | null>((r) => web.child.once("exit", (code) => r(code)));
    web.child.kill("SIGTERM");
    await until(
      "readiness 503",
      async () =>
        (await fetch(`${web.url}/readyz`).then(
          (r) => r.status,
          () => 0,
        )) === 503,
      4000,
    );
    expect((await fetch(`${web.url}/healthz`)).status).toBe(200); // still serving during the grace
    expect(await exited).toBe(0);
    const lines = jsonLines(web.lines()).map((l) => String(l.msg));
    expect(lines.some((m) => m.startsWith("[server] SIGTERM: shutting down"))).toBe(true);
    expect(lines.at(-1)).toBe("[server] stopped");
    // the process relaunched itself on huge pages where the machine gives them to memory that asks (decision 173)
    const thp = fs.existsSync(THP_MODE) ? fs.readFileSync(THP_MODE, "utf8") : "";
    const boot = lines.find((m) => m.startsWith("[boot] database:"));
    expect(boot).toMatch(thp.includes("[madvise]") || thp.includes("[always]") ? /; memory: huge pages/ : /; memory: small pages/);
  });
});

describe.skipIf(unavailable)("/readyz of a web process that uses a remote scrub service (SCRUB_SERVICE_URL)", () => {
  it("ready while the service is; 503 naming the scrub service when it stops", { timeout: 300_000 }, async () => {
    const handle = await createTestDb("postgres");
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "dpt-remote-ready-"));
    const url = (handle.driver as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
    const token = crypto.randomBytes(16).toString("hex");
    const shared = {
      DATABASE_URL: url,
      REDIS_URL: process.env.REDIS_URL!,
      SCRUB_REDIS_PREFIX: `remote${crypto.randomBytes(3).toString("hex")}:`,
      DATA_DIR: work,
      SCRUB_SERVICE_TOKEN: token,
    };
    const scrub = await startScrubService(shared);
    const web = await startWeb({ ...shared, SCRUB_SERVICE_URL: scrub.url, DEMO_ADMIN: "0" });
    try {
      expect(await readiness(web.url)).toEqual({ status: 200, body: { status: "ready", checks: { database: "ok", migrations: "ok", scrubService: "ok" } } });
      expect(await scrub.stop()).toBe(0);
      const down = await untilNotReady(web.url);
      expect(down).toEqual({ status: 503, body: { status: "not ready", checks: { database: "ok", migrations: "ok", scrubService: "not answering" } } });
    } finally {
      await web.stop();
      await scrub.stop("SIGKILL");
      await handle.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe.skipIf(unavailable)("SIGTERM to a scrub-service replica during a scrub", () => {
  let handle: DbHandle;
  let userId: string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dpt-sigterm-"));
  const input = path.join(work, "input.csv");
  const replicas: RunningProcess[] = [];

  beforeAll(async () => {
    handle = await createTestDb("postgres");
    userId = await createUser(handle);
    const rows = ["Name,Phone"];
    for (let i = 0; i < 4_000_000; i++)
      rows.push(`Row ${i},${i % 997 === 0 ? "2125552101" : `${200 + (i % 800)}${200 + ((i * 7) % 800)}${String(i % 10_000).padStart(4, "0")}`}`);
    fs.writeFileSync(input, rows.join("\n") + "\n");
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop("SIGKILL")));
    await handle?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it(
    "readiness goes 503 first, the job is handed back at once (lease released) and finished by the other replica with a clean run's files",
    { timeout: 240_000 },
    async () => {
      const prefix = `sigterm${crypto.randomBytes(3).toString("hex")}:`;
      const dataDir = path.join(work, "data");
      const lists = await createInProcessScrubService({ handle, dataDir, autoStart: false, redisUrl: process.env.REDIS_URL, redisPrefix: prefix });
      await lists.loadNumbers({ listId: (await adminListIds(handle)).litigation, mode: "add", numbers: ["2125552101"] });
      await lists.close();
      const url = (handle.driver as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
      const env = {
        DATABASE_URL: url,
        REDIS_URL: process.env.REDIS_URL!,
        SCRUB_REDIS_PREFIX: prefix,
        DATA_DIR: dataDir,
        SCRUB_SERVICE_TOKEN: crypto.randomBytes(16).toString("hex"),
        SCRUB_LEASE_MS: "600000", // only a hand-back, never a lease running out, can free the job within this test
        SCRUB_THREADS: "1",
        SCRUB_BATCH_BYTES: String(64 * 1024),
        SHUTDOWN_GRACE_MS: "1000", // with 4M rows on one thread the job is still running when the grace ends
      };
      const a = await startScrubService(env);
      replicas.push(a);
      const newJob = () =>
        createScrubJob(handle.db, { userId, fileName: "input.csv", inputPath: input, suppressionType: "LitigationOnly", columnName: "Phone" });
      const jobRow = (id: string) => handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      const id = await newJob();
      await createHttpScrubClient({ url: a.url, token: env.SCRUB_SERVICE_TOKEN }).enqueue(id);
      await until(
        "the job to be mid-way on A",
        async () => {
          const j = await jobRow(id);
          if (j.status === "completed" || j.status === "failed") throw new Error(`the job ended (${j.status}) before the signal`);
          return j.status === "running" && Number(j.rows_done) > 0;
        },
        120_000,
      );

      const exited = new Promise<number | null>((r) => a.child.once("exit", (code) => r(code)));
      a.child.kill("SIGTERM");
      await until(
        "A's readiness to turn 503",
        async () =>
          (await fetch(`${a.url}/readyz`).then(
            (r) => r.status,
            () => 0,
          )) === 503,
        5000,
      );
      expect(await (await fetch(`${a.url}/readyz`)).json()).toEqual({ status: "not ready", checks: { process: "shutting down" } });
      expect(await exited).toBe(0);
      const handedBack = await jobRow(id);
      expect([handedBack.status, handedBack.lease_owner]).toEqual(["queued", null]);
      expect(a.lines().some((l) => l.includes('"level":"error"'))).toBe(false);

      const b = await startScrubService(env);
      replicas.push(b);
      const client = createHttpScrubClient({ url: b.url, token: env.SCRUB_SERVICE_TOKEN });
      await client.enqueue(id);
      expect(await client.waitFor("job", id, 180_000)).toBe("completed");
      const cleanId = await newJob();
      await client.enqueue(cleanId);
      expect(await client.waitFor("job", cleanId, 180_000)).toBe("completed");
      const hashes = async (jobId: string) =>
        Object.fromEntries((await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", jobId).execute()).map((f) => [f.kind, sha(f.path)]));
      expect(await hashes(id)).toEqual(await hashes(cleanId));
      const [done, clean] = [await jobRow(id), await jobRow(cleanId)];
      expect([done.good_count, done.bad_count, done.invalid_count]).toEqual([clean.good_count, clean.bad_count, clean.invalid_count]);
      expect(Number(done.bad_count)).toBeGreaterThan(1000);
      // The job's lines carry its id (and its user's), on the replica that finished it.
      const jobLines = jsonLines(b.lines()).filter((l) => l.jobId === id);
      expect(jobLines.some((l) => String(l.msg).includes("completed") && l.userId === userId)).toBe(true);
    },
  );
});
