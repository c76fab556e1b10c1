import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "db/client";
import type { InProcessScrubService } from "../src/in-process";
import { LIST_STORE_UNAVAILABLE } from "../src/jobs";
import { parseClusterNodes } from "../src/lists/redis-client";
import { RedisListStore } from "../src/lists/redis-store";
import { createScrubJob } from "../src/service";
import { adminListIds, createUser, tmpDir, uniquePrefix } from "../src/test/helpers";
import { AREA_CODE_STATES } from "../src/numbers/area-codes";
import { createTestDb } from "../../tests/setup/db";
import { startFaultScrub, writeSpreadInput } from "./fault-scrub";
import { freePort, until } from "../../tests/setup/processes";
import { skipWithout } from "../../tests/setup/services";

const unavailable = await skipWithout("scrub-service/test/cluster-failover.test.ts", [
  { kind: "program", name: "redis-server" },
  { kind: "program", name: "redis-cli" },
]);

/*
 * A Redis Cluster with replicas (decisions 112 and 113): its own 3 masters + 3 replicas on free ports through
 * `REDIS_CLUSTER_REPLICAS=1 scripts/redis-cluster.sh start`, so the shared cluster (7101–7103) keeps serving
 * other tests.
 * - A list load returns only once every master's replica holds its sets (WAIT per master); with one replica
 *   frozen (SIGSTOP) a change is refused and the database keeps the old version.
 * - CLUSTER FAILOVER (a replica promoted, its master demoted) while a 300,000-row scrub runs: the job fails
 *   closed (the list-store sentence, no files) or completes with exact counts, never with a listed number
 *   reported clean; afterwards scrubs, lookups and loads work on the new topology (the client follows MOVED).
 * - SIGKILL of a master while a scrub runs; its replica takes over after cluster-node-timeout: the same
 *   guarantee, then exact scrubs without a rebuild (the replica had every committed version's sets).
 */
const SCRIPT = path.join(import.meta.dirname, "../../scripts/redis-cluster.sh");
const ROWS = 300_000;

let handle: DbHandle;
let work: string;
let env: Record<string, string>;
let ports: number[];
let nodes: string;
let svc: InProcessScrubService;
let userId: string;
let litigationId: number;
let dncId: number;
let input: string;
const litigation: string[] = [];
const probes: Redis[] = [];
const stopped: number[] = [];

/** Async: the service's timers (leases, progress) keep running while the script waits for the cluster. */
async function script(cmd: "start" | "stop"): Promise<string> {
  const { stdout } = await promisify(execFile)("bash", [SCRIPT, cmd], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 120_000 });
  return stdout;
}
const cli = (port: number, ...args: string[]) =>
  execFileSync("redis-cli", ["-p", String(port), ...args], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"] });
function fields(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 1);
  }
  return out;
}
const answers = (port: number) => {
  try {
    return cli(port, "ping").trim() === "PONG";
  } catch {
    return false;
  }
};
const replication = (port: number) => fields(cli(port, "info", "replication"));
const pidOf = (port: number) => Number(fields(cli(port, "info", "server")).process_id);

/** The live nodes' roles: masters (with their online replicas' ports) and replicas (with their master). */
function topology(): { masters: Map<number, number[]>; replicaOf: Map<number, number> } {
  const masters = new Map<number, number[]>();
  const replicaOf = new Map<number, number>();
  for (const p of ports) {
    if (!answers(p)) continue;
    const r = replication(p);
    if (r.role === "master") {
      masters.set(
        p,
        Object.entries(r)
          .filter(([k, v]) => /^slave\d+$/.test(k) && v.includes("state=online"))
          .map(([, v]) => Number(/port=(\d+)/.exec(v)![1])),
      );
    } else if (r.master_link_status === "up") replicaOf.set(p, Number(r.master_port));
  }
  return { masters, replicaOf };
}
/**
 * Every live node says cluster_state:ok; 3 masters; every other live node is a replica whose link is up; each
 * master has those replicas online, at its own offset (in sync).
 */
function settled(): boolean {
  const live = ports.filter(answers);
  if (!live.every((p) => fields(cli(p, "cluster", "info")).cluster_state === "ok")) return false;
  const { masters, replicaOf } = topology();
  if (masters.size !== 3 || replicaOf.size !== live.length - 3) return false;
  for (const [m, online] of masters) {
    const following = [...replicaOf].filter(([, of]) => of === m).map(([r]) => r);
    if (online.length !== following.length || !following.every((r) => online.includes(r))) return false;
    const r = replication(m);
    const offsets = Object.entries(r)
      .filter(([k]) => /^slave\d+$/.test(k))
      .map(([, v]) => Number(/offset=(\d+)/.exec(v)![1]));
    if (offsets.some((o) => o !== Number(r.master_repl_offset))) return false;
  }
  return true;
}
/** A plain connection to one node that may read its keys as a replica (READONLY). */
async function probe(port: number): Promise<Redis> {
  const r = new Redis({ port, host: "127.0.0.1", maxRetriesPerRequest: 1 });
  r.on("error", () => {});
  probes.push(r);
  await r.call("readonly");
  return r;
}
const keyOf = (prefix: string, listId: number, gen: string, n: string) => `${prefix}n:${listId}:${gen}:{${n.slice(0, 3)}}${n.slice(3, 6)}`;
/** How many of `numbers` this node holds in the list's sets (members of its slots only; others count as 0). */
async function heldOn(node: Redis, prefix: string, listId: number, gen: string, numbers: string[]): Promise<number> {
  const keys = new Set<string>();
  let cursor = "0";
  do {
    const [next, found] = await node.scan(cursor, "MATCH", `${prefix}n:${listId}:${gen}:*`, "COUNT", 5000);
    cursor = next;
    for (const k of found) keys.add(k);
  } while (cursor !== "0");
  const mine = numbers.filter((n) => keys.has(keyOf(prefix, listId, gen, n)));
  const p = node.pipeline();
  for (const n of mine) p.sismember(keyOf(prefix, listId, gen, n), Number(n.slice(6)));
  const res = (await p.exec())!;
  return res.filter(([e, v]) => !e && v === 1).length;
}

const jobRow = (id: string) => handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const filesOf = (id: string) => handle.db.selectFrom("result_files").selectAll().where("job_id", "=", id).execute();
const listVersion = async (id: number) =>
  Number((await handle.db.selectFrom("lists").select("version").where("id", "=", id).executeTakeFirstOrThrow()).version);
const store = () => svc.store as RedisListStore;
async function metaGen(listId: number): Promise<string> {
  // the list's meta from the master holding its slot (the others answer MOVED)
  for (const m of topology().masters.keys()) {
    const r = await probe(m);
    const g = await r.hget(`${store().prefix}meta:{list:${listId}}`, "gen").catch(() => null);
    if (g) return g;
  }
  throw new Error(`no master holds list ${listId}'s meta`);
}

async function newJob(): Promise<string> {
  const id = await createScrubJob(handle.db, { userId, fileName: "big.csv", inputPath: input, suppressionType: "LitigationOnly", columnName: "Phone" });
  await svc.enqueue(id);
  return id;
}
/** A completed job's counts are exact and its bad file holds exactly the listed numbers. */
async function expectExact(id: string): Promise<void> {
  const j = await jobRow(id);
  expect([j.status, Number(j.good_count), Number(j.bad_count), Number(j.invalid_count)]).toEqual(["completed", ROWS - litigation.length, litigation.length, 0]);
  const bad = (await filesOf(id)).find((f) => f.kind === "bad")!;
  const inBad = new Set(
    fs
      .readFileSync(bad.path, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(",")[1]),
  );
  expect(inBad.size).toBe(litigation.length);
  expect(litigation.filter((n) => !inBad.has(n))).toEqual([]);
}
async function expectExactScrub(): Promise<void> {
  const id = await newJob();
  expect(await svc.waitFor("job", id, 120_000)).toBe("completed");
  await expectExact(id);
}
/** Lookups of listed and unlisted numbers: every listed one is found on the litigation list, no other. */
async function expectExactLookup(extra: string[] = []): Promise<void> {
  const listed = [...litigation.slice(0, 300), ...extra].map(Number);
  const others = [2125552101, 3105552123, 4155552177];
  const answer = await svc.lookup({ userId, numbers: [...listed, ...others] });
  expect(answer.lists.find((l) => l.kind === "litigation")!.hits).toEqual(listed.map((_, i) => i));
}
/** The list store reads the litigation list as current on every master, one of them `master`. */
async function storeCurrentWith(master: number): Promise<void> {
  await until(
    `the store to serve the litigation list at its version with 127.0.0.1:${master} as a master`,
    async () => {
      const lit = (await svc.listStoreStatus().catch(() => [])).find((s) => s.listId === litigationId);
      return (
        lit?.storeVersion === lit?.version &&
        lit?.nodes?.length === 3 &&
        lit.nodes.every((n) => n.current === n.areaCodes) &&
        lit.nodes.some((n) => n.node === `127.0.0.1:${master}`)
      );
    },
    30_000,
  );
}
/**
 * A scrub running while `fault` hits the cluster: it ends failed closed (the customer's list-store sentence,
 * no result files) or completed with exact counts; never completed with a listed number in good.
 */
async function scrubThrough(fault: () => void | Promise<void>): Promise<string> {
  const id = await newJob();
  await until("the scrub to be mid-way", async () => {
    const j = await jobRow(id);
    if (j.status !== "running" && j.status !== "queued") throw new Error(`the job ended (${j.status}) before the fault`);
    return j.status === "running" && Number(j.rows_done) > 0;
  });
  await fault();
  const at = Number((await jobRow(id)).rows_done);
  const status = await svc.waitFor("job", id, 120_000);
  const j = await jobRow(id);
  if (status === "failed") {
    expect(j.error).toBe(LIST_STORE_UNAVAILABLE);
    expect(await filesOf(id)).toEqual([]);
    return `row ${at}: failed closed after row ${j.rows_done}`;
  }
  expect(status).toBe("completed");
  await expectExact(id);
  return `row ${at}: completed exactly`;
}

beforeAll(async () => {
  if (unavailable) return;
  work = tmpDir("cluster-failover");
  ports = [];
  const specs: string[] = [];
  for (let i = 0; i < 6; i++) {
    const p = await freePort();
    ports.push(p);
    specs.push(`${p}:${await freePort()}`);
  }
  env = { REDIS_CLUSTER_REPLICAS: "1", REDIS_CLUSTER_PORTS: specs.join(" "), REDIS_CLUSTER_DIR: path.join(work, "redis") };
  nodes = /REDIS_CLUSTER_NODES=(\S+)/.exec(await script("start"))![1];
  expect(nodes.split(",")).toHaveLength(6);
  // (a replica's acknowledged offset reaches its master's within a second: replicas ACK once a second)
  await until("every replica to be in sync", async () => settled(), 30_000);
  expect([...topology().masters.values()].map((r) => r.length)).toEqual([1, 1, 1]);

  handle = await createTestDb();
  userId = await createUser(handle);
  // Distinct valid numbers over every US area code (every master serves some), every 20th on the litigation list.
  input = path.join(work, "big.csv");
  litigation.push(...writeSpreadInput(input, ROWS));
  ({ litigation: litigationId, dnc: dncId } = await adminListIds(handle));
  svc = await startFaultScrub(handle, work, parseClusterNodes(nodes), { replicaWaitMs: 1000 });
}, 120_000);

afterAll(async () => {
  if (unavailable) return;
  for (const pid of stopped) {
    try {
      process.kill(pid, "SIGCONT");
    } catch {
      // gone
    }
  }
  for (const p of probes) p.disconnect();
  await svc?.close();
  await handle?.close();
  if (env) await script("stop");
  fs.rmSync(work, { recursive: true, force: true });
});

describe.skipIf(unavailable)("lists on a Redis Cluster with replicas (3 masters + 3 replicas)", () => {
  it("a load is on every master's replica before it is current, and refused when a replica cannot confirm it", { timeout: 60_000 }, async () => {
    const loaded = await svc.loadNumbers({ listId: litigationId, mode: "add", numbers: litigation });
    expect(loaded.added).toBe(litigation.length);
    // As soon as the load returns, the replicas together hold every listed number (WAIT per master).
    const gen = await metaGen(litigationId);
    const { masters, replicaOf } = topology();
    let onReplicas = 0;
    for (const [replica, master] of replicaOf) {
      const [r, m] = [await probe(replica), await probe(master)];
      const held = await heldOn(r, store().prefix, litigationId, gen, litigation);
      expect(held).toBe(await heldOn(m, store().prefix, litigationId, gen, litigation));
      onReplicas += held;
    }
    expect([masters.size, replicaOf.size, onReplicas]).toEqual([3, 3, litigation.length]);
    await expectExactScrub();
    await expectExactLookup();
    await storeCurrentWith([...masters.keys()][0]);

    // One replica frozen: its master's WAIT gets no acknowledgement, so a change is refused before the
    // database commits it: a whole load of the empty DNC list (built aside: nothing is served), then, once
    // loaded, an in-place add (its copy is dropped: scrubs fail closed until a rebuild).
    const [frozen, itsMaster] = [...replicaOf][0];
    const refused = new RegExp(`0 of 1 replicas of 127\\.0\\.0\\.1:${itsMaster} confirmed this list change within 1000 ms`);
    const whileFrozen = async <T>(fn: () => Promise<T>): Promise<T> => {
      const pid = pidOf(frozen);
      process.kill(pid, "SIGSTOP");
      stopped.push(pid);
      try {
        return await fn();
      } finally {
        process.kill(pid, "SIGCONT");
        stopped.pop();
        await until("the replica to be in sync again", async () => settled(), 30_000);
      }
    };
    const dnc = litigation.slice(0, 2000);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const empty = await listVersion(dncId);
    await whileFrozen(() => expect(svc.loadNumbers({ listId: dncId, mode: "add", numbers: dnc })).rejects.toThrow(refused));
    expect(await listVersion(dncId)).toBe(empty);
    expect(await store().version(dncId)).toBeNull();
    // Thawed, the same load is confirmed and current.
    expect((await svc.loadNumbers({ listId: dncId, mode: "add", numbers: dnc })).added).toBe(dnc.length);
    const loadedDnc = await listVersion(dncId);
    expect(await store().version(dncId)).toBe(loadedDnc);
    await whileFrozen(() => expect(svc.loadNumbers({ listId: dncId, mode: "add", numbers: ["2125552133"] })).rejects.toThrow(refused));
    logged.mockRestore();
    expect(await listVersion(dncId)).toBe(loadedDnc);
    expect(await store().version(dncId)).toBeNull();
    const rebuilt = await svc.rebuildLists([dncId]);
    expect([rebuilt[0].storeVersion, rebuilt[0].nodes!.every((n) => n.current === n.areaCodes)]).toEqual([loadedDnc, true]);
    await expectExactScrub();
  });

  it(
    "CLUSTER FAILOVER mid-scrub: the job fails closed or completes exactly; then scrubs, lookups and loads work on the new topology",
    { timeout: 60_000 },
    async ({ annotate }) => {
      const { replicaOf } = topology();
      const [promoted, demoted] = [...replicaOf][0];
      // A second store (another process) that sends nothing during the failover: its client's slot map still
      // names the demoted master afterwards.
      const other = new RedisListStore({ target: parseClusterNodes(nodes), prefix: uniquePrefix(), replicaWaitMs: 1000 });
      const a = Float64Array.from(litigation.slice(0, 50).map(Number));
      await other.finishChange(77, 1, await other.replace(77, [a]));
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const outcome = await scrubThrough(() => {
        expect(cli(promoted, "cluster", "failover").trim()).toBe("OK");
      });
      // (shown with --reporter=verbose) which of the two it was, and the operator's log of the cause
      await annotate(`CLUSTER FAILOVER at ${outcome} ${logged.mock.calls.flat().join(" ")}`);
      logged.mockRestore();
      await until(
        "the replica to be promoted and the old master to follow it",
        async () => {
          const t = topology();
          return t.masters.has(promoted) && t.replicaOf.get(demoted) === promoted;
        },
        30_000,
      );
      await until("the cluster to settle on the new topology", async () => settled(), 30_000);

      // A node demoted since a change's writes went out is refused as the primary to WAIT on (it has no
      // replicas of its own; the writes' new primary has).
      const waitOn = (store() as unknown as { waitForReplicas(node: Redis): Promise<void> }).waitForReplicas.bind(store());
      await expect(waitOn(await probe(demoted))).rejects.toThrow(new RegExp(`127\\.0\\.0\\.1:${demoted} is no longer a primary`));
      await waitOn(await probe(promoted));

      // That store deletes on every master as they are now (SCAN, UNLINK; before it read the slot map again for
      // this, its UNLINK went to the demoted master and was refused with MOVED).
      await other.clearAll();
      expect(await other.countKeys(`${other.prefix}*`)).toBe(0);
      await other.close();

      await storeCurrentWith(promoted);
      await expectExactScrub();
      await expectExactLookup();
      // A load on the new topology waits for the promoted master's replica (the old master): it holds the
      // numbers as soon as the load returns. 555 exchanges are not in the scrubbed file.
      const more = ["2125552166", "3105552177", "4155552188", "6175552199", "7135552100"];
      const loaded = await svc.loadNumbers({ listId: litigationId, mode: "add", numbers: more });
      expect(loaded.added).toBe(more.length);
      const gen = await metaGen(litigationId);
      let held = 0;
      for (const replica of topology().replicaOf.keys()) held += await heldOn(await probe(replica), store().prefix, litigationId, gen, more);
      expect(held).toBe(more.length);
      await expectExactLookup(more);
    },
  );

  it(
    "SIGKILL of a master mid-scrub: the job fails closed or completes exactly; its replica takes over with the lists, no rebuild",
    { timeout: 60_000 },
    async ({ annotate }) => {
      const { replicaOf } = topology();
      const [heir, victim] = [...replicaOf][1];
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const outcome = await scrubThrough(() => void process.kill(pidOf(victim), "SIGKILL"));
      await until(
        "the replica to take over its dead master's slots",
        async () => {
          const t = topology();
          return t.masters.has(heir) && !answers(victim);
        },
        30_000,
      );
      await until("the cluster to settle without the dead master", async () => settled(), 30_000);
      await annotate(`SIGKILL at ${outcome} ${logged.mock.calls.flat().join(" ")}`);
      logged.mockRestore();

      // The promoted replica had every committed version's sets: no rebuild, and the store says so.
      await storeCurrentWith(heir);
      const lit = (await svc.listStoreStatus()).find((s) => s.listId === litigationId)!;
      expect(lit.storeVersion).toBe(await listVersion(litigationId));
      await expectExactScrub();
      await expectExactLookup();
      // Loads go on (the new master has no replica to wait for until its old master comes back).
      const more = ["8135552155"];
      expect((await svc.loadNumbers({ listId: litigationId, mode: "add", numbers: more })).added).toBe(1);
      await expectExactLookup(more);

      // Started again by the script, the dead master rejoins as its heir's replica and copies it; the next
      // load (a number of an area code the heir serves) waits for it too: it holds the number at once.
      await script("start");
      expect(topology().replicaOf.get(victim)).toBe(heir);
      const [onHeir, onVictim] = [await probe(heir), await probe(victim)];
      let npa = "";
      for (const a of AREA_CODE_STATES.keys()) {
        // a key of another master's slot is answered with MOVED
        if (
          await onHeir.hget(`${store().prefix}live:{${a}}`, String(litigationId)).then(
            () => true,
            () => false,
          )
        ) {
          npa = String(a);
          break;
        }
      }
      const last = [`${npa}5552144`];
      expect((await svc.loadNumbers({ listId: litigationId, mode: "add", numbers: last })).added).toBe(1);
      const gen = await metaGen(litigationId);
      expect([await heldOn(onHeir, store().prefix, litigationId, gen, last), await heldOn(onVictim, store().prefix, litigationId, gen, last)]).toEqual([1, 1]);
      await expectExactLookup([...more, ...last]);
    },
  );
});
