import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useAppTestDb } from "../setup/db";
import { testContext } from "../setup/request";
import { freePort } from "../setup/processes";
import { apiRequest, bodyOf, installScrubService, makeKey, makeUser } from "./helpers";
import * as lookup from "~/routes/api.v1.lookup";
import { LOOKUP_UNAVAILABLE } from "~/api/lookup.server";
import { stopLookupUsage } from "~/models/usage.server";
import { adminListIds, lookupTimeoutMs, startService, tmpDir } from "scrub-service/testing";
import { listenHttp } from "scrub-service/local-socket";
import { createHttpScrubClient } from "scrub-service/http-client";
import type { InProcessScrubService } from "scrub-service/in-process";
import { metrics, type ScrubService } from "scrub-service";

/*
 * Issue #49 item 2: a lookup 503 says what failed. A store that does not answer keeps the store's words
 * (Retry-After 30); a deadline that passed because this process's event loop was held up says the server is busy
 * (Retry-After 1), in the log and the metrics too.
 */

/** Holds the event loop, as a long synchronous task of another request would. */
function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const { handle } = useAppTestDb();
const db = () => handle().db;
const DNC = "3105552102";

function post(key: string, numbers: string[]) {
  return lookup.action({ request: apiRequest("/api/v1/lookup", { key, json: { numbers } }), params: {}, context: testContext });
}

/** The service, with a lookup that holds the event loop for `ms` right after it started (its deadline set). */
function heldDuringLookup(service: ScrubService, ms: number): ScrubService {
  const held = Object.create(service) as ScrubService;
  held.lookup = (input) => {
    const answer = service.lookup(input);
    busyWait(ms);
    return answer;
  };
  return held;
}

describe("POST /api/v1/lookup: 503 busy vs 503 store", () => {
  let key: string;
  let service: InProcessScrubService;
  beforeAll(async () => {
    const userId = await makeUser(db(), { plan: "business" });
    key = (await makeKey(db(), userId)).key;
    service = await startService(handle(), "embedded", { autoStart: false });
    const { dnc } = await adminListIds(handle());
    await service.loadNumbers({ listId: dnc, mode: "add", numbers: [DNC] });
  });
  afterAll(async () => {
    await stopLookupUsage();
    await service?.close();
  });

  const busyCount = async () => (await metrics().lookupUnavailable.get()).values.find((v) => v.labels.reason === "busy")?.value ?? 0;

  it("in process: a 700 ms busy-wait during the lookup answers busy (Retry-After 1), never the store's words", async () => {
    installScrubService(service);
    expect((await post(key, [DNC])).status).toBe(200);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const before = await busyCount();
    try {
      installScrubService(heldDuringLookup(service, 700));
      const res = await post(key, [DNC]);
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("1");
      const body = await bodyOf(res);
      expect(body.error.code).toBe("service_unavailable");
      expect(body.error.message).toMatch(/^The server is busy \(its event loop was [\d,]+ ms late\)/);
      expect(body.error.message).not.toBe(LOOKUP_UNAVAILABLE);
      const logged = warn.mock.calls.join(" ");
      expect(logged).toMatch(/server busy/);
      expect(logged).not.toMatch(/did not answer/);
      expect(await busyCount()).toBe(before + 1);
    } finally {
      warn.mockRestore();
      installScrubService(service);
    }
  });

  it("over HTTP (services mode): the scrub service's late loop reaches the app as busy, not as the store", async () => {
    const port = await freePort();
    const http = await listenHttp(heldDuringLookup(service, 700) as InProcessScrubService, {
      handle: handle(),
      dataDir: tmpDir("svc"),
      token: "t0ken",
      port,
      host: "127.0.0.1",
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      installScrubService(createHttpScrubClient({ url: `http://127.0.0.1:${port}`, token: "t0ken" }));
      const res = await post(key, [DNC]);
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("1");
      expect((await bodyOf(res)).error.message).toMatch(/^The server is busy/);
    } finally {
      warn.mockRestore();
      installScrubService(service);
      await http.close();
    }
  });

  it("a Redis that accepts the connection and never replies: the store's words and Retry-After 30", async () => {
    // a stub server socket: takes every command in, answers nothing
    const sockets = new Set<net.Socket>();
    const stub = net.createServer((s) => (sockets.add(s), s.on("error", () => {}), s.resume()));
    await new Promise<void>((r) => stub.listen(0, "127.0.0.1", r));
    const svc = await startService(handle(), "redis", { autoStart: false, redisUrl: `redis://127.0.0.1:${(stub.address() as net.AddressInfo).port}` });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      installScrubService(svc);
      const res = await post(key, [DNC]);
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("30");
      expect(await bodyOf(res)).toEqual({ error: { code: "service_unavailable", message: LOOKUP_UNAVAILABLE } });
      const logged = warn.mock.calls.join(" ");
      expect(logged).toMatch(`did not answer the lookup within ${lookupTimeoutMs()} ms`);
      expect(logged).not.toMatch(/busy/);
    } finally {
      warn.mockRestore();
      installScrubService(service);
      for (const s of sockets) s.destroy();
      stub.close();
      await svc.close().catch(() => {});
    }
  });
});
