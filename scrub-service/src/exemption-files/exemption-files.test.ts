/**
 * Exemption files read off the event loop with bounded memory, in every format the scrub reads, and loads that never
 * stand in the readers' way (issue #49, decision 176), on the embedded database and, with DATABASE_URL, PostgreSQL.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableDbKinds, createTestDb } from "../../../tests/setup/db";
import type { DbHandle } from "db/client";
import { createUser, tmpDir } from "../test/helpers";
import { writeGzip, writeUtf16, writeWindows1252, writeXlsx, writeZip } from "../test/input-files";
import { createExemptionList, exemptionSha256, exemptionsOfNumbers, findExemptionList, loadExemptions, readExemptionSnapshot } from "../exemptions";
import { ExemptionInputError, exemptionReadStats, readExemptionRows } from "./file";

const NOW = new Date("2026-11-28T12:00:00Z");
const ROWS = "phone,basis,date\n2125552345,purchase,2025-03-01\n2125552346,consent,2024-02-29\n";

async function refusal(p: Promise<unknown>): Promise<string[]> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ExemptionInputError) return e.errors;
    throw e;
  }
  throw new Error("the rows were accepted");
}

describe("exemption files", () => {
  const dir = tmpDir("exemption-files");
  const file = (name: string) => path.join(dir, name);

  it("reads every format the scrub reads: gzip, zip, .xlsx, UTF-16 with a BOM, Windows-1252, CR-only lines", async () => {
    const expected = [2125552345, 2125552346];
    const inputs = [
      await writeGzip(file("rows.csv.gz"), [ROWS]),
      writeZip(file("rows.zip"), [{ name: "rows.csv", data: Buffer.from(ROWS) }]),
      await writeXlsx(file("rows.xlsx"), [
        {
          name: "Sheet1",
          rows: [
            ["phone", "basis", "date"],
            [2125552345, "purchase", "2025-03-01"],
            ["2125552346", "consent", "2024-02-29"],
          ],
        },
      ]),
      writeUtf16(file("rows-le.txt"), ROWS, "le"),
      writeUtf16(file("rows-be.txt"), ROWS, "be"),
      writeWindows1252(file("rows-1252.csv"), "phone,basis,date,note\n2125552345,purchase,2025-03-01,consënt café\n2125552346,consent,2024-02-29,\n"),
    ];
    fs.writeFileSync(file("rows-cr.csv"), ROWS.replaceAll("\n", "\r"));
    inputs.push(file("rows-cr.csv"));
    for (const input of inputs) {
      const rows = await readExemptionRows({ path: input }, NOW);
      expect([Array.from(rows.numbers), Array.from(rows.basis)], input).toEqual([expected, [0, 2]]);
    }
  });

  it("refuses a binary file and a damaged archive with the readers' words", async () => {
    fs.writeFileSync(file("binary.csv"), Buffer.from([0x32, 0x31, 0x32, 0x00, 0x01, 0x0a]));
    expect(await refusal(readExemptionRows({ path: file("binary.csv") }, NOW))).toEqual(["The file is not a CSV text file (phone,basis,date rows)."]);
    const gz = fs.readFileSync(await writeGzip(file("cut.csv.gz"), [ROWS.repeat(2000)]));
    fs.writeFileSync(file("cut.csv.gz"), gz.subarray(0, gz.length - 20));
    expect((await refusal(readExemptionRows({ path: file("cut.csv.gz") }, NOW)))[0]).toMatch(/^The gzip file is damaged/);
  });

  it("refuses 64 MB of one-cell lines at the row limit, and a 30 MB cell at the record limit, on its thread and in bounded memory", async () => {
    const lines = file("ones.csv");
    fs.writeFileSync(lines, Buffer.alloc(64 * 1024 * 1024, "1\n"));
    const cell = file("cell.csv");
    fs.writeFileSync(cell, Buffer.concat([Buffer.from("2125552345,purchase,"), Buffer.alloc(30 * 1024 * 1024, "7")]));
    const heapBefore = process.memoryUsage().heapUsed;
    const started = exemptionReadStats.started;
    const [a, b] = await Promise.all([refusal(readExemptionRows({ path: lines }, NOW)), refusal(readExemptionRows({ path: cell }, NOW))]);
    expect(a.at(-1)).toBe("Line 1000001: an exemption list holds at most 1,000,000 rows; nothing was loaded.");
    expect(a[0]).toBe("Line 1: expected phone,basis,date, found 1 cell.");
    expect(b).toEqual(["Line 1: the row is longer than 65,536 characters; nothing was loaded (an exemption row is phone,basis,date)."]);
    // read on the exemption thread, one at a time; this thread's heap did not take the files in
    expect(exemptionReadStats.started - started).toBe(2);
    expect(exemptionReadStats.peakActive).toBe(1);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);
  });
});

for (const kind of availableDbKinds()) {
  describe(`exemption loads [${kind}]`, () => {
    let handle: DbHandle;
    let userId: string;
    const dir = tmpDir("exemption-loads");

    beforeAll(async () => {
      handle = await createTestDb(kind);
      userId = await createUser(handle);
    });
    afterAll(async () => {
      await handle?.close();
    });

    /** n numbers from `from` on (exchanges 220–299: no N11 service code, no 555-01XX, which would be refused). */
    const rowsText = (from: number, n: number, basis = "purchase", date = "2025-06-01") =>
      Array.from({ length: n }, (_, i) => `${from + i},${basis},${date}`).join("\n");

    it("add merges with the current rows (later date kept, old rows kept) and hashes what it stored", async () => {
      const list = await createExemptionList(handle.db, { userId, name: "merge" });
      await loadExemptions(handle.db, { listId: list.id, userId, mode: "replace", rows: await readExemptionRows({ text: rowsText(2122200000, 3) }, NOW) });
      const add = await readExemptionRows({ text: "2122200001,purchase,2026-01-01\n2122200002,purchase,2024-01-01\n2122200009,consent,2020-05-05" }, NOW);
      const r = await loadExemptions(handle.db, { listId: list.id, userId, mode: "add", rows: add });
      expect([r.list.size, r.list.version, r.written]).toEqual([4, 2, 2]);
      const expected = await readExemptionRows(
        { text: "2122200000,purchase,2025-06-01\n2122200001,purchase,2026-01-01\n2122200002,purchase,2025-06-01\n2122200009,consent,2020-05-05" },
        NOW,
      );
      expect(r.list.sha256).toBe(exemptionSha256(expected));
      const snap = (await readExemptionSnapshot(handle.db, { id: list.id, userId }))!;
      expect(Array.from(snap.index.numbers)).toEqual(Array.from(expected.numbers));
      expect(Array.from(snap.index.day)).toEqual(Array.from(expected.day));
      // only the list's generation is left
      const stored = await handle.db
        .selectFrom("exemption_records")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("list_id", "=", list.id)
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(4);
    });

    it("a lookup and a scrub's read during a replace answer from the previous version, without waiting for it", async () => {
      const list = await createExemptionList(handle.db, { userId, name: "replace" });
      await loadExemptions(handle.db, {
        listId: list.id,
        userId,
        mode: "replace",
        rows: await readExemptionRows({ text: rowsText(3122200000, 10, "consent") }, NOW),
      });
      const big = await readExemptionRows({ text: rowsText(3122200000, 150_000, "purchase") }, NOW);
      let loadDone = false;
      const load = loadExemptions(handle.db, { listId: list.id, userId, mode: "replace", rows: big }).then((r) => {
        loadDone = true;
        return r;
      });
      // wait until the load has claimed the list and is writing
      for (;;) {
        const row = await handle.db.selectFrom("exemption_lists").select("loading_since").where("id", "=", list.id).executeTakeFirstOrThrow();
        if (row.loading_since) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      const found = await exemptionsOfNumbers(handle.db, { id: list.id, userId, numbers: [3122200003, 3122300000] });
      const snap = await readExemptionSnapshot(handle.db, { id: list.id, userId });
      expect(loadDone).toBe(false);
      expect(found!.list.version).toBe(1);
      expect([...found!.records.keys()]).toEqual([3122200003]);
      expect(found!.records.get(3122200003)!.basis).toBe(2);
      expect([snap!.list.version, snap!.index.numbers.length]).toEqual([1, 10]);
      const r = await load;
      expect([r.list.version, r.list.size]).toEqual([2, 150_000]);
      const after = await exemptionsOfNumbers(handle.db, { id: list.id, userId, numbers: [3122200003, 3122300000] });
      expect([after!.list.version, after!.records.get(3122200003)!.basis, after!.records.has(3122300000)]).toEqual([2, 0, true]);
    });

    it("one load of a list at a time: a claim held by another process refuses a load until it is an hour old; a failed load leaves the list as it was", async () => {
      const list = await createExemptionList(handle.db, { userId, name: "one at a time" });
      await loadExemptions(handle.db, { listId: list.id, userId, mode: "replace", rows: await readExemptionRows({ text: rowsText(4122200000, 5) }, NOW) });
      // another process's load of the list is running
      await handle.db.updateTable("exemption_lists").set({ loading_since: new Date() }).where("id", "=", list.id).execute();
      const one = await readExemptionRows({ text: rowsText(4122200000, 1) }, NOW);
      expect(await refusal(loadExemptions(handle.db, { listId: list.id, userId, mode: "add", rows: one }))).toEqual([
        "Another load of this exemption list is running; try again when it has finished.",
      ]);
      // a claim an hour old is a load that died with its process
      await handle.db
        .updateTable("exemption_lists")
        .set({ loading_since: new Date(Date.now() - 61 * 60_000) })
        .where("id", "=", list.id)
        .execute();
      expect(
        (
          await loadExemptions(handle.db, {
            listId: list.id,
            userId,
            mode: "replace",
            rows: await readExemptionRows({ text: rowsText(4122200000, 20_000) }, NOW),
          })
        ).list.size,
      ).toBe(20_000);
      // two loads in one process take turns: both complete
      const [a, b] = await Promise.all([
        loadExemptions(handle.db, { listId: list.id, userId, mode: "add", rows: await readExemptionRows({ text: "5122200001,consent,2025-01-01" }, NOW) }),
        loadExemptions(handle.db, { listId: list.id, userId, mode: "add", rows: await readExemptionRows({ text: "5122200002,consent,2025-01-01" }, NOW) }),
      ]);
      expect([a.list.size, b.list.size].sort()).toEqual([20_001, 20_002]);
      const before = (await findExemptionList(handle.db, { id: list.id, userId }))!;
      const conflict = await refusal(
        loadExemptions(handle.db, {
          listId: list.id,
          userId,
          mode: "add",
          rows: await readExemptionRows({ text: "4122200001,consent,2025-01-01\n5122200000,consent,2025-01-01" }, NOW),
        }),
      );
      expect(conflict).toEqual(["4122200001 is already on the list as purchase 2025-06-01; replace the list to change its basis."]);
      const after = (await findExemptionList(handle.db, { id: list.id, userId }))!;
      expect([after.version, after.size, after.sha256]).toEqual([before.version, before.size, before.sha256]);
      const stored = await handle.db
        .selectFrom("exemption_records")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("list_id", "=", list.id)
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(20_002);
      // the claim was released: the next load runs
      expect(
        (
          await loadExemptions(handle.db, {
            listId: list.id,
            userId,
            mode: "add",
            rows: await readExemptionRows({ text: "5122200000,consent,2025-01-01" }, NOW),
          })
        ).list.size,
      ).toBe(20_003);
    });

    it("the plan's limit counts the account's lists together", async () => {
      const owner = await createUser(handle);
      const limit = { max: 100, planName: "Beginner" };
      const a = await createExemptionList(handle.db, { userId: owner, name: "a" });
      const b = await createExemptionList(handle.db, { userId: owner, name: "b" });
      await loadExemptions(handle.db, {
        listId: a.id,
        userId: owner,
        mode: "replace",
        rows: await readExemptionRows({ text: rowsText(6122200000, 70) }, NOW),
        limit,
      });
      const over = await refusal(
        loadExemptions(handle.db, {
          listId: b.id,
          userId: owner,
          mode: "replace",
          rows: await readExemptionRows({ text: rowsText(7122200000, 31) }, NOW),
          limit,
        }),
      );
      expect(over).toEqual([
        "This list would hold 31 numbers, and your Beginner plan's exemption lists hold at most 100 in all (30 left for this list). Nothing was loaded.",
      ]);
      const addOver = await refusal(
        loadExemptions(handle.db, { listId: a.id, userId: owner, mode: "add", rows: await readExemptionRows({ text: rowsText(7122200000, 31) }, NOW), limit }),
      );
      expect(addOver[0]).toMatch(/^This list would hold 101 numbers/);
      await loadExemptions(handle.db, {
        listId: b.id,
        userId: owner,
        mode: "replace",
        rows: await readExemptionRows({ text: rowsText(7122200000, 30) }, NOW),
        limit,
      });
      // replacing a list counts its new size, not old + new
      await loadExemptions(handle.db, {
        listId: a.id,
        userId: owner,
        mode: "replace",
        rows: await readExemptionRows({ text: rowsText(6122200000, 70) }, NOW),
        limit,
      });
    });

    it("five lists loaded at once: read on the exemption thread one at a time, written side by side (their page-time figures are bench:hostile's)", async () => {
      const owner = await createUser(handle);
      const files = Array.from({ length: 5 }, (_, k) => {
        const f = path.join(dir, `parallel-${kind}-${k}.csv`);
        fs.writeFileSync(f, `phone,basis,date\n${rowsText([2122200000, 3122200000, 4122200000, 5122200000, 6122200000][k], 40_000)}\n`);
        return f;
      });
      const started = exemptionReadStats.started;
      exemptionReadStats.peakActive = 0;
      const lists = await Promise.all(
        files.map(async (f, k) => {
          const list = await createExemptionList(handle.db, { userId: owner, name: `p${k}` });
          return loadExemptions(handle.db, { listId: list.id, userId: owner, mode: "replace", rows: await readExemptionRows({ path: f }, NOW) });
        }),
      );
      expect(lists.map((l) => [l.list.size, l.list.version])).toEqual(Array(5).fill([40_000, 1]));
      expect([exemptionReadStats.started - started, exemptionReadStats.peakActive]).toEqual([5, 1]);
    }, 120_000);
  });
}
