/** Helpers for tests that run real processes and servers on loopback (fault and scaling tests). */
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";

/**
 * A TCP port nobody listens on right now, for a process the test starts. Drawn below the kernel's ephemeral range
 * (ip_local_port_range): a port the kernel handed out for port 0 is free again once closed, and any outgoing
 * connection of a test running beside this one may take it as its source port before the process binds it (a
 * cluster node then failed to start, "does not answer", with the parallel project running beside the fault
 * suites). Falls back to a kernel-chosen port where the range is unknown.
 */
export async function freePort(): Promise<number> {
  const lowest = ephemeralLow();
  for (let attempt = 0; lowest > 11_000 && attempt < 50; attempt++) {
    const port = 10_000 + crypto.randomInt(lowest - 10_000);
    // not one this process handed out already (a cluster's six ports are picked before any is bound)
    if (!handedOut.has(port) && (await canListen(port))) {
      handedOut.add(port);
      return port;
    }
  }
  return listenOn(0);
}

const handedOut = new Set<number>();

function ephemeralLow(): number {
  try {
    return Number(fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 0;
  } catch {
    return 0;
  }
}

async function canListen(port: number): Promise<boolean> {
  return listenOn(port).then(
    () => true,
    () => false,
  );
}

/** Listens on `port` (0: the kernel's choice) on loopback, closes, and returns the port. */
function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(port, "127.0.0.1", () => {
      const chosen = (srv.address() as { port: number }).port;
      srv.close(() => resolve(chosen));
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
