/**
 * `npm run calls -- import` (decision 185): a generic CSV and a VICIdial vicidial_log export (which needs --tz), all
 * rows or none with every bad line named; in process on every store, and once through the real CLI (embedded).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, describeEachDb } from "../../../tests/setup/db";
import { migratedDataDir } from "../../../tests/setup/pglite-template";
import { openDatabase, type DbHandle } from "db/client";
import { createUser } from "../test/helpers";
import { callFileLayout, callOfRow, CsvRowSplitter } from "./file-rows";
import { importCallFile } from "./import";
import { listNumberCalls } from "./store";

const run = promisify(execFile);
const NOW = Date.parse("2026-11-28T12:00:00Z");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "calls-import-"));
const file = (name: string, text: string | Buffer) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};

const GENERIC = [
  "phone,call_date,campaign_id,channel,outcome,debt_id,call_id",
  '(212) 555-2345,2026-11-27T10:00:00-05:00,"Spring, promo",call,connected,,c-1',
  "212-555-2345,2026-11-27T16:00:00Z,Spring,text,attempted,D-9,c-2",
  "212-555-2345,2026-11-27T16:00:00Z,Spring,text,attempted,D-9,c-2",
  "",
].join("\r\n");

const VICIDIAL = [
  "uniqueid,lead_id,list_id,campaign_id,call_date,start_epoch,end_epoch,length_in_sec,status,phone_code,phone_number,user,comments,processed",
  "1764255600.101,11,101,SOLAR,2026-11-27 09:00:00,1764255600,1764255600,0,NA,1,3055552101,VDAD,AUTO,N",
  "1764255700.102,11,101,SOLAR,2026-11-27 09:01:40,1764255700,1764255712,12,A,1,3055552101,VDAD,AUTO,N",
  "1764255800.103,11,101,SOLAR,2026-11-27 09:03:20,1764255800,1764255990,190,SALE,1,3055552101,agent7,MANUAL,N",
  "",
].join("\n");

describe("call-history file rows", () => {
  it("takes a chosen column per field when the header's names are not known (the Call History screen)", () => {
    const header = ["Tel", "When", "Result", "Campaign"];
    expect(() => callFileLayout(header, null)).toThrow(expect.objectContaining({ code: "unmapped" }));
    const layout = callFileLayout(header, null, { number: "tel", at: "When", outcome: "Result", subject: "Campaign" });
    expect(callOfRow(["2125552345", "2026-11-27T10:00:00Z", "connected", "spring"], layout)).toMatchObject({
      number: "2125552345",
      at: "2026-11-27T10:00:00Z",
      outcome: "connected",
      subject: "spring",
    });
    expect(() => callFileLayout(header, null, { number: "Tel", at: "Nope" })).toThrow(expect.objectContaining({ code: "bad_mapping" }));
    expect(() => callFileLayout(header, null, { number: "Tel" })).toThrow(expect.objectContaining({ code: "bad_mapping" }));
  });

  it("splits quoted cells across chunks and maps VICIdial statuses to outcomes", () => {
    const s = new CsvRowSplitter();
    const rows = [...s.push('a,"b ""x'), ...s.push('"", c",d\r'), ...s.push("\ne,f"), ...s.end()];
    expect(rows).toEqual([
      ["a", 'b "x", c', "d"],
      ["e", "f"],
    ]);
    const lines = VICIDIAL.trim()
      .split("\n")
      .map((l) => l.split(","));
    expect(() => callFileLayout(lines[0], null)).toThrow(/VICIdial vicidial_log export.*--tz ZONE/);
    const layout = callFileLayout(lines[0], "America/New_York");
    expect(layout.format).toBe("vicidial");
    expect(lines.slice(1).map((r) => callOfRow(r, layout))).toEqual([
      {
        number: "3055552101",
        at: "2026-11-27T14:00:00.000Z",
        subject: "SOLAR",
        channel: "call",
        outcome: "attempted",
        debt_id: undefined,
        dialer_call_id: "1764255600.101",
      },
      expect.objectContaining({ at: "2026-11-27T14:01:40.000Z", outcome: "connected" }),
      expect.objectContaining({ outcome: "conversation", dialer_call_id: "1764255800.103" }),
    ]);
  });
});

describeEachDb("calls import", (kind) => {
  let h: DbHandle;
  let user: string;
  beforeAll(async () => {
    h = await createTestDb(kind);
    user = await createUser(h);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("imports a generic CSV (gzipped too), ignoring a repeated call id", async () => {
    const r = await importCallFile(h.db, { path: file(`generic-${kind}.csv.gz`, zlib.gzipSync(GENERIC)), userId: user, zone: null, nowMs: NOW });
    expect(r).toEqual({ format: "csv", rows: 3, recorded: 2, ignored: 1 });
    const got = await listNumberCalls(h.db, user, 2125552345, { limit: 10, offset: 0, nowMs: NOW });
    expect(got.records.map((c) => [c.subject, c.channel, c.outcome, c.debtId])).toEqual([
      ["Spring", "text", "attempted", "D-9"],
      ["Spring, promo", "call", "connected", null],
    ]);
  });

  it("imports a VICIdial export with --tz, and refuses a file with a bad row whole, naming its line", async () => {
    const r = await importCallFile(h.db, { path: file(`vici-${kind}.csv`, VICIDIAL), userId: user, zone: "America/New_York", nowMs: NOW });
    expect(r).toEqual({ format: "vicidial", rows: 3, recorded: 3, ignored: 0 });
    const bad = GENERIC.replace("2026-11-27T16:00:00Z,Spring,text", "2026-11-27 16:00:00,Spring,fax").replace(
      "(212) 555-2345,2026-11-27T10",
      "(212) 555-7777,2026-11-27T10",
    );
    const refused = await importCallFile(h.db, { path: file(`bad-${kind}.csv`, bad), userId: user, zone: null, nowMs: NOW });
    expect(refused).toEqual({
      total: 2,
      errors: [
        { index: 3, field: "at", message: expect.stringMatching(/UTC offset/) },
        { index: 3, field: "channel", message: "channel must be call or text" },
      ],
    });
    expect((await listNumberCalls(h.db, user, 2125557777, { limit: 1, offset: 0, nowMs: NOW })).totalRecords).toBe(0);
  });
});

describe("npm run calls -- import (the real CLI, embedded)", () => {
  it("needs --tz for a VICIdial export and records it with --tz; a generic CSV without --user goes to the operator account", { timeout: 120_000 }, async () => {
    const data = await migratedDataDir("cli-calls");
    const env = { ...process.env, DATA_DIR: data, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
    const cli = (...args: string[]) => run(process.execPath, ["scrub-service/dist/cli.mjs", ...args], { env });
    // instants relative to now: the checks refuse the future and what is past five years
    const at = (h: number) => new Date(Date.now() - h * 3600_000);
    const local = (d: Date) => d.toLocaleString("sv-SE", { timeZone: "America/Chicago" }); // "YYYY-MM-DD HH:MM:SS"
    const t3 = at(3);
    const vici = file(
      "vicidial_log.csv",
      [
        "call_date,phone_number,campaign_id,status,length_in_sec,uniqueid",
        `${local(t3)},3055552101,SOLAR,NA,0,u-1`,
        `${local(at(2))},3055552101,SOLAR,XFER,40,u-2`,
        "",
      ].join("\n"),
    );
    const failed = (await cli("calls", "import", "--input", vici).catch((e: { code: number; stderr: string }) => e)) as { code: number; stderr: string };
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("--tz ZONE");
    const ok = JSON.parse((await cli("calls", "import", "--input", vici, "--tz", "America/Chicago")).stdout);
    expect(ok).toMatchObject({ format: "vicidial", timeZone: "America/Chicago", rows: 2, recorded: 2, ignored: 0 });
    const again = JSON.parse((await cli("calls", "import", "--input", vici, "--tz", "America/Chicago")).stdout);
    expect(again).toMatchObject({ recorded: 0, ignored: 2 });
    const generic = file("generic.csv", ["number,at,outcome", `2125552345,${at(1).toISOString()},connected`, ""].join("\n"));
    expect(JSON.parse((await cli("calls", "import", "--input", generic)).stdout)).toMatchObject({ format: "csv", recorded: 1 });
    const db = await openDatabase({ dataDir: data });
    try {
      const rows = await db.db
        .selectFrom("call_records")
        .innerJoin("users", "users.id", "call_records.user_id")
        .select(["users.email", "call_records.outcome", "call_records.at"])
        .orderBy("call_records.at")
        .execute();
      expect(rows.map((r) => [r.email, r.outcome])).toEqual([
        ["operator@batch.invalid", "attempted"],
        ["operator@batch.invalid", "conversation"],
        ["operator@batch.invalid", "connected"],
      ]);
      // the local wall time read in America/Chicago is the instant it was written from (to the second)
      expect(new Date(rows[0].at).getTime()).toBe(Math.floor(t3.getTime() / 1000) * 1000);
    } finally {
      await db.close();
    }
  });
});
