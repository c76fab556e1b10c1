import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { engineConfigVariables } from "scrub-service";
import { appEnvSchema } from "~/utils/env.server";

/*
 * README.md's configuration table against the two schemas (decision 188): the app's (app/utils/env.server.ts) and
 * the engine's EngineConfig (scrub-service/src/config.ts). Every variable of either is a row of the table (but
 * the engine's "(internal)" ones, set by the project's own processes), and every variable a row names is in one.
 */

/** Variables a row may name that no schema holds, and why. */
const READ_BEFORE_ANY_SCHEMA: Record<string, string> = {
  GLIBC_TUNABLES: "glibc reads it; huge-pages.ts adds to it before relaunching the process, before any module loads",
};

function readmeVariables(): Set<string> {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
  const names = new Set<string>();
  for (const line of section.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const first = line.split("|")[1];
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]);
  }
  return names;
}

describe("README's configuration table matches the schemas (issue #45)", () => {
  const table = readmeVariables();
  const engine = engineConfigVariables();
  const app = Object.keys(appEnvSchema.shape);

  it("every engine variable has one-line description", () => {
    for (const v of engine) expect(v.description, v.name).toMatch(/^[^\n]{10,}$/);
  });

  it("every variable of the schemas is a row of the table", () => {
    const documented = [...app, ...engine.filter((v) => !v.description.startsWith("(internal)")).map((v) => v.name)];
    expect(documented.filter((n) => !table.has(n)).sort()).toEqual([]);
  });

  it("every row of the table is a variable of a schema", () => {
    const known = new Set([...app, ...engine.map((v) => v.name), ...Object.keys(READ_BEFORE_ANY_SCHEMA)]);
    expect([...table].filter((n) => !known.has(n)).sort()).toEqual([]);
  });
});
