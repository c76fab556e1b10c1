// Bundles the scrub worker (a separate file for piscina's worker threads) to scrub-service/dist/worker.mjs.
import { build } from "esbuild";

await build({
  entryPoints: ["scrub-service/src/worker/index.ts"],
  outfile: "scrub-service/dist/worker.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
});
