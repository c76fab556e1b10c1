import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "db/client";
import type { InProcessScrubService } from "../src/in-process";
import { LIST_STORE_UNAVAILABLE } from "../src/jobs";
import { parseClusterNodes } from "../src/lists/redis-client";
import { createScrubJob } from "../src/service";
import { adminListIds, createUser, tmpDir } from "../src/test/helpers";
import { createTestDb } from "../../tests/setup/db";
import { startFaultScrub, writeSpreadInput } from "./fault-scrub";
import { freePort, until } from "../../tests/setup/processes";
import { skipWithout } from "../../tests/setup/services";

const unavailable = await skipWithout("scrub-service/test/cluster-faults.test.ts", [
  { kind: "program", name: "redis-server" },
  { kind: "program", name: "redis-cli" },
]);

/*
 * A Redis Cluster master lost mid-scrub (decision 112). The test runs its own 3-master cluster (no replicas)
 * on free ports through scripts/redis-cluster.sh, so the shared one (7101–7103) keeps serving other tests:
 * - SIGKILL of a master while a scrub is looking numbers up: the job fails closed with the customer's
 *   list-store sentence and no result files (never completed, so never a number reported clean);
 * - the master restarted empty (no persistence) takes its slots back and the cluster answers again: a scrub
 *   still fails closed (that node has lost its part of the lists) until `lists rebuild`, after which the
 *   scrub finds every listed number.
 */
const SCRIPT = path.join(import.meta.dirname, "../../scripts/redis-cluster.sh");
const ROWS = 300_000;

let handle: DbHandle;
let work: string;
let env: Record<string, string>;
let nodes: string;
let svc: InProcessScrubService;
let userId: string;
let input: string;
let listed = 0;

function cluster(cmd: "start" | "stop"): string {
  return execFileSync("bash", [SCRIPT, cmd], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 120_000 });
}

const jobRow = (id: string) => handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const filesOf = (id: string) => handle.db.selectFrom("result_files").selectAll().where("job_id", "=", id).execute();

async function newJob(): Promise<string> {
  const id = await createScrubJob(handle.db, { userId, fileName: "big.csv", inputPath: input, suppressionType: "LitigationOnly", columnName: "Phone" });
  await svc.enqueue(id);
  return id;
}

beforeAll(async () => {
  if (unavailable) return;
  work = tmpDir("cluster-faults");
  const specs: string[] = [];
  for (let i = 0; i < 3; i++) specs.push(`${await freePort()}:${await freePort()}`);
  env = { REDIS_CLUSTER_PORTS: specs.join(" "), REDIS_CLUSTER_DIR: path.join(work, "redis") };
  nodes = /REDIS_CLUSTER_NODES=(\S+)/.exec(cluster("start"))![1];

  handle = await createTestDb();
  userId = await createUser(handle);
  // Distinct numbers over every US area code (so every master serves some), every 20th on the litigation list.
  input = path.join(work, "big.csv");
  const litigation = writeSpreadInput(input, ROWS);
  listed = litigation.length;
  svc = await startFaultScrub(handle, work, parseClusterNodes(nodes));
  const { litigation: listId } = await adminListIds(handle);
  const loaded = await svc.loadNumbers({ listId, mode: "add", numbers: litigation });
  expect(loaded.added).toBe(listed);
}, 180_000);

afterAll(async () => {
  if (unavailable) return;
  await svc?.close();
  await handle?.close();
  if (env) cluster("stop");
  fs.rmSync(work, { recursive: true, force: true });
});

describe.skipIf(unavailable)("a Redis Cluster master lost mid-scrub", () => {
  it("fails the job closed; restarted empty it still fails closed until rebuilt; then every listed number is found", { timeout: 300_000 }, async () => {
    // A clean run first: the cluster answers and the counts are right.
    const clean = await newJob();
    expect(await svc.waitFor("job", clean, 240_000)).toBe("completed");
    const c = await jobRow(clean);
    expect([Number(c.good_count), Number(c.bad_count), Number(c.invalid_count)]).toEqual([ROWS - listed, listed, 0]);

    // SIGKILL one master while the next scrub is mid-way. The operator's log names each failure's cause.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const id = await newJob();
    await until("the scrub to be mid-way", async () => {
      const j = await jobRow(id);
      if (j.status !== "running" && j.status !== "queued") throw new Error(`the job ended (${j.status}) before the kill`);
      return j.status === "running" && Number(j.rows_done) > 0;
    });
    const victim = nodes.split(",")[1].split(":")[1];
    const pid = Number(/process_id:(\d+)/.exec(execFileSync("redis-cli", ["-p", victim, "info", "server"], { encoding: "utf8" }))![1]);
    process.kill(pid, "SIGKILL");
    expect(await svc.waitFor("job", id, 240_000)).toBe("failed");
    const failed = await jobRow(id);
    expect(failed.error).toBe(LIST_STORE_UNAVAILABLE);
    expect(Number(failed.rows_done)).toBeLessThan(ROWS);
    expect(await filesOf(id)).toEqual([]);

    // The master comes back empty and takes its slots back; the store knows that node lost its part.
    cluster("start");
    const status = await until("the store to answer again", async () => svc.listStoreStatus().catch(() => null), 60_000);
    const lit = status.find((s) => s.kind === "litigation")!;
    expect(lit.storeVersion).toBeNull();
    expect(lit.nodes).toHaveLength(3);
    for (const n of lit.nodes!) expect([n.node, n.current]).toEqual([n.node, n.node.endsWith(`:${victim}`) ? 0 : n.areaCodes]);
    const again = await newJob();
    expect(await svc.waitFor("job", again, 240_000)).toBe("failed");
    expect((await jobRow(again)).error).toBe(LIST_STORE_UNAVAILABLE);
    expect(await filesOf(again)).toEqual([]);
    const log = logged.mock.calls.flat().join("\n");
    const warnings = warned.mock.calls.flat().join("\n");
    logged.mockRestore();
    warned.mockRestore();
    // the lookup failed mid-way; the job was scrubbed again after each pause, and failed on the last retry (its
    // first call, a lookup or the list's meta, found the cluster down)
    expect(warnings).toMatch(new RegExp(`job ${id}: The list store \\(Redis\\) did not answer \\(lookup\\).*retry 1 of 3`));
    expect(warnings).toMatch(new RegExp(`job ${id}: .*retry 3 of 3`));
    expect(log).toMatch(new RegExp(`job ${id} failed: The list store \\(Redis\\) did not answer \\(\\w+\\).*npm run lists -- status`));
    expect(log).toMatch(new RegExp(`job ${again} failed: The list store has no current copy of the litigation list.*npm run lists -- rebuild`));

    // After the rebuild every master serves the list again and the scrub is right.
    const rebuilt = await svc.rebuildLists([lit.listId]);
    expect(rebuilt[0].storeVersion).toBe(rebuilt[0].version);
    expect(rebuilt[0].nodes!.every((n) => n.current === n.areaCodes)).toBe(true);
    const last = await newJob();
    expect(await svc.waitFor("job", last, 240_000)).toBe("completed");
    const l = await jobRow(last);
    expect([Number(l.good_count), Number(l.bad_count)]).toEqual([ROWS - listed, listed]);
  });
});
