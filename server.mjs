// Production server: Express in front of the Remix build, with security headers and a same-origin check.
import path from "node:path";
import crypto from "node:crypto";
import express from "express";
import { createRequestHandler } from "@remix-run/express";

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const build = await import(path.join(buildDir, "index.js"));
const port = Number(process.env.PORT ?? 3000);
const production = process.env.NODE_ENV === "production";

try {
  await build.entry.module.boot();
} catch (e) {
  console.error(`[boot] ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}

const app = express();
app.disable("x-powered-by");
if (process.env.TRUST_PROXY) app.set("trust proxy", process.env.TRUST_PROXY);

app.use((req, res, next) => {
  res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader(
    "Content-Security-Policy",
    `default-src 'self'; script-src 'self' 'nonce-${res.locals.cspNonce}'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; ` +
      `connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'self'; object-src 'none'`,
  );
  if (production) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
});

// Cross-site form posts are refused (SameSite=Lax cookies are the first line; this is the second).
// The public API authenticates with bearer keys, not cookies, so it is exempt.
app.use((req, res, next) => {
  if (["GET", "HEAD", "OPTIONS"].includes(req.method) || req.path.startsWith("/api/")) return next();
  const origin = req.get("origin");
  const fetchSite = req.get("sec-fetch-site");
  const host = req.get("host");
  const sameOrigin = origin ? safeHost(origin) === host : fetchSite ? fetchSite !== "cross-site" : true;
  if (!sameOrigin) {
    res.status(403).type("text/plain").send("Cross-site request refused.");
    return;
  }
  next();
});

function safeHost(origin) {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

app.use("/build", express.static(path.join(buildDir, "public/build"), { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));

app.all(
  "*",
  createRequestHandler({
    build,
    mode: production ? "production" : "development",
    getLoadContext(req, res) {
      return {
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        requestId: crypto.randomUUID(),
        cspNonce: res.locals.cspNonce,
      };
    },
  }),
);

const server = app.listen(port, () => console.log(`[server] listening on http://localhost:${port}`));

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`[server] ${signal}: shutting down`);
  server.close();
  await build.entry.module.shutdown().catch((e) => console.error(e));
  process.exit(0);
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
