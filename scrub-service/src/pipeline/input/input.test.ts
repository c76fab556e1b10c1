import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tmpDir } from "../../test/helpers";
import { writeGzip, writeOle, writeUtf16, writeWindows1252, writeXlsx, writeZip } from "../../test/input-files";
import { BatchReader, countRecords, previewCsv } from "../read";
import { parseRows, splitCells } from "../../worker/csv";
import { detectInput } from "./detect";
import { isInputFormatError } from "./errors";

/** Every row of an input, as the pipeline's reader sees it. */
async function rowsOf(file: string, opts = {}): Promise<string[][]> {
  const reader = new BatchReader(file, 1024, undefined, opts);
  try {
    await reader.open();
    const out: string[][] = reader.firstRow ? [reader.firstRow] : [];
    reader.skipFirstRow();
    for (;;) {
      const b = await reader.next();
      if (!b) break;
      const parsed = parseRows(b.buf, b.start, b.end, reader.delim, -1);
      for (let r = 0; r < parsed.count; r++) out.push(splitCells(b.buf, parsed.rowStart[r], parsed.rowEnd[r], reader.delim));
    }
    return out;
  } finally {
    await reader.close();
  }
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(isInputFormatError(e), String(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error("expected the input to be refused");
}

const TEXT = 'Name\tCity\tPhone\nJosé Müller\tSão Paulo\t2125550100\nZoë\t"Köln, DE"\t(305) 555-0123\n';

describe("input decoding", () => {
  it("reads UTF-16LE and UTF-16BE with BOM (Excel's Unicode Text) as UTF-8, tab-separated", async () => {
    const dir = tmpDir("in16");
    for (const endian of ["le", "be"] as const) {
      const f = writeUtf16(path.join(dir, `u-${endian}.txt`), TEXT, endian);
      const info = await detectInput(f);
      expect(info).toMatchObject({ format: "csv", container: "none", encoding: `utf-16${endian}`, bom: true });
      expect(await rowsOf(f)).toEqual([
        ["Name", "City", "Phone"],
        ["José Müller", "São Paulo", "2125550100"],
        ["Zoë", "Köln, DE", "(305) 555-0123"],
      ]);
      const p = await previewCsv(f);
      expect(p.input).toEqual({ format: "CSV", encoding: endian === "le" ? "UTF-16LE" : "UTF-16BE", delimiter: "tab", sheets: [], sheet: null });
      expect(await countRecords(f)).toBe(3);
    }
  });

  it("reads Windows-1252 when the bytes are not valid UTF-8, even when the first such byte is far into the file", async () => {
    const dir = tmpDir("in1252");
    const filler = Array.from({ length: 60_000 }, (_, i) => `Name ${i},${2125550000 + (i % 9999)}`).join("\n");
    const f = writeWindows1252(path.join(dir, "w.csv"), `Name,Phone\n${filler}\nJosé “Pepe” Núñez,2125550100\n`);
    expect(fs.statSync(f).size).toBeGreaterThan(1024 * 1024);
    expect((await detectInput(f)).encoding).toBe("windows-1252");
    const rows = await rowsOf(f);
    expect(rows.at(-1)).toEqual(["José “Pepe” Núñez", "2125550100"]);
    expect(rows.length).toBe(60_002);
    // valid UTF-8 stays UTF-8 (and is read straight from disk)
    const u = path.join(dir, "u.csv");
    fs.writeFileSync(u, "\ufeffName,Phone\nJosé,2125550100\n");
    expect(await detectInput(u)).toMatchObject({ encoding: "utf-8", bom: true });
    expect((await rowsOf(u))[1]).toEqual(["José", "2125550100"]);
  });

  it("reads .gz and a .zip of one CSV by their content, whatever their name", async () => {
    const dir = tmpDir("inzip");
    const csv = 'phone,name\n2125550100,Ann\n3055550123,"Bo, Jr"\n';
    const gz = await writeGzip(path.join(dir, "leads.csv"), [csv]);
    expect(await detectInput(gz)).toMatchObject({ container: "gzip", format: "csv", encoding: "utf-8" });
    expect(await rowsOf(gz)).toEqual([
      ["phone", "name"],
      ["2125550100", "Ann"],
      ["3055550123", "Bo, Jr"],
    ]);
    expect(await countRecords(gz)).toBe(3);
    const zip = writeZip(path.join(dir, "upload.csv"), [
      { name: "folder/", data: Buffer.alloc(0), store: true },
      { name: "folder/leads.csv", data: Buffer.from(csv) },
    ]);
    expect(await detectInput(zip)).toMatchObject({ container: "zip", format: "csv", members: ["folder/leads.csv"] });
    expect(await rowsOf(zip)).toEqual([
      ["phone", "name"],
      ["2125550100", "Ann"],
      ["3055550123", "Bo, Jr"],
    ]);
    expect((await previewCsv(zip)).input.format).toBe("zip-compressed CSV");
    // a zipped UTF-16 file is decoded too
    const z16 = writeZip(path.join(dir, "z16.zip"), [{ name: "u.txt", data: fs.readFileSync(writeUtf16(path.join(dir, "u.txt"), TEXT)) }]);
    expect((await rowsOf(z16))[1]).toEqual(["José Müller", "São Paulo", "2125550100"]);
  });

  it("refuses a zip of several files for a scrub, naming them, and reads every member for a list load", async () => {
    const dir = tmpDir("inmulti");
    const zip = writeZip(path.join(dir, "ftc.zip"), [
      { name: "212.txt", data: Buffer.from("212,5550100\n212,5550101") },
      { name: "305.txt", data: Buffer.from("305,5550123\n") },
      { name: "__MACOSX/._212.txt", data: Buffer.from("junk") },
    ]);
    expect(await failure(detectInput(zip))).toBe("The zip file holds 2 files (212.txt, 305.txt); upload one CSV or Excel file.");
    expect(await rowsOf(zip, { manyMembers: true })).toEqual([
      ["212", "5550100"],
      ["212", "5550101"],
      ["305", "5550123"],
    ]);
  });

  it("refuses zip bombs by ratio, by total size and by a lying header, with a clear message", async () => {
    const dir = tmpDir("inbomb");
    const zeros = Buffer.alloc(64 * 1024 * 1024, 0x30);
    const bomb = writeZip(path.join(dir, "bomb.zip"), [{ name: "big.csv", data: zeros }]);
    expect(fs.statSync(bomb).size).toBeLessThan(200 * 1024);
    expect(await failure(previewCsv(bomb))).toMatch(
      /^The compressed file was refused: .* unpack to 64 MB \(the limits are 200 times the packed size and 8 GB in all\)/,
    );
    // the same bytes gzipped: refused while streaming (gzip declares no trustworthy size)
    const gz = await writeGzip(
      path.join(dir, "bomb.gz"),
      (function* () {
        yield "phone\n";
        for (let i = 0; i < 64; i++) yield "2125550100\n".repeat(100_000);
      })(),
    );
    expect(await failure(rowsOf(gz))).toMatch(/^The compressed file was refused/);
    // the count (the plan check) is refused too: never a fallback that could slip past the limit
    expect(await failure(countRecords(gz))).toMatch(/^The compressed file was refused/);
    // a member whose header under-states its size
    const liar = writeZip(path.join(dir, "liar.zip"), [{ name: "a.csv", data: Buffer.from("phone\n" + "2125550100\n".repeat(1000)), declaredSize: 100 }]);
    expect(await failure(rowsOf(liar))).toMatch(/^The zip file was refused: a member unpacks to more bytes than the archive says/);
  });

  it("names corrupt and unsupported files precisely", async () => {
    const dir = tmpDir("inbad");
    const numbers = Array.from({ length: 50_000 }, (_, i) => String(2125550000 + ((i * 7919) % 9999999)));
    const gz = fs.readFileSync(await writeGzip(path.join(dir, "ok.gz"), ["phone\n" + numbers.join("\n")]));
    const cut = path.join(dir, "cut.gz");
    fs.writeFileSync(cut, gz.subarray(0, gz.length >> 1));
    expect(await failure(rowsOf(cut))).toMatch(/^The gzip file is damaged and could not be read to the end \(unexpected end of file\)/);
    const zip = path.join(dir, "cut.zip");
    fs.writeFileSync(zip, zipBytesCut());
    expect(await failure(detectInput(zip))).toMatch(/^The zip file is damaged and cannot be opened/);
    expect(await failure(detectInput(writeOle(path.join(dir, "locked.xlsx"), ["EncryptionInfo", "EncryptedPackage"])))).toMatch(
      /^The Excel file is password-protected\./,
    );
    expect(await failure(detectInput(writeOle(path.join(dir, "old.xls"), ["Workbook", "SummaryInformation"])))).toMatch(
      /^This is an Excel 97–2003 workbook \(\.xls\)/,
    );
    expect(await failure(detectInput(writeZip(path.join(dir, "empty.zip"), [])))).toBe("The zip file is empty: it holds no file to read.");
  });
});

function zipBytesCut(): Buffer {
  const b = Buffer.alloc(100);
  b.writeUInt32LE(0x04034b50, 0);
  return b;
}

describe("xlsx", () => {
  it("reads the first sheet as CSV with cells as Excel shows them (no E-notation), or the sheet asked for", async () => {
    const dir = tmpDir("inxlsx");
    const f = await writeXlsx(path.join(dir, "book.xlsx"), [
      {
        name: "Leads",
        rows: [
          ["Name", "Phone", "Formatted", "Signed up", "Score", "Note"],
          ['José, "JJ"', 2125550100, 3055550123, new Date(Date.UTC(2024, 2, 5)), 0.25, "line one\nline two"],
          ["Big", 12125550100, 2125550100, new Date(Date.UTC(1999, 11, 31)), 1234567.891, { formula: "A2", result: "x" }],
          [null, 123456789012345, null, null, null, true],
        ],
        formats: { 2: "[<=9999999]###-####;(###) ###-####", 3: "m/d/yyyy", 4: "0.00%" },
      },
      { name: "Other", rows: [["phone"], [7185550100]] },
    ]);
    const info = await detectInput(f);
    expect(info).toMatchObject({ format: "xlsx", sheets: ["Leads", "Other"], sheet: "Leads" });
    expect(await rowsOf(f)).toEqual([
      ["Name", "Phone", "Formatted", "Signed up", "Score", "Note"],
      ['José, "JJ"', "2125550100", "(305) 555-0123", "3/5/2024", "25.00%", "line one\nline two"],
      ["Big", "12125550100", "(212) 555-0100", "12/31/1999", "123456789.10%", "x"],
      ["", "123456789012345", "", "", "", "TRUE"],
    ]);
    expect(await rowsOf(f, { sheet: "Other" })).toEqual([["phone"], ["7185550100"]]);
    expect(await failure(detectInput(f, { sheet: "Nope" }))).toBe('The workbook has no sheet named "Nope" (its sheets: Leads, Other).');
    const p = await previewCsv(f);
    expect(p.input).toEqual({ format: "Excel workbook (.xlsx)", encoding: "UTF-8", delimiter: "comma", sheets: ["Leads", "Other"], sheet: "Leads" });
    expect(p.phoneColumn).toBe("Phone");
    // an upper bound (line feeds of the CSV form: the quoted two-line note counts twice), like a CSV's
    expect(await countRecords(f)).toBe(5);
  });

  it("names a damaged workbook", async () => {
    const dir = tmpDir("inxlsxbad");
    const f = writeZip(path.join(dir, "bad.xlsx"), [
      { name: "xl/workbook.xml", data: Buffer.from('<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>') },
      {
        name: "xl/_rels/workbook.xml.rels",
        data: Buffer.from('<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
      },
      {
        name: "xl/worksheets/sheet1.xml",
        data: Buffer.from(
          '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>phone</t></is></c></row><row r="2"><c r="A2"><v>2125550100</v></c></row><row',
        ),
      },
    ]);
    expect(await failure(rowsOf(f))).toMatch(/^The Excel file is damaged \(xl\/worksheets\/sheet1.xml: /);
  });
});
