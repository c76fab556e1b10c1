// Production server: Express in front of the Remix build, with security headers and a same-origin check.
import path from "node:path";
import express from "express";
import {
  answerWithAction,
  bodyLimits,
  noStore,
  politeBodies,
  remixRequestHandler,
  sameOriginPosts,
  securityHeaders,
  untrustedForwardedHeaders,
} from "./server-security.mjs";
import { ensureHugePages } from "scrub-service/huge-pages";

// A list load's buffers on huge pages (decision 173): the process relaunches itself once when that helps.
await ensureHugePages();

// The one variable read here: where the build is. Everything else is parsed by the app's schemas (decision 188).
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const build = await import(path.join(buildDir, "index.js"));
let settings;
try {
  settings = build.entry.module.serverSettings();
} catch (e) {
  console.error(`[boot] ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
const { port, production, maxUploadBytes, trustProxy, shutdownGraceMs: graceMs } = settings;

const ops = build.entry.module.ops;
// Every line this process writes is one JSON object (decision 140); LOG_PRETTY=1 keeps them readable by hand.
if (!settings.logPretty) ops.bridgeConsoleToLog();

try {
  await build.entry.module.boot();
  ops.startMetrics();
} catch (e) {
  console.error(`[boot] ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}

const app = express();
app.disable("x-powered-by");
if (trustProxy) app.set("trust proxy", trustProxy);

// First: /healthz, /readyz and /metrics (before limits and logs), then the request id, access line and timing.
app.use(ops.requestMiddleware({ routes: build.routes, trustProxy: Boolean(trustProxy), staticPrefixes: ["/build/", "/favicon"] }));
app.use(untrustedForwardedHeaders({ trustProxy }));
app.use(securityHeaders({ production }));
app.use(sameOriginPosts());
app.use(bodyLimits({ maxUploadBytes }));

app.use("/build", express.static(path.join(buildDir, "public/build"), { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
app.use(noStore());

// POST /api/v1/lookup, a dialer's hot path (decision 111): the route module's action is called directly, after
// every middleware above. It is a resource route (JSON only, its own errors); the Remix request handler's route
// matching and response streaming cost it several milliseconds a request.
const lookupRoute = build.routes["routes/api.v1.lookup"]?.module;
if (lookupRoute?.action) {
  app.post("/api/v1/lookup", (req, res, next) => {
    answerWithAction(lookupRoute.action, req, res, {
      clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      requestId: res.locals.requestId,
      cspNonce: res.locals.cspNonce,
    }).catch(next);
  });
}

// @remix-run/express's handler with a request body read only when the route reads it: 100 Continue is sent then,
// never for a request the route refuses unread (issue #49; politeBodies below, server-security.mjs).
app.all(
  "*",
  remixRequestHandler({
    build,
    mode: production ? "production" : "development",
    getLoadContext(req, res) {
      return {
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        requestId: res.locals.requestId,
        cspNonce: res.locals.cspNonce,
      };
    },
  }),
);

const server = app.listen(port, () => console.log(`[server] listening on http://localhost:${port}`));
// 100 Continue only when a body is wanted; an answer sent before the body arrived closes the connection politely.
politeBodies(server);

// SIGTERM: /readyz answers 503 at once; after SHUTDOWN_GRACE_MS (time for a load balancer to notice) the
// server stops taking connections and finishes the requests it has; running scrubs are handed back to the
// queue (their lease released, so another replica takes them at once); pools close.
let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  ops.beginStopping();
  console.log(`[server] ${signal}: shutting down (readiness 503; closing in ${graceMs} ms)`);
  if (graceMs > 0) await new Promise((r) => setTimeout(r, graceMs));
  const closed = new Promise((r) => server.close(r));
  server.closeIdleConnections?.();
  await build.entry.module.shutdown().catch((e) => console.error(e));
  await Promise.race([closed, new Promise((r) => setTimeout(r, 10_000))]);
  console.log(`[server] stopped`);
  process.exit(0);
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
