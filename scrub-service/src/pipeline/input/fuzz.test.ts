/**
 * Fuzzing every reader (issue #26): valid CSV, UTF-16, Windows-1252, xlsx, zip and gz files are mutated (bit
 * flips, truncation, 32-bit fields overwritten with huge sizes, hostile workbook XML: references, row numbers,
 * shared-string counts and lengths) and each result goes through the preview, the plan count and the scrub's
 * reader. Every outcome must be a result or a refusal with a message fit to show (InputFormatError or
 * NotTextFileError), never another exception, and the process's memory must stay bounded. Fixed seed, bounded
 * runs and a time budget per reader, so it runs in CI in well under a minute.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers";
import { rawXlsxBytes, sheetXml, writeUtf16, writeWindows1252, writeXlsx, zipBytes } from "../../test/input-files";
import { BatchReader, countRecords, previewCsv } from "../read";
import { readErrorMessage } from "./errors";

const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 6_000);
/** What one reader may add to the process's resident memory while reading a hostile file of a few KB. */
const MEMORY_BOUND = 384 * 1024 * 1024;

const CSV = 'Name,Phone,Note\nAnn,2125551234,=1+2\n"Bo, Jr",(305) 555-1234,"a ""b"""\nZoë,+1 415 555 1234,-12.5\n';

let dir: string;
let seq = 0;
const seeds: Record<string, Buffer> = {};

/** The peak resident memory while `work` runs, sampled every 5 ms. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ value: T | Error; peak: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    return { value: await work().catch((e: Error) => e), peak: Math.max(peak, process.memoryUsage.rss()) };
  } finally {
    clearInterval(timer);
  }
}

async function readAll(file: string): Promise<number> {
  const reader = new BatchReader(file, 64 * 1024);
  let n = 0;
  try {
    await reader.open();
    for (let b = await reader.next(); b; b = await reader.next()) n += b.end - b.start;
    return n;
  } finally {
    await reader.close();
  }
}

/** Runs every reader on the bytes; fails on an exception that is not a refusal, or memory past the bound. */
async function survives(bytes: Buffer): Promise<void> {
  const file = path.join(dir, `f${++seq}.bin`);
  fs.writeFileSync(file, bytes);
  const before = process.memoryUsage.rss();
  for (const [name, work] of [
    ["preview", () => previewCsv(file)],
    ["count", () => countRecords(file, { dataRows: true })],
    ["read", () => readAll(file)],
  ] as const) {
    const { value, peak } = await peakRss<unknown>(work);
    if (value instanceof Error && readErrorMessage(value) === null) {
      throw new Error(`${name} threw ${value.name}: ${value.message}`);
    }
    if (value instanceof Error) expect(value.message.length).toBeLessThan(1000);
    expect(peak - before, `${name}: memory`).toBeLessThan(MEMORY_BOUND);
  }
  fs.rmSync(file, { force: true });
}

/** Mutations of a file's bytes: bit flips, truncation, and 32-bit fields set to huge values. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("huge" as const),
    at: fc.array(fc.tuple(fc.nat(), fc.constantFrom(0xffffffff, 0x7fffffff, 0x80000000, 0x10000000, 0xfffffffe)), { minLength: 1, maxLength: 4 }),
  }),
);

function mutate(seed: Buffer, m: { kind: string; at: unknown }): Buffer {
  const b = Buffer.from(seed);
  if (m.kind === "truncate") return b.subarray(0, (m.at as number) % Math.max(1, b.length));
  if (m.kind === "flip") for (const [pos, bit] of m.at as [number, number][]) b[pos % b.length] ^= 1 << bit;
  if (m.kind === "huge") for (const [pos, v] of m.at as [number, number][]) if (b.length >= 4) b.writeUInt32LE(v, pos % (b.length - 3));
  return b;
}

/** Hostile workbook XML: any column letters and row digits, declared and real shared-string counts, long strings. */
const hostileWorkbook = fc
  .record({
    letters: fc.string({ unit: fc.constantFrom(..."ABCXYZ"), minLength: 1, maxLength: 9 }),
    row: fc.oneof(fc.integer({ min: 0, max: 2_000_000 }), fc.constantFrom(1_048_576, 1_048_577, 4_294_967_296, 99_999_999_999)),
    declared: fc.oneof(fc.nat(10), fc.constantFrom(30_000_000, 2 ** 31, 2 ** 53)),
    strings: fc.nat(50),
    length: fc.oneof(fc.nat(100), fc.constantFrom(32_767, 32_768, 100_000)),
    index: fc.oneof(fc.nat(60), fc.constantFrom(-1, 2 ** 32, 1e300)),
    store: fc.boolean(),
  })
  .map((w) =>
    rawXlsxBytes({
      store: w.store,
      sheet: sheetXml([
        `<row r="1"><c r="A1" t="inlineStr"><is><t>Phone</t></is></c></row>`,
        `<row r="${w.row}"><c r="${w.letters}${w.row}" t="s"><v>${w.index}</v></c><c r="A${w.row}"><v>2125551234</v></c></row>`,
      ]),
      sharedStrings: `<sst uniqueCount="${w.declared}">${`<si><t>${"x".repeat(w.length)}</t></si>`.repeat(w.strings)}</sst>`,
    }),
  );

beforeAll(async () => {
  dir = tmpDir("fuzz");
  seeds.csv = Buffer.from(CSV);
  seeds.utf16 = fs.readFileSync(writeUtf16(path.join(dir, "s16.csv"), CSV));
  seeds.cp1252 = fs.readFileSync(writeWindows1252(path.join(dir, "s1252.csv"), CSV.replace("Zoë", "Zoé “x”")));
  seeds.gz = zlib.gzipSync(Buffer.from(CSV));
  seeds.zip = zipBytes([{ name: "leads.csv", data: Buffer.from(CSV) }]);
  seeds.xlsx = fs.readFileSync(
    await writeXlsx(path.join(dir, "s.xlsx"), [
      {
        name: "S",
        rows: [
          ["Name", "Phone"],
          ["Ann", 2125551234],
          ["Bo", "(305) 555-1234"],
        ],
        formats: { 1: "(###) ###-####" },
      },
    ]),
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("every reader survives mutated input: a result or a clear refusal, bounded memory", () => {
  for (const kind of ["csv", "utf16", "cp1252", "gz", "zip", "xlsx"]) {
    it(`${kind}: bit flips, truncation, huge sizes`, { timeout: 60_000 }, async () => {
      // the unmutated seed reads
      await survives(seeds[kind]);
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => {
          await survives(mutate(seeds[kind], m as { kind: string; at: unknown }));
        }),
        { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: BUDGET_MS, markInterruptAsFailure: false },
      );
    });
  }

  it("xlsx: hostile references, row numbers, shared-string counts and lengths", { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(hostileWorkbook, async (bytes) => {
        await survives(bytes);
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: BUDGET_MS, markInterruptAsFailure: false },
    );
  });
});
