import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Piscina } from "piscina";
import { afterAll, describe, expect, it } from "vitest";
import { sha256OfFile } from "../certificate/hash-file";
import { defaultWorkerPath } from "../dist-paths";
import { tmpDir } from "../test/helpers";
import { runScrub } from "./run";
import { Sha256Thread } from "./sha256-thread";

const sha = (b: Uint8Array) => crypto.createHash("sha256").update(b).digest("hex");

describe("SHA-256 on its own thread", () => {
  it("hashes shared memory that is reused as soon as each ticket is done, per stream, in posting order", async () => {
    const thread = new Sha256Thread();
    try {
      const data = crypto.randomBytes(300_000);
      const mem = new Uint8Array(new SharedArrayBuffer(4096));
      const a = thread.stream();
      const b = thread.stream();
      for (let off = 0; off < data.length; off += 4096) {
        const chunk = data.subarray(off, off + 4096);
        mem.set(chunk);
        const ta = a.update(mem.subarray(0, chunk.length));
        await a.whenDone(ta);
        expect(a.isDone(ta)).toBe(true);
        // bytes that are not shared memory are copied when posted: reusable at once
        b.update(chunk);
      }
      expect(await a.digest()).toBe(sha(data));
      expect(await b.digest()).toBe(sha(data));
      expect(await thread.stream().digest()).toBe(sha(new Uint8Array(0)));
    } finally {
      await thread.close();
    }
  });

  it("rejects once closed instead of waiting for ever", async () => {
    const thread = new Sha256Thread();
    const s = thread.stream();
    await thread.close();
    await expect(s.digest()).rejects.toThrow(/closed/);
    expect(() => s.update(new Uint8Array(1))).toThrow(/closed/);
  });
});

describe("a scrub's SHA-256s", () => {
  const pool = new Piscina({ filename: defaultWorkerPath(), maxThreads: 2, minThreads: 1 });
  afterAll(() => pool.destroy());

  it("are the files' plain SHA-256, hashed on the thread (small batches, reused buffers) as in place", async () => {
    const dir = tmpDir("sha-thread");
    const input = path.join(dir, "in.csv");
    const rows = ["id,name,phone"];
    for (let i = 0; i < 20_000; i++) {
      const phone =
        i % 50 === 0
          ? "1.23457E+9"
          : i % 7 === 0
            ? `212555${String(2000 + (i % 900)).padStart(4, "0")}`
            : `(305) 555-${String(2000 + (i % 7000)).padStart(4, "0")}`;
      rows.push(`${i},"N ${i}",${phone}`);
    }
    fs.writeFileSync(input, "\uFEFF" + rows.join("\n") + "\n");
    const results = [];
    for (const [label, min] of [
      ["thread", 0],
      ["in place", Number.MAX_SAFE_INTEGER],
    ] as const) {
      const outDir = path.join(dir, label);
      const r = await runScrub({ inputPath: input, outDir, lists: [], pool, batchBytes: 16 * 1024, maxInFlight: 8, dedupeThreadMinBytes: min });
      expect(r.inputSha256).toBe(await sha256OfFile(input));
      for (const f of r.files) expect(f.sha256).toBe(await sha256OfFile(f.path));
      results.push({ input: r.inputSha256, files: r.files.map((f) => [f.kind, f.sha256, f.records]) });
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[0].files.map((f) => f[2])).toEqual([expect.any(Number), expect.any(Number), 400]);
  });
});
