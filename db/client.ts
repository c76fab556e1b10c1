import path from "node:path";
import { Kysely, sql, Migrator, PostgresDialect } from "kysely";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { PGliteDialect } from "kysely-pglite-dialect";
import type { Database } from "./schema";
import { migrationProvider } from "./migrations";
import { lockDataDir } from "./dir-lock";

const INT8 = 20;
// bigint columns (phone numbers, counts) come back as bigint on both drivers.
pg.types.setTypeParser(INT8, (v: string) => BigInt(v));

const PGLITE_SHARED_BUFFERS = "32MB";

export type DbDriver = { kind: "pg"; pool: pg.Pool } | { kind: "pglite"; pglite: PGlite };

export interface DbHandle {
  db: Kysely<Database>;
  driver: DbDriver;
  close(): Promise<void>;
}

export interface DbOptions {
  /** PostgreSQL connection string; unset means embedded PGlite. */
  databaseUrl?: string;
  /** PGlite directory; "memory://" for an in-memory database (tests). */
  dataDir?: string;
  poolSize?: number;
  /** PGlite only: start from this dump of a data directory (`dumpDataDir()`; tests start from a migrated one). */
  loadDataDir?: Blob;
}

export async function openDatabase(opts: DbOptions): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // A client's error (e.g. PostgreSQL restarting) must not crash the process, whether the client is idle in the
    // pool (the pool's "error") or checked out between two queries (its own "error": without a listener Node throws
    // it). The query that meets the dead connection fails; the pool drops the client when it comes back.
    pool.on("error", (err) => console.warn(`[db] idle client error: ${err.message}`));
    pool.on("connect", (client) => client.on("error", (err) => console.warn(`[db] client error: ${err.message}`)));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, driver: { kind: "pg", pool }, close: () => db.destroy() };
  }
  const dir = opts.dataDir ?? "./data";
  const inMemory = dir.startsWith("memory://");
  const pgDir = inMemory ? dir : path.resolve(dir, "pg");
  const release = inMemory ? () => {} : lockDataDir(path.resolve(dir));
  try {
    const pglite = await PGlite.create(pgDir, {
      parsers: { [INT8]: (v: string) => BigInt(v) },
      // PostgreSQL's default 128 MB of shared buffers is claimed up front inside PGlite's WASM memory: an
      // idle embedded process measured 293 MB RSS with it, 182 MB with 16 MB (decision 019). Pages beyond
      // the buffers come from the OS page cache.
      postgresqlconf: `shared_buffers=${PGLITE_SHARED_BUFFERS}`,
      ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    return {
      db,
      driver: { kind: "pglite", pglite },
      close: async () => {
        await db.destroy();
        if (!pglite.closed) await pglite.close();
        release();
      },
    };
  } catch (e) {
    release();
    throw e;
  }
}

/** Names of the migrations this code knows that the database has not applied (readiness). */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const known = Object.keys(await migrationProvider.getMigrations());
  const table = await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(db);
  if (!table.rows[0]?.t) return known;
  const done = new Set((await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name));
  return known.filter((name) => !done.has(name));
}

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  // Already at the latest (every start but the first after an upgrade): two queries instead of Kysely's
  // locking round trips (~0.7 s on PGlite, which every CLI run paid).
  if ((await pendingMigrations(db)).length === 0) return;
  // Areas add migrations independently; a later-numbered one may land first on a dev database.
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === "Error") console.error(`[db] migration ${r.migrationName} failed`);
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
