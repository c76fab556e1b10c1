// Security middleware of the production server (server.mjs), in a module of its own so tests can mount it
// on a bare Express app without a Remix build (tests/security/server-security.test.ts).
import crypto from "node:crypto";
import { createRequestHandler as createRemixHandler, writeReadableStreamToWritable } from "@remix-run/node";

/**
 * CSP with a fresh nonce per request (res.locals.cspNonce) for the scripts Remix inlines, no inline styles at all
 * (bars are SVG, app/components/ui/bar.tsx), nosniff, referrer policy, no framing; HSTS in
 * production.
 */
export function securityHeaders({ production }) {
  return (req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader(
      "Content-Security-Policy",
      `default-src 'self'; script-src 'self' 'nonce-${res.locals.cspNonce}'; style-src 'self'; img-src 'self' data:; ` +
        `connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'self'; object-src 'none'`,
    );
    if (production) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}

/**
 * `Cache-Control: no-store` on everything the app renders (signed-in pages, their `.data` loads,
 * downloads), so no shared or browser cache keeps a customer's page. Mounted after the static files,
 * which keep their own caching.
 */
export function noStore() {
  return (_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
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

/** Ordinary forms and API calls: no legitimate one comes near this. */
export const FORM_BODY_LIMIT = 64 * 1024;

/**
 * The only routes that take large bodies (files, typed number lists): they check the session/key and plan
 * before reading and stream the file to disk under MAX_UPLOAD_BYTES. Matched case-insensitively, with
 * Remix's single-fetch `.data` suffix and a trailing slash, like the router matches them; anything else
 * (including a spelling the router would decode to one of these) gets the small limit, the safe side.
 */
const UPLOAD_ROUTES = [
  /^\/purge$/,
  /^\/purge\/upload$/,
  /^\/containers$/,
  /^\/exemption-lists$/,
  /^\/call-history$/, // a dialer's call log (decision 185, "The screen")
  /^\/dnc$/,
  /^\/resources\/list-uploads$/,
  /^\/api\/v1\/scrubs$/,
  /^\/api\/v1\/containers\/[^/]+\/numbers$/,
  /^\/api\/v1\/exemption-lists(\/[^/]+)?$/, // a CSV file streamed to disk, or up to 100,000 JSON rows (MAX_JSON_BYTES)
  /^\/api\/v1\/calls$/, // up to 10,000 JSON call records (MAX_CALLS_JSON_BYTES, 16 MiB)
  /^\/api\/v1\/opt-outs$/, // up to 10,000 JSON opt-outs (MAX_OPT_OUTS_JSON_BYTES, 32 MiB; decision 195)
  /^\/api\/compat\/dncscrub\/scrub$/, // a dialer's phoneList of up to 60,000 numbers (MAX_COMPAT_BODY_BYTES, 6 MiB; issue #48)
  /^\/api\/compat\/calls$/, // a dialer's call log rows (MAX_COMPAT_CALLS_BYTES, 16 MiB; issue #48)
  /^\/verify$/, // public: a certificate and, with JS off, the files it names (hashed while streaming)
];

export function takesLargeBody(path) {
  const p =
    path
      .toLowerCase()
      .replace(/\.data$/, "")
      .replace(/\/+$/, "") || "/";
  return UPLOAD_ROUTES.some((r) => r.test(p));
}

function refuse(req, res, status, code, text) {
  res.setHeader("Connection", "close");
  if (req.path.startsWith("/api/")) res.status(status).json({ error: { code, message: text } });
  else res.status(status).type("text/plain").send(text);
}

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data\s*;.*\bboundary=)/i;

/**
 * Request bodies, before any route reads them:
 * - upload routes (takesLargeBody): a declared length clearly over MAX_UPLOAD_BYTES is refused before a
 *   byte is read (413 with the limit in words); the routes' streamed cap decides to the byte. `slack`
 *   leaves room for the multipart envelope and the form's text fields;
 * - every other route: at most FORM_BODY_LIMIT bytes, counted while the body arrives (a declared length
 *   over it is refused at once, a chunked body the moment it passes it) and held until complete, so no
 *   route ever parses more;
 * - pages' forms (not the API, not uploads, whose reader reports a malformed body itself) must be a form encoding the router can parse: no Content-Type means the
 *   HTML default (url-encoded); another type, or a multipart body that does not parse, is refused with
 *   415/400 instead of failing inside an action.
 */
export function bodyLimits({ maxUploadBytes, slack = 1024 * 1024, formLimit = FORM_BODY_LIMIT }) {
  return (req, res, next) => {
    const declared = Number(req.get("content-length") ?? "");
    const hasBody = req.get("transfer-encoding") !== undefined || (Number.isFinite(declared) && declared > 0);
    if (!hasBody) return next();
    const api = req.path.startsWith("/api/");
    const large = takesLargeBody(req.path);
    const limit = large ? maxUploadBytes + slack : formLimit;
    if (Number.isFinite(declared) && declared > limit) {
      const text = large ? `File is too large. The limit is ${formatBytes(maxUploadBytes)}.` : `Request is too large. The limit is ${formatBytes(formLimit)}.`;
      return refuse(req, res, 413, "payload_too_large", text);
    }
    if (large) return next();
    if (!api) {
      const type = req.get("content-type");
      if (!type) req.headers["content-type"] = "application/x-www-form-urlencoded";
      else if (!FORM_TYPES.test(type)) return refuse(req, res, 415, "unsupported_media_type", "This form was sent in an encoding the server does not read.");
    }
    holdBody(req, formLimit, {
      over: () => refuse(req, res, 413, "payload_too_large", `Request is too large. The limit is ${formatBytes(formLimit)}.`),
      complete: async (body) => {
        if (!api && /^multipart\//i.test(req.get("content-type"))) {
          try {
            await new Response(body, { headers: { "Content-Type": req.get("content-type") } }).formData();
          } catch {
            return refuse(req, res, 400, "bad_request", "The form could not be read.");
          }
        }
        next();
      },
    });
  };
}

/**
 * Keeps a body out of the request stream until it has all arrived (at most `limit` bytes), then hands it
 * on unchanged. Intercepts `push`, where the HTTP parser delivers the body, so it works whoever reads the
 * stream later and whenever they start; past the limit the rest is dropped and `over` answers.
 */
function holdBody(req, limit, { over, complete }) {
  sendContinue(req); // a small body is read whole before any route: the client may send it now
  const push = req.push;
  const chunks = [];
  let size = req.readableLength; // anything parsed before this middleware ran stays first in the stream
  let refused = false;
  req.push = function held(chunk, encoding) {
    if (refused) return true;
    if (chunk === null) {
      req.push = push;
      for (const c of chunks) push.call(req, c);
      push.call(req, null);
      complete(Buffer.concat(chunks)).catch(() => over());
      return false;
    }
    const buf = typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk;
    size += buf.length;
    if (size > limit) {
      refused = true;
      chunks.length = 0;
      over();
      return true;
    }
    chunks.push(buf);
    return true;
  };
}

/** Same words as app/utils/format.ts formatBytes (the routes' message). */
export function formatBytes(n) {
  if (n >= 1024 * 1024 * 1024) return `${+(n / (1024 * 1024 * 1024)).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

/**
 * Answers an Express request with a Remix action (a resource route's: it returns a Response) without the Remix
 * request handler: the body is read whole (bodyLimits has capped it), the Response's status, headers and bytes are
 * written as they are. A thrown Response is answered the same way; anything else goes to Express's error handler.
 */
export async function answerWithAction(action, req, res, context) {
  sendContinue(req);
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else if (v !== undefined) headers.set(k, v);
  }
  const request = new Request(`${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`, {
    method: req.method,
    headers,
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
  let response;
  try {
    response = await action({ request, params: {}, context });
  } catch (e) {
    if (!(e instanceof Response)) throw e;
    response = e;
  }
  res.status(response.status);
  for (const [k, v] of response.headers) if (k !== "set-cookie") res.setHeader(k, v);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  res.end(Buffer.from(await response.arrayBuffer()));
}

/*
 * Refusals the client can read (issue #49 item 3a). A request refused before its body is read (a budget, a plan, a
 * declared length over the limit) used to reach the client as a TCP reset: Node answered `Expect: 100-continue`
 * with 100 Continue at once, the client sent its body, the route answered 429 and the connection was destroyed
 * with the body unread (a reset drops the answer the client had not read yet). Now, in one place for every route:
 * - 100 Continue is sent only when something starts reading the body (`sendContinue`: the lazy Remix body, the
 *   small-body holder, the lookup's reader); a request refused before that gets its final status instead, and
 *   the client never sends the body;
 * - a response sent while the request's body is still arriving closes the connection politely: `Connection:
 *   close`, the answer, then our side's FIN, and whatever the client still sends is read and thrown away (at most
 *   LINGER_MS and LINGER_BYTES) before the socket is closed, so no reset overtakes the status.
 */
const CONTINUE = Symbol("continue pending");

/** Writes the interim 100 Continue of a request that asked for it, once, when its body is first wanted. */
export function sendContinue(req) {
  const res = req[CONTINUE];
  if (!res) return;
  req[CONTINUE] = null;
  if (!res.headersSent && !res.writableEnded) res.writeContinue();
}

export const LINGER_MS = 2000;
export const LINGER_BYTES = 1024 * 1024 * 1024;

function hasBody(req) {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/**
 * Installs the rules above on an http.Server (server.mjs calls it once on the Express app's server).
 */
export function politeBodies(server, { lingerMs = LINGER_MS, lingerBytes = LINGER_BYTES } = {}) {
  server.on("checkContinue", (req, res) => {
    req[CONTINUE] = res;
    server.emit("request", req, res);
  });
  server.prependListener("request", (req, res) => {
    if (!hasBody(req)) return;
    const writeHead = res.writeHead;
    res.writeHead = function politeHead(...args) {
      res.writeHead = writeHead;
      if (!req.complete) {
        // answered before the body was all here: this connection ends with this answer, politely
        req[CONTINUE] = null; // never a 100 after the final status
        res.setHeader("Connection", "close");
        lingerOnClose(req, res.socket, lingerMs, lingerBytes);
      }
      return writeHead.apply(this, args);
    };
  });
}

/** After the answer: FIN, then read and drop what the client still sends (bounded), then close. No reset. */
function lingerOnClose(req, socket, lingerMs, lingerBytes) {
  if (!socket || socket.destroyed) return;
  const destroySoon = socket.destroySoon;
  socket.destroySoon = function lingering() {
    socket.destroySoon = destroySoon;
    // whoever was reading the body (a parser, the lazy Remix body) has given up: the rest is thrown away
    req.removeAllListeners("data");
    let dropped = 0;
    req.on("data", (c) => {
      dropped += c.length;
      if (dropped > lingerBytes) socket.destroy();
    });
    req.on("error", () => {});
    req.resume();
    socket.end(); // our FIN after the answer; the client reads the whole status and stops sending
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    if (req.complete) socket.destroy();
    else req.once("end", () => socket.destroy()); // everything the client sent is read: a clean close
  };
}

/**
 * The request body Remix reads, pulled from the socket only when the route reads it (the Remix adapter's own
 * stream starts reading at once, which would send 100 Continue before the route could refuse). Cancelling it
 * (a route that refuses unread, `request.body.cancel()`) stops reading; it never destroys the connection: the
 * answer then closes it politely (politeBodies).
 */
export function lazyRequestBody(req) {
  let listening = false;
  let done = false;
  return new ReadableStream(
    {
      pull(controller) {
        if (done) return;
        sendContinue(req);
        if (!listening) {
          listening = true;
          const finish = (fn) => {
            if (done) return;
            done = true;
            try {
              fn();
            } catch {
              // already closed by the reader
            }
          };
          req.on("data", (chunk) => {
            if (done) return;
            controller.enqueue(chunk);
            if ((controller.desiredSize ?? 0) <= 0) req.pause();
          });
          req.once("end", () => finish(() => controller.close()));
          req.once("error", (e) => finish(() => controller.error(e)));
          req.once("close", () => {
            if (!req.complete) finish(() => controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" })));
          });
        }
        req.resume();
      },
      cancel() {
        done = true;
        req.removeAllListeners("data");
        req.pause();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * @remix-run/express's createRequestHandler with the lazy body above (its createRemixRequest, headers and
 * response writing, otherwise the same: URL from the Host, the abort signal when the client goes away first).
 */
export function remixRequestHandler({ build, mode, getLoadContext }) {
  const handleRequest = createRemixHandler(build, mode);
  return async (req, res, next) => {
    try {
      const request = remixRequest(req, res);
      const loadContext = await getLoadContext?.(req, res);
      const response = await handleRequest(request, loadContext);
      await sendRemixResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

export function remixRequest(req, res) {
  const [, forwardedPort] = req.get("X-Forwarded-Host")?.split(":") ?? [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const a = Number.parseInt(forwardedPort, 10);
  const b = Number.parseInt(hostPort, 10);
  const port = Number.isSafeInteger(a) ? a : Number.isSafeInteger(b) ? b : "";
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  let controller = new AbortController();
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const v of values) headers.append(key, v);
    else headers.set(key, values);
  }
  const init = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = lazyRequestBody(req);
    init.duplex = "half";
  }
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  return new Request(url.href, init);
}

async function sendRemixResponse(res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
