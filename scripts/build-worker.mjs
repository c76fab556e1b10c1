// Bundles the scrub service's thread entries (separate files, loaded by worker_threads) into scrub-service/dist:
// worker.mjs (piscina pool: parse, normalize, classify) and dedupe-thread.mjs (duplicate check).
import { build } from "esbuild";

await build({
  entryPoints: {
    worker: "scrub-service/src/worker/index.ts",
    "dedupe-thread": "scrub-service/src/worker/dedupe-thread.ts",
  },
  outdir: "scrub-service/dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
});
