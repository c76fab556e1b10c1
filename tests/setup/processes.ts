/** Helpers for tests that run real processes and servers on loopback (fault and scaling tests). */
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls fn until it returns a truthy value; throws after timeoutMs (a bound, never an assertion on time). */
export async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** SHA-256 of a file's bytes. */
export const sha = (p: string) => crypto.createHash("sha256").update(fs.readFileSync(p)).digest("hex");
