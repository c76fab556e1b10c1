import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "db/client";
import { createTestDb } from "../setup/db";
import { sql } from "kysely";
import {
  adminListIds,
  cleanupService,
  insertNumberBehindTheBack,
  OLD_LAYOUT_NOTE,
  REDIS_URL,
  startService,
  tmpDir,
  type RedisListStore,
} from "scrub-service/testing";
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

  it.runIf(REDIS_URL)("lists in the key layout before Redis Cluster support read as stale, are named at start, and a rebuild replaces them", async () => {
    const svc = await startService(handle, "redis", { dataDir: tmpDir("start") });
    const store = svc.store as RedisListStore;
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      await svc.rebuildLists();
      const { litigation } = await adminListIds(handle);
      await insertNumberBehindTheBack(handle, litigation, 2125552100);
      const { version } = await handle.db
        .updateTable("lists")
        .set({ size: sql`size + 1`, version: sql`version + 1` })
        .where("id", "=", litigation)
        .returning("version")
        .executeTakeFirstOrThrow();
      // What the old code wrote for that version: meta and marker keyed by the list id alone, sets under gen 1.
      await store.drop(litigation);
      const p = store.prefix;
      await store.redis.hset(`${p}meta:${litigation}`, { version, gen: 1, state: "ready" });
      await store.redis.set(`${p}gen:${litigation}:1`, "1");
      await store.redis.sadd(`${p}n:${litigation}:1:{212}555`, 2100);

      const lit = (await svc.listStoreStatus()).find((s) => s.listId === litigation)!;
      expect([lit.version, lit.storeVersion, lit.note]).toEqual([Number(version), null, OLD_LAYOUT_NOTE]);
      expect(await reportListStoreAtStart(svc, REDIS_URL!)).toBe("stale");
      expect(warned.mock.calls.flat().join(" ")).toMatch(
        new RegExp(`list\\(s\\) ${litigation} are in an older key layout; scrubs using them fail until you run \`npm run lists -- rebuild\``),
      );

      await svc.rebuildLists([litigation]);
      const after = (await svc.listStoreStatus()).find((s) => s.listId === litigation)!;
      expect([after.storeVersion, after.note]).toEqual([Number(version), undefined]);
      expect(await store.redis.exists(`${p}meta:${litigation}`, `${p}gen:${litigation}:1`, `${p}n:${litigation}:1:{212}555`)).toBe(0);
      const snap = await store.snapshot(litigation, Number(version));
      expect([...(await snap.has(new Float64Array([2125552100, 2125552101]), 2))]).toEqual([1, 0]);
    } finally {
      warned.mockRestore();
      await cleanupService(svc);
    }
  });
});
