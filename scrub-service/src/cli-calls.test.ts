/**
 * `npm run scrub -- … --calling-window --calls FILE` (issue #46, decision 191), the real CLI on the embedded defaults:
 * the call file is added to the owner's history first (the `calls import` path), then the scrub counts it (calls_24h,
 * calls_7d, a number over Florida's cap held); debt collection reads each row's debt from --debt-column; a bad call
 * file stops everything with its lines named; --purpose and --debt-column are refused without --calling-window.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tmpDir } from "./test/helpers";
import { migratedDataDir } from "../../tests/setup/pglite-template";

const run = promisify(execFile);

describe("scrub --calls FILE", () => {
  it("adds the calls to the history, then counts them in good.csv and the certificate", { timeout: 120_000 }, async () => {
    const dir = await migratedDataDir("cli-calls");
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
    const cli = (...args: string[]) => run(process.execPath, ["scrub-service/dist/cli.mjs", ...args], { env });
    const input = path.join(dir, "leads.csv");
    fs.writeFileSync(input, "name,phone,account\nAnn,3055552101,A-1\nBob,3055552102,A-1\nCy,2125552103,A-1\n");
    const calls = path.join(dir, "calls.csv");
    // (past instants: a call file may not hold calls ahead of the clock) Florida: three calls in the 24 hours before noon in Miami hold the fourth; two do not; New York: seven calls
    // about A-1 in seven days (a debt cap: debt collection only)
    fs.writeFileSync(
      calls,
      [
        "number,at,outcome,debt_id",
        "3055552101,2026-11-25T16:00:00Z,attempted,",
        "3055552101,2026-11-25T14:00:00Z,attempted,",
        "3055552101,2026-11-24T21:00:00Z,connected,",
        "3055552102,2026-11-25T16:00:00Z,attempted,",
        "3055552102,2026-11-25T15:00:00Z,attempted,",
        ...[1, 10, 30, 50, 70, 90, 110].map((h) => `2125552103,${new Date(Date.parse("2026-11-25T17:00:00Z") - h * 3_600_000).toISOString()},attempted,A-1`),
      ].join("\n") + "\n",
    );
    const at = "2026-11-25T12:00:00-05:00";
    const out = path.join(dir, "out");
    const s = JSON.parse(
      (await cli("scrub", "--input", input, "--type", "LitigationOnly", "--out", out, "--calling-window", "--at", at, "--calls", calls)).stdout,
    );
    expect(s).toMatchObject({ status: "completed", good: 3, callsImported: { file: calls, rows: 12, recorded: 12, ignored: 0 } });
    const good = fs.readFileSync(path.join(out, "good.csv"), "utf8").trim().split("\n");
    expect(good[0]).toBe("name,phone,account,phone_e164,time_zone,callable_now,next_call_at,next_call_local,calling_note,calls_24h,calls_7d");
    expect(good[1]).toBe(
      "Ann,3055552101,A-1,+13055552101,America/New_York,no,2026-11-25T21:00:00Z,2026-11-25T16:00:00-05:00,3 calls in 24 hours to Florida (Fla. Stat. § 501.616(6)(b)): next at 2026-11-25T21:00:00Z,3,3",
    );
    expect(good[2]).toBe("Bob,3055552102,A-1,+13055552102,America/New_York,yes,2026-11-25T17:00:00Z,2026-11-25T12:00:00-05:00,,2,2");
    // telemarketing: the debt caps do not hold New York's number
    expect(good[3]).toMatch(/^Cy,2125552103,A-1,\+12125552103,America\/New_York,yes,.*,2,7$/);
    expect(s.calling.calls).toMatchObject({ purpose: "telemarketing", heldByCaps: 1, history: { records: 12 } });
    const cert = JSON.parse(fs.readFileSync(path.join(out, "certificate.json"), "utf8"));
    expect(cert.certificate.callingWindow.calls).toEqual(s.calling.calls);

    // the history kept: debt collection, each row.s debt from its column
    const debt = path.join(dir, "debt");
    const d = JSON.parse(
      (
        await cli(
          "scrub",
          ...["--input", input, "--type", "LitigationOnly", "--out", debt, "--calling-window", "--at", at],
          ...["--purpose", "debt-collection", "--debt-column", "account"],
        )
      ).stdout,
    );
    const rows = fs.readFileSync(path.join(debt, "good.csv"), "utf8").trim().split("\n");
    expect(rows[3]).toMatch(
      /^Cy,2125552103,A-1,\+12125552103,America\/New_York,no,2026-11-28T13:00:00Z,.*"7 calls in 7 days about debt ""A-1"" \(12 CFR 1006\.14\(b\)\(2\)\(i\)\(A\)\)/,
    );
    // Florida's solicitation cap is not a debt collector's
    expect(rows[1]).toMatch(/^Ann,3055552101,A-1,\+13055552101,America\/New_York,yes,/);
    expect(d.calling.calls).toMatchObject({ purpose: "debt-collection", debtColumn: "account", heldByCaps: 1 });
  });

  it("stops on a bad call file or a purpose without calling times, before any scrub", { timeout: 60_000 }, async () => {
    const dir = tmpDir("cli-calls-bad");
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
    const input = path.join(dir, "in.csv");
    fs.writeFileSync(input, "Phone\n2125552345\n");
    const fails = async (...args: string[]) => {
      const e = (await run(process.execPath, ["scrub-service/dist/cli.mjs", "scrub", "--input", input, "--type", "LitigationOnly", "--out", dir, ...args], {
        env,
      }).catch((x: { code: number; stderr: string }) => x)) as { code?: number; stderr: string };
      return [e.code, e.stderr.trim()];
    };
    expect(await fails("--purpose", "debt-collection")).toEqual([2, "--purpose applies with --calling-window only."]);
    expect(await fails("--calling-window", "--debt-column", "account")).toEqual([2, "--debt-column applies with --purpose debt-collection only."]);
    expect(await fails("--calling-window", "--purpose", "charity")).toEqual([2, "--purpose must be telemarketing or debt-collection."]);
    const bad = path.join(dir, "calls.csv");
    fs.writeFileSync(bad, "number,at,outcome\n2125552345,yesterday,attempted\n");
    const [code, stderr] = await fails("--calling-window", "--calls", bad);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/^Nothing was recorded: 1 problem in calls\.csv:\n {2}line 2, at: /);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".csv") && f !== "in.csv" && f !== "calls.csv")).toEqual([]);
  });
});
