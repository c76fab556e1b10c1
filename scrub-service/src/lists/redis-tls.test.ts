/**
 * The list store's bulk writes over TLS (redis-raw.ts opens connections of its own where the client is connected):
 * a Redis of our own with a certificate from a CA made here, a password and database 2 (rediss://:pw@localhost/2).
 * The client and the bulk connections must both trust the CA, which Node reads at start (NODE_EXTRA_CA_CERTS), so
 * the store runs in a child process.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipWithout } from "../../../tests/setup/services";
import { freePort, until } from "../../../tests/setup/processes";
import { tmpDir } from "../test/helpers";

const run = promisify(execFile);
const noTools = await skipWithout("redis-tls.test.ts", [
  { kind: "program", name: "redis-server" },
  { kind: "program", name: "openssl" },
]);

// skipped only outside CI without redis-server or openssl (skipWithout fails CI instead, with the reason)
describe.skipIf(noTools)("the list store over TLS", () => {
  const dir = tmpDir("redis-tls");
  let server: ChildProcess | undefined;
  let port = 0;

  beforeAll(async () => {
    const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=list-store-test-ca");
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "redis.key", "-out", "redis.csr", "-subj", "/CN=localhost");
    fs.writeFileSync(path.join(dir, "ext.cnf"), "subjectAltName=DNS:localhost\n");
    ssl("x509", "-req", "-in", "redis.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "redis.crt", "-days", "2", "-extfile", "ext.cnf");
    port = await freePort();
    server = spawn(
      "redis-server",
      [
        "--port",
        "0",
        "--tls-port",
        String(port),
        "--tls-cert-file",
        "redis.crt",
        "--tls-key-file",
        "redis.key",
        "--tls-ca-cert-file",
        "ca.crt",
        "--tls-auth-clients",
        "no",
        "--requirepass",
        "pw-for-tls",
        "--save",
        "",
        "--appendonly",
        "no",
      ],
      { cwd: dir, stdio: "ignore" },
    );
    await until(
      "the TLS Redis to listen",
      async () => {
        try {
          execFileSync("redis-cli", ["--tls", "--cacert", path.join(dir, "ca.crt"), "-p", String(port), "-a", "pw-for-tls", "--no-auth-warning", "ping"], {
            stdio: "pipe",
          });
          return true;
        } catch {
          return false;
        }
      },
      20_000,
    );
  }, 60_000);

  afterAll(() => {
    server?.kill("SIGKILL");
  });

  it("replaces, adds to and removes from a list through rediss:// with a password and database 2", { timeout: 60_000 }, async () => {
    const script = `
      import { RedisListStore } from "./scrub-service/src/lists/redis-store.ts";
      const store = new RedisListStore({ url: process.env.TLS_URL, prefix: "tls:" });
      const nums = Float64Array.from({ length: 40000 }, (_, i) => 2125550000 + i * 7).filter((x) => x < 9999999999);
      const h = await store.replace(1, [nums.subarray(0, 20000), nums.subarray(20000)]);
      await store.finishChange(1, 1, h);
      const probe = Float64Array.from([nums[0], nums[nums.length - 1], 3105550123]);
      const before = [...(await (await store.snapshot(1, 1)).has(probe, 3))];
      await store.beginChange(1);
      await store.add(1, Float64Array.from([3105550123]));
      await store.remove(1, Float64Array.from([nums[0]]));
      await store.finishChange(1, 2);
      const after = [...(await (await store.snapshot(1, 2)).has(probe, 3))];
      console.log(JSON.stringify({ before, after }));
      await store.close();`;
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: path.resolve(import.meta.dirname, "../../.."),
      env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, "ca.crt"), TLS_URL: `rediss://:pw-for-tls@localhost:${port}/2` },
    });
    expect(JSON.parse(stdout.trim().split("\n").pop()!)).toEqual({ before: [1, 1, 0], after: [0, 1, 1] });
    // the sets went to database 2 over the bulk connections, none to database 0
    const count = (db: string) =>
      Number(
        execFileSync("redis-cli", [
          "--tls",
          "--cacert",
          path.join(dir, "ca.crt"),
          "-p",
          String(port),
          "-a",
          "pw-for-tls",
          "--no-auth-warning",
          "-n",
          db,
          "dbsize",
        ])
          .toString()
          .trim(),
      );
    expect(count("2")).toBeGreaterThan(1000);
    expect(count("0")).toBe(0);
  });
});
