import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declaredBodyLimit, sameOriginPosts, securityHeaders, untrustedForwardedHeaders } from "../../server-security.mjs";

/*
 * The production server's middleware (server.mjs mounts exactly these), on a bare Express app with the same
 * order: headers, same-origin POST check, declared body limit. HSTS only in production.
 * The e2e spec tests/e2e/security.spec.ts checks the headers and the cross-site refusal on the real server.
 */
const LIMIT = 4096;
const SLACK = 1024;

function makeApp(production: boolean) {
  const app = express();
  app.disable("x-powered-by");
  app.use(securityHeaders({ production }));
  app.use(sameOriginPosts());
  app.use(declaredBodyLimit({ maxUploadBytes: LIMIT, slack: SLACK }));
  app.all("*", (req, res) => {
    let bytes = 0;
    req.on("data", (c: Buffer) => (bytes += c.length));
    req.on("end", () => res.json({ reached: true, bytes, nonce: res.locals.cspNonce }));
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
    const nonceA = (await a.json()).nonce as string;
    const nonceB = (await b.json()).nonce as string;
    expect(csp).toContain(`'nonce-${nonceA}'`);
    expect(nonceA).not.toBe(nonceB);
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(a.headers.get("x-frame-options")).toBe("DENY");
    expect(a.headers.get("strict-transport-security")).toBeNull();
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

describe("declared body limit", () => {
  /** Sends a body of `size` bytes with an honest Content-Length; resolves with status and text. */
  function send(path: string, size: number): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const url = new URL(`${dev}${path}`);
      const req = http.request(
        { host: url.hostname, port: url.port, path, method: "POST", headers: { "Content-Length": String(size), "Content-Type": "text/csv" } },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" || e.code === "ECONNRESET" ? undefined : reject(e)));
      req.end(Buffer.alloc(size, 0x31));
    });
  }

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
