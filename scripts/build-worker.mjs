// Bundles the scrub service's thread entries (separate files, loaded by worker_threads) into scrub-service/dist:
// worker.mjs (piscina pool: parse, normalize, classify) and dedupe-thread.mjs (duplicate check); and the
// CLI, cli.mjs (npm run scrub / npm run lists), so a batch run starts in ~0.3 s instead of compiling
// TypeScript first (~2 s). Packages stay in node_modules (not bundled).
import { build } from "esbuild";

const common = {
  outdir: "scrub-service/dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
};

await build({
  ...common,
  entryPoints: { cli: "scrub-service/src/cli.ts" },
  packages: "external",
});

await build({
  entryPoints: {
    worker: "scrub-service/src/worker/index.ts",
    "dedupe-thread": "scrub-service/src/worker/dedupe-thread.ts",
  },
  ...common,
});
