/**
 * Emergency no-call periods end to end through the real CLI (embedded database; decision 181): `npm run lists --
 * emergency add|list|remove` with its refusals, then a scrub with the calling window: good.csv holds the covered
 * numbers with the period's note and the first lawful instant after it, the summary and the signed certificate
 * record the period, and `verify` still verifies.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openDatabase } from "db/client";
import { publishedKeys } from "./certificate/keys";
import { migratedDataDir } from "../../tests/setup/pglite-template";

const run = promisify(execFile);
const SOURCE = "https://gov.louisiana.gov/index.cfm/newsroom/detail/9999";

describe("npm run lists -- emergency, and a scrub under a period", () => {
  it(
    "adds, lists and removes periods; refuses bad ones; a scrub holds the covered numbers and its certificate records the period",
    { timeout: 180_000 },
    async () => {
      const dir = await migratedDataDir("cli-emergency");
      const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
      const cli = (...args: string[]) => run(process.execPath, ["scrub-service/dist/cli.mjs", ...args], { env });
      const fails = async (...args: string[]) => {
        const e = (await cli(...args).catch((x: { code: number; stderr: string }) => x)) as { code?: number; stderr: string };
        return [e.code, e.stderr.trim()];
      };

      // refusals: precise, non-zero, nothing stored
      expect(
        await fails("lists", "emergency", "add", "--states", "LA", "--area-codes", "504,212", "--from", "2026-09-01", "--to", "2026-09-10", "--source", SOURCE),
      ).toEqual([2, "The period was not added:\n  --area-codes: Area code 212 (NY) not in LA."]);
      expect(await fails("lists", "emergency", "add", "--states", "LA", "--from", "2026-09-11", "--to", "2026-09-10", "--source", "ftp://x")).toEqual([
        2,
        "The period was not added:\n  --to: The last day (2026-09-10) is before the first day (2026-09-11).\n  --source: The source must be a web address starting with http:// or https://.",
      ]);
      expect(await fails("lists", "emergency", "remove", "--id", "99")).toEqual([
        2,
        "No emergency period 99 in force (see `npm run lists -- emergency list`).",
      ]);
      expect((await cli("lists", "emergency", "list")).stdout).toBe("No emergency periods.\n");

      // a period for New Orleans' 504 only, and one for New York removed again
      const added = await cli(
        "lists",
        "emergency",
        "add",
        "--states",
        "LA",
        "--area-codes",
        "504",
        "--from",
        "2026-09-01",
        "--to",
        "2026-09-10",
        "--source",
        SOURCE,
        "--authority",
        "Governor of Louisiana",
      );
      expect(added.stdout).toMatch(/^Added emergency period 1:\n +1  2026-09-01 to 2026-09-10  LA area codes 504  Governor of Louisiana  https:/);
      await cli("lists", "emergency", "add", "--states", "NY", "--from", "2026-09-01", "--to", "2026-09-30", "--source", "https://www.governor.ny.gov/x");
      expect((await cli("lists", "emergency", "remove", "--id", "2")).stdout).toBe("Removed emergency period 2 (kept for the certificates that name it).\n");
      const listed = (await cli("lists", "emergency", "list")).stdout;
      expect(listed).toContain("2026-09-01 to 2026-09-10  LA area codes 504");
      expect(listed).not.toContain("NY");
      expect((await cli("lists", "emergency", "list", "--all")).stdout).toMatch(/NY .*\(removed /);

      // Thursday 10 September 2026 23:59 CDT: the last day of the period at the number
      const input = path.join(dir, "leads.csv");
      fs.writeFileSync(input, ["Name,Phone", "Ann,504-555-2345", "Bob,318-222-5555", "Cy,212-555-2345", ""].join("\n"));
      const out = path.join(dir, "out");
      const summary = JSON.parse(
        (await cli("scrub", "--input", input, "--type", "LitigationOnly", "--out", out, "--calling-window", "--at", "2026-09-10T23:59:00-05:00")).stdout,
      );
      expect(summary).toMatchObject({ status: "completed", good: 3 });
      const good = fs.readFileSync(path.join(out, "good.csv"), "utf8").split("\n");
      // 504: held by the period, next call Friday 8:00 CDT; 318: the normal hours (after 9 p.m.), next call the same instant;
      // then calls_24h and calls_7d (decision 191): no call history here
      expect(good[1]).toBe(
        `Ann,504-555-2345,+15045552345,America/Chicago,no,2026-09-11T13:00:00Z,2026-09-11T08:00:00-05:00,"Louisiana emergency period to 2026-09-10 (Governor of Louisiana, ${SOURCE})",0,0`,
      );
      expect(good[2]).toMatch(/^Bob,318-222-5555,\+13182225555,America\/Chicago,no,2026-09-11T13:00:00Z,2026-09-11T08:00:00-05:00,After 9 p\.m\./);
      expect(good[2]).not.toContain("emergency");
      expect(good[3]).toMatch(/^Cy,212-555-2345,\+12125552345,America\/New_York,no,2026-09-11T12:00:00Z,2026-09-11T08:00:00-04:00,/);
      const proof = {
        id: 1,
        states: ["LA"],
        areaCodes: [504],
        firstDay: "2026-09-01",
        lastDay: "2026-09-10",
        authority: "Governor of Louisiana",
        sourceUrl: SOURCE,
        heldRows: 1,
      };
      expect(summary.calling.emergencyPeriods).toEqual([proof]);
      const cert = JSON.parse(fs.readFileSync(path.join(out, "certificate.json"), "utf8"));
      expect(cert.certificate.callingWindow.emergencyPeriods).toEqual([proof]);
      const db = await openDatabase({ dataDir: dir });
      const keysFile = path.join(dir, "keys.json");
      try {
        fs.writeFileSync(keysFile, JSON.stringify({ keys: await publishedKeys(db.db) }));
      } finally {
        await db.close();
      }
      const verified = (await cli("verify", "--certificate", path.join(out, "certificate.json"), "--keys", keysFile, "--input", input, "--results", out))
        .stdout;
      expect(verified).toContain("Verified");
      expect(verified).toContain(`Emergency no-call periods applied: 1 (LA 504, 2026-09-01 to 2026-09-10, 1 rows held; ${SOURCE})`);
      // the period is covered by the signature: changing it breaks the verification
      cert.certificate.callingWindow.emergencyPeriods[0].lastDay = "2026-09-09";
      const forged = path.join(dir, "forged.json");
      fs.writeFileSync(forged, JSON.stringify(cert));
      expect(await fails("verify", "--certificate", forged, "--keys", keysFile).then(([code]) => code)).toBe(1);

      // the statute's own exceptions through the exemption records (La. R.S. 45:844.31): a purchase within six months
      // and an express request within six months let the call through the period; an older purchase and an inquiry do not
      const leads = path.join(dir, "leads-504.csv");
      fs.writeFileSync(leads, ["Phone", "5045552301", "5045552302", "5045552303", "5045552304", "5045552305", ""].join("\n"));
      const crm = path.join(dir, "crm.csv");
      fs.writeFileSync(
        crm,
        [
          "phone,basis,date",
          "5045552301,purchase,2026-04-01",
          "5045552302,consent,2026-08-01",
          "5045552303,purchase,2026-03-09",
          "5045552304,inquiry,2026-09-01",
          "",
        ].join("\n"),
      );
      const ex = JSON.parse(
        (
          await cli(
            "scrub",
            "--input",
            leads,
            "--type",
            "LitigationOnly",
            "--out",
            path.join(dir, "ex"),
            "--calling-window",
            "--exemptions",
            crm,
            "--at",
            "2026-09-09T10:00:00-05:00",
          )
        ).stdout,
      );
      expect(ex).toMatchObject({ status: "completed", good: 5 });
      const exRows = fs
        .readFileSync(path.join(dir, "ex", "good.csv"), "utf8")
        .split("\n")
        .slice(1, 6)
        .map((l) => l.split(",").slice(0, 5).join(","));
      expect(exRows).toEqual([
        "5045552301,+15045552301,America/Chicago,yes,2026-09-09T15:00:00Z",
        "5045552302,+15045552302,America/Chicago,yes,2026-09-09T15:00:00Z",
        "5045552303,+15045552303,America/Chicago,no,2026-09-11T13:00:00Z",
        "5045552304,+15045552304,America/Chicago,no,2026-09-11T13:00:00Z",
        "5045552305,+15045552305,America/Chicago,no,2026-09-11T13:00:00Z",
      ]);
      expect(ex.calling.emergencyPeriods[0].heldRows).toBe(3);

      // the next day at 00:00 local: the normal hours again, no period in the note
      const after = JSON.parse(
        (
          await cli(
            "scrub",
            "--input",
            input,
            "--type",
            "LitigationOnly",
            "--out",
            path.join(dir, "after"),
            "--calling-window",
            "--at",
            "2026-09-11T00:00:00-05:00",
          )
        ).stdout,
      );
      expect(after.calling.emergencyPeriods).toEqual([{ ...proof, heldRows: 0 }]);
      const next = fs.readFileSync(path.join(dir, "after", "good.csv"), "utf8").split("\n");
      expect(next[1]).toMatch(/^Ann,504-555-2345,\+15045552345,America\/Chicago,no,2026-09-11T13:00:00Z,2026-09-11T08:00:00-05:00,Before 8 a\.m\./);
    },
  );
});
