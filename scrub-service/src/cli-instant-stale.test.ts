/**
 * Issue #49 through the CLI in this process (decision 174): the CLI may evaluate a past instant or one beyond the
 * lists' validity, and then its summary and its certificate say so (a verifiable certificate that `verify` prints);
 * with "refuse stale DNC" on, a DNC scrub with the federal list past its 31 days is refused, every stale list named.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openDatabase } from "db/client";
import { migratedDataDir } from "../../tests/setup/pglite-template";
import { publishedKeys } from "./certificate/keys";
import { BEYOND_VALIDITY_NOTE, REPLAY_NOTE } from "./evaluation";

const run = promisify(execFile);
const DAY = 86_400_000;

describe("CLI in process: any instant, said; stale lists refused (decision 174)", () => {
  it(
    "a past --at completes as a replay and a --at past the lists' validity is marked beyond it; the certificate verifies and says so; a stale federal list is refused",
    { timeout: 300_000 },
    async () => {
      const dir = await migratedDataDir("cli-instant-stale");
      const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
      const cli = (...args: string[]) => run(process.execPath, ["scrub-service/dist/cli.mjs", ...args], { env });
      const day = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
      const dncFile = path.join(dir, "dnc.txt");
      fs.writeFileSync(dncFile, "3055552301\n");
      const input = path.join(dir, "input.csv");
      fs.writeFileSync(input, "Phone\n3055552301\n2125552302\n");
      expect(JSON.parse((await cli("lists", "load", "--list", "dnc", "--input", dncFile, "--registry-date", day(40))).stdout)).toMatchObject({
        status: "completed",
      });

      // a past instant: an audit's replay
      const replayOut = path.join(dir, "replay");
      const replay = JSON.parse(
        (await cli("scrub", "--input", input, "--type", "LitigationOnly", "--out", replayOut, "--calling-window", "--at", "2025-06-01T12:00:00Z")).stdout,
      );
      expect(replay).toMatchObject({ status: "completed", replay: true, beyondListValidity: false, notes: [REPLAY_NOTE] });
      const cert = JSON.parse(fs.readFileSync(path.join(replayOut, "certificate.json"), "utf8"));
      expect(cert.certificate.evaluation).toEqual({
        at: "2025-06-01T12:00:00Z",
        replay: true,
        beyondListValidity: false,
        notes: ["evaluated at a past instant: not valid for calls now"],
      });

      // "refuse stale DNC" off: a DNC scrub runs with the 40-day-old list, and an instant after its validity is marked
      const planOut = path.join(dir, "plan");
      const at = new Date(Date.now() + 2 * DAY).toISOString().replace(/\.\d{3}Z$/, "Z");
      const plan = JSON.parse((await cli("scrub", "--input", input, "--type", "DNCAndLitigation", "--out", planOut, "--calling-window", "--at", at)).stdout);
      expect(plan).toMatchObject({ status: "completed", good: 1, bad: 1, replay: false, beyondListValidity: true, notes: [BEYOND_VALIDITY_NOTE] });
      const planCert = JSON.parse(fs.readFileSync(path.join(planOut, "certificate.json"), "utf8")).certificate;
      expect(planCert.evaluation).toMatchObject({ at, replay: false, beyondListValidity: true, notes: ["beyond the lists' validity"] });
      expect(planCert.staleLists).toEqual([{ kind: "dnc", registryDate: `${day(40)}T00:00:00.000Z`, ageDays: 40, ruleDays: 31 }]);

      // the certificates verify under the published keys, and verify prints the flags
      const db = await openDatabase({ dataDir: dir });
      const keysFile = path.join(dir, "keys.json");
      try {
        fs.writeFileSync(keysFile, JSON.stringify({ keys: await publishedKeys(db.db) }));
        // "refuse stale DNC" on for what follows
        await db.db.insertInto("app_settings").values({ name: "refuseStaleDnc", value: "true", updated_by: null }).execute();
      } finally {
        await db.close();
      }
      const verified = (
        await cli("verify", "--certificate", path.join(replayOut, "certificate.json"), "--keys", keysFile, "--input", input, "--results", replayOut)
      ).stdout;
      expect(verified).toContain(
        "Evaluated at 2025-06-01T12:00:00Z: replay true, beyond the lists' validity false (evaluated at a past instant: not valid for calls now)",
      );
      expect(verified).toContain("Verified: everything checked matches.");
      const verifiedPlan = (await cli("verify", "--certificate", path.join(planOut, "certificate.json"), "--keys", keysFile)).stdout;
      expect(verifiedPlan).toContain(`Evaluated at ${at}: replay false, beyond the lists' validity true (beyond the lists' validity)`);
      expect(verifiedPlan).toContain(`Ran with lists past their freshness rule: dnc (release ${day(40)}, 40 days old; rule 31 days)`);

      // "refuse stale DNC" on: the CLI in process refuses the DNC scrub, naming the list; Litigation Only still runs
      const refused = (await cli("scrub", "--input", input, "--type", "DNCAndLitigation", "--out", path.join(dir, "no")).catch(
        (e: { code: number; stderr: string }) => e,
      )) as {
        code: number;
        stderr: string;
      };
      expect([refused.code, refused.stderr.trim()]).toEqual([
        2,
        `The federal DNC list (release ${day(40)}, 40 days old; rule 31 days) is out of date: purges that include DNC are refused until an admin loads a newer release.`,
      ]);
      expect(JSON.parse((await cli("scrub", "--input", input, "--type", "LitigationOnly", "--out", path.join(dir, "lit"))).stdout)).toMatchObject({
        status: "completed",
      });
    },
  );
});
