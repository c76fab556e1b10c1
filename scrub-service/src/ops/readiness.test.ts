import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { serveOps } from "./endpoints";
import { sharedReadiness, type Readiness } from "./readiness";

const READY: Readiness = { status: "ready", checks: { database: "ok" } };

/** A check that counts its runs and answers after `ms` (a database query and a store ping stand-in). */
function countingCheck(ms = 20, answer: () => Readiness = () => READY) {
  const c = { runs: 0, check: async () => (c.runs++, await new Promise((r) => setTimeout(r, ms)), answer()) };
  return c;
}

let server: http.Server | null = null;
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(null)));
  server = null;
});

async function serve(ready: () => Promise<Readiness>, stopping: () => boolean): Promise<string> {
  server = http.createServer((req, res) => void serveOps(req, res, { ready, stopping }));
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe("/readyz runs its checks at most once a second (issue #49)", () => {
  it("200 concurrent requests share one in-flight check", async () => {
    const c = countingCheck(50);
    const url = await serve(sharedReadiness(c.check, { ttlMs: 1000 }), () => false);
    const answers = await Promise.all(Array.from({ length: 200 }, () => fetch(`${url}/readyz`).then((r) => r.status)));
    expect(answers.every((s) => s === 200)).toBe(true);
    expect(c.runs).toBe(1);
  });

  it("rapid requests over 2.5 s of a clock: one check per second at most", async () => {
    let now = 0;
    const c = countingCheck(1);
    const ready = sharedReadiness(c.check, { ttlMs: 1000, now: () => now });
    for (let t = 0; t <= 2500; t += 10) {
      now = t;
      await ready();
    }
    // checks settle at 0, then ≥ 1000 after, then ≥ 2000: three in 2.5 s, never one per request (251 asked)
    expect(c.runs).toBe(3);
  });

  it("a failure is seen within the cache's second, and so is the recovery", async () => {
    let now = 0;
    let up = true;
    const c = countingCheck(1, () => (up ? READY : { status: "not ready", checks: { listStore: "not answering" } }));
    const ready = sharedReadiness(c.check, { ttlMs: 1000, now: () => now });
    expect((await ready()).status).toBe("ready");
    up = false;
    now = 999;
    expect((await ready()).status).toBe("ready"); // the cached second
    now = 1001;
    expect((await ready()).status).toBe("not ready");
    up = true;
    now = 2002;
    expect((await ready()).status).toBe("ready");
  });

  it("a throwing check is shared and cached too, not re-run per request", async () => {
    let runs = 0;
    const ready = sharedReadiness(async () => (runs++, Promise.reject(new Error("pool closed"))), { ttlMs: 60_000 });
    await Promise.all(Array.from({ length: 20 }, () => ready().catch(() => "failed")));
    await expect(ready()).rejects.toThrow("pool closed");
    expect(runs).toBe(1);
  });

  it("shutdown (SIGTERM draining) answers 503 at once even while a cached answer says ready", async () => {
    let stopping = false;
    const c = countingCheck(1);
    const url = await serve(sharedReadiness(c.check, { ttlMs: 60_000 }), () => stopping);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    stopping = true;
    const down = await fetch(`${url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: "not ready", checks: { process: "shutting down" } });
    expect(c.runs).toBe(1);
  });

  it("a SIGTERM that arrives while a shared check is running: the waiting requests answer 503", async () => {
    let stopping = false;
    let release!: () => void;
    const ready = sharedReadiness(() => new Promise<Readiness>((r) => (release = () => r(READY))), { ttlMs: 60_000 });
    const url = await serve(ready, () => stopping);
    const waiting = Promise.all([fetch(`${url}/readyz`), fetch(`${url}/readyz`)]);
    await new Promise((r) => setTimeout(r, 100));
    stopping = true;
    release();
    expect((await waiting).map((r) => r.status)).toEqual([503, 503]);
  });
});
