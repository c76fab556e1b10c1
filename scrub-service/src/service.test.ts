import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../../tests/setup/db";
import type { DbHandle } from "db/client";
import { createScrubJob, createListLoad } from "./service";
import { adminListIds, cleanupService, createContainer, createUser, startService, storeKinds, tmpDir } from "./test/helpers";
import type { InProcessScrubService } from "./in-process";

for (const kind of storeKinds) {
  describe(`scrub service end to end [${kind}]`, () => {
    let handle: DbHandle;
    let svc: InProcessScrubService;
    let userId: string;
    let dir: string;
    beforeAll(async () => {
      handle = await createTestDb();
      dir = tmpDir("e2e");
      svc = await startService(handle, kind, { dataDir: dir });
      userId = await createUser(handle);
    });
    afterAll(async () => {
      await cleanupService(svc);
      await handle.close();
    });

    it("loads lists from files and scrubs a CSV into good, bad and invalid files", async () => {
      const ids = await adminListIds(handle);
      const litFile = path.join(dir, "lit.txt");
      fs.writeFileSync(litFile, "2125550001\n(212) 555-0002\nnot a number\n");
      const loadId = await createListLoad(handle.db, { listId: ids.litigation, mode: "add", fileName: "lit.txt", inputPath: litFile });
      await svc.enqueueListLoad(loadId);
      expect(await svc.waitFor("load", loadId)).toBe("completed");
      const load = await handle.db.selectFrom("list_loads").selectAll().where("id", "=", loadId).executeTakeFirstOrThrow();
      expect([Number(load.added), Number(load.invalid), load.error]).toEqual([2, 1, null]);

      const dncFile = path.join(dir, "dnc.csv");
      fs.writeFileSync(dncFile, "Phone\n3055550003\n");
      const dncLoad = await createListLoad(handle.db, { listId: ids.dnc, mode: "add", fileName: "dnc.csv", inputPath: dncFile });
      await svc.enqueueListLoad(dncLoad);
      expect(await svc.waitFor("load", dncLoad)).toBe("completed");

      const container = await createContainer(handle, userId);
      const manual = await svc.loadNumbers({ listId: container, mode: "add", numbers: ["4155550004", "12"], userId });
      expect([manual.added, manual.invalid, manual.rejected[0]?.reason]).toEqual([1, 1, "wrong_length"]);

      const input = path.join(dir, "in.csv");
      fs.writeFileSync(
        input,
        "name,phone,city\r\nA,2125550001,NY\r\nB,+1 (305) 555-0003,Miami\r\nC,415.555.0004,SF\r\nD,5125550005,Austin\r\nE,5125550005,Austin\r\nF,1.23457E+9,X\r\nG,=HYPERLINK(1),Y\r\n",
      );
      const jobId = await createScrubJob(handle.db, {
        userId,
        fileName: "in.csv",
        inputPath: input,
        suppressionType: "DNCAndLitigation",
        containerId: container,
      });
      await svc.enqueue(jobId);
      expect(await svc.waitFor("job", jobId)).toBe("completed");
      const job = await handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
      expect(job.error).toBeNull();
      expect([Number(job.total_rows), Number(job.good_count), Number(job.bad_count), Number(job.invalid_count)]).toEqual([7, 1, 4, 2]);
      const files = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", jobId).orderBy("kind").execute();
      const read = (k: string) => fs.readFileSync(files.find((f) => f.kind === k)!.path, "utf8");
      expect(read("good")).toBe("name,phone,city,phone_e164\nD,5125550005,Austin,+15125550005\n");
      expect(read("bad")).toBe(
        // the customer's cell stays escaped; phone_e164 is the clean key (decision 184)
        'name,phone,city,phone_e164,reason\nA,2125550001,NY,+12125550001,litigation\nB,"\'+1 (305) 555-0003",Miami,+13055550003,dnc\nC,415.555.0004,SF,+14155550004,container\nE,5125550005,Austin,+15125550005,duplicate\n',
      );
      expect(read("invalid")).toBe(
        `name,phone,city,phone_e164,reason\nF,1.23457E+9,X,,Excel scientific notation (like 1.23457E+9): digits were lost - format the column as text and export again\n` +
          `G,"'=HYPERLINK(1)",Y,,not a phone number\n`,
      );
      expect(job.reason_counts).toMatchObject({ excel_notation: 1, not_a_number: 1 });
      expect(files.map((f) => f.file_name)).toEqual(["in_Bad.csv", "in_Good.csv", "in_Invalid.csv"]);
    });

    it("wakes a caller of whenSettled once the job's row is final, completed or failed, and no caller of another job", async () => {
      const input = path.join(dir, "settle.csv");
      fs.writeFileSync(input, "phone\n2125550101\n");
      let otherWoke = false;
      void svc.runner.whenSettled("00000000-0000-4000-8000-000000000000").then(() => (otherWoke = true));
      for (const [file, status] of [
        [input, "completed"],
        [path.join(dir, "gone.csv"), "failed"],
      ] as const) {
        const jobId = await createScrubJob(handle.db, { userId, fileName: "settle.csv", inputPath: file, suppressionType: "LitigationOnly" });
        const settled = svc.runner.whenSettled(jobId);
        await svc.enqueue(jobId);
        await settled;
        // what the CLI reads when it wakes: the row is already final
        const job = await handle.db.selectFrom("scrub_jobs").select("status").where("id", "=", jobId).executeTakeFirstOrThrow();
        expect(job.status).toBe(status);
      }
      expect(otherWoke).toBe(false);
    });
  });
}
