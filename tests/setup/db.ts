import crypto from "node:crypto";
import { afterAll, beforeAll, describe } from "vitest";
import pg from "pg";
import { migrateToLatest, openDatabase, type DbHandle } from "db/client";
import { pgliteTemplateDump } from "./pglite-template";
import { schemaHash } from "../../scripts/pglite-template.mjs";

export type TestDbKind = "pglite" | "postgres";

/** The kinds available in this run: PGlite always, PostgreSQL when DATABASE_URL is set. */
export function availableDbKinds(): TestDbKind[] {
  return process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

/** The kind the app-level tests use: PostgreSQL when DATABASE_URL is set (CI), PGlite otherwise. */
export function defaultDbKind(): TestDbKind {
  return process.env.DATABASE_URL ? "postgres" : "pglite";
}

let postgresTemplate: Promise<string> | undefined;
/**
 * A migrated, empty PostgreSQL database that test databases are copied from (`create database … template`,
 * ~0.2 s) instead of being created empty and migrated (~0.45 s; decision 141, session 12): what the PGlite
 * template is for the embedded databases. Its name carries a hash of the migrations and db/client.ts, so a
 * changed migration gets a new one. Built under another name, closed, then renamed into place (a concurrent
 * builder's copy wins and ours is dropped); nothing ever connects to it afterwards, which a copy requires.
 */
export function ensurePostgresTemplate(base: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `dpt_template_${schemaHash()}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      if ((await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount) return name;
      const building = `dpt_building_${crypto.randomBytes(6).toString("hex")}`;
      await admin.query(`create database ${building}`);
      const url = new URL(base);
      url.pathname = `/${building}`;
      const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      try {
        await admin.query(`alter database ${building} rename to ${name}`);
      } catch (e) {
        await admin.query(`drop database if exists ${building} with (force)`);
        if (!(await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount) throw e;
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return postgresTemplate;
}

/** A fresh, migrated database of its own (a new PostgreSQL database, or an in-memory PGlite). */
export async function createTestDb(kind: TestDbKind = defaultDbKind()): Promise<DbHandle> {
  if (kind === "pglite") {
    // From the migrated template's dump (~0.7 s) instead of PGlite's initdb and the migrations (~5 s); the
    // migrations still run (none is pending unless one was added since the template: then it is rebuilt).
    const handle = await openDatabase({ dataDir: "memory://", loadDataDir: await pgliteTemplateDump() });
    await migrateToLatest(handle.db);
    return handle;
  }
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL is not set");
  const template = await ensurePostgresTemplate(base);
  const name = `test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
  // none pending (the template is migrated), unless a migration was added since the template: then it runs here
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/**
 * Gives the test file its own database and installs it as the app's database (what getDb() returns),
 * so loaders, actions and models run against it.
 */
export function useAppTestDb(kind: TestDbKind = defaultDbKind()): { handle: () => DbHandle } {
  let handle: DbHandle | undefined;
  beforeAll(async () => {
    handle = await createTestDb(kind);
    const g = globalThis as unknown as { __singletons?: Map<string, unknown> };
    g.__singletons ??= new Map();
    g.__singletons.set("db", Promise.resolve(handle));
  });
  afterAll(async () => {
    const g = globalThis as unknown as { __singletons?: Map<string, unknown> };
    g.__singletons?.clear();
    await handle?.close();
  });
  return {
    handle: () => {
      if (!handle) throw new Error("test database not ready");
      return handle;
    },
  };
}

/** Runs the same contract suite against every available database kind. */
export function describeEachDb(name: string, fn: (kind: TestDbKind) => void): void {
  for (const kind of availableDbKinds()) describe(`${name} [${kind}]`, () => fn(kind));
}
