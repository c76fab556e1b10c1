import type { Migration, MigrationProvider } from "kysely";
import * as m0001 from "./0001_accounts";
import * as m0003 from "./0003_lists_and_jobs";

/**
 * Static list (not a folder scan) so migrations survive bundling into the server build.
 * Append new migrations here; names sort in run order.
 */
const migrations: Record<string, Migration> = {
  "0001_accounts": m0001,
  "0003_lists_and_jobs": m0003,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
