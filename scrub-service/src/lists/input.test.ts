/**
 * A list file's numbers (lists/input.ts): a large plain file has every other batch parsed on the side thread
 * (decision 162); the numbers, counts and hash are the same as when this thread parses every batch.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../test/random";
import { tmpDir } from "../test/helpers";
import { defaultDedupeThreadPath } from "../dist-paths";
import { numbersOfFile } from "./input";

describe("list file numbers", () => {
  it("parses every other batch of a large plain file on the side thread, with the same numbers and counts", async () => {
    expect(fs.existsSync(defaultDedupeThreadPath())).toBe(true); // built by the global setup: the side thread runs
    const r = seededRandom(162);
    // ~10 MB, three batches and more: valid numbers (some repeated), invalid ones, empty lines, a second column
    const lines: string[] = [];
    for (let i = 0; i < 800_000; i++) {
      const roll = r();
      const n = String(2_000_000_000 + Math.floor(r() * 7_999_999_999));
      lines.push(roll < 0.02 ? "" : roll < 0.05 ? "12345" : roll < 0.08 ? `(${n.slice(0, 3)}) ${n.slice(3, 6)}-${n.slice(6)}` : roll < 0.1 ? `${n},x` : n);
    }
    const file = path.join(tmpDir("list-input"), "numbers.txt");
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const here = await numbersOfFile(file, undefined, null, Infinity);
    const split = await numbersOfFile(file, undefined, null, 1);
    expect(split.numbers.length).toBeGreaterThan(300_000); // random digits: about half are not in service
    expect([split.valid, split.invalid, split.sha256, split.format]).toEqual([here.valid, here.invalid, here.sha256, here.format]);
    expect(split.invalid).toBeGreaterThan(300_000);
    expect(Buffer.compare(Buffer.from(split.numbers.buffer, split.numbers.byteOffset, split.numbers.byteLength), Buffer.from(here.numbers.buffer, here.numbers.byteOffset, here.numbers.byteLength))).toBe(0);
  });
});
