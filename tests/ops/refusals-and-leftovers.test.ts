import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedDataDir } from "../setup/pglite-template";
import { jsonLines, startWeb, type RunningProcess } from "./web-process";

/*
 * Issue #49 on the built server (`node server.mjs`, embedded): a `.part` upload a stopped process left is gone
 * once the next one has started (3b), and /verify's refusal of a large body reaches a raw HTTP client as its
 * 429, with and without `Expect: 100-continue`, never a 100 Continue or a reset (3a).
 */
const USER = "55555555-5555-4555-8555-555555555555";
let web: RunningProcess;
let dataDir: string;
let part: string;
let complete: string;

beforeAll(async () => {
  dataDir = await migratedDataDir("dpt-issue49");
  const dir = path.join(dataDir, "uploads", USER);
  fs.mkdirSync(dir, { recursive: true });
  // what a SIGTERM mid-upload leaves: a .part (3 MB here for 300), fresh, of the version before the writer tag
  part = path.join(dir, `${crypto.randomBytes(16).toString("hex")}.csv.part`);
  fs.writeFileSync(part, Buffer.alloc(3 * 1024 * 1024, 0x31));
  complete = path.join(dir, `${crypto.randomBytes(16).toString("hex")}.csv`);
  fs.writeFileSync(complete, "Number\n2125552101\n");
  web = await startWeb({ DATA_DIR: dataDir });
}, 240_000);
afterAll(async () => {
  await web?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the built server and issue #49", () => {
  it("a .part upload left by a stopped process is removed at start; complete uploads stay", () => {
    expect(fs.existsSync(part)).toBe(false);
    expect(fs.existsSync(complete)).toBe(true);
    expect(jsonLines(web.lines()).some((l) => String(l.msg) === "[boot] removed 1 partial upload file(s) left by a stopped process")).toBe(true);
  });

  it("/verify's 429 of a 48 MB body reaches the client: no 100 Continue with Expect, no reset without", { timeout: 120_000 }, async () => {
    // 30 checks an hour per address (VERIFY_LIMITS): spend them with small forms, then the large ones are refused
    for (let i = 0; i < 30; i++) {
      const fd = new FormData();
      fd.append("certificate", new Blob(["{}"]), "certificate.json");
      const r = await fetch(`${web.url}/verify`, { method: "POST", body: fd });
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    }
    const withExpect = await rawPost(web.port, "/verify", 48 * 1024 * 1024, true);
    expect(withExpect.text.startsWith("HTTP/1.1 429")).toBe(true);
    expect(withExpect.text).not.toContain("100 Continue");
    expect(withExpect.sent).toBe(0);
    expect(withExpect.error).toBeNull();

    const without = await rawPost(web.port, "/verify", 48 * 1024 * 1024, false);
    expect(without.text.startsWith("HTTP/1.1 429")).toBe(true);
    expect(without.text).toContain("Too many certificate checks");
    expect(without.error).toBeNull();
  });
});

describe("/readyz on the built server (issue #49 item 1)", () => {
  const checksRun = async () => {
    const text = await (await fetch(`${web.url}/metrics`)).text();
    return Number(/^dpt_readiness_checks_total (\d+)/m.exec(text)?.[1] ?? NaN);
  };

  it("300 concurrent and then rapid requests for about 1.5 s run the checks about once a second", { timeout: 60_000 }, async () => {
    const before = await checksRun();
    const started = performance.now();
    const burst = await Promise.all(Array.from({ length: 300 }, () => fetch(`${web.url}/readyz`).then((r) => r.status)));
    expect(burst.every((s) => s === 200)).toBe(true);
    let asked = burst.length;
    while (performance.now() - started < 1500) {
      await Promise.all(Array.from({ length: 20 }, () => fetch(`${web.url}/readyz`).then((r) => r.arrayBuffer())));
      asked += 20;
    }
    const seconds = (performance.now() - started) / 1000;
    const ran = (await checksRun()) - before;
    // one per cached second (+1 for the one in flight at the edge, +1 for the /metrics scrape that reads dpt_ready)
    expect(ran).toBeGreaterThanOrEqual(1);
    expect(ran).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
    expect(asked).toBeGreaterThan(300);
  });
});

/** A raw client: the head, then (after a 100 Continue, or at once without Expect) the body while reading the answer. */
function rawPost(port: number, pathname: string, bytes: number, expectContinue: boolean): Promise<{ text: string; sent: number; error: string | null }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const boundary = "----issue49";
    let text = "";
    let sent = 0;
    let error: string | null = null;
    let answered = false;
    let sending = false;
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    const send = () => {
      if (sending) return;
      sending = true;
      const pump = () => {
        while (!answered && sent < bytes) {
          const n = Math.min(chunk.length, bytes - sent);
          sent += n;
          if (!socket.write(chunk.subarray(0, n))) return void socket.once("drain", pump);
        }
      };
      pump();
    };
    socket.on("data", (c) => {
      text += c.toString("latin1");
      if (expectContinue && text.startsWith("HTTP/1.1 100")) send();
      if (/^HTTP\/1\.1 (?!100)\d{3}/.test(text)) answered = true;
    });
    socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on("close", () => resolve({ text, sent, error }));
    socket.write(
      [
        `POST ${pathname} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${bytes}`,
        ...(expectContinue ? ["Expect: 100-continue"] : []),
        "",
        "",
      ].join("\r\n"),
    );
    if (expectContinue) setTimeout(send, 1500);
    else send();
    setTimeout(() => socket.destroy(), 30_000).unref();
  });
}
