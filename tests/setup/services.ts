import { execFileSync } from "node:child_process";
import net from "node:net";

/**
 * Tests that need a real service (PostgreSQL, Redis), a program (redis-server, pg_ctl) or root. README
 * promises `npm test` passes on the embedded defaults alone, so outside CI such a test is skipped and says
 * why; under CI=true nothing is ever skipped: a missing need fails the run.
 */
export type Need = { kind: "tcp"; name: string; url: string } | { kind: "program"; name: string } | { kind: "root" };

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol.startsWith("redis") ? 6379 : 5432));
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname || "127.0.0.1", port, timeout: 1000 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

function hasProgram(name: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function problem(need: Need): Promise<string | null> {
  if (need.kind === "root") return process.getuid?.() === 0 ? null : "needs root";
  if (need.kind === "program") return hasProgram(need.name) ? null : `needs the program ${need.name}`;
  if (!need.url) return `needs ${need.name} (its URL is unset)`;
  return (await reachable(need.url)) ? null : `needs ${need.name} at ${need.url}, which does not answer`;
}

/** True when the suite should skip (and prints why); throws under CI=true, where nothing is skipped. */
export async function skipWithout(what: string, needs: Need[], env: Record<string, string | undefined> = process.env): Promise<boolean> {
  const problems = (await Promise.all(needs.map(problem))).filter((p): p is string => p !== null);
  if (problems.length === 0) return false;
  const reason = `${what}: ${problems.join("; ")}`;
  if (env.CI === "true") throw new Error(`CI=true never skips tests. ${reason}.`);
  console.info(`[skipped] ${reason} (CI fails instead of skipping).`);
  return true;
}
