/**
 * The operator endpoints both processes serve (decision 140): /healthz (the process answers), /readyz (it
 * can do its work) and /metrics (Prometheus). No sign-in; /metrics answers only loopback clients, or anyone
 * presenting METRICS_TOKEN as a Bearer token when that is set, and 404 to everyone else (it tells nothing).
 */
import { engineConfig } from "../config";
import crypto from "node:crypto";
import type http from "node:http";
import { metrics } from "./metrics";
import type { Readiness } from "./readiness";

export const OPS_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is trusted and a plain token of at most 128 characters, else a new one. */
export function requestIdFrom(given: string | string[] | undefined, trusted: boolean): string {
  return trusted && typeof given === "string" && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** The socket's peer decides "loopback", never a forwarded header. */
export function metricsAllowed(remoteAddress: string | undefined, authorization: string | undefined, token = engineConfig().METRICS_TOKEN): boolean {
  if (token) {
    const given = Buffer.from(authorization?.startsWith("Bearer ") ? authorization.slice(7) : "");
    const want = Buffer.from(token);
    if (given.length === want.length && crypto.timingSafeEqual(given, want)) return true;
  }
  return LOOPBACK.test(remoteAddress ?? "");
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

/**
 * Answers an operator path; false when the path is not one. `ready` runs the checks (callers pass them through
 * `sharedReadiness`: at most one run a second, however many ask); `stopping` turns readiness to 503 as soon as
 * shutdown begins, asked before and after the checks, never cached.
 */
export async function serveOps(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  o: { ready: () => Promise<Readiness>; stopping: () => boolean },
): Promise<boolean> {
  const pathname = (req.url ?? "/").split("?")[0];
  if (!OPS_PATHS.has(pathname) || (req.method !== "GET" && req.method !== "HEAD")) return false;
  if (pathname === "/healthz") {
    json(res, 200, { status: "ok" });
  } else if (pathname === "/readyz") {
    if (o.stopping()) {
      json(res, 503, { status: "not ready", checks: { process: "shutting down" } });
    } else {
      const r = await o.ready();
      // A shared or cached answer may predate a SIGTERM that came while it was awaited: draining wins.
      if (o.stopping()) json(res, 503, { status: "not ready", checks: { process: "shutting down" } });
      else json(res, r.status === "ready" ? 200 : 503, r);
    }
  } else if (!metricsAllowed(req.socket.remoteAddress, req.headers.authorization)) {
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
    res.end("Not found.");
  } else {
    const registry = metrics().registry;
    const text = await registry.metrics();
    res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
    res.end(text);
  }
  return true;
}
