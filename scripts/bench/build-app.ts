/** `node scrub-service/scripts/build-worker.mjs && remix build` into `buildDir` when it is missing (or BENCH_REBUILD=1). */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export function ensureBuild(buildDir: string): void {
  if (process.env.BENCH_REBUILD !== "1" && fs.existsSync(path.join(buildDir, "index.js"))) return;
  console.log(`building the app into ${buildDir} …`);
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, BUILD_DIR: buildDir } });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed`);
  };
  run(process.execPath, ["scrub-service/scripts/build-worker.mjs"]);
  run("npx", ["remix", "build"]);
}
