/**
 * The embedded index's copy of a list is saved on disk for its exact version: a fresh process serves it
 * without reading the numbers from the database, and a damaged file is never served.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createTestDb } from "../../tests/setup/db";
import { createScrubJob } from "./service";
import { adminListIds, createUser, startService, tmpDir } from "./test/helpers";
import type { DbHandle } from "db/client";

async function badRows(handle: DbHandle, dataDir: string, userId: string, input: string): Promise<string> {
  const svc = await startService(handle, "embedded", { dataDir }); // a fresh process: nothing in memory
  try {
    const id = await createScrubJob(handle.db, { userId, fileName: "in.csv", inputPath: input, suppressionType: "LitigationOnly" });
    await svc.enqueue(id);
    expect(await svc.waitFor("job", id)).toBe("completed");
    const bad = await handle.db.selectFrom("result_files").select("path").where("job_id", "=", id).where("kind", "=", "bad").executeTakeFirstOrThrow();
    return fs.readFileSync(bad.path, "utf8");
  } finally {
    await svc.close();
  }
}

describe("embedded index cache", () => {
  it("serves a list's saved copy to the next process, and never a damaged one", { timeout: 60_000 }, async () => {
    const handle = await createTestDb();
    const dir = tmpDir("icache");
    try {
      const input = path.join(dir, "in.csv");
      fs.writeFileSync(input, "phone\n2125550001\n3055550002\n4155550003\n");
      const userId = await createUser(handle);
      const { litigation } = await adminListIds(handle);
      const loader = await startService(handle, "embedded", { dataDir: dir });
      await loader.loadNumbers({ listId: litigation, mode: "add", numbers: ["2125550001", "3055550002"] });
      await loader.close();

      // the load saved the new version's copy and Bloom filter for other processes
      const cache = path.join(dir, "cache");
      const indexFile = fs.readdirSync(cache).find((f) => f.startsWith(`index-${litigation}-v`));
      expect(indexFile).toBeTruthy();
      expect(fs.readdirSync(cache).some((f) => f.startsWith(`bloom-${litigation}-v`))).toBe(true);

      // the rows vanish behind the service's back (no new version): a fresh process serves the saved copy
      await sql`delete from list_blocks where list_id = ${litigation}`.execute(handle.db);
      expect(await badRows(handle, dir, userId, input)).toBe(
        "phone,phone_e164,reason\n2125550001,+12125550001,litigation\n3055550002,+13055550002,litigation\n",
      );

      // one flipped byte in the saved numbers: the file fails its checksum and the database is read instead
      const file = path.join(cache, indexFile!);
      const bytes = fs.readFileSync(file);
      bytes[bytes.length - 2] ^= 0x01;
      fs.writeFileSync(file, bytes);
      expect(await badRows(handle, dir, userId, input)).toBe("phone,phone_e164,reason\n");
    } finally {
      await handle.close();
    }
  });
});
