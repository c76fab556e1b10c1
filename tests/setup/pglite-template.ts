import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateToLatest, openDatabase } from "db/client";
// a plain ES module of scripts/: test-e2e.mjs copies the template too
import { copyPgliteTemplate, hasPgliteTemplate, pgliteTemplateDir } from "../../scripts/pglite-template.mjs";

/**
 * Builds the migrated empty PGlite database (scripts/pglite-template.mjs) unless it is there: created and
 * migrated exactly as a first start does, closed, then renamed into place whole (a concurrent builder's
 * copy wins and ours is dropped).
 */
export async function ensurePgliteTemplate(): Promise<string> {
  const dir: string = pgliteTemplateDir();
  if (hasPgliteTemplate()) return dir;
  const building = fs.mkdtempSync(path.join(os.tmpdir(), "dpt-pglite-building-"));
  const handle = await openDatabase({ dataDir: building });
  try {
    await migrateToLatest(handle.db);
    if (handle.driver.kind !== "pglite") throw new Error("expected PGlite");
    const dump = await handle.driver.pglite.dumpDataDir("none");
    fs.writeFileSync(path.join(building, "dump.tar"), Buffer.from(await dump.arrayBuffer()));
  } finally {
    await handle.close();
  }
  fs.rmSync(path.join(building, "pglite.lock"), { force: true }); // (released on close; never copied)
  try {
    fs.renameSync(building, dir);
  } catch {
    fs.rmSync(building, { recursive: true, force: true }); // another process built it first
  }
  return dir;
}

/** The template as a dump for an in-memory PGlite (`loadDataDir`). */
export async function pgliteTemplateDump(): Promise<Blob> {
  const dir = await ensurePgliteTemplate();
  return new Blob([fs.readFileSync(path.join(dir, "dump.tar"))]);
}

/**
 * A new temporary embedded data directory that already holds the migrated empty database, as after a first
 * start (saves each process started on it PGlite's initdb and the migrations).
 */
export async function migratedDataDir(label: string): Promise<string> {
  await ensurePgliteTemplate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`));
  if (!copyPgliteTemplate(dir)) throw new Error("the PGlite template is missing");
  return dir;
}
