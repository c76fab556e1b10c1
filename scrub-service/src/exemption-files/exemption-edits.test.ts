/**
 * Exemption lists managed row by row (#44): an edit (rows set whatever their record was, numbers removed) is a new
 * version hashed like any load; browsing by prefix in phone order; counts by basis and ended; a delete refused while
 * a queued or running purge uses the list. On the embedded database and, with DATABASE_URL, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableDbKinds, createTestDb } from "../../../tests/setup/db";
import type { DbHandle } from "db/client";
import { createUser } from "../test/helpers";
import {
  browseExemptionRecords,
  createExemptionList,
  deleteExemptionList,
  exemptionCounts,
  exemptionSha256,
  findExemptionList,
  loadExemptions,
} from "../exemptions";
import { ExemptionInputError, readExemptionRows } from "./file";

const NOW = new Date("2026-11-28T12:00:00Z");

for (const kind of availableDbKinds()) {
  describe(`exemption lists managed row by row [${kind}]`, () => {
    let handle: DbHandle;
    let userId: string;
    beforeAll(async () => {
      handle = await createTestDb(kind);
      userId = await createUser(handle);
    });
    afterAll(async () => {
      await handle?.close();
    });

    const rows = (text: string) => readExemptionRows({ text }, NOW);

    async function listWith(text: string) {
      const list = await createExemptionList(handle.db, { userId, name: `l${Math.random()}` });
      await loadExemptions(handle.db, { listId: list.id, userId, mode: "replace", rows: await rows(text) });
      return list.id;
    }

    it("an edit changes a row's basis and date, removes rows, adds new ones, and hashes what it stored", async () => {
      const id = await listWith("2122200000,purchase,2025-06-01\n2122200001,inquiry,2026-10-01\n2122200002,consent,2020-05-05\n2122200003,purchase,2026-01-01");
      const r = await loadExemptions(handle.db, {
        listId: id,
        userId,
        mode: "edit",
        // a basis changed (add would refuse it), an earlier date (add would keep the later one), a new number
        rows: await rows("2122200001,consent,2026-09-01\n2122200003,purchase,2025-12-01\n2122200007,inquiry,2026-11-01"),
        remove: [2122200002, 2122209999],
      });
      const expected = await rows(
        "2122200000,purchase,2025-06-01\n2122200001,consent,2026-09-01\n2122200003,purchase,2025-12-01\n2122200007,inquiry,2026-11-01",
      );
      expect([r.list.size, r.list.version]).toEqual([4, 2]);
      expect(r.list.sha256).toBe(exemptionSha256(expected));
      const page = (await browseExemptionRecords(handle.db, { id, userId, limit: 10 }))!;
      expect(page.records).toEqual([
        { number: 2122200000, basis: "purchase", date: "2025-06-01" },
        { number: 2122200001, basis: "consent", date: "2026-09-01" },
        { number: 2122200003, basis: "purchase", date: "2025-12-01" },
        { number: 2122200007, basis: "inquiry", date: "2026-11-01" },
      ]);
      expect(page.more).toBe(false);
    });

    it("browses a page at a time in phone order, by number prefix, and never another user's list", async () => {
      const id = await listWith(["3125552200", "2125552345", "2125552399", "2135552345"].map((n) => `${n},consent,2024-01-01`).join("\n"));
      const first = (await browseExemptionRecords(handle.db, { id, userId, limit: 2 }))!;
      expect(first.records.map((r) => r.number)).toEqual([2125552345, 2125552399]);
      expect(first.more).toBe(true);
      const next = (await browseExemptionRecords(handle.db, { id, userId, limit: 2, after: 2125552399 }))!;
      expect(next.records.map((r) => r.number)).toEqual([2135552345, 3125552200]);
      expect(next.more).toBe(false);
      expect((await browseExemptionRecords(handle.db, { id, userId, limit: 9, prefix: "212555" }))!.records.map((r) => r.number)).toEqual([
        2125552345, 2125552399,
      ]);
      expect((await browseExemptionRecords(handle.db, { id, userId, limit: 9, prefix: "2125552399" }))!.records).toHaveLength(1);
      const other = await createUser(handle);
      expect(await browseExemptionRecords(handle.db, { id, userId: other, limit: 9 })).toBeUndefined();
    });

    it("counts records by basis and those ended under the federal windows at an instant (18 and 3 months, the end day itself ended)", async () => {
      const id = await listWith(
        [
          "2122200000,purchase,2025-05-28", // 18 months end 2026-11-28: ended on the 28th
          "2122200001,purchase,2025-05-29", // ends the 29th: still applies
          "2122200002,inquiry,2026-08-28", // 3 months end 2026-11-28: ended
          "2122200003,inquiry,2026-09-01",
          "2122200004,consent,2000-01-01", // never ends
        ].join("\n"),
      );
      const counts = await exemptionCounts(handle.db, { id, userId, purchaseMonths: 18, inquiryMonths: 3, atMs: NOW.getTime() });
      expect(counts).toEqual([
        { basis: "purchase", records: 2, ended: 1 },
        { basis: "inquiry", records: 2, ended: 1 },
        { basis: "consent", records: 1, ended: 0 },
      ]);
    });

    it("refuses to delete a list a queued or running purge uses, and deletes it once the purge is done", async () => {
      const id = await listWith("2122200000,consent,2024-01-01");
      const job = await handle.db
        .insertInto("scrub_jobs")
        .values({
          user_id: userId,
          file_name: "x.csv",
          input_path: "/nowhere/x.csv",
          suppression_type: "DNCAndLitigation",
          status: "running",
          exemption_list_id: id,
        } as never)
        .returning("id")
        .executeTakeFirstOrThrow();
      const refused = await deleteExemptionList(handle.db, { id, userId }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ExemptionInputError);
      expect((refused as ExemptionInputError).errors[0]).toMatch(/^A purge that uses this exemption list is queued or running \(1\)/);
      expect(await findExemptionList(handle.db, { id, userId })).toBeDefined();
      await handle.db.updateTable("scrub_jobs").set({ status: "completed" }).where("id", "=", job.id).execute();
      const other = await createUser(handle);
      expect(await deleteExemptionList(handle.db, { id, userId: other })).toBe(false);
      expect(await deleteExemptionList(handle.db, { id, userId })).toBe(true);
      expect(await findExemptionList(handle.db, { id, userId })).toBeUndefined();
      const kept = await handle.db.selectFrom("scrub_jobs").select("exemption_list_id").where("id", "=", job.id).executeTakeFirstOrThrow();
      expect(kept.exemption_list_id).toBeNull();
    });
  });
}
