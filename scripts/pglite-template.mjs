// A migrated, empty PGlite database to start fresh embedded data directories from (decision 141): creating one
// (PGlite's initdb and the migrations) takes ~5 s of CPU, copying this one ~0.5 s. Tests and `npm test`'s
// Playwright servers copy it; the app itself never does (a real first start still creates and migrates).
// Its name carries a hash of what shapes it (the migrations, db/client.ts, the PGlite version), so a changed
// migration gets a new template; tests/setup/pglite-template.ts builds it (Vitest's global set-up).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

function filesUnder(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

/**
 * 16 hex digits of a hash of what shapes a migrated empty database: the migrations and db/client.ts, then `extra`
 * files (paths from the repository's root). Names this template and the PostgreSQL one (tests/setup/db.ts).
 */
export function schemaHash(extra = []) {
  const h = crypto.createHash("sha256");
  for (const f of [...filesUnder(path.join(root, "db/migrations")), path.join(root, "db/client.ts"), ...extra.map((e) => path.join(root, e))]) {
    h.update(path.relative(root, f)).update("\0").update(fs.readFileSync(f)).update("\0");
  }
  return h.digest("hex").slice(0, 16);
}

/** The template's directory (`<dir>/pg` is a PGlite data directory, `<dir>/dump.tar` the same as a dump). */
export function pgliteTemplateDir() {
  return path.join(os.tmpdir(), `dpt-pglite-template-${schemaHash(["node_modules/@electric-sql/pglite/package.json"])}`);
}

/** Whether the template is there (it is renamed into place whole, so present means complete). */
export function hasPgliteTemplate() {
  return fs.existsSync(path.join(pgliteTemplateDir(), "dump.tar"));
}

/**
 * Gives `dataDir` (an embedded DATA_DIR) the migrated empty database, as if a first start had created it.
 * Returns false, changing nothing, when there is no template yet (the process then creates the database itself).
 */
export function copyPgliteTemplate(dataDir) {
  if (!hasPgliteTemplate()) return false;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.cpSync(path.join(pgliteTemplateDir(), "pg"), path.join(dataDir, "pg"), { recursive: true });
  return true;
}
