import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimits, politeBodies, remixRequest } from "../../server-security.mjs";

/*
 * Issue #49 item 3a: a request refused before its body is read gets its status, never 100 Continue and never a
 * reset. The server's pieces (server.mjs mounts exactly these: politeBodies on the server, bodyLimits, and the
 * Remix request built by remixRequest) on a bare Express app; a raw socket is the client, so what goes over the
 * wire is what is checked. tests/security/polite-refusals-server.test.ts does the same against the built app.
 */
const MAX_UPLOAD = 256 * 1024 * 1024;
const BIG = 48 * 1024 * 1024;

let base: { port: number };
let server: http.Server;

beforeAll(async () => {
  const app = express();
  app.use(bodyLimits({ maxUploadBytes: MAX_UPLOAD, slack: 1024 }));
  // a budget refusal before the body is read, the way /verify answers (it cancels the body, then answers 429)
  app.post("/verify", async (req, res) => {
    const request = remixRequest(req, res);
    await request.body?.cancel();
    res.status(429).type("text/plain").send("The hourly budget is spent.");
  });
  // a plan refusal that does not even touch the body
  app.post("/api/v1/scrubs", (_req, res) => void res.status(403).json({ error: { code: "no_plan" } }));
  // a route that reads its body (an accepted upload)
  app.post("/purge/upload", async (req, res) => {
    const request = remixRequest(req, res);
    const bytes = (await request.arrayBuffer()).byteLength;
    res.json({ bytes });
  });
  // a small form: the body is held whole by bodyLimits, then read
  app.post("/login", async (req, res) => {
    const request = remixRequest(req, res);
    res.json({ text: await request.text() });
  });
  server = http.createServer(app);
  politeBodies(server, { lingerMs: 2000 });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = { port: (server.address() as AddressInfo).port };
});
afterAll(() => new Promise((r) => server.close(r)));

interface Exchange {
  /** Everything the server sent, as text (bodies here are short). */
  text: string;
  /** The socket error the client met, if any (a reset shows as ECONNRESET or EPIPE). */
  error: string | null;
  /** Whether the server's bytes included the status line before any error. */
  statusBeforeError: boolean;
  sentBody: number;
}

/**
 * A raw HTTP/1.1 client: sends the head; with `expect`, waits for the server's first bytes (up to 1.5 s) and
 * sends the body only after a 100 Continue (as curl and browsers do; after the 1.5 s it sends anyway); without,
 * sends the body at once, as fast as the socket takes it, while reading the answer.
 */
function exchange(path: string, o: { bodyBytes: number; expect: boolean; declare?: boolean; contentType?: string; ignoreAnswer?: boolean }): Promise<Exchange> {
  return new Promise((resolve) => {
    // a client that ignores the answer also ignores our FIN and keeps sending (half-open)
    const socket = net.connect({ port: base.port, host: "127.0.0.1", allowHalfOpen: Boolean(o.ignoreAnswer) });
    let text = "";
    let error: string | null = null;
    let statusBeforeError = false;
    let sentBody = 0;
    let sending = false;
    let finished = false;
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    const sendBody = () => {
      if (sending) return;
      sending = true;
      const pump = () => {
        while (!finished && sentBody < o.bodyBytes) {
          const n = Math.min(chunk.length, o.bodyBytes - sentBody);
          sentBody += n;
          const part = n === chunk.length ? chunk : chunk.subarray(0, n);
          const last = sentBody >= o.bodyBytes;
          const framed = o.declare === false ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), part, Buffer.from(last ? "\r\n0\r\n\r\n" : "\r\n")]) : part;
          if (!socket.write(framed)) return void socket.once("drain", pump);
        }
      };
      pump();
    };
    socket.on("data", (c) => {
      text += c.toString("latin1");
      if (/^HTTP\/1\.1 \d{3}/.test(text)) statusBeforeError = statusBeforeError || error === null;
      if (o.expect && !sending && text.startsWith("HTTP/1.1 100")) sendBody();
      // a final answer: stop sending, as a client reading its answer does
      if (!o.ignoreAnswer && /^HTTP\/1\.1 (?!100)\d{3}|\r\n\r\nHTTP\/1\.1 \d{3}/.test(text)) finished = true;
    });
    socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on("close", () => resolve({ text, error, statusBeforeError, sentBody }));
    const head = [
      `POST ${path} HTTP/1.1`,
      "Host: 127.0.0.1",
      `Content-Type: ${o.contentType ?? "application/octet-stream"}`,
      ...(o.declare === false ? ["Transfer-Encoding: chunked"] : [`Content-Length: ${o.bodyBytes}`]),
      ...(o.expect ? ["Expect: 100-continue"] : []),
      "Connection: close", // the client's side: one request; the server's refusals close on their own anyway
      "",
      "",
    ].join("\r\n");
    socket.write(head);
    if (o.expect) setTimeout(sendBody, 1500);
    else sendBody();
    // the server closes when it is done; a client that has its answer closes after a while too
    setTimeout(() => socket.destroy(), 15_000).unref();
  });
}

const statusOf = (t: string) => t.match(/^HTTP\/1\.1 (\d{3})/)?.[1];

describe("a request refused before its body is read gets its status", () => {
  it("Expect: 100-continue + a 48 MB body to a budget refusal: 429 with no 100 Continue, the body never sent", async () => {
    const x = await exchange("/verify", { bodyBytes: BIG, expect: true });
    expect(x.text).not.toContain("100 Continue");
    expect(statusOf(x.text)).toBe("429");
    expect(x.text).toContain("The hourly budget is spent.");
    expect(x.text.toLowerCase()).toContain("connection: close");
    expect(x.error).toBeNull();
    expect(x.sentBody).toBe(0);
  });

  it("no Expect, a 48 MB body sent at once to the same refusal: the 429 is read, never a reset", async () => {
    const x = await exchange("/verify", { bodyBytes: BIG, expect: false });
    expect(statusOf(x.text)).toBe("429");
    expect(x.text).toContain("The hourly budget is spent.");
    expect(x.statusBeforeError).toBe(true);
    expect(x.error).toBeNull();
  });

  it("a client that sends its whole 200 MB body whatever the answer: the rest is read and dropped, the 429 arrives, no reset", async () => {
    const x = await exchange("/verify", { bodyBytes: 200 * 1024 * 1024, expect: false, ignoreAnswer: true });
    expect(statusOf(x.text)).toBe("429");
    expect(x.statusBeforeError).toBe(true);
    expect(x.error).toBeNull();
    expect(x.sentBody).toBe(200 * 1024 * 1024);
  });

  it("a plan refusal that never touches the body (API scrubs), with and without Expect", async () => {
    for (const expectContinue of [true, false]) {
      const x = await exchange("/api/v1/scrubs", { bodyBytes: 8 * 1024 * 1024, expect: expectContinue });
      expect(x.text).not.toContain("100 Continue");
      expect(statusOf(x.text)).toBe("403");
      expect(x.error).toBeNull();
    }
  });

  it("a declared length over the upload limit: 413 from the body limits, with and without Expect", async () => {
    for (const expectContinue of [true, false]) {
      const x = await exchange("/purge/upload", { bodyBytes: 8 * BIG, expect: expectContinue });
      expect(x.text).not.toContain("100 Continue");
      expect(statusOf(x.text)).toBe("413");
      expect(x.text).toContain("File is too large. The limit is 256 MB.");
      expect(x.error).toBeNull();
    }
  });

  it("a chunked body past the small-form limit: 413 read by the client, never a reset", async () => {
    const x = await exchange("/login", { bodyBytes: 4 * 1024 * 1024, expect: false, declare: false, contentType: "application/x-www-form-urlencoded" });
    expect(statusOf(x.text)).toBe("413");
    expect(x.error).toBeNull();
  });
});

describe("a request whose body is wanted still gets 100 Continue", () => {
  it("an upload route that reads its body: 100 Continue, then the body, then 200", async () => {
    const x = await exchange("/purge/upload", { bodyBytes: 512 * 1024, expect: true });
    expect(x.text.startsWith("HTTP/1.1 100 Continue\r\n\r\n")).toBe(true);
    expect(x.text).toContain('{"bytes":524288}');
  });

  it("a small form with Expect: 100 Continue (the body limits hold it whole), then the answer", async () => {
    const x = await exchange("/login", { bodyBytes: 100, expect: true, contentType: "application/x-www-form-urlencoded" });
    expect(x.text.startsWith("HTTP/1.1 100 Continue\r\n\r\n")).toBe(true);
    expect(x.text).toContain(`{"text":"${"a".repeat(100)}"}`);
  });

  it("keep-alive is untouched when the whole body was read", async () => {
    const res = await fetch(`http://127.0.0.1:${base.port}/purge/upload`, { method: "POST", body: Buffer.alloc(1000) });
    expect(res.status).toBe(200);
    expect(res.headers.get("connection")).not.toBe("close");
  });
});
