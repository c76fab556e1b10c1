import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client";
import { lockDataDir } from "../../db/dir-lock";
import { createTestDb } from "../../tests/setup/db";
import { createHttpScrubClient } from "./http-client";
import { listenHttp, listenLocalSocket } from "./http";
import { OPERATOR_EMAIL } from "./operator-account";
import type { InProcessScrubService } from "./in-process";
import { adminListIds, cleanupService, createUser, startService, tmpDir } from "./test/helpers";

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
    expect([job.good_count, job.bad_count, job.usage_reserved]).toEqual([1, 1, 3]);
    const good = await fetch(`${base}/v1/jobs/${id}/files/good`, { headers: auth });
    expect(good.headers.get("content-disposition")).toBe('attachment; filename="up_Good.csv"');
    expect(await good.text()).toBe("phone,name\n3055550002,b\n");
    const status = await client.listStoreStatus();
    expect(status.find((s) => s.kind === "litigation")).toMatchObject({ size: 1, storeVersion: 2, version: 2 });
    const bad = await fetch(`${base}/v1/jobs?userId=${userId}&suppressionType=Nope`, { method: "POST", headers: auth, body: "x" });
    expect([bad.status, ((await bad.json()) as { error: string }).error]).toEqual([400, "suppressionType must be LitigationOnly or DNCAndLitigation."]);
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
      expect(fs.readFileSync(path.join(out, "good.csv"), "utf8")).toBe("Phone\n4155550003\n");

      // certificate.json beside the results; `verify` needs no database and names what does not match
      expect(summary.files.certificate).toBe(path.join(out, "certificate.json"));
      const verify = (...extra: string[]) =>
        promisify(execFile)(process.execPath, ["scrub-service/dist/cli.mjs", "verify", "--certificate", path.join(out, "certificate.json"), ...extra], {
          env: { ...process.env, DATA_DIR: path.join(dir, "nowhere"), DATABASE_URL: "" },
        });
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
