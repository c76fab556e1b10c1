/**
 * The batch scrub counts calls (issue #46, decision 191): with calling times on, each good row's number is counted in
 * the owner's call history at the job's instant (calls_24h, calls_7d) and the frequency caps of the order's purpose
 * hold its calling cells as the lookup's do. Through the real job (createScrubJob → the in-process service), on PGlite
 * and, with DATABASE_URL, PostgreSQL: the third and fourth call to Florida, a call 24 h + 1 s ago, texts with calls,
 * two subjects, debt collection with two debts read from a column, telemarketing ignoring the debt caps, and the
 * summary and the signed certificate naming the history.
 */
import fs from "node:fs";
import path from "node:path";
import Papa from "papaparse";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDb, describeEachDb } from "../../../tests/setup/db";
import type { DbHandle } from "db/client";
import { cleanupService, createUser, startService, tmpDir } from "../test/helpers";
import type { InProcessScrubService } from "../in-process";
import { createScrubJob, type NewScrubJob } from "../service";
import { recordCalls } from "./store";
import { checkCallRecords } from "./validate";
import { CAPS_VERSION } from "../calling/caps";
import { verifyCertificate } from "../certificate/verify";
import { keyMap, publishedKeys } from "../certificate/keys";
import { createExemptionList, loadExemptions } from "../exemptions";
import { readExemptionRows } from "../exemption-files/file";

/** Wednesday 2 December 2026, 17:00Z: noon in Miami and New York, 9 a.m. in Oregon. */
const AT = Date.parse("2026-12-02T17:00:00Z");
const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

type Call = { number: string; ago: number; channel?: "call" | "text"; subject?: string; debt_id?: string; outcome?: string };

describeEachDb("a scrub with calling times counts the calls", (kind) => {
  let h: DbHandle;
  let svc: InProcessScrubService;
  let dir: string;
  beforeAll(async () => {
    h = await createTestDb(kind);
    dir = tmpDir("batch-caps");
    svc = await startService(h, "embedded", { dataDir: dir });
  }, 60_000);
  afterAll(async () => {
    if (svc) await cleanupService(svc);
    await h?.close();
  });

  async function scrub(userId: string, calls: Call[], rows: string[], order: Partial<NewScrubJob> = {}) {
    const checked = checkCallRecords(
      calls.map((c) => ({
        number: c.number,
        at: iso(AT - c.ago),
        channel: c.channel,
        subject: c.subject,
        debt_id: c.debt_id,
        outcome: c.outcome ?? "attempted",
      })),
      AT,
    );
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    if (checked.records.length) await recordCalls(h.db, userId, checked.records);
    const input = path.join(dir, `in-${Math.random().toString(36).slice(2)}.csv`);
    fs.writeFileSync(input, rows.join("\n") + "\n");
    const jobId = await createScrubJob(h.db, {
      userId,
      fileName: "leads.csv",
      inputPath: input,
      suppressionType: "LitigationOnly",
      callingWindow: true,
      evaluatedAt: new Date(AT),
      ...order,
    });
    await svc.enqueue(jobId);
    expect(await svc.waitFor("job", jobId)).toBe("completed");
    const files = await h.db.selectFrom("result_files").selectAll().where("job_id", "=", jobId).execute();
    const good = fs.readFileSync(files.find((f) => f.kind === "good")!.path, "utf8");
    const job = await h.db.selectFrom("scrub_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
    const cert = await h.db.selectFrom("scrub_certificates").select("document").where("job_id", "=", jobId).executeTakeFirstOrThrow();
    const byPhone = new Map(Papa.parse<Record<string, string>>(good, { header: true, skipEmptyLines: true }).data.map((r) => [r.phone, r]));
    return { good, byPhone, summary: job.calling_summary as any, text: cert.document, certificate: JSON.parse(cert.document) };
  }

  it("holds the fourth call to Florida in 24 hours, not the third; counts texts; a call 24 h + 1 s ago and another subject do not count", async () => {
    const user = await createUser(h);
    const r = await scrub(
      user,
      [
        // two calls: the third is allowed
        ...[2, 5].map((x) => ({ number: "3055552101", ago: x * H })),
        // three calls (the oldest 20 h ago): the fourth waits until it leaves the window, 4 h from now (a lawful hour)
        ...[1, 3, 20].map((x) => ({ number: "3055552102", ago: x * H })),
        // three, the oldest 24 h + 1 s ago: two count
        { number: "3055552103", ago: 24 * H + 1000 },
        ...[1, 2].map((x) => ({ number: "3055552103", ago: x * H })),
        // two calls and a text: three contacts
        { number: "3055552104", ago: 1 * H },
        { number: "3055552104", ago: 2 * H, channel: "text" as const },
        { number: "3055552104", ago: 3 * H },
        // three on another subject, and two on ours: neither reaches three on ours
        ...[1, 2, 3].map((x) => ({ number: "3055552105", ago: x * H, subject: "spring" })),
        ...[1, 2].map((x) => ({ number: "3055552105", ago: x * H })),
        // three, the oldest 16 h ago: the cap lifts at 8 p.m. in Florida, after its hours: next at 8 a.m.
        ...[1, 2, 16].map((x) => ({ number: "3055552106", ago: x * H })),
        // New York has no cap: five calls, callable
        ...[1, 2, 3, 4, 5].map((x) => ({ number: "2125552107", ago: x * H })),
        // eight calls about a debt in 7 days: telemarketing ignores the debt caps
        ...[1, 10, 30, 50, 70, 90, 110, 130].map((x) => ({ number: "2125552108", ago: x * H, debt_id: "A-1" })),
      ],
      [
        "name,phone",
        ...["3055552101", "3055552102", "3055552103", "3055552104", "3055552105", "3055552106", "2125552107", "2125552108", "2125552109"].map(
          (p, i) => `n${i},${p}`,
        ),
      ],
    );
    expect(r.good.split("\n")[0]).toBe("name,phone,phone_e164,time_zone,callable_now,next_call_at,next_call_local,calling_note,calls_24h,calls_7d");
    const row = (p: string) => r.byPhone.get(p)!;
    expect(row("3055552101")).toMatchObject({ callable_now: "yes", calls_24h: "2", calls_7d: "2", calling_note: "" });
    expect(row("3055552102")).toMatchObject({
      callable_now: "no",
      next_call_at: "2026-12-02T21:00:00Z",
      next_call_local: "2026-12-02T16:00:00-05:00",
      calls_24h: "3",
      calls_7d: "3",
      calling_note: "3 calls in 24 hours to Florida (Fla. Stat. § 501.616(6)(b)): next at 2026-12-02T21:00:00Z",
    });
    expect(row("3055552103")).toMatchObject({ callable_now: "yes", calls_24h: "2", calls_7d: "3" });
    expect(row("3055552104")).toMatchObject({ callable_now: "no", calls_24h: "3" });
    expect(row("3055552104").calling_note).toMatch(/^3 calls and texts in 24 hours to Florida/);
    expect(row("3055552105")).toMatchObject({ callable_now: "yes", calls_24h: "5" });
    expect(row("3055552106")).toMatchObject({ callable_now: "no", next_call_at: "2026-12-03T13:00:00Z" });
    expect(row("3055552106").calling_note).toMatch(
      /^3 calls in 24 hours to Florida \(Fla\. Stat\. § 501\.616\(6\)\(b\)\): next at 2026-12-03T01:00:00Z; After 8 p\.m\..*Florida/,
    );
    expect(row("2125552107")).toMatchObject({ callable_now: "yes", calls_24h: "5", calls_7d: "5" });
    expect(row("2125552108")).toMatchObject({ callable_now: "yes", calls_24h: "2", calls_7d: "8" });
    expect(row("2125552109")).toMatchObject({ callable_now: "yes", calls_24h: "0", calls_7d: "0" });
    // the summary: the held rows under their notes, the history read, per cap
    const calls = r.summary.calls;
    expect(calls).toMatchObject({ capsVersion: CAPS_VERSION, purpose: "telemarketing", subject: "default", debtColumn: null, rowsWithCalls: 8, heldByCaps: 3 });
    expect(calls.history).toMatchObject({ since: "2026-11-25T17:00:00Z", records: 32 });
    expect(calls.history.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(calls.byCap).toEqual([{ cap: "fl-501-616-6b", cite: "Fla. Stat. § 501.616(6)(b)", rows: 3 }]);
    expect(r.summary.callableNow).toBe(6);
    expect(r.summary.laterToday + r.summary.notToday).toBe(3);
    // the held-back table groups the held rows by the caps that hold them (each row's note names its own lift)
    expect(r.summary.heldBack).toEqual([
      { note: "Call limit: Florida: three commercial solicitation calls per 24 hours on one subject (Fla. Stat. § 501.616(6)(b))", count: 3 },
    ]);
    // the certificate names the same history, signed: it verifies, and a changed count does not
    expect(r.certificate.certificate.callingWindow.calls).toEqual(calls);
    const keys = keyMap(await publishedKeys(h.db));
    expect(verifyCertificate(r.text, { publishedKeys: keys }).ok).toBe(true);
    const forged = r.text.replace(/"records": ?32/, `"records": 0`);
    expect(forged).not.toBe(r.text);
    expect(verifyCertificate(forged, { publishedKeys: keys }).ok).toBe(false);
  });

  it("Oregon: three calls in 24 hours hold the fourth, unless a purchase within 18 months lifts the cap (the exemption list's record)", async () => {
    const user = await createUser(h);
    const list = await createExemptionList(h.db, { userId: user, name: "customers" });
    // a purchase 12 months before the instant for one number; one 19 months before for the other
    const rows = await readExemptionRows({ text: "5035552301,purchase,2025-12-02\n5035552302,purchase,2025-05-02\n" }, new Date(AT));
    await loadExemptions(h.db, { listId: list.id, userId: user, mode: "replace", rows });
    const calls = ["5035552301", "5035552302", "5035552303"].flatMap((number) => [1, 2, 3].map((x) => ({ number, ago: x * H })));
    const r = await scrub(user, calls, ["phone", "5035552301", "5035552302", "5035552303"], { exemptionListId: list.id });
    expect(r.byPhone.get("5035552301")).toMatchObject({ callable_now: "yes", calls_24h: "3" });
    for (const p of ["5035552302", "5035552303"]) {
      // the lift at 6 a.m. in Portland: the next call at 8 a.m.
      expect([r.byPhone.get(p)!.callable_now, r.byPhone.get(p)!.next_call_at], p).toEqual(["no", "2026-12-03T16:00:00Z"]);
      expect(r.byPhone.get(p)!.calling_note, p).toMatch(/^3 calls in 24 hours to Oregon \(Oregon HB 3865\): next at 2026-12-03T14:00:00Z/);
    }
  });

  it("debt collection: each row's debt from the debt column, Regulation F and Massachusetts per debt; the states' caps do not apply", async () => {
    const user = await createUser(h);
    const week = [1, 10, 30, 50, 70, 90, 110].map((x) => x * H);
    const r = await scrub(
      user,
      [
        // seven calls about A-1 (the oldest 110 h ago): the eighth waits until it leaves the window (22:00 in New York), then 8 a.m.; another number called about A-1 is asked about Z-9
        ...week.map((ago) => ({ number: "2125550201", ago, debt_id: "A-1" })),
        ...week.map((ago) => ({ number: "2125550202", ago, debt_id: "A-1" })),
        // Florida: four calls, no debt (a record without a debt id counts against every debt: 4 < 7)
        ...[1, 2, 3, 4].map((x) => ({ number: "3055550203", ago: x * H })),
        // Massachusetts: two calls about B-2 in 30 days hold a third about B-2, not one about C-3
        ...[5, 50].map((x) => ({ number: "6175550204", ago: x * H, debt_id: "B-2" })),
        ...[5, 50].map((x) => ({ number: "6175550205", ago: x * H, debt_id: "B-2" })),
        // a conversation about D-4 six days ago holds the next call about it for seven days
        { number: "2125550206", ago: 6 * 24 * H, debt_id: "D-4", outcome: "conversation" },
      ],
      ["phone,account", "2125550201,A-1", "2125550202,Z-9", "3055550203,A-1", "6175550204,B-2", "6175550205,C-3", "2125550206,D-4"],
      { purpose: "debt-collection", debtColumn: "Account" },
    );
    const row = (p: string) => r.byPhone.get(p)!;
    expect(row("2125550201")).toMatchObject({ callable_now: "no", next_call_at: "2026-12-05T13:00:00Z", calls_7d: "7" });
    expect(row("2125550201").calling_note).toMatch(/^7 calls in 7 days about debt "A-1" \(12 CFR 1006\.14\(b\)\(2\)\(i\)\(A\)\)/);
    expect(row("2125550202")).toMatchObject({ callable_now: "yes", calls_7d: "7" });
    expect(row("3055550203")).toMatchObject({ callable_now: "yes", calls_24h: "4" });
    expect(row("6175550204").callable_now).toBe("no");
    expect(row("6175550204").calling_note).toContain('2 calls in 30 days to Massachusetts about debt "B-2"');
    expect(row("6175550205")).toMatchObject({ callable_now: "yes", calls_7d: "2" });
    expect(row("2125550206")).toMatchObject({ callable_now: "no", next_call_at: "2026-12-03T17:00:00Z" });
    expect(row("2125550206").calling_note).toMatch(/^A telephone conversation about debt "D-4" within 7 days/);
    expect(r.summary.calls).toMatchObject({ purpose: "debt-collection", debtColumn: "Account", heldByCaps: 3 });
  });

  it("fails the job when the debt column is not in the file", async () => {
    const user = await createUser(h);
    const input = path.join(dir, "no-debt.csv");
    fs.writeFileSync(input, "phone\n2125550301\n");
    const jobId = await createScrubJob(h.db, {
      userId: user,
      fileName: "leads.csv",
      inputPath: input,
      suppressionType: "LitigationOnly",
      callingWindow: true,
      purpose: "debt-collection",
      debtColumn: "account",
    });
    await svc.enqueue(jobId);
    expect(await svc.waitFor("job", jobId)).toBe("failed");
    const job = await h.db.selectFrom("scrub_jobs").select("error").where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(job.error).toBe("Debt column 'account' not found in CSV file");
  });
});
