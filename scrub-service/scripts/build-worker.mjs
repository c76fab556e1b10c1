// Bundles the scrub service's thread entries (separate files, loaded by worker_threads) into scrub-service/dist:
// worker.mjs (piscina pool: parse, normalize, classify), dedupe-thread.mjs (duplicate check) and
// workbook-thread.mjs (a workbook's decode to CSV); and the
// CLI, cli.mjs (npm run scrub / npm run lists), so a batch run starts in ~0.3 s instead of compiling
// TypeScript first (~2 s). Packages stay in node_modules (not bundled).
import fs from "node:fs";
import path from "node:path";
import { build as esbuild, stop as stopEsbuild } from "esbuild";

// Paths below are the package's (scrub-service/), whatever directory this runs from.
const packageDir = path.dirname(import.meta.dirname);

// Each file is replaced atomically and only when it changed: a running server or test may be starting a
// worker thread from it while another process (a second test run) builds.
async function build(options) {
  const result = await esbuild({ ...options, write: false });
  for (const file of result.outputFiles) {
    const old = fs.existsSync(file.path) ? fs.readFileSync(file.path) : null;
    if (old && Buffer.compare(old, file.contents) === 0) continue;
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    const tmp = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, file.contents);
    fs.renameSync(tmp, file.path);
  }
}

// The database package (db/) exports TypeScript sources: bundled like the engine's own files, never left to Node
// (`packages: "external"` would). Its subpaths resolve through db/package.json's exports, as Node and tsc read them.
const dbDir = path.join(packageDir, "..", "db");
const dbExports = JSON.parse(fs.readFileSync(path.join(dbDir, "package.json"), "utf8")).exports;
function dbExport(specifier) {
  const sub = `.${specifier.slice("db".length)}`;
  if (dbExports[sub]) return dbExports[sub];
  for (const [key, target] of Object.entries(dbExports)) {
    if (!key.endsWith("*") || !sub.startsWith(key.slice(0, -1))) continue;
    return target.replace("*", sub.slice(key.length - 1));
  }
  return null;
}
const bundleWorkspacePackages = {
  name: "bundle-workspace-packages",
  setup(b) {
    b.onResolve({ filter: /^db(\/|$)/ }, (args) => {
      const target = dbExport(args.path);
      if (!target) return { errors: [{ text: `"${args.path}" is not exported by db/package.json` }] };
      return { path: path.join(dbDir, target) };
    });
  },
};

const common = {
  absWorkingDir: packageDir,
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
};

// cli.mjs only relaunches the process on huge pages when that helps (src/huge-pages.ts), then loads cli-main.mjs;
// huge-pages.mjs does the same for the web server (server.mjs).
await build({
  ...common,
  entryPoints: { cli: "src/cli-launcher.ts", "cli-main": "src/cli.ts", "huge-pages": "src/huge-pages.ts" },
  packages: "external",
  plugins: [bundleWorkspacePackages],
});

await build({
  entryPoints: {
    worker: "src/worker/index.ts",
    "dedupe-thread": "src/worker/dedupe-thread.ts",
  },
  ...common,
});

// The workbook and exemption threads read zips with CommonJS packages (yauzl): they stay in node_modules, as for the CLI.
await build({
  ...common,
  entryPoints: { "workbook-thread": "src/pipeline/input/workbook-thread.ts", "exemption-thread": "src/exemption-files/thread.ts" },
  packages: "external",
  plugins: [bundleWorkspacePackages],
});

// The service process esbuild started (the plugin above keeps it talking to this one): stopped before exit, so it
// never reports its own "deadlock" when this process goes away.
await stopEsbuild();
