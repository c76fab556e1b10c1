import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

// Vitest runs test files side by side in several worker processes. Each file gets its own data directory
// (uploads, results, the CLI socket, Bloom caches) and its own Redis key prefix, so two files never share
// state through ./data or the default `dps:` keys. A file that sets DATA_DIR or SCRUB_REDIS_PREFIX itself still wins.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dpt-vitest-"));
process.env.DATA_DIR = dataDir;
process.env.SCRUB_REDIS_PREFIX = `t${crypto.randomBytes(4).toString("hex")}:`;

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
});
