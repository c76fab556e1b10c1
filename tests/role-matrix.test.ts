import { describe, expect, it, beforeAll, beforeEach } from "vitest";
import { useAppTestDb } from "./setup/db";
import { makeRequest, testContext } from "./setup/request";
import { sql } from "kysely";
import type { MatrixEntry, MatrixRole, MatrixSetupContext, Outcome } from "./role-matrix/types";
import { hashPassword } from "~/utils/password.server";
import { startUserSession } from "~/accounts/auth.server";

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

let passwordHash = "";
let userSet = 0;

/**
 * A fresh set of signed-in users (one per role) for every entry, so entries never depend on each other's
 * effects (e.g. one entry's paid transfer giving the NormalUser a plan another entry expects them not to have).
 */
async function createMatrixUsers() {
  userSet++;
  for (const role of roles) {
    if (role === "anonymous") continue;
    const user = await handle()
      .db.insertInto("users")
      .values({
        email: userSet === 1 ? `${role.toLowerCase()}@matrix.test` : `${role.toLowerCase()}-${userSet}@matrix.test`,
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
}

beforeEach(createMatrixUsers);

beforeAll(async () => {
  passwordHash = await hashPassword("matrix-password");
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(handle().db);
  fingerprintQuery = rows
    .map((r) => r.table_name)
    .filter((t) => !VOLATILE_TABLE.test(t))
    .map((t) => `select '${t}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${t}" x`)
    .join(" union all ");
});

async function outcomeOf(
  entry: MatrixEntry,
  role: MatrixRole,
  cookie = cookies.get(role),
): Promise<{ status: number; location: string | null; error?: string }> {
  const mod = await entry.route();
  const fn = entry.kind === "loader" ? mod.loader : mod.action;
  if (!fn) throw new Error(`${entry.name}: the route has no ${entry.kind}`);
  const request = makeRequest(entry.path, {
    method: entry.kind === "action" ? "POST" : "GET",
    cookie,
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

/** Every route module of the app (flat files and route folders' route.tsx; tests excluded), by file. */
const routeModules = import.meta.glob<{ loader?: unknown; action?: unknown }>([
  "../app/routes/*.{ts,tsx}",
  "../app/routes/*/route.{ts,tsx}",
  "!../app/routes/*.test.{ts,tsx}",
]);

describe("role matrix", () => {
  it("covers routes", () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  it("has entries for every loader and action of every route", async () => {
    const covered = new Map<unknown, Set<string>>();
    for (const entry of entries) {
      const mod = await entry.route();
      if (!covered.has(mod)) covered.set(mod, new Set());
      covered.get(mod)!.add(entry.kind);
    }
    const missing: string[] = [];
    for (const [file, load] of Object.entries(routeModules)) {
      const mod = await load();
      const kinds = covered.get(mod) ?? new Set<string>();
      if (mod.loader && !kinds.has("loader")) missing.push(`${file.replace("../app/routes/", "")}: loader`);
      if (mod.action && !kinds.has("action")) missing.push(`${file.replace("../app/routes/", "")}: action`);
    }
    // Add the route to tests/role-matrix/<area>.ts (see docs/conventions.md).
    expect(missing).toEqual([]);
  });
  for (const entry of entries) {
    it(entry.name, async () => {
      const failures: string[] = [];
      for (const role of roles) {
        const { cookie, ...overrides } = entry.setup ? await entry.setup({ db: handle().db, role, userIds }) : { cookie: undefined };
        const run = { ...entry, ...overrides };
        const expected = entry.expect[role];
        const refused = entry.kind === "action" && (expected === "denied" || expected === "login" || expected === 401 || expected === 403);
        const before = refused ? await fingerprint() : null;
        const got = await outcomeOf(run, role, cookie ?? cookies.get(role));
        if (!matches(expected, got)) {
          failures.push(`${role}: expected ${expected}, got ${got.status}${got.location ? ` → ${got.location}` : ""}${got.error ? ` (${got.error})` : ""}`);
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
