/**
 * The web process's operability (decision 140), handed to server.mjs through the build's entry module:
 * request ids and access lines, HTTP metrics by Remix route id, /healthz, /readyz and /metrics, console
 * lines as JSON, and the shutdown flag readiness reports.
 */
import type http from "node:http";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import {
  requestIdFrom,
  serveOps,
  OPS_PATHS,
  metrics,
  statusClass,
  readGauges,
  databaseChecks,
  runChecks,
  sharedReadiness,
  type Readiness,
  type LogContext,
} from "scrub-service";
import { log, runInLogContext } from "~/utils/log.server";
export { bridgeConsoleToLog } from "scrub-service";
import { dbHandle, getDb } from "~/utils/db.server";
import { getScrubService } from "~/utils/scrub.server";

let stopping = false;
/** From the first moment of shutdown /readyz answers 503, so a load balancer stops sending traffic. */
export function beginStopping(): void {
  stopping = true;
}

export async function webReadiness(): Promise<Readiness> {
  const db = (await dbHandle()).db;
  const [own, engine] = await Promise.all([
    runChecks(databaseChecks(db)),
    getScrubService().then(
      (s) => s.ready(),
      (): Readiness => ({ status: "not ready", checks: { scrubService: "not started" } }),
    ),
  ]);
  // In-process the engine asks the same database too: one key each.
  return { status: own.status === "ready" && engine.status === "ready" ? "ready" : "not ready", checks: { ...own.checks, ...engine.checks } };
}

/** What /readyz and dpt_ready answer: the checks at most once a second, shared by everyone asking (issue #49). */
export const cachedWebReadiness = sharedReadiness(webReadiness);

type RemixRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };

/** Maps a request path to the Remix route id that serves it ("routes/_app.dashboard"), for metric labels. */
export function routeMatcher(routes: Record<string, RemixRoute>): (pathname: string) => string {
  const children = (parentId: string | undefined): AgnosticRouteObject[] =>
    Object.values(routes)
      .filter((r) => r.parentId === parentId)
      .map((r) => (r.index ? { id: r.id, index: true, path: r.path } : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: children(r.id) }));
  const tree = children(undefined);
  return (pathname) => {
    // Single-fetch data requests: /purge.data and /_root.data serve /purge and /.
    const path = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
    const matches = matchRoutes(tree, path);
    return matches?.length ? matches[matches.length - 1].route.id! : "unmatched";
  };
}

/** X-Request-Id from a trusted proxy (TRUST_PROXY set), else a new one; echoed in the response. */
export function requestIdOf(req: http.IncomingMessage, trustProxy: boolean): string {
  return requestIdFrom(req.headers["x-request-id"], trustProxy);
}

type Next = (err?: unknown) => void;

/**
 * Express middleware, first in the chain: the request id (on every log line of the request, and in the
 * response), one access line when the response is sent, the duration histogram. Operator paths are served
 * here, before rate limits and logs.
 */
export function requestMiddleware(o: { routes: Record<string, RemixRoute>; trustProxy: boolean; staticPrefixes: string[] }) {
  const routeOf = routeMatcher(o.routes);
  const m = metrics();
  return (req: http.IncomingMessage & { originalUrl?: string }, res: http.ServerResponse & { locals?: Record<string, unknown> }, next: Next) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (OPS_PATHS.has(pathname)) {
      serveOps(req, res, { ready: cachedWebReadiness, stopping: () => stopping }).then(
        (served) => void (served || next()),
        (e) => next(e),
      );
      return;
    }
    const requestId = requestIdOf(req, o.trustProxy);
    res.setHeader("X-Request-Id", requestId);
    if (res.locals) res.locals.requestId = requestId;
    const started = process.hrtime.bigint();
    // The request's context object: requireUser adds the user's id to it, and the access line reads it back.
    const ctx: LogContext = { requestId };
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = o.staticPrefixes.some((p) => pathname.startsWith(p)) ? "static" : routeOf(pathname);
      m.httpDuration.observe({ route, method: req.method ?? "GET", status_class: statusClass(res.statusCode) }, seconds);
      log().info({ ...ctx, method: req.method, route, status: res.statusCode, ms: Math.round(seconds * 1000) }, `${req.method} ${route} ${res.statusCode}`);
    });
    runInLogContext(ctx, () => next());
  };
}

/** The queue and list-age gauges read the app's database at scrape time. */
export function startMetrics(): void {
  metrics().setGaugeSource(async () => readGauges(await getDb()));
  metrics().setReadinessSource(async () => !stopping && (await cachedWebReadiness()).status === "ready");
}
