/**
 * Readiness (decision 140): what a load balancer asks before sending a process traffic. Each check has a
 * time bound; the body names what is not ready in plain words and never carries an error's text (which can
 * hold host names or user names): the reason goes to the log.
 */
import { sql, type Kysely } from "kysely";
import { pendingMigrations } from "../../../db/client";
import type { Database } from "../../../db/schema";
import { errorFields, log } from "./log";

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
