import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lastRowBoundary, parseRows, splitCells, defaultPhoneColumn } from "../worker/csv";
import { tmpDir } from "../test/helpers";
import { BatchReader, countRecords, previewCsv } from "./read";

const enc = new TextEncoder();

describe("batch splitter", () => {
  it("never cuts a batch inside a quoted field, even one holding newlines", () => {
    const text = 'a,b\n1,"x\ny\nz"\n2,"q"\n';
    const buf = enc.encode(text);
    // a chunk ending inside the quoted field: the boundary is the end of the last complete row
    const cut = text.indexOf("y");
    expect(lastRowBoundary(buf, 0, cut, 44)).toBe(4);
    expect(lastRowBoundary(buf, 4, buf.length, 44)).toBe(buf.length);
    // a "" pair at the chunk edge is not mistaken for a closing quote
    const t2 = enc.encode('1,"a""\nb"\n');
    expect(lastRowBoundary(t2, 0, 6, 44)).toBe(0);
  });

  it("streams a file in tiny batches with a quoted newline across every boundary", async () => {
    const dir = tmpDir("split");
    const rows: string[] = [];
    for (let i = 0; i < 500; i++) rows.push(`${i},"line one\nline ${"x".repeat(i % 37)} two, still ""quoted""",${2125552000 + i}`);
    const file = path.join(dir, "q.csv");
    fs.writeFileSync(file, "id,note,phone\r\n" + rows.join("\r\n") + "\r\n");
    const reader = new BatchReader(file, 256);
    await reader.open();
    expect(reader.firstRow).toEqual(["id", "note", "phone"]);
    reader.skipFirstRow();
    const seen: string[][] = [];
    let batches = 0;
    for (;;) {
      const b = await reader.next();
      if (!b) break;
      batches++;
      const parsed = parseRows(b.buf, b.start, b.end, reader.delim, 2);
      for (let r = 0; r < parsed.count; r++) {
        seen.push(splitCells(b.buf, parsed.rowStart[r], parsed.rowEnd[r], reader.delim));
        expect(parsed.codes[r]).toBe(2125552000 + seen.length - 1);
      }
    }
    await reader.close();
    expect(batches).toBeGreaterThan(50);
    expect(seen.length).toBe(500);
    expect(seen[36]).toEqual(["36", `line one\nline ${"x".repeat(36)} two, still "quoted"`, "2125552036"]);
  });

  it("detects other delimiters and skips a BOM", async () => {
    const dir = tmpDir("delim");
    const file = path.join(dir, "s.csv");
    fs.writeFileSync(file, '\uFEFFName;Mobile;City\n"A;B";212-555-2100;NY\nC;3055552101;Miami\n');
    const p = await previewCsv(file);
    expect(p).toEqual({
      headers: ["Name", "Mobile", "City"],
      hasHeader: true,
      delimiter: ";",
      rows: [
        ["A;B", "212-555-2100", "NY"],
        ["C", "3055552101", "Miami"],
      ],
      phoneColumn: "Mobile",
      input: { format: "CSV", encoding: "UTF-8 with BOM", delimiter: "semicolon", sheets: [], sheet: null },
    });
    fs.writeFileSync(file, "2125552100\t x\n3055552101\ty\n");
    const q = await previewCsv(file);
    expect([q.hasHeader, q.delimiter, q.headers, q.rows.length, q.phoneColumn]).toEqual([false, "\t", ["Column 1", "Column 2"], 2, "Column 1"]);
  });

  it("counts records as a fast upper bound", async () => {
    const dir = tmpDir("count");
    const file = path.join(dir, "c.csv");
    fs.writeFileSync(file, "h\n1\n2\n3");
    expect(await countRecords(file)).toBe(4);
    fs.writeFileSync(file, "");
    expect(await countRecords(file)).toBe(0);
  });

  it("counts the numbers a list file can hold (skipHeader): non-empty lines, less a first line without digits", async () => {
    const dir = tmpDir("count-list");
    const count = async (text: string | Buffer) => {
      const file = path.join(dir, "l.csv");
      fs.writeFileSync(file, text);
      return countRecords(file, { skipHeader: true });
    };
    expect(await count("Phone\n2015552123\n3125552199\n")).toBe(2);
    expect(await count("Phone\r\n2015552123\r\n\r\n\r\n3125552199")).toBe(2);
    expect(await count("2015552123\n3125552199\n")).toBe(2);
    expect(await count("Phone")).toBe(0);
    expect(await count("")).toBe(0);
    expect(await count("\n\n  \n2015552123")).toBe(1);
    // a first line longer than one 1 MiB read, with its only digit past the first read
    expect(await count("x".repeat(1.5 * 1024 * 1024) + "1\n2015552123\n")).toBe(2);
  });

  it("parses batches of rows shorter than its initial estimate (growing its arrays)", () => {
    const text = "1\n".repeat(5000) + "2125552123";
    const b = enc.encode(text);
    const rows = parseRows(b, 0, b.length, 44, 0);
    expect(rows.count).toBe(5001);
    expect([rows.rowStart[4999], rows.rowEnd[4999], rows.codes[5000], rows.fields[5000]]).toEqual([9998, 9999, 2125552123, 1]);
  });

  it("picks the default phone column", () => {
    expect(defaultPhoneColumn(["Name", "Cell", "Phone"])).toBe("Cell");
    expect(defaultPhoneColumn(["a", "b"])).toBe("a");
    expect(defaultPhoneColumn(["x", "TELEPHONE"])).toBe("TELEPHONE");
    expect(defaultPhoneColumn([])).toBeNull();
  });
});
