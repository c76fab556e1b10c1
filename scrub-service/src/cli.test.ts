import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openDatabase } from "db/client";
import { OPERATOR_EMAIL } from "./operator-account";
import { tmpDir } from "./test/helpers";
import { rawXlsxBytes, sheetXml, writeGzipBomb } from "./test/input-files";
import { migratedDataDir } from "../../tests/setup/pglite-template";

const run = promisify(execFile);

describe("CLI on a fresh embedded data directory", () => {
  it("loads a list and scrubs without --user: the operator account owns the jobs", { timeout: 120_000 }, async () => {
    const dir = tmpDir("cli-fresh");
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
    const cli = (...args: string[]) => run(process.execPath, ["scrub-service/dist/cli.mjs", ...args], { env });
    const listFile = path.join(dir, "litigation.csv");
    fs.writeFileSync(listFile, "2125550001\n");
    const input = path.join(dir, "input.csv");
    fs.writeFileSync(input, "Phone\n2125550001\n4155550003\n");

    const load = JSON.parse((await cli("lists", "load", "--list", "litigation", "--input", listFile)).stdout);
    expect(load).toMatchObject({ status: "completed", added: 1 });
    // the load's process saved the new version's Bloom filter whole before it exited (the next process reads it)
    const cached = fs.readdirSync(path.join(dir, "cache"));
    expect(cached.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(cached.filter((f) => /^bloom-\d+-v\d+-.*\.bin$/.test(f))).toHaveLength(1);
    const first = JSON.parse((await cli("scrub", "--input", input, "--type", "LitigationOnly", "--out", path.join(dir, "out1"))).stdout);
    expect(first).toMatchObject({ status: "completed", rows: 2, good: 1, bad: 1, invalid: 0, via: "in-process" });
    expect(fs.readFileSync(path.join(dir, "out1", "good.csv"), "utf8")).toBe("Phone,phone_e164\n4155550003,+14155550003\n");
    const second = JSON.parse((await cli("scrub", "--input", input, "--type", "LitigationOnly", "--out", path.join(dir, "out2"))).stdout);
    expect(second.status).toBe("completed");

    const handle = await openDatabase({ dataDir: dir });
    try {
      const owners = await handle.db
        .selectFrom("scrub_jobs")
        .innerJoin("users", "users.id", "scrub_jobs.user_id")
        .select(["scrub_jobs.id", "users.email", "users.status", "users.role", "users.password_hash"])
        .execute();
      expect(owners.map((o) => o.id).sort()).toEqual([first.jobId, second.jobId].sort());
      for (const o of owners) expect(o).toMatchObject({ email: OPERATOR_EMAIL, status: "Blocked", role: "UnlimitedUser", password_hash: null });
      const operators = await handle.db.selectFrom("users").select("id").where("email", "=", OPERATOR_EMAIL).execute();
      expect(operators).toHaveLength(1);
    } finally {
      await handle.close();
    }
  });

  it("hostile files fail the scrub with the reader's words and exit 1, never a crash (issue #26)", { timeout: 120_000 }, async () => {
    const dir = await migratedDataDir("cli-hostile"); // the migrated empty database a first run makes
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
    const zzz = path.join(dir, "zzz.xlsx");
    fs.writeFileSync(zzz, rawXlsxBytes({ sheet: sheetXml([`<row r="1"><c r="A1" t="inlineStr"><is><t>Phone</t></is></c><c r="ZZZZZZ1"><v>1</v></c></row>`]) }));
    const bomb = writeGzipBomb(path.join(dir, "bomb.csv.gz"), "2125552101\n", 64 * 1024 * 1024, 64); // 4 GiB of identical rows
    for (const [input, words] of [
      [zzz, /a cell is at "ZZZZZZ1", outside Excel's sheet/],
      [bomb, /^The compressed file was refused: 32 KB unpack to 16\.\d MB/],
    ] as const) {
      const failed = await run(
        process.execPath,
        ["scrub-service/dist/cli.mjs", "scrub", "--input", input, "--type", "LitigationOnly", "--out", path.join(dir, "out")],
        { env },
      ).catch((e: { code: number; signal: string | null; stdout: string }) => e);
      expect((failed as { code: number }).code).toBe(1);
      expect((failed as { signal: string | null }).signal).toBeNull();
      const summary = JSON.parse((failed as { stdout: string }).stdout);
      expect(summary.status).toBe("failed");
      expect(summary.error).toMatch(words);
    }
  });

  it("--help names the operator account that owns jobs run without --user", async () => {
    const { stdout } = await run(process.execPath, ["scrub-service/dist/cli.mjs", "scrub", "--help"], {
      env: { ...process.env, DATA_DIR: tmpDir("cli-help") },
    });
    expect(stdout).toContain("--user ID: the user who owns the job. Without it the job is owned by the built-in operator account");
    expect(stdout).toContain(OPERATOR_EMAIL);
  });

  it(
    "a Texas list loaded as dnc-tx (its release date stated) turns its numbers bad in a DNC scrub, named in the summary and the certificate; add, remove and replace",
    { timeout: 300_000 },
    async () => {
      const dir = await migratedDataDir("cli-texas"); // the migrated empty database a first run makes
      const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
      const cli = async (...args: string[]) => JSON.parse((await run(process.execPath, ["scrub-service/dist/cli.mjs", ...args], { env })).stdout);
      const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
      const write = (name: string, text: string) => {
        const f = path.join(dir, name);
        fs.writeFileSync(f, text);
        return f;
      };
      const texas = write("texas.csv", "Phone\n5125552301\n2145552302\n");
      const input = write("input.csv", "Phone\n5125552301\n2145552302\n7135552303\n");

      expect(await cli("lists", "load", "--list", "dnc-tx", "--input", texas, "--registry-date", day(10))).toMatchObject({
        status: "completed",
        added: 2,
        registryDate: `${day(10)}T00:00:00.000Z`,
      });
      const scrub = async (out: string) => cli("scrub", "--input", input, "--type", "DNCAndLitigation", "--out", path.join(dir, out));
      const first = await scrub("out1");
      expect(first).toMatchObject({ status: "completed", good: 1, bad: 2, reasons: expect.objectContaining({ "dnc-tx": 2 }) });
      expect(fs.readFileSync(path.join(dir, "out1", "bad.csv"), "utf8")).toBe(
        "Phone,phone_e164,reason\n5125552301,+15125552301,dnc-tx\n2145552302,+12145552302,dnc-tx\n",
      );
      // LitigationOnly does not check the state lists
      expect(await cli("scrub", "--input", input, "--type", "LitigationOnly", "--out", path.join(dir, "lit"))).toMatchObject({ good: 3, bad: 0 });

      expect(await cli("lists", "remove", "--list", "dnc-tx", "--input", write("rm.txt", "2145552302\n"))).toMatchObject({ status: "completed", removed: 1 });
      expect(await scrub("out2")).toMatchObject({ good: 2, bad: 1 });
      expect(await cli("lists", "replace", "--list", "dnc-tx", "--input", write("new.txt", "7135552303\n"))).toMatchObject({ status: "completed", added: 1 });
      const last = await scrub("out3");
      expect(last).toMatchObject({ good: 2, bad: 1 });
      expect(fs.readFileSync(path.join(dir, "out3", "bad.csv"), "utf8")).toBe("Phone,phone_e164,reason\n7135552303,+17135552303,dnc-tx\n");

      const handle = await openDatabase({ dataDir: dir });
      try {
        const cert = await handle.db.selectFrom("scrub_certificates").select("document").where("job_id", "=", last.jobId).executeTakeFirstOrThrow();
        const lists = JSON.parse(cert.document).certificate.lists as { kind: string; name: string; version: number; count: number; registryDate: string }[];
        // the federal list is empty (version 1) and still named; the state lists never loaded are not
        expect(lists.map((l) => [l.kind, l.name, l.count])).toEqual([
          ["litigation", "Litigation List", 0],
          ["dnc", "DNC List", 0],
          ["dnc-tx", "Texas DNC List", 1],
        ]);
        const tx = await handle.db.selectFrom("lists").select(["version", "registry_date"]).where("kind", "=", "dnc-tx").executeTakeFirstOrThrow();
        expect(lists[2].version).toBe(Number(tx.version));
      } finally {
        await handle.close();
      }
    },
  );

  it("states the DNC registry date on load and apply-changes, and refuses a bad one before loading", { timeout: 300_000 }, async () => {
    const dir = await migratedDataDir("cli-registry"); // the migrated empty database a first run makes
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "", REDIS_URL: "" };
    const cli = (...args: string[]) => run(process.execPath, ["scrub-service/dist/cli.mjs", ...args], { env });
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    const full = path.join(dir, "full.txt");
    fs.writeFileSync(full, "212,5552401\n212,5552402\n");
    const changes = path.join(dir, "changes.txt");
    fs.writeFileSync(changes, "212,5552403,A,2026-11-20\n212,5552401,D,2026-11-20\n");

    const load = JSON.parse((await cli("lists", "load", "--list", "dnc", "--input", full, "--registry-date", day(20))).stdout);
    expect(load).toMatchObject({ status: "completed", added: 2, registryDate: `${day(20)}T00:00:00.000Z` });
    const applied = JSON.parse((await cli("lists", "apply-changes", "--list", "dnc", "--input", changes, "--registry-date", day(4))).stdout);
    expect(applied).toMatchObject({ status: "completed", mode: "changes", added: 1, removed: 1, registryDate: `${day(4)}T00:00:00.000Z` });

    const fails = async (...args: string[]) => {
      const e = (await cli("lists", ...args).catch((x: { code: number; stderr: string }) => x)) as { code?: number; stderr: string };
      return [e.code, e.stderr.trim()];
    };
    expect(await fails("load", "--list", "dnc", "--input", full, "--registry-date", "2026-02-30")).toEqual([
      2,
      "Registry date 2026-02-30 is not a real calendar date.",
    ]);
    expect(await fails("load", "--list", "litigation", "--input", full, "--registry-date", day(1))).toEqual([
      2,
      "--registry-date applies to --list dnc, the state lists and Canada's National DNCL (dnc-co, dnc-fl, dnc-in, dnc-la, dnc-ma, dnc-mo, dnc-ms, dnc-ok, dnc-pa, dnc-tn, dnc-tx, dnc-wy, dnc-ca) only: the date of the registry download.",
    ]);
    const handle = await openDatabase({ dataDir: dir });
    try {
      const dnc = await handle.db.selectFrom("lists").select(["registry_date", "size"]).where("kind", "=", "dnc").executeTakeFirstOrThrow();
      expect([dnc.registry_date?.toISOString(), Number(dnc.size)]).toEqual([`${day(4)}T00:00:00.000Z`, 2]);
      expect(await handle.db.selectFrom("list_loads").select("id").execute()).toHaveLength(2);
    } finally {
      await handle.close();
    }
  });
});
