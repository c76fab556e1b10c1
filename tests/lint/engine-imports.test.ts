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
