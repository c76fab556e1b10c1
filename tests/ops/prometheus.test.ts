import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../setup/db";
import { freePort, until } from "../setup/processes";
import { skipWithout } from "../setup/services";
import type { DbHandle } from "db/client";
import { startScrubService, startWeb, type RunningProcess } from "./web-process";

const rules = path.resolve(import.meta.dirname, "../../ops/prometheus");

const noPromtool = await skipWithout("tests/ops/prometheus.test.ts (rules)", [{ kind: "program", name: "promtool" }]);

describe.skipIf(noPromtool)("alert rules (ops/prometheus/alerts.yml)", () => {
  it("pass promtool check rules", () => {
    const out = execFileSync("promtool", ["check", "rules", path.join(rules, "alerts.yml")], { encoding: "utf8" });
    expect(out).toMatch(/SUCCESS: 7 rules found/);
  });
  it("fire on the series that should fire them, and not before (promtool test rules)", () => {
    const out = execFileSync("promtool", ["test", "rules", "alerts.test.yml"], { cwd: rules, encoding: "utf8" });
    expect(out).toMatch(/SUCCESS/);
  });
});

const unavailable = await skipWithout("tests/ops/prometheus.test.ts (scrape)", [
  { kind: "program", name: "prometheus" },
  { kind: "tcp", name: "PostgreSQL", url: process.env.DATABASE_URL ?? "" },
  { kind: "tcp", name: "Redis", url: process.env.REDIS_URL ?? "" },
]);

describe.skipIf(unavailable)("a real Prometheus scrapes the web app and a scrub-service replica", () => {
  let web: RunningProcess;
  let scrub: RunningProcess;
  let handle: DbHandle;
  let prom: ChildProcess;
  let promUrl: string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dpt-prometheus-"));

  beforeAll(async () => {
    handle = await createTestDb("postgres");
    const url = (handle.driver as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
    // the two processes start side by side (each waits on its own start-up, not on the other's)
    [web, scrub] = await Promise.all([
      startWeb(),
      startScrubService({
        DATABASE_URL: url,
        REDIS_URL: process.env.REDIS_URL!,
        SCRUB_REDIS_PREFIX: `prom${crypto.randomBytes(3).toString("hex")}:`,
        DATA_DIR: path.join(work, "scrub-data"),
        SCRUB_SERVICE_TOKEN: crypto.randomBytes(16).toString("hex"),
      }),
    ]);
    await fetch(`${web.url}/login`); // one request for the histogram
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    const config = path.join(work, "prometheus.yml");
    fs.writeFileSync(
      config,
      [
        "global: { scrape_interval: 1s, evaluation_interval: 1s }",
        `rule_files: [${JSON.stringify(path.join(rules, "alerts.yml"))}]`,
        "scrape_configs:",
        `  - { job_name: dpt-web, static_configs: [{ targets: ["127.0.0.1:${web.port}"] }] }`,
        `  - { job_name: dpt-scrub, static_configs: [{ targets: ["127.0.0.1:${scrub.port}"] }] }`,
        "",
      ].join("\n"),
    );
    prom = spawn("prometheus", [`--config.file=${config}`, `--storage.tsdb.path=${path.join(work, "tsdb")}`, `--web.listen-address=127.0.0.1:${port}`], {
      stdio: "ignore",
    });
  }, 420_000);

  afterAll(async () => {
    prom?.kill("SIGTERM");
    await Promise.all([web?.stop(), scrub?.stop()]);
    await handle?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  async function query(q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
    const r = await fetch(`${promUrl}/api/v1/query?${new URLSearchParams({ query: q })}`).catch(() => null);
    if (!r?.ok) return [];
    const body = (await r.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    return body.data.result;
  }

  it("sees both targets up, ready, and the product's metrics by route id", { timeout: 120_000 }, async () => {
    const up = await until(
      "both targets up",
      async () => {
        const r = await query("up");
        return r.length === 2 && r.every((s) => s.value[1] === "1") && r;
      },
      90_000,
    );
    expect(up.map((s) => s.metric.job).sort()).toEqual(["dpt-scrub", "dpt-web"]);
    const ready = await until("dpt_ready from both", async () => {
      const r = await query("dpt_ready");
      return r.length === 2 && r;
    });
    expect(ready.map((s) => s.value[1])).toEqual(["1", "1"]);
    const login = await until("the login request's histogram", async () => {
      const r = await query('dpt_http_request_duration_seconds_count{job="dpt-web",route="routes/login"}');
      return r.length > 0 && r;
    });
    expect(login[0].metric).toMatchObject({ method: "GET", status_class: "2xx" });
    for (const name of ["dpt_jobs_queued", "dpt_jobs_running", "dpt_list_store_errors_total", "process_resident_memory_bytes"]) {
      expect((await query(`${name}{job="dpt-scrub"}`)).length, name).toBe(1);
    }
    const alerts = (await (await fetch(`${promUrl}/api/v1/rules`)).json()) as { data: { groups: { rules: unknown[] }[] } };
    expect(alerts.data.groups.flatMap((g) => g.rules)).toHaveLength(7);
  });
});
