/**
 * The CLI's exemptions (decision 161), embedded: `--exemptions FILE` loads the records into a new list of the job's
 * owner (every row or none: a bad file prints each bad line and runs nothing), `--exemptions-list ID` reuses it,
 * `--at` is the instant; the summary and the certificate carry what was applied.
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

describe("scrub --exemptions", () => {
  it("lets DNC numbers with a valid record through, and refuses a bad exemption file before anything runs", { timeout: 180_000 }, async () => {
    const dir = await migratedDataDir("cli-exemptions"); // the migrated empty database a first run makes
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
    const cli = (...args: string[]) => run(process.execPath, ["scrub-service/dist/cli.mjs", ...args], { env });
    const fails = async (...args: string[]) => {
      const e = (await cli(...args).catch((x: { code: number; stderr: string }) => x)) as { code?: number; stderr: string };
      return [e.code, e.stderr.trim()];
    };
    const dnc = path.join(dir, "dnc.txt");
    fs.writeFileSync(dnc, "2125552301\n2125552302\n2125552303\n");
    expect(JSON.parse((await cli("lists", "load", "--list", "dnc", "--input", dnc)).stdout).status).toBe("completed");
    const input = path.join(dir, "leads.csv");
    fs.writeFileSync(input, "Name,Phone\nAnn,2125552301\nBob,2125552302\nCy,2125552303\nDi,2125552304\n");

    const bad = path.join(dir, "bad.csv");
    fs.writeFileSync(bad, "phone,basis,date\n2125552301,purchase,2025-13-01\n2125552302,sale,2025-01-01\n");
    const out = path.join(dir, "out");
    expect(await fails("scrub", "--input", input, "--type", "DNCAndLitigation", "--out", out, "--exemptions", bad)).toEqual([
      2,
      [
        "The exemption file was not loaded:",
        'Line 2: date "2025-13-01" is not a real date in the form YYYY-MM-DD.',
        'Line 3: basis "sale" is not purchase, inquiry or consent.',
      ].join("\n"),
    ]);
    expect(fs.existsSync(out)).toBe(false);

    const good = path.join(dir, "crm.csv");
    fs.writeFileSync(good, "phone,basis,date\n2125552301,purchase,2025-01-31\n2125552302,inquiry,2026-05-01\n");
    const summary = JSON.parse(
      (await cli("scrub", "--input", input, "--type", "DNCAndLitigation", "--out", out, "--exemptions", good, "--at", "2026-07-30T12:00:00Z")).stdout,
    );
    expect(summary).toMatchObject({ status: "completed", good: 3, bad: 1 });
    expect(summary.exemptions).toMatchObject({
      name: "crm.csv",
      version: 1,
      count: 2,
      at: "2026-07-30T12:00:00Z",
      byBasis: { purchase: 1, inquiry: 1, consent: 0 },
    });
    expect(fs.readFileSync(path.join(out, "good.csv"), "utf8")).toBe(
      [
        "Name,Phone,phone_e164,exemption",
        'Ann,2125552301,+12125552301,"purchase 2025-01-31, exempt until 2026-07-31"',
        'Bob,2125552302,+12125552302,"inquiry 2026-05-01, exempt until 2026-08-01"',
        "Di,2125552304,+12125552304,",
        "",
      ].join("\n"),
    );
    const cert = JSON.parse(fs.readFileSync(path.join(out, "certificate.json"), "utf8")).certificate;
    expect(cert.exemptions).toMatchObject({
      listId: summary.exemptions.listId,
      sha256: summary.exemptions.sha256,
      byBasis: { purchase: 1, inquiry: 1, consent: 0 },
    });
    // Cy is on the DNC list with no record: bad, an empty exemption cell (decision 184)
    expect(fs.readFileSync(path.join(out, "bad.csv"), "utf8")).toBe("Name,Phone,phone_e164,reason,exemption\nCy,2125552303,+12125552303,dnc,\n");
    // the certificate with its exemptions verifies against the service's published keys and the files
    const db = await openDatabase({ dataDir: dir });
    const keysFile = path.join(dir, "keys.json");
    try {
      fs.writeFileSync(keysFile, JSON.stringify({ keys: await publishedKeys(db.db) }));
    } finally {
      await db.close();
    }
    const verified = await cli("verify", "--certificate", path.join(out, "certificate.json"), "--keys", keysFile, "--input", input, "--results", out);
    expect(verified.stdout).toContain("Verified");

    // the same list by id, a day later: the purchase's 18 months are over
    const later = JSON.parse(
      (
        await cli(
          "scrub",
          "--input",
          input,
          "--type",
          "DNCAndLitigation",
          "--out",
          path.join(dir, "later"),
          "--exemptions-list",
          String(summary.exemptions.listId),
          "--at",
          "2026-07-31T12:00:00Z",
        )
      ).stdout,
    );
    expect(later).toMatchObject({ good: 2, bad: 2, exemptions: { version: 1, byBasis: { purchase: 0, inquiry: 1, consent: 0 } } });
    expect(await fails("scrub", "--input", input, "--type", "LitigationOnly", "--out", out, "--at", "2026-07-31T12:00:00Z")).toEqual([
      2,
      "--at applies with --calling-window or exemptions only (the instant the calling columns and the exemptions are evaluated at).",
    ]);
  });
});
