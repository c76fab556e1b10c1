/**
 * The calling-window columns through the real engine (CLI, embedded): good.csv gains time_zone, callable_now,
 * next_call_at and calling_note (decision 180) after the file's own columns; bad.csv and invalid.csv do not; the summary and the certificate name
 * the instant and CALLING_RULES_VERSION; a bad --at is refused before anything runs.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openDatabase } from "db/client";
import { publishedKeys } from "./certificate/keys";
import { tmpDir } from "./test/helpers";
import { CALLING_RULES_VERSION } from "./calling/rules";
import { migratedDataDir } from "../../tests/setup/pglite-template";

const run = promisify(execFile);

describe("scrub --calling-window", () => {
  it("appends the five columns to good rows, evaluated at --at, and summarizes them", { timeout: 180_000 }, async () => {
    const dir = await migratedDataDir("cli-calling"); // the migrated empty database a first run makes
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
    const cli = (...args: string[]) => run(process.execPath, ["scrub-service/dist/cli.mjs", ...args], { env });
    const input = path.join(dir, "leads.csv");
    // Sunday 29 November 2026 15:00Z: 10 a.m. in New York, 9 a.m. in Alabama (Sunday ban), 8 a.m. in Phoenix,
    // 5 a.m. in Honolulu; a short row, a toll-free number, an invalid one, a duplicate.
    fs.writeFileSync(
      input,
      [
        "Name,Phone,City",
        "Ann,212-555-2345,New York",
        "Bob,(205) 555-2345,Birmingham",
        'Cy,602 555 2345,"Phoenix, AZ"',
        "Di,8085552345",
        "Ed,800-555-2345,Anywhere",
        "Fay,12345,Nowhere",
        "Gus,2125552345,Again",
        "Hal,850-432-5234,Pensacola",
        "Ida,3055552345,=SUM(A1)",
        "",
      ].join("\n"),
    );
    const out = path.join(dir, "out");
    const summary = JSON.parse(
      (await cli("scrub", "--input", input, "--type", "LitigationOnly", "--out", out, "--calling-window", "--at", "2026-11-29T10:00:00-05:00")).stdout,
    );
    expect(summary).toMatchObject({ status: "completed", rows: 9, good: 7, bad: 1, invalid: 1 });
    // the engine's own escape of a formula cell, read from a plain scrub of the same row
    const probe = path.join(dir, "probe.csv");
    fs.writeFileSync(probe, "Name,Phone,City\nIda,3055552345,=SUM(A1)\n");
    await cli("scrub", "--input", probe, "--type", "LitigationOnly", "--out", path.join(dir, "probe"));
    const ESCAPED_FORMULA = fs
      .readFileSync(path.join(dir, "probe", "good.csv"), "utf8")
      .trim()
      .split("\n")[1]
      .split(",")
      .slice(2, -1)
      .join(","); // without the probe's phone_e164
    expect(ESCAPED_FORMULA).not.toBe("=SUM(A1)");
    expect(fs.readFileSync(path.join(out, "good.csv"), "utf8")).toBe(
      [
        "Name,Phone,City,phone_e164,time_zone,callable_now,next_call_at,next_call_local,calling_note,calls_24h,calls_7d",
        // calling_note: empty when callable now, else the rule that held the call back, with its citation
        "Ann,212-555-2345,New York,+12125552345,America/New_York,yes,2026-11-29T15:00:00Z,2026-11-29T10:00:00-05:00,,0,0",
        "Bob,(205) 555-2345,Birmingham,+12055552345,America/Chicago,no,2026-11-30T14:00:00Z,2026-11-30T08:00:00-06:00,Sunday: Alabama forbids Sunday calls (Ala. Admin. Code r. 770-X-5-.17(1)(b)),0,0",
        'Cy,602 555 2345,"Phoenix, AZ",+16025552345,America/Phoenix,yes,2026-11-29T15:00:00Z,2026-11-29T08:00:00-07:00,,0,0',
        "Di,8085552345,,+18085552345,Pacific/Honolulu,no,2026-11-29T18:00:00Z,2026-11-29T08:00:00-10:00,Before 8 a.m. (47 CFR 64.1200(c)(1)),0,0",
        // no time zone: the strictest reading across every US time zone (Hawaii opens last: 8 a.m. there is 18:00Z)
        "Ed,800-555-2345,Anywhere,+18005552345,,no,2026-11-29T18:00:00Z,,No time zone for this number: the strictest reading across every US time zone. Before 8 a.m. Hawaii-Aleutian Standard Time (47 CFR 64.1200(c)(1)),0,0",
        "Hal,850-432-5234,Pensacola,+18504325234,America/Chicago,yes,2026-11-29T15:00:00Z,2026-11-29T09:00:00-06:00,,0,0",
        // a cell escaped against formula injection keeps its escape, then the four cells
        `Ida,3055552345,${ESCAPED_FORMULA},+13055552345,America/New_York,yes,2026-11-29T15:00:00Z,2026-11-29T10:00:00-05:00,,0,0`,
        "",
      ].join("\n"),
    );
    // bad and invalid rows keep the file's columns, phone_e164 and their reason, nothing else
    expect(fs.readFileSync(path.join(out, "bad.csv"), "utf8").split("\n")[0]).toBe("Name,Phone,City,phone_e164,reason");
    expect(fs.readFileSync(path.join(out, "invalid.csv"), "utf8").split("\n")[0]).toBe("Name,Phone,City,phone_e164,reason");
    expect(summary.calling).toMatchObject({
      at: "2026-11-29T15:00:00Z",
      rulesVersion: CALLING_RULES_VERSION,
      callableNow: 4,
      laterToday: 1,
      notToday: 1,
      noTimeZone: 1,
    });
    expect(summary.calling.byTimeZone).toEqual([
      { zones: "America/Chicago", count: 2 },
      { zones: "America/New_York", count: 2 },
      { zones: "America/Phoenix", count: 1 },
      { zones: "Pacific/Honolulu", count: 1 },
    ]);
    const cert = JSON.parse(fs.readFileSync(path.join(out, "certificate.json"), "utf8"));
    expect(cert.certificate.callingWindow).toMatchObject({ at: "2026-11-29T15:00:00Z", rulesVersion: CALLING_RULES_VERSION });
    // verify checks the signature against the service's published keys only (issue #26): export them first
    const db = await openDatabase({ dataDir: dir });
    const keysFile = path.join(dir, "keys.json");
    try {
      fs.writeFileSync(keysFile, JSON.stringify({ keys: await publishedKeys(db.db) }));
    } finally {
      await db.close();
    }
    const verified = await cli("verify", "--certificate", path.join(out, "certificate.json"), "--keys", keysFile, "--input", input, "--results", out);
    expect(verified.stdout).toContain("Verified");

    // without the option: no columns, no summary, no certificate entry
    const plain = JSON.parse((await cli("scrub", "--input", input, "--type", "LitigationOnly", "--out", path.join(dir, "plain"))).stdout);
    expect(plain.calling).toBeNull();
    expect(fs.readFileSync(path.join(dir, "plain", "good.csv"), "utf8").split("\n")[0]).toBe("Name,Phone,City,phone_e164");

    // a pipe-delimited, header-less file: the zone cell of a multi-zone exchange is quoted
    const piped = path.join(dir, "piped.txt");
    fs.writeFileSync(piped, "9282832345|x\n2125552345|y\n");
    const p = JSON.parse(
      (await cli("scrub", "--input", piped, "--type", "LitigationOnly", "--out", path.join(dir, "piped"), "--calling-window", "--at", "2026-07-15T14:30:00Z"))
        .stdout,
    );
    expect(p.status).toBe("completed");
    expect(fs.readFileSync(path.join(dir, "piped", "good.csv"), "utf8")).toBe(
      // next_call_local in the clock the note names (Phoenix's), not the first zone's (Denver: 09:00-06:00)
      '9282832345|x|+19282832345|"America/Denver|America/Phoenix"|no|2026-07-15T15:00:00Z|2026-07-15T08:00:00-07:00|Before 8 a.m. Mountain Standard Time (47 CFR 64.1200(c)(1))|0|0\n2125552345|y|+12125552345|America/New_York|yes|2026-07-15T14:30:00Z|2026-07-15T10:30:00-04:00||0|0\n',
    );
  });

  it("refuses a bad --at, or --at without --calling-window, before anything runs", async () => {
    const dir = tmpDir("cli-calling-bad");
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
    const input = path.join(dir, "in.csv");
    fs.writeFileSync(input, "Phone\n2125552345\n");
    const fails = async (...args: string[]) => {
      const e = (await run(process.execPath, ["scrub-service/dist/cli.mjs", "scrub", "--input", input, "--type", "LitigationOnly", "--out", dir, ...args], {
        env,
      }).catch((x: { code: number; stderr: string }) => x)) as { code?: number; stderr: string };
      return [e.code, e.stderr.trim()];
    };
    expect(await fails("--calling-window", "--at", "2026-11-29 10:00")).toEqual([
      2,
      "--at must be an ISO-8601 date-time with a UTC offset, e.g. 2026-11-26T15:00:00Z or 2026-11-26T10:00:00-05:00.",
    ]);
    expect(await fails("--at", "2026-11-29T10:00:00Z")).toEqual([
      2,
      "--at applies with --calling-window or exemptions only (the instant the calling columns and the exemptions are evaluated at).",
    ]);
    expect(fs.existsSync(path.join(dir, "pg"))).toBe(false);
  });
});
