import crypto from "node:crypto";
import { execFile } from "node:child_process";
import fs from "node:fs";
import zlib from "node:zlib";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "api-ledger-"));

import { useAppTestDb } from "../setup/db";
import { testContext } from "../setup/request";
import { apiRequest, bodyOf, installScrubService, makeKey, makeUser } from "./helpers";
import * as ledgerApi from "~/routes/api.v1.ledger";
import * as heads from "~/routes/[.well-known].ledger-heads";
import * as dossierApi from "~/routes/api.v1.numbers.$number.dossier";
import * as optOuts from "~/routes/api.v1.opt-outs._index";
import * as lookup from "~/routes/api.v1.lookup";
import { stopLookupUsage } from "~/models/usage.server";
import { runHousekeeping } from "~/maintenance/housekeeping.server";
import { adminListIds, cleanupService, startService, tmpDir } from "scrub-service/testing";
import type { InProcessScrubService } from "scrub-service/in-process";
import { CLI_BUNDLE } from "scrub-service/entry-points";
import { createExemptionList, createScrubJob, flushLedger, keyMap, loadExemptions, publishedKeys, readExemptionRows, verifyLedgerExport } from "scrub-service";

/*
 * The decision ledger (issue #47, decision 197) through the product: an opt-out, a lookup, an exemption list's load and
 * a scrub each append to the owner's chain (the scrub as one batch entry naming its certificate's SHA-256); the hourly
 * housekeeping signs the finished day's head; GET /api/v1/ledger exports it and `npm run verify -- --ledger` checks the
 * file offline against the published keys: as exported it verifies, and a changed entry, a deleted one, two reordered
 * or a forged day head each fail with a message naming it. Another account's key sees nothing of it; the published
 * heads name ledgers by their public id only.
 */

const { handle } = useAppTestDb();
const db = () => handle().db;
const exec = promisify(execFile);
const NUMBER = "3105554101";
const OTHER = "2125554102";
const DAY_MS = 86_400_000;

let service: InProcessScrubService;
let alice: { id: string; key: string };
let bob: { id: string; key: string };

beforeAll(async () => {
  service = await startService(handle(), "embedded");
  installScrubService(service);
  const { dnc } = await adminListIds(handle());
  await service.loadNumbers({ listId: dnc, mode: "add", numbers: [NUMBER] });
  const a = await makeUser(db(), { plan: "business" });
  alice = { id: a, key: (await makeKey(db(), a)).key };
  const b = await makeUser(db(), { plan: "business" });
  bob = { id: b, key: (await makeKey(db(), b)).key };
}, 60_000);

afterAll(async () => {
  await flushLedger();
  await stopLookupUsage();
  if (service) await cleanupService(service);
});

const get = async (key: string, query = "") => ledgerApi.loader({ request: apiRequest(`/api/v1/ledger${query}`, { key }), params: {}, context: testContext });
const today = () => new Date().toISOString().slice(0, 10);

describe("the decision ledger through the API", () => {
  it("records an opt-out, a lookup, an exemption list's load and a scrub in the owner's chain", { timeout: 120_000 }, async () => {
    const res = await optOuts.action({
      request: apiRequest("/api/v1/opt-outs", {
        key: alice.key,
        json: { number: OTHER, received_at: new Date(Date.now() - 3600_000).toISOString(), channel: "text", words: "STOP" },
      }),
      params: {},
      context: testContext,
    });
    expect(res.status).toBe(201);
    const answer = await lookup.action({
      request: apiRequest("/api/v1/lookup", { key: alice.key, json: { numbers: [NUMBER, OTHER, "12"] } }),
      params: {},
      context: testContext,
    });
    const answerBytes = Buffer.from(await answer.arrayBuffer());
    const consent = await createExemptionList(db(), { userId: alice.id, name: "Consents" });
    await loadExemptions(db(), {
      listId: consent.id,
      userId: alice.id,
      mode: "replace",
      rows: await readExemptionRows({ text: `${NUMBER},consent,2025-01-01\n` }),
    });
    const dir = tmpDir("ledger-scrub");
    const file = path.join(dir, "in.csv");
    fs.writeFileSync(file, `Phone\n${NUMBER}\n${OTHER}\n`);
    const jobId = await createScrubJob(db(), { userId: alice.id, fileName: "in.csv", inputPath: file, suppressionType: "DNCAndLitigation" });
    await service.enqueue(jobId);
    expect(await service.waitFor("job", jobId, 60_000)).toBe("completed");
    await flushLedger();

    const doc = await bodyOf(await get(alice.key));
    expect(doc.format).toBe("decision-ledger/1");
    expect(doc.ledger).toMatch(/^lg_/);
    const kinds = doc.entries.map((e: any) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(["opt_out", "list_version", "opt_out_honoured", "lookup", "exemption_list", "scrub"]));
    expect(doc.entries.map((e: any) => e.seq)).toEqual(doc.entries.map((_: unknown, i: number) => i + 1));
    const looked = doc.entries.find((e: any) => e.kind === "lookup");
    expect(looked.numbers).toEqual([NUMBER, OTHER]);
    expect(looked.payload.answerSha256).toBe(crypto.createHash("sha256").update(answerBytes).digest("hex"));
    expect(looked.payload.answers).toEqual([
      [NUMBER, "dnc", expect.any(Boolean), null],
      [OTHER, "internal_dnc", expect.any(Boolean), null],
    ]);
    const scrub = doc.entries.find((e: any) => e.kind === "scrub");
    const cert = await db().selectFrom("scrub_certificates").select("document").where("job_id", "=", jobId).executeTakeFirstOrThrow();
    expect(scrub).toMatchObject({
      ref: jobId,
      numbers: [],
      payload: { jobId, certificateSha256: crypto.createHash("sha256").update(cert.document).digest("hex") },
    });
    expect(scrub.payload.counts).toMatchObject({ total: 2, good: 0, bad: 2 });
    expect(doc.entries.find((e: any) => e.kind === "exemption_list")).toMatchObject({
      numbers: [NUMBER],
      payload: { listId: consent.id, version: 1, size: 1 },
    });
    expect(doc.entries.find((e: any) => e.kind === "opt_out").payload.optOuts[0]).toMatchObject({ number: OTHER, channel: "text" });
    expect(verifyLedgerExport(doc, keyMap(await publishedKeys(db()))).ok).toBe(true);
  });

  it("signs the finished day in the hourly housekeeping and publishes the head under the ledger's public id only", async () => {
    const tomorrow = new Date(Date.parse(`${today()}T00:30:00Z`) + DAY_MS);
    await runHousekeeping(db(), tomorrow);
    const doc = await bodyOf(await get(alice.key, `?from=${today()}&to=${today()}`));
    expect(doc.dayHeads).toHaveLength(1);
    expect(doc.dayHeads[0]).toMatchObject({ ledger: doc.ledger, day: today(), seq: doc.entries.length });
    const published = await bodyOf(
      await heads.loader({ request: new Request(`http://localhost/.well-known/ledger-heads?day=${today()}`), params: {}, context: testContext }),
    );
    expect(published.heads).toContainEqual(doc.dayHeads[0]);
    const text = JSON.stringify(published);
    expect(text).not.toContain(alice.id);
    expect(text).not.toContain(NUMBER);
    const bad = await heads.loader({ request: new Request("http://localhost/.well-known/ledger-heads?day=2026-02-30"), params: {}, context: testContext });
    expect(bad.status).toBe(422);
  });

  it("shows another account nothing of it, and refuses a bad window", async () => {
    expect(await bodyOf(await get(bob.key))).toEqual({ ledger: null, entries: [], dayHeads: [] });
    await lookup.action({ request: apiRequest("/api/v1/lookup", { key: bob.key, json: { numbers: [OTHER] } }), params: {}, context: testContext });
    await flushLedger();
    const bobs = await bodyOf(await get(bob.key));
    const alices = await bodyOf(await get(alice.key));
    expect(bobs.ledger).not.toBe(alices.ledger);
    // alice's opt-out of OTHER is hers: bob's answer is not suppressed
    expect(bobs.entries.map((e: any) => [e.kind, e.payload.answers])).toEqual([["lookup", [[OTHER, null, expect.any(Boolean), null]]]]);
    // a reservation is its own kind, with the reservation's id as answered (null when the number is not callable now)
    const reserved = await bodyOf(
      await lookup.action({
        request: apiRequest("/api/v1/lookup", { key: bob.key, json: { numbers: [OTHER], reserve: true } }),
        params: {},
        context: testContext,
      }),
    );
    await flushLedger();
    const last = (await bodyOf(await get(bob.key))).entries.at(-1);
    expect(last).toMatchObject({
      kind: "reservation",
      seq: 2,
      payload: { answers: [[OTHER, null, reserved.data[0].callableNow, reserved.data[0].reservationId]] },
    });
    expect((await get(alice.key, "?from=2026-11-28&to=2026-11-01")).status).toBe(422);
    expect((await get(alice.key, "?from=2024-01-01&to=2026-11-01")).status).toBe(422);
    expect((await ledgerApi.loader({ request: apiRequest("/api/v1/ledger"), params: {}, context: testContext })).status).toBe(401);
  });

  it(
    "npm run verify -- --ledger: the export verifies offline; a changed entry, a deleted one, two reordered or a forged head fail it, named",
    { timeout: 120_000 },
    async () => {
      const dir = tmpDir("ledger-verify");
      const keysFile = path.join(dir, "keys.json");
      fs.writeFileSync(keysFile, JSON.stringify({ keys: await publishedKeys(db()) }));
      const doc = await bodyOf(await get(alice.key, `?from=${today()}&to=${today()}`));
      expect(doc.dayHeads.length).toBe(1);
      const verify = async (d: unknown) => {
        const f = path.join(dir, `ledger-${crypto.randomBytes(4).toString("hex")}.json`);
        fs.writeFileSync(f, JSON.stringify(d, null, 2));
        try {
          const r = await exec(process.execPath, [CLI_BUNDLE, "verify", "--ledger", f, "--keys", keysFile], {
            env: { ...process.env, DATA_DIR: dir },
          });
          return { code: 0, out: r.stdout };
        } catch (e) {
          const err = e as { code: number; stdout: string };
          return { code: err.code, out: err.stdout };
        }
      };
      const honest = await verify(doc);
      expect(honest).toMatchObject({ code: 0 });
      expect(honest.out).toMatch(/^Verified: no entry was changed, removed or reordered/m);
      const copy = () => JSON.parse(JSON.stringify(doc));

      const changed = copy();
      changed.entries[1].payload.listId = 999;
      expect(await verify(changed)).toEqual({ code: 1, out: expect.stringMatching(/^FAIL entry 2: Entry 2 was changed: its contents hash to/m) });
      const deleted = copy();
      deleted.entries.splice(2, 1);
      expect(await verify(deleted)).toEqual({
        code: 1,
        out: expect.stringContaining("FAIL entry 4: Entry 3 is missing: after entry 2 comes entry 4 (deleted)."),
      });
      const reordered = copy();
      [reordered.entries[1], reordered.entries[2]] = [reordered.entries[2], reordered.entries[1]];
      expect(await verify(reordered)).toEqual({ code: 1, out: expect.stringContaining("Entry 2 is out of order: entry 4 was expected here") });
      const forged = copy();
      forged.dayHeads[0].seq = 1;
      forged.dayHeads[0].hash = forged.entries[0].hash;
      expect(await verify(forged)).toEqual({
        code: 1,
        out: expect.stringMatching(/^FAIL day head .*: The day head of .* \(seq 1\) does not match its Ed25519 signature under the service's published key/m),
      });
      // and through the store: a row changed in the database since its day was signed
      const original = await db()
        .selectFrom("ledger_entries")
        .select("payload")
        .where("user_id", "=", alice.id)
        .where("seq", "=", 1n)
        .executeTakeFirstOrThrow();
      await sql`update ledger_entries set payload = '{"tampered":true}' where user_id = ${alice.id} and seq = 1`.execute(db());
      const after = await verify(await bodyOf(await get(alice.key, `?from=${today()}&to=${today()}`)));
      expect(after).toEqual({ code: 1, out: expect.stringContaining("FAIL entry 1: Entry 1 was changed") });
      await sql`update ledger_entries set payload = ${original.payload} where user_id = ${alice.id} and seq = 1`.execute(db());
      expect((await verify(await bodyOf(await get(alice.key, `?from=${today()}&to=${today()}`)))).code).toBe(0);
    },
  );

  it(
    "GET /api/v1/numbers/{number}/dossier: the number's decisions, opt-outs and proof; verify --dossier holds, and fails on a changed decision, opt-out or entry",
    { timeout: 120_000 },
    async () => {
      const dossierOf = async (key: string, number: string, query = "") =>
        dossierApi.loader({ request: apiRequest(`/api/v1/numbers/${number}/dossier${query}`, { key }), params: { number }, context: testContext });
      const res = await dossierOf(alice.key, OTHER, `?from=${today()}&to=${today()}`);
      expect(res.status).toBe(200);
      const d = await bodyOf(res);
      expect(d).toMatchObject({ format: "number-dossier/1", number: OTHER, from: today(), to: today() });
      expect(d.decisions.map((x: any) => x.kind)).toEqual(["opt_out", "opt_out_honoured", "lookup"]);
      expect(d.decisions[2].detail).toMatchObject({ suppressedBy: "internal_dnc", callingRulesVersion: expect.any(String) });
      expect(d.batches.map((x: any) => x.kind)).toEqual(expect.arrayContaining(["list_version", "scrub"]));
      expect(d.optOuts).toEqual([expect.objectContaining({ channel: "text", words: "STOP" })]);
      // the scrub's rows of the number, read from its result files while they are kept
      expect(d.scrubRows).toEqual([{ jobId: expect.any(String), seq: expect.any(Number), rows: [{ file: "bad", reason: "internal_dnc" }], note: null }]);
      expect(d.listsNow).toEqual([expect.objectContaining({ kind: "container", name: "Internal do-not-call list" })]);
      // entries about other numbers are digests only: NUMBER's exemption entry is not shown
      expect(JSON.stringify(d.proof.items)).not.toContain('"exemption_list"');
      expect(d.proof.items.some((x: any) => "digest" in x && !("kind" in x))).toBe(true);
      expect(d.proof.dayHeads).toHaveLength(1);
      // another account's dossier of the same number: nothing of alice's
      const bobs = await bodyOf(await dossierOf(bob.key, OTHER, `?from=${today()}&to=${today()}`));
      expect(bobs.optOuts).toEqual([]);
      expect(bobs.decisions.map((x: any) => [x.kind, x.detail.suppressedBy])).toEqual([
        ["lookup", null],
        ["reservation", null],
      ]);
      expect((await dossierOf(alice.key, "12")).status).toBe(422);
      // the PDF for people carries the same dossier attached (its streams inflated, one is the JSON)
      const pdf = await dossierOf(alice.key, OTHER, `?from=${today()}&to=${today()}&format=pdf`);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
      const bytes = Buffer.from(await pdf.arrayBuffer());
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
      expect(bytes.includes(Buffer.from(`dossier-${OTHER}.json`))).toBe(true);
      const attached = [...bytes.toString("latin1").matchAll(/stream\r?\n([\s\S]*?)endstream/g)]
        .map((m) => {
          try {
            return zlib.inflateSync(Buffer.from(m[1], "latin1")).toString();
          } catch {
            return "";
          }
        })
        .find((t) => t.startsWith("{"));
      expect(JSON.parse(attached!)).toMatchObject({ format: "number-dossier/1", number: OTHER, decisions: d.decisions, optOuts: d.optOuts });
      expect((await dossierOf(alice.key, OTHER, "?format=xml")).status).toBe(422);

      const dir = tmpDir("dossier-verify");
      const keysFile = path.join(dir, "keys.json");
      fs.writeFileSync(keysFile, JSON.stringify({ keys: await publishedKeys(db()) }));
      const verify = async (doc: unknown) => {
        const f = path.join(dir, `dossier-${crypto.randomBytes(4).toString("hex")}.json`);
        fs.writeFileSync(f, JSON.stringify(doc, null, 2));
        try {
          return {
            code: 0,
            out: (
              await exec(process.execPath, [CLI_BUNDLE, "verify", "--dossier", f, "--keys", keysFile], {
                env: { ...process.env, DATA_DIR: dir },
              })
            ).stdout,
          };
        } catch (e) {
          const err = e as { code: number; stdout: string };
          return { code: err.code, out: err.stdout };
        }
      };
      const honest = await verify(d);
      expect(honest.code).toBe(0);
      expect(honest.out).toMatch(/^OK +opt-out \d+: The opt-out received .* is in the ledger as received, words unchanged\.$/m);
      const copy = () => JSON.parse(JSON.stringify(d));
      const changedDecision = copy();
      changedDecision.decisions[2].detail.suppressedBy = null;
      expect((await verify(changedDecision)).out).toContain("FAIL decisions: The decisions listed differ from what the proof's entries say about the number");
      const changedWords = copy();
      changedWords.optOuts[0].words = "call me any time";
      expect((await verify(changedWords)).out).toMatch(/^FAIL opt-out \d+: The opt-out received .* is not in the ledger's window as listed/m);
      const shown = copy();
      const lookupItem = shown.proof.items.find((x: any) => x.kind === "lookup");
      lookupItem.payload.answers[0][1] = null;
      shown.decisions[2].detail.suppressedBy = null;
      expect((await verify(shown)).out).toMatch(new RegExp(`^FAIL entry ${lookupItem.seq}: Entry ${lookupItem.seq} was changed`, "m"));
    },
  );
});
