import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerWithAction, bodyLimits, FORM_BODY_LIMIT, noStore, sameOriginPosts, securityHeaders, untrustedForwardedHeaders } from "../../server-security.mjs";

/*
 * The production server's middleware (server.mjs mounts exactly these), on a bare Express app with the same
 * order: headers, same-origin POST check, body limits. HSTS only in production.
 * The e2e spec tests/e2e/security.spec.ts checks the headers and the cross-site refusal on the real server.
 */
const LIMIT = 4096;
const SLACK = 1024;

function makeApp(production: boolean) {
  const app = express();
  app.disable("x-powered-by");
  app.use(securityHeaders({ production }));
  app.use(sameOriginPosts());
  app.use(bodyLimits({ maxUploadBytes: LIMIT, slack: SLACK }));
  app.use(noStore());
  app.all("*", (req, res) => {
    let bytes = 0;
    req.on("data", (c: Buffer) => (bytes += c.length));
    req.on("end", () => res.json({ reached: true, bytes, type: req.get("content-type") ?? null, nonce: res.locals.cspNonce }));
  });
  return app;
}

const servers: http.Server[] = [];
let dev = "";
let prod = "";

async function listen(app: express.Express): Promise<string> {
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  dev = await listen(makeApp(false));
  prod = await listen(makeApp(true));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

describe("security headers", () => {
  it("CSP with a fresh nonce per response, frame-ancestors none, nosniff, referrer policy, no HSTS outside production", async () => {
    const a = await fetch(`${dev}/login`);
    const b = await fetch(`${dev}/login`);
    const csp = a.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toMatch(/(^|; )style-src 'self'(;|$)/);
    expect(csp).not.toContain("unsafe-inline");
    const nonceA = (await a.json()).nonce as string;
    const nonceB = (await b.json()).nonce as string;
    expect(csp).toContain(`'nonce-${nonceA}'`);
    expect(nonceA).not.toBe(nonceB);
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(a.headers.get("x-frame-options")).toBe("DENY");
    expect(a.headers.get("strict-transport-security")).toBeNull();
    expect(a.headers.get("cache-control")).toBe("no-store");
  });

  it("HSTS in production, on pages, API answers and refusals alike", async () => {
    for (const [method, path, headers] of [
      ["GET", "/", {}],
      ["GET", "/api/v1/usage", {}],
      ["POST", "/login", { Origin: "https://evil.example" }],
    ] as const) {
      const res = await fetch(`${prod}${path}`, { method, headers });
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    }
  });
});

describe("same-origin check for form posts", () => {
  const post = (path: string, headers: Record<string, string>) =>
    fetch(`${dev}${path}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers }, body: "a=1" });

  it("refuses another origin, a null origin and a cross-site fetch before the app sees them", async () => {
    const attempts: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { "Sec-Fetch-Site": "cross-site" },
      { Origin: "http://127.0.0.1.evil.example" },
    ];
    for (const headers of attempts) {
      const res = await post("/logout", headers);
      expect(res.status).toBe(403);
      expect(await res.text()).toBe("Cross-site request refused.");
    }
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const res = await fetch(`${dev}/user-management`, { method, headers: { Origin: "https://evil.example" } });
      expect(res.status).toBe(403);
    }
  });

  it("lets same-origin posts, same-site fetches, reads and the bearer-key API through", async () => {
    const host = new URL(dev).host;
    expect((await post("/logout", { Origin: `http://${host}` })).status).toBe(200);
    expect((await post("/logout", { "Sec-Fetch-Site": "same-origin" })).status).toBe(200);
    expect((await fetch(`${dev}/logout`, { headers: { Origin: "https://evil.example" } })).status).toBe(200);
    expect((await post("/api/v1/scrubs", { Origin: "https://evil.example" })).status).toBe(200);
  });
});

/** Sends a body of `size` bytes (honest Content-Length, or chunked); resolves with status and text. */
function send(path: string, size: number, { chunked = false, type = "text/csv" as string | null } = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${dev}${path}`);
    const headers: Record<string, string> = chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(size) };
    if (type) headers["Content-Type"] = type;
    const req = http.request({ host: url.hostname, port: url.port, path, method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" || e.code === "ECONNRESET" ? undefined : reject(e)));
    if (chunked) {
      // 16 KiB pieces: the refusal must come while the body is still arriving.
      for (let sent = 0; sent < size; sent += 16 * 1024) req.write(Buffer.alloc(Math.min(16 * 1024, size - sent), 0x31));
      req.end();
    } else req.end(Buffer.alloc(size, 0x31));
  });
}

describe("declared body limit on upload routes", () => {
  it("one byte over limit + envelope slack is refused with the limit in words, before the body is read", async () => {
    const over = await send("/purge", LIMIT + SLACK + 1);
    expect(over.status).toBe(413);
    expect(over.text).toBe("File is too large. The limit is 4 KB.");
    const api = await send("/api/v1/scrubs", LIMIT + SLACK + 1);
    expect(api.status).toBe(413);
    expect(JSON.parse(api.text)).toEqual({ error: { code: "payload_too_large", message: "File is too large. The limit is 4 KB." } });
  });

  it("a body at the limit + slack reaches the app (the routes' streamed cap decides to the byte)", async () => {
    const at = await send("/purge", LIMIT + SLACK);
    expect(at.status).toBe(200);
    expect(JSON.parse(at.text)).toMatchObject({ reached: true, bytes: LIMIT + SLACK });
  });
});

describe("forwarded headers", () => {
  const FORGED = { "X-Forwarded-Host": "evil.example:9999", "X-Forwarded-Proto": "https", "X-Forwarded-For": "6.6.6.6", Forwarded: "host=evil.example" };

  async function seenBy(trustProxy: string | undefined) {
    const app = express();
    if (trustProxy) app.set("trust proxy", trustProxy);
    app.use(untrustedForwardedHeaders({ trustProxy }));
    app.get("*", (req, res) => res.json({ headers: req.headers, ip: req.ip, protocol: req.protocol }));
    const base = await listen(app);
    return (await fetch(`${base}/x`, { headers: FORGED })).json();
  }

  it("are dropped before anything reads them unless TRUST_PROXY is set", async () => {
    const untrusted = await seenBy(undefined);
    for (const h of Object.keys(FORGED)) expect(untrusted.headers[h.toLowerCase()], h).toBeUndefined();
    expect(untrusted.protocol).toBe("http");
    expect(untrusted.ip).not.toBe("6.6.6.6");
    const trusted = await seenBy("loopback");
    expect(trusted.headers["x-forwarded-host"]).toBe("evil.example:9999");
    expect(trusted.ip).toBe("6.6.6.6");
  });
});

describe("small body limit on every other route", () => {
  it("a declared body over 64 KiB on a form route is refused before it is read, on pages and the API alike", async () => {
    expect(FORM_BODY_LIMIT).toBe(64 * 1024);
    const page = await send("/login", FORM_BODY_LIMIT + 1, { type: "application/x-www-form-urlencoded" });
    expect(page).toEqual({ status: 413, text: "Request is too large. The limit is 64 KB." });
    const api = await send("/api/v1/containers", FORM_BODY_LIMIT + 1, { type: "application/json" });
    expect(api.status).toBe(413);
    expect(JSON.parse(api.text).error.code).toBe("payload_too_large");
  });

  it("a chunked body is cut off the moment it passes the limit, and the route never sees it", async () => {
    for (const path of ["/login", "/signup", "/forgot-password", "/PURGE/upload/x", "/pricing/p1/confirm", "/purge/upload/../../login"]) {
      const res = await send(path, 10 * 1024 * 1024, { chunked: true, type: "application/x-www-form-urlencoded" });
      expect(res.status, path).toBe(413);
      expect(res.text).not.toContain("reached");
    }
  });

  it("a body within the limit reaches the route whole, chunked or not", async () => {
    for (const chunked of [false, true]) {
      const res = await send("/login", FORM_BODY_LIMIT, { chunked, type: "application/x-www-form-urlencoded" });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toMatchObject({ reached: true, bytes: FORM_BODY_LIMIT });
    }
  });

  it("upload routes (any case, trailing slash, single-fetch .data) take large bodies", async () => {
    for (const path of [
      "/purge/upload",
      "/Purge/Upload/",
      "/purge/upload.data",
      "/resources/list-uploads",
      "/api/v1/containers/abc/numbers",
      "/verify",
      "/api/v1/exemption-lists",
      "/api/v1/exemption-lists/7",
      "/call-history",
    ]) {
      const res = await send(path, LIMIT + SLACK, { chunked: true, type: "multipart/form-data; boundary=x" });
      expect(res.status, path).toBe(200);
    }
  });
});

describe("form encodings", () => {
  it("a page POST without Content-Type is read as the HTML default, url-encoded", async () => {
    const res = await send("/pricing/p1/confirm", 3, { type: null });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ reached: true, type: "application/x-www-form-urlencoded" });
  });

  it("an encoding no form uses, or a multipart body that does not parse, is refused before any action", async () => {
    for (const type of ["text/plain", "application/json", "multipart/form-data", "text/csv"]) {
      const res = await send("/pricing/p1/confirm", 10, { type });
      expect(res, type).toEqual({ status: 415, text: "This form was sent in an encoding the server does not read." });
    }
    const broken = await send("/login", 100, { type: "multipart/form-data; boundary=zzz" });
    expect(broken).toEqual({ status: 400, text: "The form could not be read." });
  });
});

describe("an action answered without the Remix handler (POST /api/v1/lookup, server.mjs)", () => {
  let base = "";
  const seen: { body: string; auth: string | null; ip: unknown }[] = [];
  beforeAll(async () => {
    const app = express();
    app.use(securityHeaders({ production: false }));
    app.use(sameOriginPosts());
    app.use(bodyLimits({ maxUploadBytes: LIMIT, slack: SLACK }));
    app.use(noStore());
    app.post("/api/v1/lookup", (req, res, next) => {
      answerWithAction(
        async ({ request, context }: { request: Request; context: { clientIp: string } }) => {
          const body = await request.text();
          seen.push({ body, auth: request.headers.get("authorization"), ip: context.clientIp });
          if (body === "throw-response")
            throw new Response(JSON.stringify({ error: "thrown" }), { status: 401, headers: { "Content-Type": "application/json" } });
          if (body === "throw-error") throw new Error("boom");
          const headers = new Headers({ "Content-Type": "application/json", "X-Test": "1" });
          headers.append("Set-Cookie", "a=1");
          headers.append("Set-Cookie", "b=2");
          return new Response(JSON.stringify({ echoed: body.length }), { status: 200, headers });
        },
        req,
        res,
        { clientIp: "127.0.0.1" },
      ).catch(next);
    });
    app.use((_e: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => res.status(500).json({ error: "internal" }));
    base = await listen(app);
  });

  it("passes the body and headers through and answers with the action's status, headers, cookies and bytes", async () => {
    const r = await fetch(`${base}/api/v1/lookup`, {
      method: "POST",
      headers: { Authorization: "Bearer k", "Content-Type": "application/json" },
      body: '{"numbers":["2125550100"]}',
    });
    expect([r.status, await r.json(), r.headers.get("x-test"), r.headers.getSetCookie()]).toEqual([200, { echoed: 26 }, "1", ["a=1", "b=2"]]);
    expect(r.headers.get("content-security-policy")).toContain("default-src 'self'"); // the middleware ran first
    expect(seen.at(-1)).toEqual({ body: '{"numbers":["2125550100"]}', auth: "Bearer k", ip: "127.0.0.1" });
  });

  it("answers a thrown Response as it is; any other error goes to the error handler", async () => {
    const thrown = await fetch(`${base}/api/v1/lookup`, { method: "POST", body: "throw-response" });
    expect([thrown.status, await thrown.json()]).toEqual([401, { error: "thrown" }]);
    const failed = await fetch(`${base}/api/v1/lookup`, { method: "POST", body: "throw-error" });
    expect([failed.status, await failed.json()]).toEqual([500, { error: "internal" }]);
  });

  it("a body over the small limit is refused by the middleware before the action reads it", async () => {
    const before = seen.length;
    const r = await fetch(`${base}/api/v1/lookup`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "x".repeat(FORM_BODY_LIMIT + 1) });
    expect(r.status).toBe(413);
    expect(seen.length).toBe(before);
  });
});
