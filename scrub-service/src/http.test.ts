import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "db/client";
import { lockDataDir } from "db/dir-lock";
import { createTestDb } from "../../tests/setup/db";
import { createHttpScrubClient } from "./http-client";
import { listenHttp, listenLocalSocket } from "./http";
import { OPERATOR_EMAIL } from "./operator-account";
import type { InProcessScrubService } from "./in-process";
import { adminListIds, cleanupService, createContainer, createUser, startService, tmpDir } from "./test/helpers";
import { writeGzip, writeXlsx } from "./test/input-files";
import { publishedKeys } from "./certificate/keys";
import { certificateText, newSigningKey, signCertificate } from "./certificate/sign";
import type { CertificateFile } from "./certificate/document";

const TOKEN = "test-token-0123456789";

describe("HTTP API and CLI", () => {
  let handle: DbHandle;
  let svc: InProcessScrubService;
  let dir: string;
  let server: { server: import("node:http").Server; close(): Promise<void> };
  let base: string;
  let userId: string;
  beforeAll(async () => {
    handle = await createTestDb();
    dir = tmpDir("http");
    svc = await startService(handle, "embedded", { dataDir: dir });
    server = await listenHttp(svc, { handle, dataDir: dir, token: TOKEN, port: 0, host: "127.0.0.1" });
    const addr = server.server.address() as import("node:net").AddressInfo;
    base = `http://127.0.0.1:${addr.port}`;
    userId = await createUser(handle);
    const { litigation } = await adminListIds(handle);
    await svc.loadNumbers({ listId: litigation, mode: "add", numbers: ["2125550001"] });
  });
  afterAll(async () => {
    await server.close();
    await cleanupService(svc);
    await handle.close();
  });

  it("refuses calls without the internal token", async () => {
    const res = await fetch(`${base}/v1/lists`);
    expect(res.status).toBe(401);
    const wrong = await fetch(`${base}/v1/lists`, { headers: { Authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
  });

  it("takes a streamed file, runs the job and serves the results", async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const body = "phone,name\n2125550001,a\n3055550002,b\n";
    const res = await fetch(`${base}/v1/jobs?userId=${userId}&fileName=up.csv&suppressionType=LitigationOnly`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "text/csv" },
      body,
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const client = createHttpScrubClient({ url: base, token: TOKEN });
    expect(await client.waitFor("job", id, 20_000)).toBe("completed");
    const job = (await (await fetch(`${base}/v1/jobs/${id}`, { headers: auth })).json()) as Record<string, unknown>;
    expect([job.good_count, job.bad_count, job.usage_reserved]).toEqual([1, 1, 2]); // the header row is not usage
    const good = await fetch(`${base}/v1/jobs/${id}/files/good`, { headers: auth });
    expect(good.headers.get("content-disposition")).toBe('attachment; filename="up_Good.csv"');
    expect(await good.text()).toBe("phone,name,phone_e164\n3055550002,b,+13055550002\n");
    const status = await client.listStoreStatus();
    expect(status.find((s) => s.kind === "litigation")).toMatchObject({ size: 1, storeVersion: 2, version: 2 });
    const bad = await fetch(`${base}/v1/jobs?userId=${userId}&suppressionType=Nope`, { method: "POST", headers: auth, body: "x" });
    expect([bad.status, ((await bad.json()) as { error: string }).error]).toEqual([400, "suppressionType must be LitigationOnly or DNCAndLitigation."]);
  });

  it("parses POST /v1/jobs as a scrub order: callingAt only with callingWindow or exemptionListId, another user's container a 404 (issue #45)", async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const jobs = async () =>
      Number(
        (
          await handle.db
            .selectFrom("scrub_jobs")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await jobs();
    const post = async (query: string) => {
      const res = await fetch(`${base}/v1/jobs?userId=${userId}&fileName=o.csv&suppressionType=LitigationOnly&${query}`, {
        method: "POST",
        headers: auth,
        body: "phone\n2125552345\n",
      });
      return [res.status, ((await res.json()) as { error: string }).error];
    };
    expect(await post("callingAt=2026-11-29T15:00:00Z")).toEqual([400, "callingAt applies with callingWindow=1 or exemptionListId only."]);
    expect(await post("callingWindow=1&callingAt=2026-11-29")).toEqual([
      400,
      "callingAt must be an ISO-8601 date-time with a UTC offset, e.g. 2026-11-26T15:00:00Z or 2026-11-26T10:00:00-05:00.",
    ]);
    const other = await createUser(handle);
    const theirs = await createContainer(handle, other);
    expect(await post(`containerId=${theirs}`)).toEqual([404, `No container ${theirs} of this user.`]);
    expect(await jobs()).toBe(before);
  });

  it("applies an FTC change list (mode=changes) posted over HTTP, with its counts; refuses an unknown mode", async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const { dnc } = await adminListIds(handle);
    const client = createHttpScrubClient({ url: base, token: TOKEN });
    const post = async (mode: string, body: Buffer) => {
      const res = await fetch(`${base}/v1/list-loads?listId=${dnc}&mode=${mode}&fileName=f`, { method: "POST", headers: auth, body: new Uint8Array(body) });
      return { status: res.status, body: (await res.json()) as { id?: string; error?: string } };
    };
    const full = await post("add", Buffer.from("212,5553100\n212,5553101\n"));
    expect(full.status).toBe(202);
    expect(await client.waitFor("load", full.body.id!, 20_000)).toBe("completed");
    const gz = await writeGzip(path.join(dir, "http-changes.txt.gz"), [
      "212,5553102,A,2026-11-20\n",
      "212,5553100,D,2026-11-20\n",
      "415,5553199,D,2026-11-21\n",
    ]);
    const changes = await post("changes", fs.readFileSync(gz));
    expect(changes.status).toBe(202);
    expect(await client.waitFor("load", changes.body.id!, 20_000)).toBe("completed");
    const load = (await (await fetch(`${base}/v1/list-loads/${changes.body.id}`, { headers: auth })).json()) as Record<string, unknown>;
    expect([load.mode, load.added, load.removed, load.not_present, load.invalid]).toEqual(["changes", 1, 1, 1, 0]);
    expect(load.source_format).toBe("FTC change list (additions and deletions) · gzip-compressed CSV");
    expect(await post("merge", Buffer.from("x"))).toEqual({ status: 400, body: { error: "mode must be add, remove, replace, changes." } });
  });

  it("scrubs the workbook sheet named by `sheet` and records the input on the job", async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const xlsx = await writeXlsx(path.join(dir, "two-sheets.xlsx"), [
      { name: "Notes", rows: [["Note"], ["not a list"]] },
      {
        name: "Leads",
        rows: [
          ["Name", "Phone"],
          ["José", 3055550002],
          ["Ann", 2125550001],
        ],
      },
    ]);
    const res = await fetch(`${base}/v1/jobs?userId=${userId}&fileName=two.xlsx&suppressionType=LitigationOnly&sheet=Leads`, {
      method: "POST",
      headers: auth,
      body: new Uint8Array(fs.readFileSync(xlsx)),
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect(await createHttpScrubClient({ url: base, token: TOKEN }).waitFor("job", id, 20_000)).toBe("completed");
    const job = (await (await fetch(`${base}/v1/jobs/${id}`, { headers: auth })).json()) as Record<string, unknown>;
    expect([job.input_format, job.input_encoding, job.input_delimiter, job.input_sheet, job.usage_reserved]).toEqual([
      "Excel workbook (.xlsx)",
      "UTF-8",
      "comma",
      "Leads",
      2,
    ]);
    expect(await (await fetch(`${base}/v1/jobs/${id}/files/good`, { headers: auth })).text()).toBe("Name,Phone,phone_e164\nJosé,3055550002,+13055550002\n");
  });

  it("the CLI sends files to SCRUB_SERVICE_URL: apply-changes and a scrub of a chosen sheet, with what was read", { timeout: 60_000 }, async () => {
    const { dnc } = await adminListIds(handle);
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["scrub-service/dist/cli.mjs", ...args], {
        env: { ...process.env, SCRUB_SERVICE_URL: base, SCRUB_SERVICE_TOKEN: TOKEN, DATA_DIR: path.join(dir, "nowhere"), DATABASE_URL: "" },
      });
    const changes = await writeGzip(path.join(dir, "cli-changes.csv.gz"), [
      "305,5553300,A,2026-11-20\n",
      "305,5553301,A,2026-11-20\n",
      "305,5553300,D,2026-11-21\n",
    ]);
    const applied = JSON.parse((await cli("lists", "apply-changes", "--list", "dnc", "--input", changes)).stdout);
    expect(applied).toMatchObject({ listId: dnc, mode: "changes", status: "completed", added: 1, removed: 0, notPresent: 1, invalid: 0 });
    expect([applied.format, applied.encoding, applied.delimiter]).toEqual([
      "FTC change list (additions and deletions) · gzip-compressed CSV",
      "UTF-8",
      "comma",
    ]);

    const xlsx = await writeXlsx(path.join(dir, "cli-two.xlsx"), [
      { name: "Summary", rows: [["Total"], [2]] },
      {
        name: "Leads",
        rows: [
          ["Phone", "Name"],
          [3055553301, "on the DNC list"],
          [4155553302, "Zoë"],
        ],
      },
    ]);
    const out = path.join(dir, "cli-sheet-out");
    const scrub = JSON.parse((await cli("scrub", "--input", xlsx, "--type", "DNCAndLitigation", "--sheet", "Leads", "--out", out, "--user", userId)).stdout);
    expect(scrub).toMatchObject({ status: "completed", rows: 2, good: 1, bad: 1, via: "running server" });
    expect(scrub.input).toEqual({ format: "Excel workbook (.xlsx)", encoding: "UTF-8", delimiter: "comma", sheet: "Leads" });
    expect(fs.readFileSync(path.join(out, "good.csv"), "utf8")).toBe("Phone,Name,phone_e164\n4155553302,Zoë,+14155553302\n");
  });

  it(
    "the CLI's --exemptions FILE goes to SCRUB_SERVICE_URL: a new list of the user's, every row or none, applied at --at (decision 161)",
    { timeout: 60_000 },
    async () => {
      const { dnc } = await adminListIds(handle);
      await svc.loadNumbers({ listId: dnc, mode: "add", numbers: ["3055553401", "3055553402"] });
      const cli = (...args: string[]) =>
        promisify(execFile)(process.execPath, ["scrub-service/dist/cli.mjs", ...args], {
          env: { ...process.env, SCRUB_SERVICE_URL: base, SCRUB_SERVICE_TOKEN: TOKEN, DATA_DIR: path.join(dir, "nowhere"), DATABASE_URL: "" },
        });
      const input = path.join(dir, "ex-leads.csv");
      fs.writeFileSync(input, "Phone\n3055553401\n3055553402\n");
      const bad = path.join(dir, "ex-bad.csv");
      fs.writeFileSync(bad, "3055553401,consent,2024-02-30\n");
      const refused = (await cli(
        "scrub",
        "--input",
        input,
        "--type",
        "DNCAndLitigation",
        "--out",
        path.join(dir, "ex-no"),
        "--user",
        userId,
        "--exemptions",
        bad,
      ).catch((e: { code: number; stderr: string }) => e)) as { code: number; stderr: string };
      expect([refused.code, refused.stderr.trim()]).toEqual([
        2,
        'The exemption file was not loaded:\nLine 1: date "2024-02-30" is not a real date in the form YYYY-MM-DD.',
      ]);
      const before = await handle.db.selectFrom("exemption_lists").select("id").where("user_id", "=", userId).execute();
      expect(before).toEqual([]);
      const good = path.join(dir, "ex-good.csv");
      fs.writeFileSync(good, "3055553401,consent,2024-02-29\n");
      const out = path.join(dir, "ex-out");
      const scrub = JSON.parse(
        (
          await cli(
            "scrub",
            "--input",
            input,
            "--type",
            "DNCAndLitigation",
            "--out",
            out,
            "--user",
            userId,
            "--exemptions",
            good,
            "--at",
            "2026-11-26T12:00:00Z",
          )
        ).stdout,
      );
      expect(scrub).toMatchObject({
        status: "completed",
        good: 1,
        bad: 1,
        via: "running server",
        exemptions: { name: "ex-good.csv", byBasis: { consent: 1 } },
      });
      expect(fs.readFileSync(path.join(out, "good.csv"), "utf8")).toBe("Phone,phone_e164,exemption\n3055553401,+13055553401,consent 2024-02-29\n");
    },
  );

  it(
    "the CLI's --calls FILE, --purpose and --debt-column go to SCRUB_SERVICE_URL: the calls added to the user's history (every row or none), then counted (decision 191)",
    { timeout: 60_000 },
    async () => {
      const cli = (...args: string[]) =>
        promisify(execFile)(process.execPath, ["scrub-service/dist/cli.mjs", ...args], {
          env: { ...process.env, SCRUB_SERVICE_URL: base, SCRUB_SERVICE_TOKEN: TOKEN, DATA_DIR: path.join(dir, "nowhere"), DATABASE_URL: "" },
        });
      const input = path.join(dir, "calls-leads.csv");
      fs.writeFileSync(input, "Phone,Account\n3055553601,A-1\n2125553602,A-1\n");
      const at = "2026-11-25T17:00:00Z";
      const common = ["scrub", "--input", input, "--type", "LitigationOnly", "--user", userId, "--calling-window", "--at", at];
      const bad = path.join(dir, "calls-bad.csv");
      fs.writeFileSync(bad, "number,at,outcome\n3055553601,2026-11-25T16:00:00Z,maybe\n");
      const refused = (await cli(...common, "--out", path.join(dir, "calls-no"), "--calls", bad).catch((e: { code: number; stderr: string }) => e)) as {
        code: number;
        stderr: string;
      };
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^Nothing was recorded: 1 problem in calls-bad\.csv:\n {2}line 2, outcome: /);
      const calls = path.join(dir, "calls-good.csv");
      const hours = [1, 2, 3, 4, 5, 6, 7];
      fs.writeFileSync(
        calls,
        ["number,at,outcome,debt_id", ...hours.map((h) => `3055553601,${new Date(Date.parse(at) - h * 3_600_000).toISOString()},attempted,A-1`)].join("\n") +
          "\n",
      );
      const out = path.join(dir, "calls-out");
      const s = JSON.parse((await cli(...common, "--out", out, "--calls", calls)).stdout);
      expect(s).toMatchObject({ status: "completed", via: "running server", callsImported: { recorded: 7 }, calling: { calls: { heldByCaps: 1 } } });
      expect(fs.readFileSync(path.join(out, "good.csv"), "utf8").split("\n")[1]).toMatch(/^3055553601,A-1,\+13055553601,America\/New_York,no,.*,7,7$/);
      // debt collection, the debt from its column: seven calls about A-1 in seven days hold the eighth
      const debt = JSON.parse((await cli(...common, "--out", path.join(dir, "calls-debt"), "--purpose", "debt-collection", "--debt-column", "Account")).stdout);
      expect(debt.calling.calls).toMatchObject({
        purpose: "debt-collection",
        debtColumn: "Account",
        heldByCaps: 1,
        byCap: [{ cap: "us-reg-f-7-in-7", rows: 1 }],
      });
    },
  );

  it(
    "the CLI through SCRUB_SERVICE_URL (decision 174): a past --at completes as a replay; with 'refuse stale DNC' on a 40-day-old federal list refuses the DNC scrub, here and at a job's start",
    { timeout: 60_000 },
    async () => {
      const cli = (...args: string[]) =>
        promisify(execFile)(process.execPath, ["scrub-service/dist/cli.mjs", ...args], {
          env: { ...process.env, SCRUB_SERVICE_URL: base, SCRUB_SERVICE_TOKEN: TOKEN, DATA_DIR: path.join(dir, "nowhere"), DATABASE_URL: "" },
        });
      const input = path.join(dir, "stale-leads.csv");
      fs.writeFileSync(input, "Phone\n3055553501\n2125553502\n");
      const out = path.join(dir, "replay-out");
      const replay = JSON.parse(
        (await cli("scrub", "--input", input, "--type", "LitigationOnly", "--out", out, "--user", userId, "--calling-window", "--at", "2025-06-01T12:00:00Z"))
          .stdout,
      );
      expect(replay).toMatchObject({
        status: "completed",
        via: "running server",
        replay: true,
        beyondListValidity: false,
        notes: ["evaluated at a past instant: not valid for calls now"],
      });
      expect(JSON.parse(fs.readFileSync(path.join(out, "certificate.json"), "utf8")).certificate.evaluation).toMatchObject({
        at: "2025-06-01T12:00:00Z",
        replay: true,
      });

      const DAY = 86_400_000;
      const released = new Date(Math.floor(Date.now() / DAY) * DAY - 40 * DAY);
      const kept = await handle.db.selectFrom("lists").select("registry_date").where("kind", "=", "dnc").executeTakeFirstOrThrow();
      await handle.db.updateTable("lists").set({ registry_date: released }).where("kind", "=", "dnc").execute();
      // a job queued before the setting was switched on (or before its list went stale)
      const { createScrubJob } = await import("./service");
      const queuedBefore = await createScrubJob(handle.db, { userId, fileName: "x.csv", inputPath: input, suppressionType: "DNCAndLitigation" });
      await handle.db.insertInto("app_settings").values({ name: "refuseStaleDnc", value: "true", updated_by: null }).execute();
      const message = `The federal DNC list (release ${released.toISOString().slice(0, 10)}, 40 days old; rule 31 days) is out of date: purges that include DNC are refused until an admin loads a newer release.`;
      try {
        const refused = (await cli("scrub", "--input", input, "--type", "DNCAndLitigation", "--out", path.join(dir, "stale-no"), "--user", userId).catch(
          (e: { code: number; stderr: string }) => e,
        )) as { code: number; stderr: string };
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(message);
        // the engine's one intake refuses it for every path (issue #45) ...
        await expect(createScrubJob(handle.db, { userId, fileName: "x.csv", inputPath: input, suppressionType: "DNCAndLitigation" })).rejects.toThrow(message);
        // ... and the last line of defence: a job queued before fails at its start with the same words
        await svc.enqueue(queuedBefore);
        expect(await svc.waitFor("job", queuedBefore, 30_000)).toBe("failed");
        const row = await handle.db.selectFrom("scrub_jobs").select("error").where("id", "=", queuedBefore).executeTakeFirstOrThrow();
        expect(row.error).toBe(message);
      } finally {
        await handle.db.deleteFrom("app_settings").where("name", "=", "refuseStaleDnc").execute();
        await handle.db.updateTable("lists").set({ registry_date: kept.registry_date }).where("kind", "=", "dnc").execute();
      }
    },
  );

  it("loads into the DNC list with a stated registry date, applies an FTC change list (mode=changes), and refuses a bad date", async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const { dnc, litigation } = await adminListIds(handle);
    const client = createHttpScrubClient({ url: base, token: TOKEN });
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    const post = (query: string, body: string) =>
      fetch(`${base}/v1/list-loads?${query}`, { method: "POST", headers: { ...auth, "Content-Type": "text/plain" }, body });
    const full = await post(`listId=${dnc}&mode=add&fileName=full.txt&registryDate=${day(10)}`, "212,5552301\n212,5552302\n");
    expect(full.status).toBe(202);
    const { id } = (await full.json()) as { id: string };
    expect(await client.waitFor("load", id, 20_000)).toBe("completed");
    const changes = await post(
      `listId=${dnc}&mode=changes&fileName=changes.txt&registryDate=${day(2)}`,
      "212,5552303,A,2026-11-20\n212,5552301,D,2026-11-20\n",
    );
    expect(changes.status).toBe(202);
    const applied = (await changes.json()) as { id: string };
    expect(await client.waitFor("load", applied.id, 20_000)).toBe("completed");
    const row = (await (await fetch(`${base}/v1/list-loads/${applied.id}`, { headers: auth })).json()) as Record<string, unknown>;
    expect(row).toMatchObject({ mode: "changes", added: 1, removed: 1, registry_date: `${day(2)}T00:00:00.000Z` });
    const list = await handle.db.selectFrom("lists").select("registry_date").where("id", "=", dnc).executeTakeFirstOrThrow();
    expect(list.registry_date?.toISOString()).toBe(`${day(2)}T00:00:00.000Z`);

    const refused = async (query: string) => {
      const r = await post(query, "212,5552304\n");
      return [r.status, ((await r.json()) as { error: string }).error];
    };
    expect(await refused(`listId=${dnc}&mode=add&registryDate=2026-13-01`)).toEqual([400, "Registry date 2026-13-01 is not a real calendar date."]);
    expect(await refused(`listId=${dnc}&mode=add&registryDate=${day(-5)}`)).toEqual([
      400,
      `Registry date ${day(-5)} is in the future: state the day the registry file was downloaded.`,
    ]);
    expect(await refused(`listId=${litigation}&mode=add&registryDate=${day(1)}`)).toEqual([
      400,
      "registryDate applies to the DNC list, the state lists and Canada's National DNCL only.",
    ]);
    // a state list (decision 160) takes its release's date over HTTP too
    const texas = (await handle.db.selectFrom("lists").select("id").where("kind", "=", "dnc-tx").executeTakeFirstOrThrow()).id;
    const tx = await post(`listId=${texas}&mode=add&fileName=texas.txt&registryDate=${day(6)}`, "5125552306\n");
    expect(tx.status).toBe(202);
    expect(await client.waitFor("load", ((await tx.json()) as { id: string }).id, 20_000)).toBe("completed");
    const txList = await handle.db.selectFrom("lists").select(["registry_date", "size"]).where("id", "=", texas).executeTakeFirstOrThrow();
    expect([txList.registry_date?.toISOString(), Number(txList.size)]).toEqual([`${day(6)}T00:00:00.000Z`, 1]);
    const manual = await fetch(`${base}/v1/list-loads/manual`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ listId: dnc, mode: "add", numbers: ["2125552305"], registryDate: `${day(1)}T00:00:00.000Z` }),
    });
    expect(manual.status).toBe(200);
    const after = await handle.db.selectFrom("lists").select("registry_date").where("id", "=", dnc).executeTakeFirstOrThrow();
    expect(after.registry_date?.toISOString()).toBe(`${day(1)}T00:00:00.000Z`);
  });

  it("the CLI goes through a running server's service when the embedded data directory is locked", { timeout: 60_000 }, async () => {
    const release = lockDataDir(dir); // as the running server holds it
    const sock = await listenLocalSocket(svc, { handle, dataDir: dir });
    try {
      const input = path.join(dir, "cli.csv");
      fs.writeFileSync(input, "Phone\n2125550001\n4155550003\n");
      const out = path.join(dir, "cli-out");
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["scrub-service/dist/cli.mjs", "scrub", "--input", input, "--type", "LitigationOnly", "--out", out, "--user", userId],
        { env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "" } },
      );
      const summary = JSON.parse(stdout);
      expect(summary).toMatchObject({ status: "completed", rows: 2, good: 1, bad: 1, invalid: 0, via: "running server" });
      expect(fs.readFileSync(path.join(out, "good.csv"), "utf8")).toBe("Phone,phone_e164\n4155550003,+14155550003\n");

      // certificate.json beside the results; `verify` needs no database, only the service's published keys, and
      // names what does not match
      expect(summary.files.certificate).toBe(path.join(out, "certificate.json"));
      const keysFile = path.join(dir, "keys.json");
      fs.writeFileSync(keysFile, JSON.stringify({ keys: await publishedKeys(handle.db) }));
      const cli = (certificate: string, ...extra: string[]) =>
        promisify(execFile)(process.execPath, ["scrub-service/dist/cli.mjs", "verify", "--certificate", certificate, ...extra], {
          env: { ...process.env, DATA_DIR: path.join(dir, "nowhere"), DATABASE_URL: "", APP_URL: "", CERTIFICATE_KEYS_URL: "" },
        });
      const verify = (...extra: string[]) => cli(path.join(out, "certificate.json"), "--keys", keysFile, ...extra);
      // no keys at all: refused (exit 2), never verified against the key the certificate carries
      const keyless = await cli(path.join(out, "certificate.json")).catch((e: { code: number; stderr: string }) => e);
      expect((keyless as { code: number }).code).toBe(2);
      expect((keyless as { stderr: string }).stderr).toMatch(/^A certificate verifies only against the keys this service publishes/);
      // counts changed and re-signed with another key it embeds: not signed by this service (exit 1)
      const real = JSON.parse(fs.readFileSync(path.join(out, "certificate.json"), "utf8")) as CertificateFile;
      const forged = path.join(dir, "forged.json");
      const counts = { ...real.certificate, outputs: { ...real.certificate.outputs, good: { ...real.certificate.outputs.good, records: 5 } } };
      fs.writeFileSync(forged, certificateText(signCertificate(counts, newSigningKey().key)));
      const refused = await cli(forged, "--keys", keysFile).catch((e: { code: number; stdout: string }) => e);
      expect((refused as { code: number }).code).toBe(1);
      expect((refused as { stdout: string }).stdout).toMatch(/^FAIL signing key: Not signed by this service/m);
      expect((refused as { stdout: string }).stdout).not.toMatch(/Verified/);
      const ok = await verify("--input", input, "--results", out);
      expect(ok.stdout).toMatch(/^OK +signature: /m);
      expect(ok.stdout).toMatch(/^OK +input: /m);
      expect(ok.stdout).toMatch(/^OK +invalid\.csv: /m);
      expect(ok.stdout).toMatch(/Verified: everything checked matches\./);
      fs.appendFileSync(path.join(out, "good.csv"), "5125550009\n");
      const bad = await verify("--input", input, "--results", out).catch((e: { code: number; stdout: string }) => e);
      expect((bad as { code: number }).code).toBe(1);
      expect(bad.stdout).toMatch(/^FAIL good\.csv: good\.csv does not match/m);
      expect(bad.stdout).toMatch(/Does not match: good\.csv\./);

      // without --user the operator account owns the job, also through the server's socket
      const owned = await promisify(execFile)(
        process.execPath,
        ["scrub-service/dist/cli.mjs", "scrub", "--input", input, "--type", "LitigationOnly", "--out", path.join(dir, "cli-out2")],
        { env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "" } },
      );
      const ownedJob = await handle.db
        .selectFrom("scrub_jobs")
        .innerJoin("users", "users.id", "scrub_jobs.user_id")
        .select("users.email")
        .where("scrub_jobs.id", "=", JSON.parse(owned.stdout).jobId)
        .executeTakeFirstOrThrow();
      expect(ownedJob.email).toBe(OPERATOR_EMAIL);

      // the public key is printed by the CLI (here through the running server's socket)
      const keys = await promisify(execFile)(process.execPath, ["scrub-service/dist/cli.mjs", "keys"], {
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "", SCRUB_SERVICE_URL: "" },
      });
      const cert = JSON.parse(fs.readFileSync(path.join(out, "certificate.json"), "utf8"));
      expect(keys.stdout).toContain(`${cert.signature.keyId}  current  Ed25519 public key ${cert.signature.publicKey}`);
    } finally {
      await sock.close();
      release();
    }
  });
});
