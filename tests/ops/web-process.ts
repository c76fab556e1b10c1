import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { SCRUB_SERVICE_ENTRY } from "scrub-service/entry-points";
import { migratedDataDir } from "../setup/pglite-template";
import { freePort, until } from "../setup/processes";

const root = path.resolve(import.meta.dirname, "../..");

/** The built app (`npm run build`, which `npm test` runs first); a clear error when it is missing. */
export function requireBuild(): string {
  const buildDir = path.join(root, "build");
  if (!fs.existsSync(path.join(buildDir, "index.js"))) throw new Error("tests/ops need the built app: run `npm run build` first (npm test does).");
  return buildDir;
}

export interface RunningProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Every stdout line so far. */
  lines: () => string[];
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

async function startProcess(args: string[], env: Record<string, string>, answerPath: string, portVar: string): Promise<RunningProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, VITEST: "", VITEST_WORKER_ID: "", NODE_ENV: "development", LOG_LEVEL: "info", ...env, [portVar]: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (c) => (out += c));
  child.stderr!.on("data", (c) => (err += c));
  const url = `http://127.0.0.1:${port}`;
  await until(
    `${args.join(" ")} on :${port} to answer`,
    async () => {
      if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${err}${out}`);
      return fetch(`${url}${answerPath}`).then(
        (r) => r.ok,
        () => false,
      );
    },
    180_000, // a fresh PGlite migrates first; on a busy two-core machine that can take a minute
  );
  return {
    child,
    url,
    port,
    lines: () => out.split("\n").filter(Boolean),
    stderr: () => err,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
      child.kill(signal);
      return exited;
    },
  };
}

/**
 * `node server.mjs` on a fresh embedded data directory (plus whatever env overrides): it holds the migrated
 * empty database a first start makes, copied from the template (tests/setup/pglite-template.ts), so the
 * process starts in a second instead of running PGlite's initdb and the migrations.
 */
export async function startWeb(env: Record<string, string> = {}): Promise<RunningProcess> {
  const dataDir = await migratedDataDir("dpt-ops-web");
  return startProcess(
    ["server.mjs"],
    {
      BUILD_DIR: requireBuild(),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      REDIS_CLUSTER_NODES: "",
      SCRUB_SERVICE_URL: "",
      SMTP_URL: "",
      DEMO_ADMIN: "1",
      ...env,
    },
    "/healthz",
    "PORT",
  );
}

/** `npm run scrub-service` as a replica runs it. */
export function startScrubService(env: Record<string, string>): Promise<RunningProcess> {
  return startProcess(["--import", "tsx", SCRUB_SERVICE_ENTRY], { REDIS_CLUSTER_NODES: "", ...env }, "/healthz", "SCRUB_SERVICE_PORT");
}

/** Parsed JSON log lines; throws naming the first line that is not one JSON object. */
export function jsonLines(lines: string[]): Record<string, unknown>[] {
  return lines.map((l) => {
    try {
      const v = JSON.parse(l);
      if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("not an object");
      return v as Record<string, unknown>;
    } catch {
      throw new Error(`a log line is not a JSON object: ${l.slice(0, 200)}`);
    }
  });
}
