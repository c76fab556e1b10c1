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
import { ftcChange, numbersOfFile } from "./input";

function listFile(lines: string[]): string {
  const file = path.join(tmpDir("list-input"), "numbers.txt");
  const text = Buffer.from(lines.join("\n") + "\n");
  fs.writeFileSync(file, text);
  return file;
}

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
    const file = listFile(lines);
    const here = await numbersOfFile(file, { sideParseMinBytes: Infinity });
    const split = await numbersOfFile(file, { sideParseMinBytes: 1 });
    expect(split.numbers.length).toBeGreaterThan(300_000); // random digits: about half are not in service
    expect([split.valid, split.invalid, split.sha256, split.format]).toEqual([here.valid, here.invalid, here.sha256, here.format]);
    expect(split.invalid).toBeGreaterThan(300_000);
    expect(
      Buffer.compare(
        Buffer.from(split.numbers.buffer, split.numbers.byteOffset, split.numbers.byteLength),
        Buffer.from(here.numbers.buffer, here.numbers.byteOffset, here.numbers.byteLength),
      ),
    ).toBe(0);
  });

  it("reads an FTC change list's records as ftcChange reads their cells: the last record of a number decides", async () => {
    const r = seededRandom(106);
    const lines: string[] = [];
    const pool = Array.from({ length: 300 }, () => String(2_000_000_000 + Math.floor(r() * 7_999_999_999)));
    for (let i = 0; i < 3000; i++) {
      const n = pool[Math.floor(r() * pool.length)];
      const a = r() < 0.5 ? "A" : "D";
      const roll = r();
      // the registry's own form, and forms read from cells: other indicators, spaces, one 10-digit field, no date
      lines.push(
        roll < 0.6
          ? `${n.slice(0, 3)},${n.slice(3)},${a},2026-11-20`
          : roll < 0.7
            ? `${n.slice(0, 3)},${n.slice(3)},${a}`
            : roll < 0.8
              ? `${n.slice(0, 3)},${n.slice(3)},${a === "A" ? "add" : "Deleted"},2026-11-20`
              : roll < 0.9
                ? ` ${n.slice(0, 3)},${n.slice(3)} ,${a},2026-11-20`
                : `${n},${a},2026-11-20`,
      );
    }
    // what each record means, read from its cells: the last action per number wins
    const last = new Map<number, string>();
    let invalid = 0;
    for (const line of lines) {
      const c = ftcChange(line.split(","));
      if (c.number >= 0 && c.action) last.set(c.number, c.action);
      else invalid++;
    }
    const want = (action: string) =>
      [...last]
        .filter(([, a]) => a === action)
        .map(([n]) => n)
        .sort((x, y) => x - y);
    const got = await numbersOfFile(listFile(lines));
    expect(got.layout).toBe("ftc-changes");
    expect([...got.numbers]).toEqual(want("add"));
    expect([...got.removals!]).toEqual(want("delete"));
    expect(got.invalid).toBe(invalid);
    expect(invalid).toBeGreaterThan(0); // random digits: some exchanges are not in service
  });
});
