/**
 * Exemption lists through the real engine (decision 161), against the embedded index and, with REDIS_URL, Redis:
 * a number on the DNC list is good exactly when its record applies at the scrub's instant (calendar-month edges, a
 * leap day, a record dated after the instant), litigation and the customer's container are never exempted (a
 * container entry revokes consent), good.csv gains the `exemption` column, and the job and the certificate record
 * the list's version, SHA-256 and what each basis let through. Loads are all or nothing.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../../tests/setup/db";
import type { DbHandle } from "db/client";
import { createScrubJob, createListLoad } from "./service";
import { adminListIds, cleanupService, createContainer, createUser, startService, storeKinds, tmpDir } from "./test/helpers";
import type { InProcessScrubService } from "./in-process";
import { createExemptionList, ExemptionInputError, exemptionSha256, findExemptionList, loadExemptions } from "./exemptions";
import { readExemptionRows as readRows } from "./exemption-files/file";

const readExemptionRows = (text: string, now?: Date) => readRows({ text }, now);

const LIT = 2125552300; // litigation and DNC, with consent: litigation wins
const D1 = 2125552301; // purchase 2025-01-31: ends as 2026-07-31 begins
const D2 = 2125552302; // purchase 2025-03-01: until 2026-09-01
const D3 = 2125552303; // inquiry 2026-05-01: until 2026-08-01
const D4 = 2125552304; // consent on a leap day
const D5 = 2125552305; // consent dated after the instant
const CON = 2125552306; // DNC with consent, but in the customer's container: the seller's do-not-call list
const D7 = 2125552307; // on the DNC list, no record
const FREE = 2125552308; // on no list, with a record: good, no note

const EXEMPTIONS = [
  "phone,basis,date",
  `${LIT},consent,2020-01-01`,
  `${D1},purchase,2025-01-31`,
  `${D2},purchase,2025-03-01`,
  `${D3},inquiry,2026-05-01`,
  `${D4},consent,2024-02-29`,
  `${D5},consent,2026-08-01`,
  `${CON},consent,2023-06-01`,
  `${FREE},purchase,2026-01-01`,
].join("\n");

for (const kind of storeKinds) {
  describe(`exemptions [${kind}]`, () => {
    let handle: DbHandle;
    let svc: InProcessScrubService;
    let userId: string;
    let dir: string;
    let containerId: number;
    let listId: number;
    beforeAll(async () => {
      handle = await createTestDb();
      dir = tmpDir("exemptions");
      svc = await startService(handle, kind, { dataDir: dir });
      userId = await createUser(handle);
      const ids = await adminListIds(handle);
      for (const [id, numbers] of [
        [ids.litigation, [LIT]],
        [ids.dnc, [LIT, D1, D2, D3, D4, D5, CON, D7]],
      ] as const) {
        const file = path.join(dir, `list-${id}.txt`);
        fs.writeFileSync(file, numbers.join("\n") + "\n");
        const load = await createListLoad(handle.db, { listId: id, mode: "add", fileName: path.basename(file), inputPath: file });
        await svc.enqueueListLoad(load);
        expect(await svc.waitFor("load", load)).toBe("completed");
      }
      containerId = await createContainer(handle, userId);
      await svc.loadNumbers({ listId: containerId, mode: "add", numbers: [String(CON)], userId });
      // the upload day is after every record (a record dated in the future is refused at load)
      const rows = await readExemptionRows(EXEMPTIONS, new Date("2026-11-26T12:00:00Z"));
      listId = (await createExemptionList(handle.db, { userId, name: "CRM export" })).id;
      await loadExemptions(handle.db, { listId, userId, mode: "replace", rows });
    });
    afterAll(async () => {
      await cleanupService(svc);
      await handle.close();
    });

    async function scrub(at: string, name: string) {
      const input = path.join(dir, `${name}.csv`);
      fs.writeFileSync(input, ["Name,Phone", ...[LIT, D1, D2, D3, D4, D5, CON, D7, FREE].map((n, i) => `r${i},${n}`)].join("\n") + "\n");
      const jobId = await createScrubJob(handle.db, {
        userId,
        fileName: `${name}.csv`,
        inputPath: input,
        suppressionType: "DNCAndLitigation",
        containerId,
        exemptionListId: listId,
        evaluatedAt: new Date(at),
      });
      await svc.enqueue(jobId);
      expect(await svc.waitFor("job", jobId)).toBe("completed");
      const job = await handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
      const files = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", jobId).execute();
      const read = (k: string) => fs.readFileSync(files.find((f) => f.kind === k)!.path, "utf8");
      const cert = await handle.db.selectFrom("scrub_certificates").select("document").where("job_id", "=", jobId).executeTakeFirstOrThrow();
      return { job, good: read("good"), bad: read("bad"), certificate: JSON.parse(cert.document).certificate };
    }

    it("lets a DNC number through exactly while its record applies; never litigation or a container", async () => {
      const r = await scrub("2026-07-31T15:00:00Z", "edge");
      expect(r.good).toBe(
        [
          "Name,Phone,phone_e164,exemption",
          `r2,${D2},+1${D2},"purchase 2025-03-01, exempt until 2026-09-01"`,
          `r3,${D3},+1${D3},"inquiry 2026-05-01, exempt until 2026-08-01"`,
          `r4,${D4},+1${D4},consent 2024-02-29`,
          `r8,${FREE},+1${FREE},`,
          "",
        ].join("\n"),
      );
      // bad.csv says why a listed number's record did not apply (decision 184); D7 has no record
      expect(r.bad).toBe(
        [
          "Name,Phone,phone_e164,reason,exemption",
          `r0,${LIT},+1${LIT},litigation,litigation list: never exempted`,
          `r1,${D1},+1${D1},dnc,"purchase 2025-01-31: the federal rule allows 18 months, ended 2026-07-31"`,
          `r5,${D5},+1${D5},dnc,consent 2026-08-01: dated after the evaluation instant`,
          `r6,${CON},+1${CON},container,your container: never exempted`,
          `r7,${D7},+1${D7},dnc,`,
          "",
        ].join("\n"),
      );
      expect(r.job.reason_counts).toMatchObject({ litigation: 1, dnc: 3, container: 1 });
      const summary = r.job.exemption_summary as Record<string, unknown>;
      const list = (await findExemptionList(handle.db, { id: listId, userId }))!;
      const expected = {
        listId,
        name: "CRM export",
        version: list.version,
        sha256: list.sha256,
        count: 8,
        at: "2026-07-31T15:00:00Z",
        byBasis: { purchase: 1, inquiry: 1, consent: 1 },
      };
      expect(summary).toMatchObject(expected);
      const none = { purchase: 0, inquiry: 0, consent: 0 };
      expect(summary.records).toEqual({
        applied: { purchase: 1, inquiry: 1, consent: 1 },
        expired: { ...none, purchase: 1 },
        neverApplicable: { ...none, consent: 2 },
        notYet: { ...none, consent: 1 },
      });
      expect(r.certificate.exemptions).toMatchObject({ ...expected, windows: [{ kind: "dnc", purchaseMonths: 18, inquiryMonths: 3 }] });
      expect(list.sha256).toBe(exemptionSha256(await readExemptionRows(EXEMPTIONS, new Date("2026-11-26T12:00:00Z"))));
      expect(new Date(r.job.evaluated_at!).toISOString()).toBe("2026-07-31T15:00:00.000Z");
    });

    it("a day earlier the 18-month purchase still applies, and the record dated 2026-08-01 still does not", async () => {
      const r = await scrub("2026-07-30T23:59:59Z", "day-before");
      expect(r.good.split("\n")).toContain(`r1,${D1},+1${D1},"purchase 2025-01-31, exempt until 2026-07-31"`);
      expect(r.good).not.toContain(String(D5));
      expect(r.job.exemption_summary).toMatchObject({ byBasis: { purchase: 2, inquiry: 1, consent: 1 } });
    });

    it("a number on the federal and a state list needs a record valid under each list's windows (Texas: 12 months, no inquiry)", async () => {
      const tx = await handle.db.selectFrom("lists").select("id").where("kind", "=", "dnc-tx").executeTakeFirstOrThrow();
      const [P, Q, R] = [2145552301, 2145552302, 2145552303];
      const { dnc } = await adminListIds(handle);
      await svc.loadNumbers({ listId: dnc, mode: "add", numbers: [P, Q, R].map(String) });
      await svc.loadNumbers({ listId: tx.id, mode: "add", numbers: [P, Q, R].map(String) });
      const own = (await createExemptionList(handle.db, { userId, name: "Texas customers" })).id;
      // at 2026-07-31: P's purchase is 16 months old (federal yes, Texas no), Q's 6 (both), R's inquiry 1 (Texas: none)
      const rows = await readExemptionRows(`${P},purchase,2025-03-15\n${Q},purchase,2026-01-20\n${R},inquiry,2026-07-01`, new Date("2026-11-26T12:00:00Z"));
      await loadExemptions(handle.db, { listId: own, userId, mode: "replace", rows });
      const input = path.join(dir, "texas.csv");
      fs.writeFileSync(input, `Phone\n${P}\n${Q}\n${R}\n`);
      const jobId = await createScrubJob(handle.db, {
        userId,
        fileName: "texas.csv",
        inputPath: input,
        suppressionType: "DNCAndLitigation",
        exemptionListId: own,
        evaluatedAt: new Date("2026-07-31T12:00:00Z"),
      });
      await svc.enqueue(jobId);
      expect(await svc.waitFor("job", jobId)).toBe("completed");
      const files = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", jobId).execute();
      const read = (k: string) => fs.readFileSync(files.find((f) => f.kind === k)!.path, "utf8");
      expect(read("good")).toBe(`Phone,phone_e164,exemption\n${Q},+1${Q},"purchase 2026-01-20, exempt until 2027-01-20"\n`);
      expect(read("bad")).toBe(
        `Phone,phone_e164,reason,exemption\n${P},+1${P},dnc-tx,"purchase 2025-03-15: Texas allows 12 months, ended 2026-03-15"\n` +
          `${R},+1${R},dnc-tx,inquiry 2026-07-01: Texas allows no inquiry exemption\n`,
      );
      const cert = await handle.db.selectFrom("scrub_certificates").select("document").where("job_id", "=", jobId).executeTakeFirstOrThrow();
      expect(JSON.parse(cert.document).certificate.exemptions.windows).toEqual([
        expect.objectContaining({ kind: "dnc", purchaseMonths: 18, inquiryMonths: 3 }),
        expect.objectContaining({ kind: "dnc-tx", purchaseMonths: 12, inquiryMonths: 0 }),
      ]);
    });

    it("loads all rows or none: a bad line, or a number already on the list with another basis, changes nothing", async () => {
      const before = (await findExemptionList(handle.db, { id: listId, userId }))!;
      await expect(readExemptionRows(`${D7},purchase,2025-01-01\n${D7},consent,2025-02-01\n2125552399,gift,2025-01-01`)).rejects.toThrow(ExemptionInputError);
      await expect(
        loadExemptions(handle.db, { listId, userId, mode: "add", rows: await readExemptionRows(`${D7},purchase,2025-01-01\n${D2},consent,2025-02-01`) }),
      ).rejects.toThrow(/2125552302 is already on the list as purchase 2025-03-01/);
      const after = (await findExemptionList(handle.db, { id: listId, userId }))!;
      expect([after.version, after.size, after.sha256]).toEqual([before.version, before.size, before.sha256]);
      const other = await createUser(handle);
      await expect(
        loadExemptions(handle.db, { listId, userId: other, mode: "replace", rows: await readExemptionRows(`${D7},purchase,2025-01-01`) }),
      ).rejects.toThrow(ExemptionInputError);
      expect(await findExemptionList(handle.db, { id: listId, userId: other })).toBeUndefined();
    });
  });
}
