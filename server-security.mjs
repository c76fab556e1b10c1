// Security middleware of the production server (server.mjs), in a module of its own so tests can mount it
// on a bare Express app without a Remix build (tests/security/server-security.test.ts).
import crypto from "node:crypto";

/** CSP with a fresh nonce per request (res.locals.cspNonce), nosniff, referrer policy, no framing; HSTS in production. */
export function securityHeaders({ production }) {
  return (req, res, next) => {
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
  };
}

const FORWARDED_HEADERS = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-forwarded-for", "forwarded"];

/**
 * X-Forwarded-* and Forwarded are honoured only when TRUST_PROXY says a proxy sets them: otherwise they are
 * removed before anything reads them (the Remix adapter takes the request URL's port from
 * X-Forwarded-Host whatever Express's `trust proxy` says).
 */
export function untrustedForwardedHeaders({ trustProxy }) {
  return (req, _res, next) => {
    if (!trustProxy) for (const h of FORWARDED_HEADERS) delete req.headers[h];
    next();
  };
}

/**
 * Cross-site form posts are refused (SameSite=Lax cookies are the first line; this is the second).
 * The public API authenticates with bearer keys, not cookies, so it is exempt.
 */
export function sameOriginPosts() {
  return (req, res, next) => {
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
  };
}

function safeHost(origin) {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * Bodies whose declared length is clearly over the upload limit are refused before a byte is read
 * (413 with the limit in words). The routes' streamed cap (exact to the byte) still applies to every body,
 * including chunked ones without a Content-Length; this only saves reading a huge body to find out.
 * `slack` leaves room for the multipart envelope and the form's text fields.
 */
export function declaredBodyLimit({ maxUploadBytes, slack = 1024 * 1024 }) {
  return (req, res, next) => {
    const declared = Number(req.get("content-length") ?? 0);
    if (Number.isFinite(declared) && declared > maxUploadBytes + slack) {
      res.setHeader("Connection", "close");
      const text = `File is too large. The limit is ${formatBytes(maxUploadBytes)}.`;
      if (req.path.startsWith("/api/")) {
        res.status(413).json({ error: { code: "payload_too_large", message: text } });
      } else {
        res.status(413).type("text/plain").send(text);
      }
      return;
    }
    next();
  };
}

/** Same words as app/utils/format.ts formatBytes (the routes' message). */
export function formatBytes(n) {
  if (n >= 1024 * 1024 * 1024) return `${+(n / (1024 * 1024 * 1024)).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
