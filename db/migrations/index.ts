import type { Migration, MigrationProvider } from "kysely";
import * as m0001 from "./0001_accounts";

/**
 * Static list (not a folder scan) so migrations survive bundling into the server build.
 * Append new migrations here; names sort in run order.
 */
const migrations: Record<string, Migration> = {
  "0001_accounts": m0001,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
