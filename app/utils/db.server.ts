import { openDatabase, migrateToLatest, type DbHandle } from "db/client";
import { env } from "./env.server";
import { singleton } from "./singleton.server";

export type { Database } from "db/schema";

/** The process's database: PostgreSQL when DATABASE_URL is set, PGlite under DATA_DIR otherwise. */
export const dbHandle: () => Promise<DbHandle> = () =>
  singleton("db", async () => {
    const e = env();
    const handle = await openDatabase({ databaseUrl: e.DATABASE_URL, dataDir: e.DATA_DIR });
    await migrateToLatest(handle.db);
    return handle;
  });

export async function getDb() {
  return (await dbHandle()).db;
}
