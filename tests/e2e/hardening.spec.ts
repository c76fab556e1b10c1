import http from "node:http";
import { expect, test } from "./fixtures";

/*
 * The real server.mjs wires the hardening middleware (tests/security/server-security.test.ts tests it in
 * detail, HSTS in production included): a body declared larger than the upload limit is refused before it is
 * read, on the web upload routes and the API alike; the newer upload routes refuse cross-site posts.
 */

/** Sends headers declaring `declared` bytes but only a few bytes of body; resolves with the early answer. */
function declareHuge(baseURL: string, path: string, declared: number): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseURL);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "Content-Length": String(declared), "Content-Type": "multipart/form-data; boundary=x", Origin: url.origin },
      },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), body }));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => (e.code === "EPIPE" || e.code === "ECONNRESET" ? undefined : reject(e)));
    req.write("--x\r\n"); // the rest never comes: the answer must not wait for it
  });
}

test("a body declared over the upload limit is refused before it is read (web and API)", async ({ baseURL }) => {
  const over = 500 * 1024 * 1024 + 2 * 1024 * 1024; // MAX_UPLOAD_BYTES default + more than the envelope slack
  for (const path of ["/purge/upload", "/purge", "/resources/list-uploads", "/containers"]) {
    const web = await declareHuge(baseURL!, path, over);
    expect(web.status).toBe(413);
    expect(web.body).toBe("File is too large. The limit is 500 MB.");
  }
  const api = await declareHuge(baseURL!, "/api/v1/scrubs", over);
  expect(api.status).toBe(413);
  expect(api.type).toContain("application/json");
  expect(JSON.parse(api.body)).toEqual({ error: { code: "payload_too_large", message: "File is too large. The limit is 500 MB." } });
});

test("upload routes refuse cross-site posts; no HSTS outside production", async ({ request }) => {
  for (const path of ["/purge/upload", "/resources/list-uploads"]) {
    const res = await request.post(path, {
      headers: { Origin: "https://evil.example" },
      multipart: { file: { name: "a.csv", mimeType: "text/csv", buffer: Buffer.from("Phone\n2125552101\n") } },
    });
    expect(res.status()).toBe(403);
    expect(await res.text()).toBe("Cross-site request refused.");
  }
  const page = await request.get("/login");
  expect(page.headers()["strict-transport-security"]).toBeUndefined();
  expect(page.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
});
