import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "../../db/client";
import { createTestDb } from "../setup/db";
import { cleanupService, REDIS_URL, startService, tmpDir } from "../../scrub-service/src/test/helpers";
import { reportListStoreAtStart } from "~/utils/scrub.server";

/*
 * A Redis that does not answer at start is said in the log at start (issue #13 item 8), with the command
 * that repairs the lists once it answers, and without the URL's password. boot() calls this with REDIS_URL.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

describe("list store at start", () => {
  it("an unreachable Redis is logged at start with the rebuild command, never its password", async () => {
    const svc = await startService(handle, "redis", { redisUrl: "redis://user:s3cret@127.0.0.1:1", dataDir: tmpDir("start") });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await reportListStoreAtStart(svc, "redis://user:s3cret@127.0.0.1:1", 10_000)).toBe("unreachable");
      const log = logged.mock.calls.flat().join(" ");
      expect(log).toMatch(/^\[boot\] the list store \(Redis at 127\.0\.0\.1:1\) is unreachable: .*npm run lists -- rebuild/);
      expect(log).not.toContain("s3cret");
    } finally {
      logged.mockRestore();
      await svc.close();
    }
  });

  it.runIf(REDIS_URL)("a reachable Redis without the lists is named stale; after the rebuild it is ok", async () => {
    const svc = await startService(handle, "redis", { dataDir: tmpDir("start") });
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(await reportListStoreAtStart(svc, REDIS_URL!)).toBe("stale");
      expect(warned.mock.calls.flat().join(" ")).toMatch(/holds no current copy of \d+ list\(s\).*npm run lists -- rebuild/);
      await svc.rebuildLists();
      expect(await reportListStoreAtStart(svc, REDIS_URL!)).toBe("ok");
    } finally {
      warned.mockRestore();
      await cleanupService(svc);
    }
  });
});
