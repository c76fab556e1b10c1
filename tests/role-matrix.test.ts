import { describe, expect, it, beforeAll } from "vitest";
import { useAppTestDb } from "./setup/db";
import { makeRequest, testContext } from "./setup/request";
import type { MatrixEntry, MatrixRole, Outcome } from "./role-matrix/types";
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
    const setCookie = await startUserSession(makeRequest("/login"), user.id);
    cookies.set(role, setCookie.split(";")[0]);
  }
});

async function outcomeOf(entry: MatrixEntry, role: MatrixRole): Promise<{ status: number; location: string | null }> {
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
  if (expected === "allowed") return !toLogin && got.status !== 401 && got.status !== 403;
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
        const got = await outcomeOf(entry, role);
        if (!matches(entry.expect[role], got)) {
          failures.push(`${role}: expected ${entry.expect[role]}, got ${got.status}${got.location ? ` → ${got.location}` : ""}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
