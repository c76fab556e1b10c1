/** Cached Bloom filter files are reused only for the exact state of a list, never across databases. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDb } from "../../tests/setup/db";
import { createScrubJob } from "./service";
import { REDIS_URL, adminListIds, cleanupService, createUser, startService, tmpDir, uniquePrefix } from "./test/helpers";
import { skipWithout } from "../../tests/setup/services";

const noRedis = await skipWithout("bloom-cache.test.ts", [{ kind: "tcp", name: "Redis", url: REDIS_URL ?? "" }]);

// Only the Redis mode builds filters from the database (the embedded index builds them while loading).
// Skipped only without REDIS_URL on a developer machine: under CI=true tests/setup/global.ts requires it.
describe.skipIf(noRedis)("Bloom filter cache", () => {
  it("is keyed by the list's state: two databases sharing a data directory never share a filter", { timeout: 60_000 }, async () => {
    const dir = tmpDir("bcache");
    const input = path.join(dir, "in.csv");
    fs.writeFileSync(input, "phone\n2125550001\n3055550002\n");
    const results: string[] = [];
    for (const onList of ["2125550001", "3055550002"]) {
      const handle = await createTestDb();
      const redisPrefix = uniquePrefix();
      const svc = await startService(handle, "redis", { dataDir: dir, redisPrefix });
      try {
        const userId = await createUser(handle);
        const { litigation } = await adminListIds(handle);
        await svc.loadNumbers({ listId: litigation, mode: "add", numbers: [onList] });
        // a fresh process (empty memory) must build or read the filter for this state of the list
        await svc.close();
        const again = await startService(handle, "redis", { dataDir: dir, redisPrefix });
        const id = await createScrubJob(handle.db, { userId, fileName: "in.csv", inputPath: input, suppressionType: "LitigationOnly" });
        await again.enqueue(id);
        expect(await again.waitFor("job", id)).toBe("completed");
        const bad = await handle.db.selectFrom("result_files").select("path").where("job_id", "=", id).where("kind", "=", "bad").executeTakeFirstOrThrow();
        results.push(fs.readFileSync(bad.path, "utf8"));
        await cleanupService(again);
      } finally {
        await svc.close().catch(() => {});
        await handle.close();
      }
    }
    expect(results).toEqual(["phone,phone_e164,reason\n2125550001,+12125550001,litigation\n", "phone,phone_e164,reason\n3055550002,+13055550002,litigation\n"]);
    expect(fs.readdirSync(path.join(dir, "cache")).length).toBeGreaterThan(0);
  });
});
