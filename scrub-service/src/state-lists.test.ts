/**
 * State do-not-call lists (decision 160): a list loaded as dnc-XX is checked by every DNC and Litigation scrub
 * and by the lookup, with its own reason and version; replacing it while a scrub holds it never mixes versions.
 * Canada's National DNCL (dnc-ca, decision 179) the same, for Canadian numbers only, at its 31-day edges.
 * Runs against the embedded store and, with REDIS_URL / REDIS_CLUSTER_NODES, Redis. Numbers use 555-2XXX.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "db/client";
import { createTestDb } from "../../tests/setup/db";
import type { InProcessScrubService } from "./in-process";
import { LIST_STORE_UNAVAILABLE } from "./jobs";
import { createListLoad, createScrubJob } from "./service";
import { adminListIds, cleanupService, createUser, startService, storeKinds, tmpDir } from "./test/helpers";

const ON_TEXAS = "5125552301";
const ON_TEXAS_TOO = "2145552302";
const ON_BOTH = "3105552303";
const CLEAN = "7135552304";
// Canada (area codes 416, 604, 514 are Canadian in the numbering data; 212 is New York)
const ON_CANADA = "4165552345";
const ON_CANADA_TOO = "6045552346";
const CANADA_CLEAN = "5145552347";
const US_IN_CANADA_FILE = "2125552305";
const DAY = 86_400_000;
/** Midnight UTC `n` days before today: a release date as an admin states it. */
const daysAgo = (n: number) => new Date(Math.floor(Date.now() / DAY) * DAY - n * DAY);

for (const kind of storeKinds) {
  describe(`state DNC lists [${kind}]`, () => {
    let handle: DbHandle;
    let svc: InProcessScrubService;
    let dir: string;
    let userId: string;
    let texas: number;

    beforeAll(async () => {
      handle = await createTestDb();
      dir = tmpDir("state-lists");
      svc = await startService(handle, kind, { dataDir: dir, batchBytes: 16 * 1024 });
      userId = await createUser(handle);
      texas = (await handle.db.selectFrom("lists").select("id").where("kind", "=", "dnc-tx").executeTakeFirstOrThrow()).id;
    });
    afterAll(async () => {
      await cleanupService(svc);
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    async function scrub(file: string, suppressionType: "DNCAndLitigation" | "LitigationOnly") {
      const id = await createScrubJob(handle.db, { userId, fileName: path.basename(file), inputPath: file, suppressionType });
      await svc.enqueue(id);
      const status = await svc.waitFor("job", id, 120_000);
      const job = await handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      const files = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", id).execute();
      const bad = files.find((f) => f.kind === "bad");
      const cert = await handle.db.selectFrom("scrub_certificates").select("document").where("job_id", "=", id).executeTakeFirst();
      const lists = cert ? (JSON.parse(cert.document).certificate.lists as { kind: string; name: string; version: number; count: number }[]) : [];
      return { status, job, bad: bad ? fs.readFileSync(bad.path, "utf8") : "", lists };
    }

    it("a Texas list loaded as dnc-tx turns its numbers bad in DNC scrubs with its reason, names its version, and the lookup says which list", async () => {
      const { dnc } = await adminListIds(handle);
      await svc.loadNumbers({ listId: dnc, mode: "add", numbers: [ON_BOTH] });
      const loaded = await svc.loadNumbers({ listId: texas, mode: "add", numbers: [ON_TEXAS, ON_TEXAS_TOO, ON_BOTH], registryDate: new Date() });
      expect(loaded).toMatchObject({ added: 3, size: 3 });
      const input = path.join(dir, "in.csv");
      fs.writeFileSync(input, `Phone\n${ON_TEXAS}\n${ON_TEXAS_TOO}\n${ON_BOTH}\n${CLEAN}\n`);

      const r = await scrub(input, "DNCAndLitigation");
      expect(r.status).toBe("completed");
      expect([Number(r.job.good_count), Number(r.job.bad_count)]).toEqual([1, 3]);
      // the federal list comes first: a number on both gets "dnc"
      expect(r.job.reason_counts).toMatchObject({ dnc: 1, "dnc-tx": 2, "dnc-fl": 0 });
      expect(r.bad).toBe(`Phone,phone_e164,reason\n${ON_TEXAS},+1${ON_TEXAS},dnc-tx\n${ON_TEXAS_TOO},+1${ON_TEXAS_TOO},dnc-tx\n${ON_BOTH},+1${ON_BOTH},dnc\n`);
      expect(r.lists.map((l) => [l.kind, l.name, l.version, l.count])).toEqual([
        ["litigation", "Litigation List", 1, 0],
        ["dnc", "DNC List", 2, 1],
        ["dnc-tx", "Texas DNC List", loaded.version, 3],
      ]);

      const lit = await scrub(input, "LitigationOnly");
      expect([Number(lit.job.good_count), Number(lit.job.bad_count)]).toEqual([4, 0]);
      expect(lit.lists.map((l) => l.kind)).toEqual(["litigation"]);

      const answer = await svc.lookup({ userId, numbers: [ON_TEXAS, ON_BOTH, CLEAN].map(Number) });
      const hits = Object.fromEntries(answer.lists.filter((l) => l.hits.length).map((l) => [l.kind, l.hits]));
      expect(hits).toEqual({ dnc: [1], "dnc-tx": [0, 1] });
      expect(answer.lists.find((l) => l.kind === "dnc-tx")?.version).toBe(loaded.version);
    });

    it("Canada's list: a file's Canadian numbers are loaded and its US number left out; a DNC scrub 30 days after the release suppresses them as dnc-ca, names the list, its release and its validity; the lookup names it", async () => {
      const canada = (await handle.db.selectFrom("lists").select("id").where("kind", "=", "dnc-ca").executeTakeFirstOrThrow()).id;
      const file = path.join(dir, "dncl.csv");
      // the operator's flat file: area code, seven digits (a US number slipped in)
      fs.writeFileSync(file, `416,5552345\n604,5552346\n212,5552305\n`);
      const released = daysAgo(30);
      const loadId = await createListLoad(handle.db, {
        listId: canada,
        mode: "add",
        userId: null,
        fileName: "dncl.csv",
        inputPath: file,
        registryDate: released,
      });
      await svc.enqueueListLoad(loadId);
      expect(await svc.waitFor("load", loadId, 60_000)).toBe("completed");
      const load = await handle.db.selectFrom("list_loads").selectAll().where("id", "=", loadId).executeTakeFirstOrThrow();
      expect([Number(load.added), Number(load.invalid)]).toEqual([2, 1]);
      const list = await handle.db.selectFrom("lists").select(["size", "registry_date"]).where("id", "=", canada).executeTakeFirstOrThrow();
      expect([Number(list.size), list.registry_date!.toISOString()]).toEqual([2, released.toISOString()]);

      const input = path.join(dir, "canada.csv");
      fs.writeFileSync(input, `Phone\n${ON_CANADA}\n${ON_CANADA_TOO}\n${US_IN_CANADA_FILE}\n${CANADA_CLEAN}\n`);
      const r = await scrub(input, "DNCAndLitigation");
      expect(r.status).toBe("completed");
      expect([Number(r.job.good_count), Number(r.job.bad_count)]).toEqual([2, 2]);
      expect(r.job.reason_counts).toMatchObject({ "dnc-ca": 2 });
      expect(r.bad).toBe(`Phone,phone_e164,reason\n${ON_CANADA},+1${ON_CANADA},dnc-ca\n${ON_CANADA_TOO},+1${ON_CANADA_TOO},dnc-ca\n`);
      const cert = await handle.db.selectFrom("scrub_certificates").select("document").where("job_id", "=", r.job.id).executeTakeFirstOrThrow();
      const doc = JSON.parse(cert.document).certificate;
      expect(doc.lists.find((l: { kind: string }) => l.kind === "dnc-ca")).toMatchObject({
        name: "Canada National DNCL",
        count: 2,
        registryDate: released.toISOString(),
      });
      expect(doc.staleLists).toBeUndefined();

      const answer = await svc.lookup({ userId, numbers: [ON_CANADA, ON_CANADA_TOO, US_IN_CANADA_FILE].map(Number) });
      expect(answer.lists.find((l) => l.kind === "dnc-ca")?.hits).toEqual([0, 1]);
    });

    it("Canada's list: a typed US number is rejected as not Canadian; a file with no Canadian number is refused and the list unchanged", async () => {
      const canada = (await handle.db.selectFrom("lists").select("id").where("kind", "=", "dnc-ca").executeTakeFirstOrThrow()).id;
      const typed = await svc.loadNumbers({ listId: canada, mode: "add", numbers: ["416-555-2348", "212 555 2306"] });
      expect(typed).toMatchObject({ added: 1, invalid: 1, size: 3 });
      expect(typed.rejected).toEqual([
        { value: "212 555 2306", reason: "not_in_list_region", message: "area code 212 is not Canadian: the Canada National DNCL holds Canadian numbers only" },
      ]);
      const file = path.join(dir, "us-only.csv");
      fs.writeFileSync(file, `Phone\n${US_IN_CANADA_FILE}\n${CLEAN}\n`);
      const loadId = await createListLoad(handle.db, { listId: canada, mode: "replace", userId: null, fileName: "us-only.csv", inputPath: file });
      await svc.enqueueListLoad(loadId);
      expect(await svc.waitFor("load", loadId, 60_000)).toBe("failed");
      const load = await handle.db.selectFrom("list_loads").select("error").where("id", "=", loadId).executeTakeFirstOrThrow();
      expect(load.error).toBe(
        "None of the 2 numbers is Canadian: Canada's National DNCL holds numbers with Canadian area codes only. The list was not changed.",
      );
      expect(Number((await handle.db.selectFrom("lists").select("size").where("id", "=", canada).executeTakeFirstOrThrow()).size)).toBe(3);
    });

    it('Canada\'s list 32 days after its release: refused naming it while "refuse stale DNC" is on; with it off the certificate names it stale', async () => {
      const canada = (await handle.db.selectFrom("lists").select("id").where("kind", "=", "dnc-ca").executeTakeFirstOrThrow()).id;
      const released = daysAgo(32);
      await svc.loadNumbers({ listId: canada, mode: "add", numbers: [ON_CANADA], registryDate: released });
      const input = path.join(dir, "canada-stale.csv");
      fs.writeFileSync(input, `Phone\n${ON_CANADA}\n${CANADA_CLEAN}\n`);
      await handle.db.insertInto("app_settings").values({ name: "refuseStaleDnc", value: "true", updated_by: null }).execute();
      try {
        // refused by the engine's intake, before a job exists (the job's start would refuse it too: http.test.ts)
        await expect(scrub(input, "DNCAndLitigation")).rejects.toThrow(
          `The Canada National DNCL (release ${released.toISOString().slice(0, 10)}, 32 days old; rule 31 days) is out of date: purges that include DNC are refused until an admin loads a newer release.`,
        );
        expect((await scrub(input, "LitigationOnly")).status).toBe("completed");
      } finally {
        await handle.db.deleteFrom("app_settings").where("name", "=", "refuseStaleDnc").execute();
      }
      const r = await scrub(input, "DNCAndLitigation");
      expect(r.status).toBe("completed");
      expect(r.bad).toBe(`Phone,phone_e164,reason\n${ON_CANADA},+1${ON_CANADA},dnc-ca\n`);
      const cert = await handle.db.selectFrom("scrub_certificates").select("document").where("job_id", "=", r.job.id).executeTakeFirstOrThrow();
      expect(JSON.parse(cert.document).certificate.staleLists).toEqual([{ kind: "dnc-ca", registryDate: released.toISOString(), ageDays: 32, ruleDays: 31 }]);
    });

    it("a state list held by a scrub's snapshot and then replaced: the snapshot answers its own version or refuses, never the new one", async () => {
      const held = await svc.manager.ready(texas);
      expect(held.snapshot).not.toBeNull();
      const before = held.info.version;
      await svc.loadNumbers({ listId: texas, mode: "replace", numbers: [CLEAN] });
      const probe = new Float64Array([Number(ON_TEXAS), Number(CLEAN)]);
      if (kind === "embedded") {
        // the embedded index's arrays are immutable: the running scrub keeps the version it started with
        expect([...(await held.snapshot!.has(probe, 2))]).toEqual([1, 0]);
      } else {
        await expect(held.snapshot!.has(probe, 2)).rejects.toThrow(/replaced while this file was being scrubbed/);
      }
      const now = await svc.manager.ready(texas);
      expect(now.info.version).toBe(before + 1);
      expect([...(await now.snapshot!.has(probe, 2))]).toEqual([0, 1]);
    });

    it(
      "a state list replaced while a scrub runs: the scrub fails closed or its bad rows are exactly the version its certificate names",
      { timeout: 180_000 },
      async () => {
        // 200,000 rows in 16 KB batches: the replacement lands while the scrub is reading
        const numbers: string[] = [];
        for (let nxx = 620; nxx < 640; nxx++) for (let line = 0; line < 10_000; line++) numbers.push(String(512 * 1e7 + nxx * 1e4 + line));
        const oldSet = numbers.filter((_, i) => i % 97 === 0);
        const newSet = numbers.filter((_, i) => i % 89 === 1);
        await svc.loadNumbers({ listId: texas, mode: "replace", numbers: oldSet });
        const input = path.join(dir, "big.csv");
        fs.writeFileSync(input, "Phone\n" + numbers.join("\n") + "\n");

        const id = await createScrubJob(handle.db, { userId, fileName: "big.csv", inputPath: input, suppressionType: "DNCAndLitigation" });
        await svc.enqueue(id);
        for (;;) {
          const j = await handle.db.selectFrom("scrub_jobs").select(["status", "rows_done"]).where("id", "=", id).executeTakeFirstOrThrow();
          if (j.status !== "queued" && (Number(j.rows_done) > 0 || j.status !== "running")) break;
          await new Promise((r) => setTimeout(r, 5));
        }
        const replaced = await svc.loadNumbers({ listId: texas, mode: "replace", numbers: newSet });
        const status = await svc.waitFor("job", id, 170_000);
        const job = await handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
        if (status === "failed") {
          expect(job.error).toBe(LIST_STORE_UNAVAILABLE);
          expect(await handle.db.selectFrom("result_files").select("id").where("job_id", "=", id).execute()).toEqual([]);
          return;
        }
        const cert = await handle.db.selectFrom("scrub_certificates").select("document").where("job_id", "=", id).executeTakeFirstOrThrow();
        const tx = (JSON.parse(cert.document).certificate.lists as { kind: string; version: number }[]).find((l) => l.kind === "dnc-tx")!;
        const expected = tx.version === replaced.version ? newSet : oldSet;
        expect([replaced.version - 1, replaced.version]).toContain(tx.version);
        const badFile = (await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", id).execute()).find((f) => f.kind === "bad")!;
        const bad = fs.readFileSync(badFile.path, "utf8").trim().split("\n").slice(1);
        expect(bad).toEqual(expected.map((n) => `${n},+1${n},dnc-tx`));
      },
    );
  });
}
