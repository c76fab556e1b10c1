import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * The engine has one public face (scrub-service/package.json's exports: `scrub-service`, `scrub-service/domain`,
 * `scrub-service/in-process`, `scrub-service/http-client`, `scrub-service/local-socket`, `scrub-service/reader`,
 * `scrub-service/entry-points`, `scrub-service/huge-pages`, `scrub-service/testing`). Nothing outside scrub-service/ (app/, db/, tests/,
 * scripts/, the root's files) reaches into scrub-service/src or scrub-service/dist by path, nor into a subpath the
 * package does not export (decision 170): not by an import, and not by a path it runs (a spawned entry or bundle
 * comes from `scrub-service/entry-points`).
 */

const root = path.resolve(import.meta.dirname, "../..");
const SOURCE = /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx)$/;
/** Not the project's own source outside the engine: the engine itself, installed packages, build output and what runs leave behind (.gitignore). */
const SKIP_TOP = new Set(["scrub-service", "build", "data", "test-results", "playwright-report", "bench-results", "screenshots"]);
const SKIP_UNDER = new Set(["node_modules", path.join("public", "build")]);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    const rel = path.relative(root, p);
    if (e.isDirectory()) {
      const skip =
        e.name.startsWith(".") || SKIP_UNDER.has(e.name) || SKIP_UNDER.has(rel) || (dir === root && (SKIP_TOP.has(e.name) || /^(build|data)-/.test(e.name)));
      return skip ? [] : filesUnder(p);
    }
    return SOURCE.test(e.name) ? [p] : [];
  });
}

/** This file: the check-the-check tests below name deep paths in strings on purpose. */
const SELF = path.join(root, "tests/lint/engine-imports.test.ts");
const ESLINT_CONFIG = path.join(root, "eslint.config.mjs");

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

/** A path into the engine's source or build: `scrub-service/src…` or `scrub-service/dist…`, relative or from the root. */
const ENGINE_PATH = /(^|[\\/\s"'`=])scrub-service[\\/](src|dist)([\\/]|$)/;

/** String literals of one file (plain or template) that name a path into the engine's src/ or dist/: a file it runs or reads by path. */
function enginePathStrings(file: string, source: string): string[] {
  const kind = /\.(tsx|jsx)$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && ENGINE_PATH.test(node.text)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe("the engine is reached through its package's exports only", () => {
  const files = filesUnder(root);

  it("scans everything outside scrub-service/: app/, db/, tests/, scripts/ and the root's files", () => {
    const rel = files.map((f) => path.relative(root, f));
    expect(rel.length).toBeGreaterThan(350);
    for (const dir of ["app", "db", "tests", "scripts"]) expect(rel.some((f) => f.startsWith(`${dir}${path.sep}`))).toBe(true);
    expect(rel).toEqual(expect.arrayContaining(["server.mjs", "server-security.mjs", "remix.config.js", "vitest.config.ts", "playwright.config.ts"]));
    expect(rel.filter((f) => /^(scrub-service|build|public[\\/]build)[\\/]|(^|[\\/])node_modules[\\/]/.test(f))).toEqual([]);
  });

  it("holds for every import there", () => {
    const found = files.flatMap((file) => deepEngineImports(file, fs.readFileSync(file, "utf8")).map((spec) => `${path.relative(root, file)}: ${spec}`));
    expect(found).toEqual([]);
  });

  it("holds for every path there a file runs or reads", () => {
    // the linter's config names the engine's folders to forbid them (decision 186)
    const found = files
      .filter((file) => file !== SELF && file !== ESLINT_CONFIG)
      .flatMap((file) => enginePathStrings(file, fs.readFileSync(file, "utf8")).map((text) => `${path.relative(root, file)}: ${text}`));
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
    const names =
      m[2] === undefined
        ? ["*"]
        : m[2]
            .split(",")
            .map((n) => n.trim())
            .filter((n) => n && !n.startsWith("type "));
    if (names.length) found.push(names.join(", "));
  }
  return found;
}

describe("browser code takes the shared domain, never the engine", () => {
  it("holds for every app module the browser bundle can reach", () => {
    const files = filesUnder(path.join(root, "app"));
    const found = files.flatMap((file) =>
      engineValuesInBrowserCode(file, fs.readFileSync(file, "utf8")).map((names) => `${path.relative(root, file)}: ${names}`),
    );
    expect(found).toEqual([]);
  });

  it("flags a value import of the engine in a route or a component, not a type import or a .server module", () => {
    expect(
      engineValuesInBrowserCode("app/routes/x.tsx", `import { US_STATES } from "scrub-service";\nimport type { ScrubService } from "scrub-service";`),
    ).toEqual(["US_STATES"]);
    expect(
      engineValuesInBrowserCode("app/routes/x.tsx", `import { type ScrubService } from "scrub-service";\nimport { US_STATES } from "scrub-service/domain";`),
    ).toEqual([]);
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
    expect(check(`import { parsePhone } from "scrub-service/src/numbers/normalize";`)).toEqual(["scrub-service/src/numbers/normalize"]);
  });

  it("flags a path into src/ or dist/ a file runs, plain or template; not one into the package's other folders", () => {
    expect(
      enginePathStrings(
        "scripts/x.ts",
        `spawn(process.execPath, ["--import", "tsx", "scrub-service/src/index.ts"]);
run(process.execPath, [\`\${tree}/scrub-service/dist/cli.mjs\`]);
const p = path.join(root, "../scrub-service/src/worker/csv.ts");
execFileSync(process.execPath, ["scrub-service/scripts/build-worker.mjs"]);
// scrub-service/src/index.ts in a comment`,
      ),
    ).toEqual(["scrub-service/src/index.ts", "/scrub-service/dist/cli.mjs", "../scrub-service/src/worker/csv.ts"]);
  });

  it("lets the package's exports and everything else through", () => {
    expect(
      check(`import { LIST_TYPES } from "scrub-service/domain";
import type { ScrubService } from "scrub-service";
import { x } from "~/models/y.server";
import { z } from "db/schema";
const c = await import("scrub-service/in-process");`),
    ).toEqual([]);
  });
});
