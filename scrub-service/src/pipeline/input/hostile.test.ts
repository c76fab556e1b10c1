/**
 * Regression tests of issue #26 (round three of the black-box probe): every reader bounds what it allocates by
 * what it accepts, never by what a file declares; refusals are InputFormatErrors with a message fit to show.
 */
import { engineConfig, engineConfigOf, useEngineConfig } from "../../config";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers";
import { sheetXml, writeGzipBomb, writeRawXlsx, writeXlsx, writeZip } from "../../test/input-files";
import { BatchReader, countRecords, previewCsv } from "../read";
import { isInputFormatError } from "./errors";
import { columnIndex, rowOfRef } from "./xlsx";
import { workbookDecodeStats } from "./workbook-cache";

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(isInputFormatError(e), String(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error("expected the input to be refused");
}

/** Reads every row (the scrub's reader) and returns how many there were. */
async function readAll(file: string): Promise<number> {
  const reader = new BatchReader(file, 64 * 1024);
  let n = 0;
  try {
    await reader.open();
    for (let b = await reader.next(); b; b = await reader.next()) n++;
    return n;
  } finally {
    await reader.close();
  }
}

const cell = (ref: string, v = "2125550100") => `<c r="${ref}"><v>${v}</v></c>`;
const row = (r: string, cells: string) => `<row r="${r}">${cells}</row>`;

// limits are set by passing a config (config.ts); the workbook thread receives it in its workerData
const saved = engineConfig();
function withLimits(values: Record<string, string>): void {
  const parsed = engineConfigOf(values) as Record<string, unknown>;
  useEngineConfig({ ...saved, ...Object.fromEntries(Object.keys(values).map((k) => [k, parsed[k]])) });
}
afterEach(() => void useEngineConfig(saved));

describe("workbook references are checked against Excel's grid and the column cap", () => {
  it("reads column letters and row numbers without overflowing", () => {
    expect(columnIndex("A1")).toBe(0);
    expect(columnIndex("XFD1")).toBe(16_383);
    expect(columnIndex("XFE1")).toBe(-1);
    expect(columnIndex("ZZZZZZ1")).toBe(-1);
    expect(columnIndex("ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ1")).toBe(-1);
    expect(rowOfRef("A1048576")).toBe(1_048_576);
    expect(rowOfRef("A1048577")).toBe(-1);
    expect(rowOfRef("A99999999999999999999")).toBe(-1);
    expect(rowOfRef("A0")).toBe(-1);
  });

  it("refuses the 1.6 KB workbook with a cell at column ZZZZZZ (it aborted the process) and every variant", async () => {
    const dir = tmpDir("hostile-ref");
    const cases: [string, string, RegExp][] = [
      ["zzzzzz", sheetXml([row("1", cell("A1", "1") + cell("ZZZZZZ1"))]), /a cell is at "ZZZZZZ1", outside Excel's sheet/],
      ["xfe", sheetXml([row("1", cell("XFE1"))]), /a cell is at "XFE1", outside Excel's sheet/],
      ["long-letters", sheetXml([row("1", cell("A".repeat(5000) + "1"))]), /outside Excel's sheet/],
      ["row-ref", sheetXml([row("1", cell("A1048577"))]), /a cell is at "A1048577", outside Excel's sheet/],
      ["row-attr", sheetXml([row("99999999999", cell("A1"))]), /a row is numbered "99999999999", past Excel's last row/],
      ["past-cap", sheetXml([row("1", cell("A1") + cell("ALM1"))]), /^This file has a cell in column 1,001; at most 1,000 columns are supported\.$/],
      ["xfd", sheetXml([row("1", cell("XFD1"))]), /^This file has a cell in column 16,384; at most 1,000 columns are supported\.$/],
      ["no-refs", sheetXml([`<row>${"<c><v>1</v></c>".repeat(1001)}</row>`]), /at most 1,000 columns are supported/],
    ];
    for (const [name, sheet, message] of cases) {
      const f = writeRawXlsx(path.join(dir, `${name}.xlsx`), { sheet });
      expect(fs.statSync(f).size).toBeLessThan(64 * 1024);
      expect(await refusal(previewCsv(f)), name).toMatch(message);
      expect(await refusal(countRecords(f, { dataRows: true })), name).toMatch(message);
      expect(await refusal(readAll(f)), name).toMatch(message);
    }
  });

  it("still reads a workbook within the grid, in the order of its references", async () => {
    const dir = tmpDir("hostile-ok");
    const f = writeRawXlsx(path.join(dir, "ok.xlsx"), {
      sheet: sheetXml([
        row("1", `<c r="A1" t="inlineStr"><is><t>Phone</t></is></c><c r="C1" t="inlineStr"><is><t>Name</t></is></c>`),
        row("1048576", cell("A1048576") + cell("C1048576", "7")),
      ]),
    });
    const p = await previewCsv(f);
    expect(p.headers).toEqual(["Phone", "Column 2", "Name"].map((h, i) => (i === 1 ? "" : h)));
    expect(p.rows).toEqual([["2125550100", "", "7"]]);
    expect(await countRecords(f, { dataRows: true })).toBe(1);
  });
});

describe("shared strings are bounded in count, length and bytes", () => {
  it("refuses a table that declares 30M strings before reading any, and one that holds more than the cap", async () => {
    const dir = tmpDir("hostile-sst");
    const sheet = sheetXml([row("1", `<c r="A1" t="s"><v>0</v></c>`), row("2", cell("A2"))]);
    const declared = writeRawXlsx(path.join(dir, "declared.xlsx"), {
      sheet,
      sharedStrings: `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="30000000" uniqueCount="30000000"><si><t>Phone</t></si></sst>`,
    });
    expect(await refusal(previewCsv(declared))).toMatch(/^The Excel file holds 30,000,000 \(as it declares\) different texts; at most 8,388,608/);
    withLimits({ SCRUB_MAX_SHARED_STRINGS: "1000" });
    const many = writeRawXlsx(path.join(dir, "many.xlsx"), {
      sheet,
      sharedStrings: `<sst>${Array.from({ length: 1001 }, (_, i) => `<si><t>s${i}</t></si>`).join("")}</sst>`,
    });
    expect(await refusal(previewCsv(many))).toMatch(/^The Excel file holds more than 1,000 different texts; at most 1,000/);
    withLimits({ SCRUB_MAX_SHARED_STRING_BYTES: "10000" });
    const bytes = writeRawXlsx(path.join(dir, "bytes.xlsx"), { sheet, sharedStrings: `<sst>${`<si><t>${"x".repeat(3000)}</t></si>`.repeat(4)}</sst>` });
    expect(await refusal(previewCsv(bytes))).toMatch(/different texts; at most 8,388,608 \(9\.8 KB in all\)/);
  });

  it("refuses a string past Excel's 32,767 characters and an endless text node, without holding it", async () => {
    const dir = tmpDir("hostile-long");
    const sheet = sheetXml([row("1", `<c r="A1" t="s"><v>0</v></c>`)]);
    const long = writeRawXlsx(path.join(dir, "long.xlsx"), { sheet, sharedStrings: `<sst><si><t>${"x".repeat(40_000)}</t></si></sst>` });
    expect(await refusal(previewCsv(long))).toMatch(/a text is longer than Excel's 32,767 characters per cell/);
    // 8 MB of text with no tag at all (stored, so no ratio check applies): refused after 1 MiB, not held whole
    const endless = writeRawXlsx(path.join(dir, "endless.xlsx"), {
      sheet,
      store: true,
      sharedStrings: Buffer.concat([Buffer.from("<sst><si><t>"), Buffer.alloc(8 * 1024 * 1024, 0x41)]),
    });
    expect(await refusal(previewCsv(endless))).toMatch(/holds a text or tag longer than 1 MB/);
    const cellText = writeRawXlsx(path.join(dir, "cell.xlsx"), {
      sheet: sheetXml([row("1", `<c r="A1" t="inlineStr"><is><t>${"<b/>x".repeat(40_000)}</t></is></c>`)]),
    });
    expect(await refusal(previewCsv(cellText))).toMatch(/a cell is longer than Excel's 32,767 characters/);
  });

  it("refuses shared strings that multiply a small sheet past the expansion limit", async () => {
    const dir = tmpDir("hostile-amp");
    // 20,000 rows × 50 cells, each the one 30,000-character string: ~30 GB of CSV from a few hundred KB
    const cells = Array.from({ length: 50 }, () => `<c t="s"><v>0</v></c>`).join("");
    const sheet = sheetXml(Array.from({ length: 20_000 }, () => `<row>${cells}</row>`));
    const f = writeRawXlsx(path.join(dir, "amp.xlsx"), { sheet, sharedStrings: `<sst><si><t>${"7".repeat(30_000)}</t></si></sst>` });
    expect(await refusal(readAll(f))).toMatch(/^The compressed file was refused/);
  });

  it("bounds the styles part", async () => {
    const dir = tmpDir("hostile-styles");
    const f = writeRawXlsx(path.join(dir, "styles.xlsx"), {
      sheet: sheetXml([row("1", cell("A1"))]),
      styles: `<styleSheet><cellXfs>${'<xf numFmtId="0"/>'.repeat(70_000)}</cellXfs></styleSheet>`,
    });
    expect(await refusal(previewCsv(f))).toMatch(/its styles define more than 65,536 cell formats/);
  });
});

describe("compressed input is checked against the bytes actually inflated, in small windows", () => {
  it("refuses a 10 GiB gzip bomb of identical rows within about 16 MB of output, in the count, the preview and the read", async () => {
    const dir = tmpDir("hostile-gz");
    // 160 members of 64 MiB: 10 GiB of "2125550100\n" in ~10 MB
    const bomb = writeGzipBomb(path.join(dir, "bomb.csv.gz"), "2125550100\n", 64 * 1024 * 1024, 160);
    expect(fs.statSync(bomb).size).toBeLessThan(20 * 1024 * 1024);
    // the preview reads its first 256 KB only (and shows them); the count at submission refuses the file
    expect((await previewCsv(bomb)).rows.length).toBeGreaterThan(0);
    for (const attempt of [() => countRecords(bomb, { dataRows: true }), () => readAll(bomb)]) {
      const message = await refusal(attempt());
      const unpacked = Number(/unpack to ([\d.]+) MB/.exec(message)?.[1]);
      expect(message).toMatch(/^The compressed file was refused/);
      expect(unpacked).toBeGreaterThan(16);
      expect(unpacked).toBeLessThan(30);
    }
  });

  it("counts the decoded rows of a .gz of distinct rows, never the raw line feeds, without the header", async () => {
    const dir = tmpDir("hostile-gz2");
    const text = ["Phone,Name", ...Array.from({ length: 200_000 }, (_, i) => `${2125550000 + i},n${i}`)].join("\n") + "\n";
    const gz = path.join(dir, "distinct.gz");
    fs.writeFileSync(gz, zlib.gzipSync(text));
    expect(await countRecords(gz, { dataRows: true })).toBe(200_000);
  });

  it("refuses a .gz inside a .gz, and a zip entry declaring a huge size", async () => {
    const dir = tmpDir("hostile-nest");
    const inner = zlib.gzipSync(Buffer.from("phone\n2125550100\n"));
    const nested = path.join(dir, "nested.gz");
    fs.writeFileSync(nested, zlib.gzipSync(inner));
    expect(await refusal(previewCsv(nested))).toMatch(/^The \.gz file holds another compressed file/);
    expect(await refusal(countRecords(nested))).toMatch(/^The \.gz file holds another compressed file/);
    for (const declaredSize of [0xffffffff, 0x7fffffff, 20 * 1024 * 1024]) {
      const zip = writeZip(path.join(dir, `huge-${declaredSize}.zip`), [{ name: "a.csv", data: Buffer.from("phone\n2125550100\n"), declaredSize }]);
      expect(await refusal(previewCsv(zip))).toMatch(/^The compressed file was refused/);
      expect(await refusal(countRecords(zip, { dataRows: true }))).toMatch(/^The compressed file was refused/);
    }
  });
});

describe("the plan check counts data rows only", () => {
  it("never counts the header row: 5 typed numbers need 5, a file with a header row needs its data rows", async () => {
    const dir = tmpDir("hostile-count");
    const typed = path.join(dir, "typed.csv");
    fs.writeFileSync(typed, "Number\n2125550100\n2125550101\n2125550102\n2125550103\n2125550104\n");
    expect(await countRecords(typed, { dataRows: true })).toBe(5);
    const headerless = path.join(dir, "plain.csv");
    fs.writeFileSync(headerless, "2125551234\n2125551235\n\n\n2125551236");
    expect(await countRecords(headerless, { dataRows: true })).toBe(3);
    const xlsx = await writeXlsx(path.join(dir, "book.xlsx"), [{ name: "S", rows: [["Phone"], [2125550100], [2125550101]] }]);
    expect(await countRecords(xlsx, { dataRows: true })).toBe(2);
    const empty = path.join(dir, "empty.csv");
    fs.writeFileSync(empty, "Phone\n");
    expect(await countRecords(empty, { dataRows: true })).toBe(0);
  });
});

describe("a workbook is decoded once per upload, one at a time per process", () => {
  it("serves preview, count and read from one decode, and decodes several workbooks one after the other", async () => {
    const dir = tmpDir("hostile-once");
    const rows = [["Phone", "Name"], ...Array.from({ length: 2000 }, (_, i) => [2125550000 + i, `n${i}`])];
    const files = await Promise.all([0, 1, 2].map((i) => writeXlsx(path.join(dir, `b${i}.xlsx`), [{ name: "S", rows }])));
    const before = workbookDecodeStats.started;
    workbookDecodeStats.peakActive = 0;
    await Promise.all(files.flatMap((f) => [previewCsv(f), previewCsv(f), countRecords(f, { dataRows: true }), readAll(f)]));
    expect(workbookDecodeStats.started - before).toBe(3);
    expect(workbookDecodeStats.peakActive).toBe(1);
    expect(await countRecords(files[0], { dataRows: true })).toBe(2000);
    expect(workbookDecodeStats.started - before).toBe(3);
  });
});

describe("a workbook is decoded on a thread of its own, held to its own heap (decision 157)", () => {
  it("refuses a workbook whose decode needs more than SCRUB_WORKBOOK_HEAP_MB, and this process goes on", async () => {
    const dir = tmpDir("hostile-heap");
    const strings = 600_000; // within the shared-string caps
    const sst = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${Array.from(
      { length: strings },
      (_, i) => `<si><t>text number ${i} of many</t></si>`,
    ).join("")}</sst>`;
    const sheet = sheetXml([row("1", `<c r="A1" t="s"><v>0</v></c>`), row("2", cell("A2"))]);
    const file = writeRawXlsx(path.join(dir, "heap.xlsx"), { sheet, sharedStrings: sst });
    withLimits({ SCRUB_WORKBOOK_HEAP_MB: "4" });
    const refused = await previewCsv(file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isInputFormatError(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/^The Excel file needs more than 4 MB of memory to read\. Save the sheet as CSV/);
    // the same workbook with the default heap: read, by a fresh decode (a refusal is remembered per upload, so a copy)
    useEngineConfig(saved);
    const copy = path.join(dir, "heap-copy.xlsx");
    fs.copyFileSync(file, copy);
    expect(await countRecords(copy, { dataRows: true })).toBe(1);
  });
});
