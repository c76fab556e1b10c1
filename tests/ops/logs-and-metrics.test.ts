import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, metricsAllowed, withLogContext } from "scrub-service";
import { requestIdOf, routeMatcher } from "../../app/ops/web-ops.server";
import { jsonLines, startWeb, type RunningProcess } from "./web-process";

describe("who may read /metrics", () => {
  it("loopback peers (IPv4, IPv6, IPv4-mapped) and the METRICS_TOKEN bearer; nobody else", () => {
    for (const a of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) expect(metricsAllowed(a, undefined, undefined), a).toBe(true);
    for (const a of ["10.0.0.5", "192.168.1.2", "::ffff:10.0.0.5", "2001:db8::1", "", undefined, "127.0.0.1.evil"]) {
      expect(metricsAllowed(a, undefined, undefined), String(a)).toBe(false);
    }
    expect(metricsAllowed("10.0.0.5", "Bearer s3cret-metrics-token", "s3cret-metrics-token")).toBe(true);
    expect(metricsAllowed("10.0.0.5", "Bearer s3cret-metrics-tokem", "s3cret-metrics-token")).toBe(false);
    expect(metricsAllowed("10.0.0.5", "s3cret-metrics-token", "s3cret-metrics-token")).toBe(false);
    expect(metricsAllowed("10.0.0.5", "Bearer ", "")).toBe(false);
  });
});

describe("request ids", () => {
  const req = (id?: string) => ({ headers: id === undefined ? {} : { "x-request-id": id } }) as never;
  it("takes X-Request-Id only behind a trusted proxy, and only a plain token of at most 128 characters", () => {
    expect(requestIdOf(req("abc-123"), true)).toBe("abc-123");
    expect(requestIdOf(req("abc-123"), false)).not.toBe("abc-123");
    for (const bad of ["a b", "x".repeat(129), "<script>", "id\nInjected: 1", ""]) {
      const got = requestIdOf(req(bad), true);
      expect(got).not.toBe(bad);
      expect(got).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe("route ids for metric labels", () => {
  const match = routeMatcher({
    root: { id: "root", path: "" },
    "routes/_app": { id: "routes/_app", parentId: "root" },
    "routes/_app.containers._index": { id: "routes/_app.containers._index", parentId: "routes/_app", path: "containers", index: true },
    "routes/_app.dashboard": { id: "routes/_app.dashboard", parentId: "routes/_app", path: "dashboard" },
    "routes/purge.jobs.$jobId": { id: "routes/purge.jobs.$jobId", parentId: "root", path: "purge/jobs/:jobId" },
    "routes/_index": { id: "routes/_index", parentId: "root", index: true },
    "routes/$": { id: "routes/$", parentId: "root", path: "*" },
  });
  it("names the route, never the path's ids; data requests and unknown paths too", () => {
    expect(match("/dashboard")).toBe("routes/_app.dashboard");
    expect(match("/dashboard.data")).toBe("routes/_app.dashboard");
    expect(match("/purge/jobs/6a1f0c9e-1234")).toBe("routes/purge.jobs.$jobId");
    expect(match("/purge/jobs/other-id.data")).toBe("routes/purge.jobs.$jobId");
    expect(match("/")).toBe("routes/_index");
    expect(match("/_root.data")).toBe("routes/_index");
    expect(match("/no/such/page/4155550123")).toBe("routes/$");
  });
});

describe("log lines", () => {
  function capture() {
    const lines: string[] = [];
    const logger = createLogger({ service: "test", level: "debug", destination: { write: (l: string) => void lines.push(l) } });
    return { logger, lines: () => jsonLines(lines.join("").split("\n").filter(Boolean)) };
  }

  it("are JSON with level, time and msg, and carry the context's ids", async () => {
    const { logger, lines } = capture();
    await withLogContext({ requestId: "req-1", userId: "user-9" }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      await withLogContext({ jobId: "job-7" }, async () => logger.warn({ rows: 3 }, "inside a job"));
    });
    logger.info("outside");
    const [inside, outside] = lines();
    expect(inside).toMatchObject({ level: "warn", msg: "inside a job", requestId: "req-1", userId: "user-9", jobId: "job-7", rows: 3, service: "test" });
    expect(new Date(String(inside.time)).toISOString()).toBe(inside.time);
    expect(outside).toMatchObject({ level: "info", msg: "outside" });
    expect(outside.requestId).toBeUndefined();
  });

  it("never carry passwords, tokens, API keys, cookies or webhook secrets", () => {
    const { logger, lines } = capture();
    const secrets = ["hunter2-password", "tok-abcdef", "dpt_live_key_123", "session=abc", "whsec_987", "Bearer xyz-789"];
    logger.info(
      { password: secrets[0], token: secrets[1], apiKey: secrets[2], cookie: secrets[3], webhookSecret: secrets[4], authorization: secrets[5] },
      "top level",
    );
    logger.info({ user: { password: secrets[0], newPassword: secrets[0] }, integration: { webhook_secret: secrets[4], api_key: secrets[2] } }, "nested");
    logger.info({ req: { headers: { authorization: secrets[5], cookie: secrets[3] } } }, "headers");
    const text = JSON.stringify(lines());
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text.match(/\[redacted\]/g)?.length).toBe(12);
  });
});

describe("the web process: /healthz, /readyz, /metrics and its log lines (node server.mjs, embedded)", () => {
  let web: RunningProcess;
  beforeAll(async () => {
    web = await startWeb();
  }, 240_000);
  afterAll(async () => {
    await web?.stop();
  });

  it("answers health and readiness without signing in", async () => {
    const health = await fetch(`${web.url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
    const ready = await fetch(`${web.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", listStore: "ok" } });
  });

  it("echoes a request id, logs one JSON access line per request with the route id (never the raw path), and none for the probes", async () => {
    const res = await fetch(`${web.url}/purge/jobs/00000000-0000-4000-8000-000000004155?x=1`, {
      redirect: "manual",
      headers: { "X-Request-Id": "from-client" },
    });
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/); // TRUST_PROXY is unset: the client's id is not taken
    await fetch(`${web.url}/healthz`);
    await fetch(`${web.url}/metrics`);
    const line = await waitForLine(web, (l) => l.requestId === id && typeof l.route === "string");
    expect(line).toMatchObject({ level: "info", route: "routes/purge.jobs.$jobId", method: "GET", status: res.status });
    const all = jsonLines(web.lines());
    expect(all.every((l) => typeof l.level === "string" && typeof l.time === "string" && typeof l.msg === "string")).toBe(true);
    expect(all.filter((l) => /healthz|readyz|metrics/.test(String(l.route) + String(l.msg)))).toEqual([]);
    expect(JSON.stringify(all)).not.toContain("4155?x=1");
  });

  it("a sign-in's lines hold the user's id and never the password or the session cookie", async () => {
    const password = "demo-admin-password";
    const login = await fetch(`${web.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: web.url },
      body: new URLSearchParams({ email: "admin@example.com", password, redirectTo: "/dashboard" }),
    });
    expect(login.status).toBe(302);
    const cookie = login.headers.getSetCookie()[0].split(";")[0];
    const page = await fetch(`${web.url}/dashboard`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    const id = page.headers.get("x-request-id");
    const line = await waitForLine(web, (l) => l.requestId === id && l.route === "routes/_app.dashboard");
    expect(line.userId).toMatch(/^[0-9a-f-]{36}$/);
    // The demo admin's start-up line states the demo password on purpose (README); no other line may.
    const text = web
      .lines()
      .filter((l) => !l.includes("[boot] demo SuperAdmin"))
      .join("\n");
    expect(text).toContain("POST routes/login 302");
    expect(text).not.toContain(password);
    expect(text).not.toContain(cookie.split("=")[1]);
  });

  it("serves Prometheus text to a loopback client with the request histogram by route and the default process metrics", async () => {
    const res = await fetch(`${web.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(/dpt_http_request_duration_seconds_count\{route="routes\/purge\.jobs\.\$jobId",method="GET",status_class="[23]xx"\} 1/);
    for (const name of [
      "dpt_jobs_queued 0",
      "dpt_jobs_running 0",
      "dpt_ready 1",
      "process_resident_memory_bytes",
      "dpt_list_store_errors_total 0",
      "dpt_scrub_jobs_total",
      "dpt_lookup_duration_seconds",
    ]) {
      expect(text).toContain(name);
    }
    expect(text).not.toMatch(/route="\/purge/);
  });
});

async function waitForLine(p: RunningProcess, match: (l: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const hit = jsonLines(p.lines()).find(match);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("no such log line");
}
