import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../../../tests/setup/db";
import type { DbHandle } from "db/client";
import { createListLoad, createScrubJob } from "../service";
import { adminListIds, cleanupService, createUser, startService, storeKinds, tmpDir } from "../test/helpers";
import { writeGzip, writeXlsx, writeZip } from "../test/input-files";
import type { InProcessScrubService } from "../in-process";
import type { ListLoadMode } from "db/schema";
import { storedNumbers } from "../test/list-blocks";

/** FTC registry files in the layout of docs/decisions/106, generated here. */
for (const kind of storeKinds) {
  describe(`FTC registry files and other formats in list loads and scrubs [${kind}]`, () => {
    let handle: DbHandle;
    let svc: InProcessScrubService;
    let dir: string;
    let dnc: number;
    beforeAll(async () => {
      handle = await createTestDb();
      dir = tmpDir("ftc");
      svc = await startService(handle, kind, { dataDir: dir });
      dnc = (await adminListIds(handle)).dnc;
    });
    afterAll(async () => {
      await cleanupService(svc);
      await handle.close();
    });

    async function load(mode: ListLoadMode, file: string) {
      const id = await createListLoad(handle.db, { listId: dnc, mode, fileName: path.basename(file), inputPath: file });
      await svc.enqueueListLoad(id);
      await svc.waitFor("load", id);
      return handle.db.selectFrom("list_loads").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    }
    const numbersOnList = async () => (await storedNumbers(handle, dnc)).map(String);

    it("loads an FTC area-code zip (NPA,NXXXXXX per line, one file per area code) as whole numbers, then applies a change list in one load", async () => {
      const zip = writeZip(path.join(dir, "ftc-full.zip"), [
        { name: "212.txt", data: Buffer.from("212,5552100\r\n212,5552101\r\n212,5552102\r\n") },
        { name: "305.txt", data: Buffer.from("305,5552123\n305,5552124\n305,0550125\n") },
      ]);
      const full = await load("replace", zip);
      expect([full.status, full.error, Number(full.added), Number(full.invalid)]).toEqual(["completed", null, 5, 1]);
      expect(full.source_format).toBe("FTC full list (area code, number) · 2 CSV files in a .zip file");
      expect([full.input_encoding, full.input_delimiter]).toEqual(["UTF-8", "comma"]);
      expect(await numbersOnList()).toEqual(["2125552100", "2125552101", "2125552102", "3055552123", "3055552124"]);

      // the change list: area code, number, add/delete indicator, date of the change; a number added then deleted ends deleted
      const changes = await writeGzip(path.join(dir, "changes.txt.gz"), [
        "212,5552103,A,2026-11-20\n",
        "212,5552100,D,2026-11-20\n",
        "305,5552124,D,2026-11-21\n",
        "415,5552199,D,2026-11-21\n",
        "646,5552111,A,2026-11-21\n",
        "646,5552111,D,2026-11-22\n",
        "212,5552101,A,2026-11-22\n",
        "999,12,A,2026-11-22\n",
      ]);
      const versionOf = async () => Number((await handle.db.selectFrom("lists").select("version").where("id", "=", dnc).executeTakeFirstOrThrow()).version);
      const before = await versionOf();
      const applied = await load("changes", changes);
      expect([applied.status, applied.error]).toEqual(["completed", null]);
      // deletions and additions in one transaction: one new version, and the store's copy is current at it
      expect(await versionOf()).toBe(before + 1);
      const ready = await svc.manager.ready(dnc);
      expect(ready.info.version).toBe(before + 1);
      const probe = Float64Array.of(2125552100, 2125552101, 2125552103, 3055552124, 3055552123, 6465552111);
      expect([...(await ready.snapshot!.has(probe, probe.length))]).toEqual([0, 1, 1, 0, 1, 0]);
      // additions: 5552103 new, 5552101 already there; deletions: 5552100 and 5552124 removed, 4155552199 and 6465552111 not on the list
      expect([Number(applied.added), Number(applied.already_present), Number(applied.removed), Number(applied.not_present), Number(applied.invalid)]).toEqual([
        1, 1, 2, 2, 1,
      ]);
      expect(applied.source_format).toBe("FTC change list (additions and deletions) · gzip-compressed CSV");
      expect(await numbersOnList()).toEqual(["2125552101", "2125552102", "2125552103", "3055552123"]);

      // a change list loaded as plain numbers, or plain numbers applied as changes: refused, nothing changed
      const wrong = await load("add", changes);
      expect([wrong.status, wrong.error]).toEqual([
        "failed",
        "This is an FTC change list (its records say add or delete): apply it as a change list, not as a list of numbers.",
      ]);
      const notChanges = await load("changes", zip);
      expect(notChanges.error).toBe("The file is not an FTC change list: no record names a number with an add (A) or delete (D) indicator.");
      expect(await numbersOnList()).toEqual(["2125552101", "2125552102", "2125552103", "3055552123"]);
    });

    it("loads the one-number-per-line FTC form and an Excel list; scrubs an .xlsx and records what it was", async () => {
      const flat = path.join(dir, "flat.txt");
      fs.writeFileSync(flat, "7185552100\n7185552101\n");
      const a = await load("add", flat);
      expect([a.status, Number(a.added), a.source_format]).toEqual(["completed", 2, "text, one number per line"]);
      const xlsx = await writeXlsx(path.join(dir, "dnc.xlsx"), [{ name: "DNC", rows: [["Phone"], [7185552102], [7185552100]] }]);
      const b = await load("add", xlsx);
      expect([b.status, Number(b.added), Number(b.already_present)]).toEqual(["completed", 1, 1]);
      expect(b.source_format).toBe("CSV (comma-separated, header row) · Excel workbook (.xlsx)");

      const userId = await createUser(handle);
      const input = await writeXlsx(path.join(dir, "leads.xlsx"), [
        { name: "Notes", rows: [["nothing here"]] },
        {
          name: "Leads",
          rows: [
            ["Name", "Phone"],
            ["José", 7185552100],
            ["Ann", 2015552100],
          ],
        },
      ]);
      const jobId = await createScrubJob(handle.db, { userId, fileName: "leads.xlsx", inputPath: input, suppressionType: "DNCAndLitigation", sheet: "Leads" });
      await svc.enqueue(jobId);
      expect(await svc.waitFor("job", jobId)).toBe("completed");
      const job = await handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
      expect([job.input_format, job.input_encoding, job.input_delimiter, job.input_sheet]).toEqual(["Excel workbook (.xlsx)", "UTF-8", "comma", "Leads"]);
      const files = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", jobId).execute();
      const text = (k: string) => fs.readFileSync(files.find((f) => f.kind === k)!.path, "utf8");
      expect(text("good")).toBe("Name,Phone,phone_e164\nAnn,2015552100,+12015552100\n");
      expect(text("bad")).toBe("Name,Phone,phone_e164,reason\nJosé,7185552100,+17185552100,dnc\n");
    });
  });
}
