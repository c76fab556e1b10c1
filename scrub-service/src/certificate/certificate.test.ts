import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../../../tests/setup/db";
import type { DbHandle } from "db/client";
import { createListLoad, createScrubJob } from "../service";
import { adminListIds, cleanupService, createUser, startService, tmpDir } from "../test/helpers";
import type { InProcessScrubService } from "../in-process";
import { sha256OfFile } from "./hash-file";
import { keyMap, publishedKeys, rotateSigningKey } from "./keys";
import { verifyCertificate, type FileDigests } from "./verify";
import { certificateText, newSigningKey, signCertificate } from "./sign";
import type { CertificateFile } from "./document";
import { NORMALIZER_RULES_VERSION } from "../numbers/normalize";

const DAY = 86_400_000;
const NOW = new Date("2026-11-23T12:00:00Z");

describe("scrub certificates", () => {
  let handle: DbHandle;
  let svc: InProcessScrubService;
  let userId: string;
  let dir: string;
  let dncSourceSha: string;
  beforeAll(async () => {
    handle = await createTestDb();
    dir = tmpDir("cert");
    svc = await startService(handle, "embedded", { dataDir: dir, clock: () => NOW });
    userId = await createUser(handle);
    const ids = await adminListIds(handle);
    const lit = path.join(dir, "lit.txt");
    fs.writeFileSync(lit, "2125550001\n");
    const litLoad = await createListLoad(handle.db, { listId: ids.litigation, mode: "add", fileName: "lit.txt", inputPath: lit });
    await svc.enqueueListLoad(litLoad);
    expect(await svc.waitFor("load", litLoad)).toBe("completed");
    const dnc = path.join(dir, "dnc.csv");
    fs.writeFileSync(dnc, "Phone\n3055550003\n3055550004\nnope\n");
    dncSourceSha = await sha256OfFile(dnc);
    // the registry download is stated to be 32 days old at the injected clock
    const dncLoad = await createListLoad(handle.db, {
      listId: ids.dnc,
      mode: "replace",
      fileName: "dnc.csv",
      inputPath: dnc,
      registryDate: new Date(NOW.getTime() - 32 * DAY),
    });
    await svc.enqueueListLoad(dncLoad);
    expect(await svc.waitFor("load", dncLoad)).toBe("completed");
  });
  afterAll(async () => {
    await cleanupService(svc);
    await handle.close();
  });

  async function scrub(name: string, body: string) {
    const input = path.join(dir, name);
    fs.writeFileSync(input, body);
    const jobId = await createScrubJob(handle.db, { userId, fileName: name, inputPath: input, suppressionType: "DNCAndLitigation", states: ["NY", "FL"] });
    await svc.enqueue(jobId);
    expect(await svc.waitFor("job", jobId)).toBe("completed");
    const row = await handle.db.selectFrom("scrub_certificates").selectAll().where("job_id", "=", jobId).executeTakeFirstOrThrow();
    const files = await handle.db.selectFrom("result_files").select(["kind", "path"]).where("job_id", "=", jobId).execute();
    const job = await handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
    const paths = Object.fromEntries(files.map((f) => [f.kind, f.path])) as Record<"good" | "bad" | "invalid", string>;
    return { jobId, input, text: row.document, keyId: row.key_id, paths, job };
  }

  async function digestsOf(input: string, paths: Record<string, string>): Promise<FileDigests> {
    return {
      input: await sha256OfFile(input),
      good: await sha256OfFile(paths.good),
      bad: await sha256OfFile(paths.bad),
      invalid: await sha256OfFile(paths.invalid),
    };
  }

  it("states what was scrubbed, against which list versions, and verifies with the files", async () => {
    const s = await scrub("leads.csv", "phone,name\n2125550001,a\n3055550003,b\n2125550009,c\n2125550009,d\nxx,e\n");
    const keys = keyMap(await publishedKeys(handle.db));
    const v = verifyCertificate(s.text, { publishedKeys: keys, digests: await digestsOf(s.input, s.paths) });
    expect(v.checks.filter((c) => !c.ok)).toEqual([]);
    expect(v.checks.map((c) => c.subject)).toEqual(["certificate", "signing key", "signature", "input", "good.csv", "bad.csv", "invalid.csv"]);
    const c = (JSON.parse(s.text) as CertificateFile).certificate;
    expect(c.jobId).toBe(s.jobId);
    expect(c.owner).toMatchObject({ userId, name: "Test User", company: "Co" });
    expect(c.input).toEqual({ fileName: "leads.csv", sha256: await sha256OfFile(s.input), bytes: fs.statSync(s.input).size });
    expect(c.counts).toMatchObject({ total: 5, good: 1, bad: 3, invalid: 1 });
    expect(c.counts.byReason).toMatchObject({ litigation: 1, dnc: 1, duplicate: 1, not_a_number: 1 });
    expect(c.suppressionType).toBe("DNCAndLitigation");
    expect(c.stateFilter).toEqual(["NY", "FL"]);
    expect(c.normalizerRulesVersion).toBe(NORMALIZER_RULES_VERSION);
    const dnc = c.lists.find((l) => l.kind === "dnc")!;
    expect(dnc).toMatchObject({
      count: 2,
      sourceFileName: "dnc.csv",
      sourceSha256: dncSourceSha,
      registryDate: new Date(NOW.getTime() - 32 * DAY).toISOString(),
    });
    expect(c.lists.map((l) => l.kind)).toEqual(["litigation", "dnc"]);
    expect(c.outputs.good.sha256).toBe(await sha256OfFile(s.paths.good));
    expect(s.job.input_sha256).toBe(c.input.sha256);
  });

  it("marks a DNC list aged 32 days: outside the 31-day window, Good valid until registry date + 31 days", async () => {
    const s = await scrub("aged.csv", "phone\n2125550010\n");
    const c = (JSON.parse(s.text) as CertificateFile).certificate;
    const registry = new Date(NOW.getTime() - 32 * DAY);
    expect(c.dncRegistry).toEqual({
      registryDate: registry.toISOString(),
      ageDays: 32,
      validUntil: new Date(registry.getTime() + 31 * DAY).toISOString(),
      withinWindow: false,
    });
    expect(s.job.valid_until?.toISOString()).toBe(new Date(registry.getTime() + 31 * DAY).toISOString());
    expect(s.job.dnc_age_days).toBe(32);
  });

  it("fails and names what was changed: any byte of the certificate, a result file, the input", async () => {
    const s = await scrub("tamper.csv", "phone\n2125550011\n3055550004\n1\n");
    const keys = keyMap(await publishedKeys(handle.db));
    const digests = await digestsOf(s.input, s.paths);
    const bytes = Buffer.from(s.text);
    for (let i = 0; i < bytes.length; i++) {
      const changed = Buffer.from(bytes);
      changed[i] = changed[i] === 0x41 ? 0x42 : 0x41;
      const v = verifyCertificate(changed.toString("latin1"), { publishedKeys: keys, digests });
      expect(v.ok, `byte ${i} changed`).toBe(false);
      expect(v.checks.some((c) => !c.ok && (c.subject === "certificate" || c.subject === "signature" || c.subject === "signing key"))).toBe(true);
    }
    for (const [subject, file] of [
      ["input", s.input],
      ["good.csv", s.paths.good],
      ["bad.csv", s.paths.bad],
      ["invalid.csv", s.paths.invalid],
    ] as const) {
      const original = fs.readFileSync(file);
      const changed = Buffer.from(original);
      changed[changed.length - 2] ^= 1;
      fs.writeFileSync(file, changed);
      const v = verifyCertificate(s.text, { publishedKeys: keys, digests: await digestsOf(s.input, s.paths) });
      fs.writeFileSync(file, original);
      expect(v.ok).toBe(false);
      expect(v.checks.filter((c) => !c.ok).map((c) => c.subject)).toEqual([subject]);
      expect(v.checks.find((c) => c.subject === subject)!.detail).toMatch(/does not match/);
    }
  });

  it("keeps a certificate signed with a rotated-out key verifiable; new certificates use the new key", async () => {
    const before = await scrub("before.csv", "phone\n2125550012\n");
    const { key, retired } = await rotateSigningKey(handle.db);
    expect(retired).toContain(before.keyId);
    const after = await scrub("after.csv", "phone\n2125550013\n");
    expect(after.keyId).toBe(key.id);
    expect(after.keyId).not.toBe(before.keyId);
    const published = await publishedKeys(handle.db);
    expect(published.find((k) => k.keyId === before.keyId)).toMatchObject({ status: "retired" });
    const stored = await handle.db.selectFrom("certificate_keys").select("private_key").where("id", "=", before.keyId).executeTakeFirstOrThrow();
    expect(stored.private_key).toBeNull();
    const keys = keyMap(published);
    expect(verifyCertificate(before.text, { publishedKeys: keys, digests: await digestsOf(before.input, before.paths) }).ok).toBe(true);
    expect(verifyCertificate(after.text, { publishedKeys: keys }).ok).toBe(true);
    // a key the service never published is named
    const v = verifyCertificate(before.text, { publishedKeys: new Map([[key.id, key.publicKey]]) });
    expect(v.checks.find((c) => c.subject === "signing key")).toMatchObject({ ok: false });
  });

  it("refuses every forged certificate: counts changed and re-signed with any key, embedded or named as ours (issue #26)", async () => {
    const real = await scrub("forge.csv", "phone\n2125550014\n3055550003\n");
    const keys = keyMap(await publishedKeys(handle.db));
    expect(verifyCertificate(real.text, { publishedKeys: keys }).ok).toBe(true);
    const file = JSON.parse(real.text) as CertificateFile;
    const changed = { ...file.certificate, outputs: { ...file.certificate.outputs, good: { ...file.certificate.outputs.good, records: 999 } } };
    const ours = file.signature;
    const mallory = newSigningKey().key;
    const forgeries: Record<string, string> = {
      // signed with another key, which the certificate embeds and names (the CLI used to accept this)
      "own key embedded": certificateText(signCertificate(changed, mallory)),
      // names our key id, embeds another key, signed with that other key
      "our kid, other key": certificateText({ certificate: changed, signature: { ...signCertificate(changed, mallory).signature, keyId: ours.keyId } }),
      // names and embeds our key, signed with another key
      "our kid and key, other signature": certificateText({
        certificate: changed,
        signature: { ...ours, value: signCertificate(changed, mallory).signature.value },
      }),
      // the real signature over changed counts
      "real signature, changed counts": certificateText({ certificate: changed, signature: ours }),
      // the real certificate carrying another key as its hint
      "real certificate, other key embedded": certificateText({ certificate: file.certificate, signature: { ...ours, publicKey: mallory.publicKey } }),
    };
    for (const [name, text] of Object.entries(forgeries)) {
      const v = verifyCertificate(text, { publishedKeys: keys });
      expect(v.ok, name).toBe(false);
      expect(
        v.checks.filter((c) => c.subject === "signing key" || c.subject === "signature").some((c) => !c.ok),
        name,
      ).toBe(true);
    }
    expect(verifyCertificate(forgeries["own key embedded"], { publishedKeys: keys }).checks.find((c) => c.subject === "signing key")?.detail).toMatch(
      /^Not signed by this service: the key ed25519-[0-9a-f]{16} it names is not one of the service's published keys\.$/,
    );
    // without the service's keys nothing verifies, not even the real certificate
    for (const none of [undefined, new Map<string, string>()]) {
      const v = verifyCertificate(real.text, { publishedKeys: none });
      expect(v.ok).toBe(false);
      expect(v.checks.find((c) => c.subject === "signing key")?.detail).toMatch(/^No keys of the service were given/);
    }
  });
});
