import fs from "node:fs";
import path from "node:path";
import type { DbHandle } from "db/client";
import { createInProcessScrubService, type InProcessOptions, type InProcessScrubService } from "../src/in-process";
import { uniquePrefix } from "../src/test/helpers";
import { AREA_CODE_STATES } from "../src/numbers/area-codes";
import { normalizePhone } from "../src/numbers/normalize";

/**
 * The fault tests' scrub input: `count` rows of distinct valid numbers over every US area code (so every Redis
 * Cluster master serves some, and every row is good or listed), written to `file` as `Name,Phone`. Returns the
 * numbers of every 20th row, which the tests put on the litigation list.
 */
export function writeSpreadInput(file: string, count: number): string[] {
  const areas = [...AREA_CODE_STATES.keys()];
  const rows = ["Name,Phone"];
  const listed: string[] = [];
  for (let i = 0; rows.length <= count; i++) {
    const n = `${areas[i % areas.length]}${200 + (Math.floor(i / areas.length) % 300) * 2}${String(i % 10_000).padStart(4, "0")}`;
    if (normalizePhone(n) !== n) continue;
    if (rows.length % 20 === 0) listed.push(n);
    rows.push(`Row ${i},${n}`);
  }
  fs.writeFileSync(file, rows.join("\n") + "\n");
  return listed;
}

/**
 * The fault tests' scrub service on a Redis of their own (data under `work/data`, a fresh key prefix): one thread
 * and 64 KB batches, so the list lookups run all through a file and a fault lands between two of them; retries
 * after a transient store failure at 0.5, 1.5 and 3 s.
 */
export function startFaultScrub(
  handle: DbHandle,
  work: string,
  redis: InProcessOptions["redis"],
  extra: Partial<InProcessOptions> = {},
): Promise<InProcessScrubService> {
  return createInProcessScrubService({
    handle,
    dataDir: path.join(work, "data"),
    redis,
    redisPrefix: uniquePrefix(),
    threads: 1,
    progressMs: 50,
    listWaitMs: 0,
    batchBytes: 64 * 1024,
    // a lookup that fails during a failover scrubs the job again after these pauses (the test cluster's node
    // timeout is 3 s), so a job may complete after one; a master lost for good still fails it
    storeRetryDelaysMs: [500, 1500, 3000],
    ...extra,
  });
}
