import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../setup/db";
import type { DbHandle } from "db/client";
import { createListLoad, createScrubJob, metrics, readGauges } from "scrub-service";
import { createInProcessScrubService } from "scrub-service/in-process";
import { adminListIds, createUser, tmpDir } from "scrub-service/testing";

const value = async (name: string, labels: Record<string, string> = {}) => {
  const m = metrics().registry.getSingleMetric(name);
  const got = (await m!.get()).values.filter((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want));
  return got.reduce((s, v) => s + v.value, 0);
};

describe("the engine's metrics move with its work (embedded store, in this process)", () => {
  let handle: DbHandle;
  let dir: string;
  beforeAll(async () => {
    handle = await createTestDb("pglite");
    dir = tmpDir("engine-metrics");
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("list loads by kind and status, scrub jobs by status, rows by outcome, duration; gauges from the database", async () => {
    const svc = await createInProcessScrubService({ handle, dataDir: path.join(dir, "data") });
    try {
      const { litigation, dnc } = await adminListIds(handle);
      const [loadsBefore, failedLoadsBefore, jobsBefore, badBefore, goodBefore, durationsBefore] = await Promise.all([
        value("dpt_list_loads_total", { list: "litigation", status: "completed" }),
        value("dpt_list_loads_total", { list: "dnc", status: "failed" }),
        value("dpt_scrub_jobs_total", { status: "completed" }),
        value("dpt_scrub_rows_total", { outcome: "bad" }),
        value("dpt_scrub_rows_total", { outcome: "good" }),
        (await metrics().scrubDuration.get()).values.find((v) => v.metricName === "dpt_scrub_duration_seconds_count")?.value ?? 0,
      ]);
      const listFile = path.join(dir, "lit.csv");
      fs.writeFileSync(listFile, "2125550001\n");
      const load = await createListLoad(handle.db, { listId: litigation, mode: "add", fileName: "lit.csv", inputPath: listFile });
      await svc.enqueueListLoad(load);
      expect(await svc.waitFor("load", load)).toBe("completed");
      const missing = await createListLoad(handle.db, { listId: dnc, mode: "add", fileName: "gone.csv", inputPath: path.join(dir, "gone.csv") });
      await svc.enqueueListLoad(missing);
      expect(await svc.waitFor("load", missing)).toBe("failed");

      const input = path.join(dir, "in.csv");
      fs.writeFileSync(input, "Phone\n2125550001\n4155550003\n4155550004\n12\n");
      const userId = await createUser(handle);
      const job = await createScrubJob(handle.db, { userId, fileName: "in.csv", inputPath: input, suppressionType: "LitigationOnly", columnName: "Phone" });
      await svc.enqueue(job);
      expect(await svc.waitFor("job", job)).toBe("completed");

      expect(await value("dpt_list_loads_total", { list: "litigation", status: "completed" })).toBe(loadsBefore + 1);
      expect(await value("dpt_list_loads_total", { list: "dnc", status: "failed" })).toBe(failedLoadsBefore + 1);
      expect(await value("dpt_scrub_jobs_total", { status: "completed" })).toBe(jobsBefore + 1);
      expect(await value("dpt_scrub_rows_total", { outcome: "bad" })).toBe(badBefore + 1);
      expect(await value("dpt_scrub_rows_total", { outcome: "good" })).toBe(goodBefore + 2);
      const durations = (await metrics().scrubDuration.get()).values.find((v) => v.metricName === "dpt_scrub_duration_seconds_count")?.value;
      expect(durations).toBe(durationsBefore + 1);

      // The freshness clock: the DNC list's registry date 26 days ago reads as ~26 days; queue gauges count rows.
      await handle.db
        .updateTable("lists")
        .set({ registry_date: new Date(Date.now() - 26 * 86_400_000) })
        .where("id", "=", dnc)
        .execute();
      const g = await readGauges(handle.db);
      const age = g.listAges.find((a) => a.list === "dnc")!.seconds;
      expect(age / 86_400).toBeGreaterThan(25.99);
      expect(age / 86_400).toBeLessThan(26.01);
      expect([g.queued, g.running]).toEqual([0, 0]);
      // Each list's own freshness rule beside its age (decision 174): the alert compares the two per list
      const rules = Object.fromEntries((g.listRules ?? []).map((r) => [r.list, r.seconds / 86_400]));
      expect(rules).toMatchObject({ dnc: 31, "dnc-tx": 152, "dnc-la": 31, "dnc-co": 112 });
      expect(rules).not.toHaveProperty("litigation");
      metrics().setGaugeSource(() => readGauges(handle.db));
      expect(await value("dpt_list_max_age_seconds", { list: "dnc-tx" })).toBe(152 * 86_400);
      expect(await value("dpt_list_max_age_seconds", { list: "dnc" })).toBe(31 * 86_400);
    } finally {
      await svc.close();
    }
  });
});
