import fs from "node:fs";
import path from "node:path";
import { Piscina } from "piscina";
import { afterAll, describe, expect, it } from "vitest";
import { sha256OfFile } from "../certificate/hash-file";
import { defaultWorkerPath } from "../dist-paths";
import { tmpDir } from "../test/helpers";
import { writeWindows1252 } from "../test/input-files";
import { detectInput, Utf8Check } from "./input/detect";
import { runScrub } from "./run";

describe("UTF-8 checked in pieces", () => {
  const text = Buffer.from("a,é,€,𝄞,\u00a0x\n".repeat(3), "utf8");

  it("accepts valid text however it is cut, and refuses a bad byte or a sequence cut at the end", () => {
    for (let cut = 0; cut <= text.length; cut++) {
      for (let cut2 = cut; cut2 <= text.length; cut2 += 3) {
        const c = new Utf8Check();
        expect(
          c.push(text.subarray(0, cut), false) &&
            c.push(text.subarray(cut, cut2), false) &&
            c.push(text.subarray(cut2), false) &&
            c.push(new Uint8Array(0), true),
        ).toBe(true);
      }
      const bad = Buffer.from(text);
      bad[cut % bad.length] = 0xff;
      const c = new Utf8Check();
      expect(c.push(bad.subarray(0, cut), false) && c.push(bad.subarray(cut), true)).toBe(false);
    }
    const truncated = new Utf8Check();
    expect(truncated.push(Buffer.from("ab\u20ac", "utf8").subarray(0, 4), false)).toBe(true);
    expect(truncated.push(new Uint8Array(0), true)).toBe(false);
  });
});

describe("a scrub of a file that is not UTF-8 after its first 1 MiB", () => {
  const pool = new Piscina({ filename: defaultWorkerPath(), maxThreads: 2, minThreads: 1 });
  afterAll(() => pool.destroy());

  it("reads it as Windows-1252 from the start, as when detection reads the whole file first", async () => {
    const dir = tmpDir("utf8-lazy");
    const filler = Array.from({ length: 6_000 }, (_, i) => `Name ${"x".repeat(200)} ${i},${3055552000 + i}`).join("\n");
    const f = writeWindows1252(path.join(dir, "w.csv"), `Name,Phone\n${filler}\nJosé “Pepe” Núñez,2125552100\n`);
    expect(fs.statSync(f).size).toBeGreaterThan(1024 * 1024);
    const r = await runScrub({ inputPath: f, outDir: path.join(dir, "out"), lists: [], pool, batchBytes: 64 * 1024 });
    expect(r.input.encoding).toBe("Windows-1252");
    expect(r.rowsDone).toBe(6_001);
    expect(r.inputSha256).toBe(await sha256OfFile(f));
    const good = fs
      .readFileSync(path.join(dir, "out", "good.csv"), "utf8")
      .trimEnd()
      .split("\n");
    expect(good.at(-1)).toBe("José “Pepe” Núñez,2125552100,+12125552100");
    for (const file of r.files) expect(file.sha256).toBe(await sha256OfFile(file.path));
    // no partial files of the first attempt are left
    expect(fs.readdirSync(path.join(dir, "out")).sort()).toEqual(["bad.csv", "good.csv", "invalid.csv"]);
    expect((await detectInput(f)).encoding).toBe("windows-1252");
  });

  it("keeps valid UTF-8 as UTF-8, with multi-byte characters across every batch boundary", async () => {
    const dir = tmpDir("utf8-lazy-ok");
    const rows = Array.from({ length: 5_000 }, (_, i) => `Zoë “${"é€𝄞".repeat(i % 5)}” ${"x".repeat(200)} ${i},${3055552000 + i}`);
    const f = path.join(dir, "u.csv");
    fs.writeFileSync(f, `Name,Phone\n${rows.join("\n")}\n`);
    expect(fs.statSync(f).size).toBeGreaterThan(1024 * 1024);
    const r = await runScrub({ inputPath: f, outDir: path.join(dir, "out"), lists: [], pool, batchBytes: 16 * 1024 + 1 });
    expect(r.input.encoding).toBe("UTF-8");
    expect(r.rowsDone).toBe(5_000);
    const good = fs
      .readFileSync(path.join(dir, "out", "good.csv"), "utf8")
      .trimEnd()
      .split("\n");
    expect(good[1]).toBe(`${rows[0]},+13055552000`);
    expect(good.at(-1)).toBe(`${rows.at(-1)},+1${3055552000 + 4_999}`);
  });
});
