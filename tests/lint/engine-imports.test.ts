import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * The engine has one public face (scrub-service/package.json's exports: `scrub-service`, `scrub-service/domain`,
 * `scrub-service/in-process`, `scrub-service/http-client`, `scrub-service/local-socket`, `scrub-service/testing`).
 * Nothing in the app, db/ or the server's entry files reaches into scrub-service/src or scrub-service/dist by path,
 * nor into a subpath the package does not export (decision 170).
 */

const root = path.resolve(import.meta.dirname, "../..");
const SCOPES = ["app", "db"];
const ROOT_FILES = ["server.mjs", "server-security.mjs", "remix.config.js", "vitest.config.ts", "playwright.config.ts"];
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : filesUnder(p);
    return SOURCE.test(e.name) ? [p] : [];
  });
}

const EXPORTED = new Set(Object.keys(JSON.parse(fs.readFileSync(path.join(root, "scrub-service/package.json"), "utf8")).exports));

/** The imports of one file (static, export-from, dynamic, require) that reach into the engine other than through its exports. */
function deepEngineImports(file: string, source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => {
      if (spec === "scrub-service" || spec.startsWith("scrub-service/")) return !EXPORTED.has(`.${spec.slice("scrub-service".length)}`);
      if (!spec.startsWith(".")) return false;
      const target = path.relative(root, path.resolve(path.dirname(file), spec));
      return target === "scrub-service" || target.startsWith(`scrub-service${path.sep}`);
    });
}

describe("the engine is reached through its package's exports only", () => {
  it("holds for app/, db/ and the server's entry files", () => {
    const files = [...SCOPES.flatMap((d) => filesUnder(path.join(root, d))), ...ROOT_FILES.map((f) => path.join(root, f))];
    expect(files.length).toBeGreaterThan(250);
    const found = files.flatMap((file) => deepEngineImports(file, fs.readFileSync(file, "utf8")).map((spec) => `${path.relative(root, file)}: ${spec}`));
    expect(found).toEqual([]);
  });
});

/**
 * Values a module takes from the engine's face (`scrub-service`, Node-only: Redis, threads, the database) where the
 * browser bundle would get them: any app module but a `.server` one or a test. Browser code takes the shared domain
 * (`scrub-service/domain`); a type import is erased and allowed.
 */
function engineValuesInBrowserCode(file: string, source: string): string[] {
  if (/\.server\.tsx?$|\.test\.tsx?$/.test(file)) return [];
  const found: string[] = [];
  for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:\{([^}]*)\}|\*(?:\s+as\s+\w+)?|\w+)\s+from\s+"scrub-service";?$/gm)) {
    if (m[1]) continue;
    const names = m[2] === undefined ? ["*"] : m[2].split(",").map((n) => n.trim()).filter((n) => n && !n.startsWith("type "));
    if (names.length) found.push(names.join(", "));
  }
  return found;
}

describe("browser code takes the shared domain, never the engine", () => {
  it("holds for every app module the browser bundle can reach", () => {
    const files = filesUnder(path.join(root, "app"));
    const found = files.flatMap((file) => engineValuesInBrowserCode(file, fs.readFileSync(file, "utf8")).map((names) => `${path.relative(root, file)}: ${names}`));
    expect(found).toEqual([]);
  });

  it("flags a value import of the engine in a route or a component, not a type import or a .server module", () => {
    expect(engineValuesInBrowserCode("app/routes/x.tsx", `import { US_STATES } from "scrub-service";\nimport type { ScrubService } from "scrub-service";`)).toEqual(["US_STATES"]);
    expect(engineValuesInBrowserCode("app/routes/x.tsx", `import { type ScrubService } from "scrub-service";\nimport { US_STATES } from "scrub-service/domain";`)).toEqual([]);
    expect(engineValuesInBrowserCode("app/models/x.server.ts", `import { metrics } from "scrub-service";`)).toEqual([]);
  });
});

describe("the check itself", () => {
  const check = (source: string, file = path.join(root, "app/models/x.server.ts")) => deepEngineImports(file, source);

  it("flags a relative import of the engine's src or dist, static, re-exported or dynamic", () => {
    expect(
      check(`import { LIST_TYPES } from "../../scrub-service/src/list-types";
export { log } from "../../scrub-service/src/ops/log";
const w = await import("../../scrub-service/dist/cli.mjs");`),
    ).toEqual(["../../scrub-service/src/list-types", "../../scrub-service/src/ops/log", "../../scrub-service/dist/cli.mjs"]);
  });

  it("flags a subpath the package does not export", () => {
    expect(check(`import { parsePhone } from "scrub-service/src/worker/normalize";`)).toEqual(["scrub-service/src/worker/normalize"]);
  });

  it("lets the package's exports and everything else through", () => {
    expect(
      check(`import { LIST_TYPES } from "scrub-service/domain";
import type { ScrubService } from "scrub-service";
import { x } from "~/models/y.server";
import { z } from "../../db/schema";
const c = await import("scrub-service/in-process");`),
    ).toEqual([]);
  });
});
