import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "api-opt-outs-"));

import { useAppTestDb } from "../setup/db";
import { testContext } from "../setup/request";
import { apiRequest, bodyOf, installScrubService, makeContainer, makeKey, makeUser } from "./helpers";
import * as optOuts from "~/routes/api.v1.opt-outs._index";
import * as lookup from "~/routes/api.v1.lookup";
import * as containersApi from "~/routes/api.v1.containers._index";
import { stopLookupUsage } from "~/models/usage.server";
import { adminListIds, cleanupService, startService, storeKinds, tmpDir } from "scrub-service/testing";
import type { InProcessScrubService } from "scrub-service/in-process";
import { createExemptionList, createScrubJob, ensureInternalDncList, loadExemptions, readExemptionRows } from "scrub-service";
import { retryUnhonouredOptOuts } from "~/intake/opt-outs.server";
import { INTERNAL_DNC_LIST_NAME } from "scrub-service/domain";

/*
 * Opt-outs (issue #47, decision 195) through POST/GET /api/v1/opt-outs on every available list store (embedded; Redis
 * in CI): all or nothing with every bad record named; the number lands in the owner's internal do-not-call list,
 * created on the first opt-out; that list is checked by the lookup and by a scrub whatever container is chosen, with
 * reason internal_dnc, and a written consent no longer clears the number; another account sees none of it.
 */

const { handle } = useAppTestDb();
const db = () => handle().db;

/** On the federal DNC list; each store's customer opts one of these out. */
const ON_DNC = ["3105553101", "3105553102"];
/** On the DNC list too, with a written consent and no opt-out: the consent still clears it. */
const CONSENTED = ["3105553201", "3105553202"];

let loader: InProcessScrubService;

beforeAll(async () => {
  loader = await startService(handle(), "embedded", { autoStart: false });
  const { dnc } = await adminListIds(handle());
  await loader.loadNumbers({ listId: dnc, mode: "add", numbers: [...ON_DNC, ...CONSENTED] });
});

afterAll(async () => {
  await stopLookupUsage();
  await loader?.close();
});

const post = (key: string, json: unknown) => optOuts.action({ request: apiRequest("/api/v1/opt-outs", { key, json }), params: {}, context: testContext });
const get = (key: string, number: string) =>
  optOuts.loader({ request: apiRequest(`/api/v1/opt-outs?number=${number}`, { key }), params: {}, context: testContext });
const ask = (key: string, body: unknown) => lookup.action({ request: apiRequest("/api/v1/lookup", { key, json: body }), params: {}, context: testContext });
const ago = (h: number) => new Date(Date.now() - h * 3600_000).toISOString().slice(0, 19) + "Z";

storeKinds.forEach((store, s) => {
  describe(`opt-outs: ${store} store`, () => {
    let service: InProcessScrubService;
    let alice: { id: string; key: string; container: number };
    let bob: { id: string; key: string };
    const NUMBER = ON_DNC[s % ON_DNC.length];
    const CONSENT_ONLY = CONSENTED[s % CONSENTED.length];

    beforeAll(async () => {
      service = store === "embedded" ? await startService(handle(), "embedded") : await startService(handle(), store);
      if (store !== "embedded") await service.rebuildLists();
      installScrubService(service);
      const a = await makeUser(db(), { plan: "business" });
      alice = { id: a, key: (await makeKey(db(), a)).key, container: await makeContainer(db(), a, "Spring campaign") };
      const b = await makeUser(db(), { plan: "business" });
      bob = { id: b, key: (await makeKey(db(), b)).key };
    });

    afterAll(async () => {
      if (service) await cleanupService(service);
    });

    it("refuses the whole request naming every bad record: a bad number, a bad channel, a future instant; nothing recorded", async () => {
      const good = { number: NUMBER, received_at: ago(2), channel: "text", words: "STOP" };
      const res = await post(alice.key, {
        opt_outs: [
          good,
          { ...good, number: "555-0100" },
          { ...good, channel: "carrier pigeon" },
          { ...good, received_at: new Date(Date.now() + 3600_000).toISOString() },
        ],
      });
      expect(res.status).toBe(422);
      const body = await bodyOf(res);
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.details.map((d: any) => d.field)).toEqual(["opt_outs[1].number", "opt_outs[2].channel", "opt_outs[3].received_at"]);
      expect(body.error.details[2].message).toMatch(/in the future/);
      // one record alone: its fields named without an index
      const one = await bodyOf(await post(alice.key, { ...good, channel: "fax" }));
      expect(one.error.details).toEqual([{ field: "channel", message: "channel must be one of call, text, e-mail, web, in-person" }]);
      // 10,001 records: refused as a whole
      const many = await post(alice.key, { opt_outs: new Array(10_001).fill(good) });
      expect(many.status).toBe(422);
      expect((await bodyOf(many)).error.message).toMatch(/at most 10000 opt-outs/);
      expect((await bodyOf(await get(alice.key, NUMBER))).total).toBe(0);
      const lists = await db().selectFrom("lists").select("id").where("user_id", "=", alice.id).where("internal_dnc", "=", true).execute();
      expect(lists).toEqual([]);
    });

    it("records an opt-out into the internal do-not-call list created on first use; GET shows both instants; another account sees nothing", async () => {
      const receivedAt = ago(3);
      const res = await post(alice.key, {
        number: `(${NUMBER.slice(0, 3)}) ${NUMBER.slice(3, 6)}-${NUMBER.slice(6)}`,
        received_at: receivedAt,
        channel: "text",
        words: "STOP",
      });
      expect(res.status).toBe(201);
      const body = await bodyOf(res);
      expect(body).toMatchObject({ recorded: 1 });
      const list = await db().selectFrom("lists").selectAll().where("id", "=", body.internal_list_id).executeTakeFirstOrThrow();
      expect(list).toMatchObject({ user_id: alice.id, kind: "container", internal_dnc: true, name: INTERNAL_DNC_LIST_NAME });
      expect(Number(list.size)).toBe(1);
      // the API's container list flags it
      const listed = await bodyOf(
        await containersApi.loader({ request: apiRequest("/api/v1/containers", { key: alice.key }), params: {}, context: testContext }),
      );
      expect(listed.data.map((c: any) => [c.name, c.internal_dnc])).toEqual(
        expect.arrayContaining([
          [INTERNAL_DNC_LIST_NAME, true],
          ["Spring campaign", false],
        ]),
      );
      // a second one goes to the same list
      const again = await bodyOf(
        await post(alice.key, {
          opt_outs: [{ number: NUMBER, received_at: ago(1), channel: "e-mail", words: "Please never call me again", subject: "spring" }],
        }),
      );
      expect(again.internal_list_id).toBe(body.internal_list_id);
      const got = await bodyOf(await get(alice.key, NUMBER));
      expect(got).toMatchObject({ number: NUMBER, total: 2, next_offset: null });
      expect(got.data[0]).toMatchObject({ channel: "e-mail", subject: "spring", source: "api", late: false });
      expect(got.data[1]).toMatchObject({ channel: "text", words: "STOP", received_at: new Date(receivedAt).toISOString(), late: false });
      expect(Date.parse(got.data[1].honoured_at)).toBeGreaterThan(Date.parse(got.data[1].received_at));
      expect((await bodyOf(await get(bob.key, NUMBER))).total).toBe(0);
    });

    it("the lookup says internal_dnc whatever container is chosen, and a written consent no longer clears the number", async () => {
      const consent = await createExemptionList(db(), { userId: alice.id, name: "Consents" });
      const rows = await readExemptionRows({ text: `${NUMBER},consent,2025-01-01\n${CONSENT_ONLY},consent,2025-01-01` });
      await loadExemptions(db(), { listId: consent.id, userId: alice.id, mode: "replace", rows });
      const internal = await db().selectFrom("lists").select("id").where("user_id", "=", alice.id).where("internal_dnc", "=", true).executeTakeFirstOrThrow();
      // no container, none, another one, or the internal list itself chosen
      for (const container of [undefined, null, alice.container, internal.id]) {
        const res = await ask(alice.key, {
          numbers: [NUMBER, CONSENT_ONLY],
          exemptions: consent.id,
          ...(container === undefined ? {} : { container_id: container }),
        });
        expect(res.status).toBe(200);
        const r = await bodyOf(res);
        expect(r.data.map((d: any) => [d.suppressed_by, d.exempt?.basis ?? null])).toEqual([
          ["internal_dnc", null],
          [null, "consent"],
        ]);
        expect(r.data[0].exemptionNote).toBe("your internal do-not-call list (opt-out): never exempted");
      }
      // Bob's lookup of the same number: only the DNC list
      expect((await bodyOf(await ask(bob.key, { numbers: [NUMBER] }))).data[0].suppressed_by).toBe("dnc");
    });

    it("a scrub with another container chosen and a consent exemption list marks the number bad with internal_dnc", { timeout: 120_000 }, async () => {
      const consent = await createExemptionList(db(), { userId: alice.id, name: "Consents for the scrub" });
      await loadExemptions(db(), {
        listId: consent.id,
        userId: alice.id,
        mode: "replace",
        rows: await readExemptionRows({ text: `${NUMBER},consent,2025-01-01\n${CONSENT_ONLY},consent,2025-01-01` }),
      });
      const dir = tmpDir("opt-out-scrub");
      const file = path.join(dir, "in.csv");
      fs.writeFileSync(file, `Phone\n${NUMBER}\n${CONSENT_ONLY}\n`);
      const jobId = await createScrubJob(db(), {
        userId: alice.id,
        fileName: "in.csv",
        inputPath: file,
        suppressionType: "DNCAndLitigation",
        containerId: alice.container,
        exemptionListId: consent.id,
      });
      await service.enqueue(jobId);
      expect(await service.waitFor("job", jobId, 60_000)).toBe("completed");
      const job = await db().selectFrom("scrub_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
      expect([job.good_count, job.bad_count].map(Number)).toEqual([1, 1]);
      const bad = await db().selectFrom("result_files").select("path").where("job_id", "=", jobId).where("kind", "=", "bad").executeTakeFirstOrThrow();
      const lines = fs.readFileSync(bad.path, "utf8").trim().split("\n");
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(NUMBER);
      expect(lines[1]).toContain("internal_dnc");
      const cert = await db().selectFrom("scrub_certificates").select("document").where("job_id", "=", jobId).executeTakeFirstOrThrow();
      expect(JSON.stringify(cert.document)).toContain("internal_dnc");
    });

    it("the housekeeping honours opt-outs a failed or stopped load left behind, once, and the number is then internal_dnc", async () => {
      const carol = await makeUser(db(), { plan: "business" });
      const key = (await makeKey(db(), carol)).key;
      const [stranded, finished] = [`31055534${10 + s}`, `31055535${10 + s}`];
      // the internal list with two loads as a crash would leave them: one failed, one completed but never marked
      const listId = await db()
        .transaction()
        .execute(async (trx) => (await ensureInternalDncList(trx, carol)).id);
      const finishedAt = ago(5);
      const load = async (status: "failed" | "completed") =>
        (
          await db()
            .insertInto("list_loads")
            .values({
              list_id: listId,
              user_id: carol,
              mode: "add",
              status,
              file_name: "Manual entry",
              ...(status === "completed" ? { finished_at: finishedAt } : {}),
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      const [failedLoad, finishedLoad] = [await load("failed"), await load("completed")];
      const optOut = (number: string, loadId: string) =>
        db()
          .insertInto("opt_outs")
          .values({ user_id: carol, number, received_at: ago(6), channel: "call", words: "Do not call me", source: "api", list_id: listId, load_id: loadId })
          .execute();
      await optOut(stranded, failedLoad);
      await optOut(stranded, failedLoad);
      await optOut(finished, finishedLoad);
      expect((await bodyOf(await ask(key, { numbers: [stranded] }))).data[0].suppressed_by).toBe(null);

      expect(await retryUnhonouredOptOuts(db(), service)).toEqual({ marked: 1, retried: 1, failed: 0 });
      const rows = await db().selectFrom("opt_outs").select(["number", "load_id", "honoured_at"]).where("user_id", "=", carol).orderBy("id").execute();
      expect(rows.every((r) => r.honoured_at !== null)).toBe(true);
      expect(rows[2].honoured_at!.toISOString()).toBe(new Date(finishedAt).toISOString());
      expect(rows[0].load_id).not.toBe(failedLoad);
      expect(rows[0].load_id).toBe(rows[1].load_id);
      const retry = await db().selectFrom("list_loads").select(["status", "list_id"]).where("id", "=", rows[0].load_id!).executeTakeFirstOrThrow();
      expect(retry).toEqual({ status: "completed", list_id: listId });
      expect((await bodyOf(await ask(key, { numbers: [stranded] }))).data[0].suppressed_by).toBe("internal_dnc");
      // both honourings are in the owner's decision ledger (decision 197), the finished one at its load's end
      const honoured = await db()
        .selectFrom("ledger_entries")
        .select(["numbers", "payload"])
        .where("user_id", "=", carol)
        .where("kind", "=", "opt_out_honoured")
        .orderBy("seq")
        .execute();
      expect(honoured.map((e) => e.numbers.map(String))).toEqual([[finished], [stranded]]);
      expect(JSON.parse(honoured[0].payload).honouredAt).toBe(new Date(finishedAt).toISOString());
      // nothing left: a second round does nothing
      expect(await retryUnhonouredOptOuts(db(), service)).toEqual({ marked: 0, retried: 0, failed: 0 });
    });
  });
});
