import { describe, expect, it, beforeAll } from "vitest";
import { useAppTestDb } from "./setup/db";
import { makeRequest, testContext } from "./setup/request";
import { sql } from "kysely";
import type { MatrixEntry, MatrixRole, MatrixSetupContext, Outcome } from "./role-matrix/types";
import { hashPassword } from "~/utils/password.server";
import { startUserSession } from "~/utils/auth.server";

/*
 * Every route and action of the product, requested as each role, against its expected outcome.
 * Areas add their routes in tests/role-matrix/<area>.ts (an `entries` export); this file picks them all up.
 */
const modules = import.meta.glob<{ entries: MatrixEntry[] }>("./role-matrix/*.ts", { eager: true });
const entries = Object.entries(modules)
  .filter(([file]) => !file.endsWith("/types.ts"))
  .flatMap(([, m]) => m.entries ?? []);

const { handle } = useAppTestDb();
const roles: MatrixRole[] = ["anonymous", "NormalUser", "UnlimitedUser", "Admin", "SuperAdmin"];
const cookies = new Map<MatrixRole, string | undefined>();
const userIds = {} as MatrixSetupContext["userIds"];
let fingerprintQuery = "";

/** Tables a refused request may legitimately touch: sessions (reads, flash) and throttling counters. */
const VOLATILE_TABLE = /^(sessions|login_throttle|kysely_migration.*)$|rate_limit|throttle/;

/** One hash per table (every row), in one query: a refused request must leave all of them as they were. */
async function fingerprint(): Promise<Map<string, string>> {
  const { rows } = await sql.raw<{ t: string; h: string }>(fingerprintQuery).execute(handle().db);
  return new Map(rows.map((r) => [r.t, r.h]));
}

beforeAll(async () => {
  const passwordHash = await hashPassword("matrix-password");
  for (const role of roles) {
    if (role === "anonymous") continue;
    const user = await handle()
      .db.insertInto("users")
      .values({
        email: `${role.toLowerCase()}@matrix.test`,
        first_name: role,
        last_name: "Matrix",
        company: "Matrix",
        phone_number: "",
        password_hash: passwordHash,
        role,
        status: "Active",
        email_confirmed: true,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    userIds[role] = user.id;
    const setCookie = await startUserSession(makeRequest("/login"), user.id);
    cookies.set(role, setCookie.split(";")[0]);
  }
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(handle().db);
  fingerprintQuery = rows
    .map((r) => r.table_name)
    .filter((t) => !VOLATILE_TABLE.test(t))
    .map((t) => `select '${t}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${t}" x`)
    .join(" union all ");
});

async function outcomeOf(entry: MatrixEntry, role: MatrixRole): Promise<{ status: number; location: string | null; error?: string }> {
  const mod = await entry.route();
  const fn = entry.kind === "loader" ? mod.loader : mod.action;
  if (!fn) throw new Error(`${entry.name}: the route has no ${entry.kind}`);
  const request = makeRequest(entry.path, {
    method: entry.kind === "action" ? "POST" : "GET",
    cookie: cookies.get(role),
    form: entry.kind === "action" ? (entry.form ?? {}) : undefined,
  });
  let result: unknown;
  try {
    result = await fn({ request, params: entry.params ?? {}, context: testContext });
  } catch (thrown) {
    // A crash is never an allowed outcome (it would otherwise read as a 200).
    if (thrown instanceof Error) return { status: 500, location: null, error: thrown.message };
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
  const init = (result as { init?: { status?: number } } | null)?.init;
  if (result && typeof result === "object" && "type" in result && (result as { type: string }).type === "DataWithResponseInit") {
    return { status: init?.status ?? 200, location: null };
  }
  return { status: 200, location: null };
}

function matches(expected: Outcome, got: { status: number; location: string | null }): boolean {
  const toLogin = got.status >= 300 && got.status < 400 && (got.location ?? "").startsWith("/login");
  if (expected === "login") return toLogin;
  if (expected === "denied") return got.status === 403;
  if (expected === "allowed") return !toLogin && got.status !== 401 && got.status !== 403 && got.status < 500;
  return got.status === expected;
}

describe("role matrix", () => {
  it("covers routes", () => {
    expect(entries.length).toBeGreaterThan(0);
  });
  for (const entry of entries) {
    it(entry.name, async () => {
      const failures: string[] = [];
      for (const role of roles) {
        const overrides = entry.setup ? await entry.setup({ db: handle().db, role, userIds }) : {};
        const run = { ...entry, ...overrides };
        const expected = entry.expect[role];
        const refused = entry.kind === "action" && (expected === "denied" || expected === "login");
        const before = refused ? await fingerprint() : null;
        const got = await outcomeOf(run, role);
        if (!matches(expected, got)) {
          failures.push(
            `${role}: expected ${expected}, got ${got.status}${got.location ? ` → ${got.location}` : ""}${got.error ? ` (${got.error})` : ""}`,
          );
        }
        if (before) {
          const after = await fingerprint();
          const changed = [...after.keys()].filter((t) => before.get(t) !== after.get(t));
          if (changed.length) failures.push(`${role}: a refused request changed ${changed.join(", ")}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
