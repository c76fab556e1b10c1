/**
 * Readiness (decision 140): what a load balancer asks before sending a process traffic. Each check has a
 * time bound; the body names what is not ready in plain words and never carries an error's text (which can
 * hold host names or user names): the reason goes to the log.
 */
import { engineConfig } from "../config";
import { sql, type Kysely } from "kysely";
import { pendingMigrations } from "db/client";
import type { Database } from "db/schema";
import { errorFields, log } from "./log";
import { metrics } from "./metrics";

export type CheckResult = "ok" | string;
export interface Readiness {
  status: "ready" | "not ready";
  checks: Record<string, CheckResult>;
}
export type Check = () => Promise<CheckResult>;

export const CHECK_TIMEOUT_MS = 2000;

/** Runs fn with a time bound; a throw or a time-out becomes `failure` (and a log line). */
export function bounded(name: string, fn: () => Promise<CheckResult | void>, failure: string, timeoutMs = CHECK_TIMEOUT_MS): Check {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        fn(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      return answer ?? "ok";
    } catch (e) {
      log().warn({ check: name, ...errorFields(e) }, `[ready] ${name}: ${failure}`);
      return failure;
    } finally {
      clearTimeout(timer);
    }
  };
}

export function databaseChecks(db: Kysely<Database>): Record<string, Check> {
  return {
    database: bounded("database", async () => void (await sql`select 1`.execute(db)), "not answering"),
    migrations: bounded(
      "migrations",
      async () => {
        const pending = await pendingMigrations(db);
        return pending.length === 0 ? "ok" : `${pending.length} migration(s) not applied`;
      },
      "could not be read",
    ),
  };
}

export async function runChecks(checks: Record<string, Check>): Promise<Readiness> {
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((n) => checks[n]()));
  const out: Record<string, CheckResult> = {};
  names.forEach((n, i) => (out[n] = results[i]));
  return { status: results.every((r) => r === "ok") ? "ready" : "not ready", checks: out };
}

/** How long one readiness answer serves every /readyz request and dpt_ready scrape (READINESS_CACHE_MS, default 1 s). */
export function readinessCacheMs(): number {
  return engineConfig().READINESS_CACHE_MS;
}

/**
 * The checks run at most once per `ttlMs` however many ask (issue #49: 800 anonymous /readyz a second, each a
 * database query and a store ping, slowed everyone's pages): requests arriving while a check runs share it
 * (single flight), and its answer serves every request for `ttlMs` after it finished. A failure is cached as
 * briefly as a success, so an outage shows within `ttlMs` and a recovery too. Shutdown is not a check: callers
 * ask `stopping` before (and after) this, so the draining 503 is never hidden by a cached "ready".
 */
export function sharedReadiness(check: () => Promise<Readiness>, o: { ttlMs?: number; now?: () => number } = {}): () => Promise<Readiness> {
  const now = o.now ?? (() => performance.now());
  // The answer of the last check (a rejection too: a throwing check is not re-run per request), and when it settled.
  let last: { answer: Promise<Readiness>; settledAt: number | null } | null = null;
  return () => {
    const ttl = o.ttlMs ?? readinessCacheMs();
    if (last && (last.settledAt === null || now() - last.settledAt < ttl)) return last.answer;
    const entry: { answer: Promise<Readiness>; settledAt: number | null } = {
      answer: Promise.resolve().then(() => (metrics().readinessChecks.inc(), check())),
      settledAt: null,
    };
    entry.answer.then(
      () => void (entry.settledAt = now()),
      () => void (entry.settledAt = now()),
    );
    last = entry;
    return entry.answer;
  };
}
