import { describe, expect, it } from "vitest";
import { parseRows, parseRowsGeneral, type ParsedRows } from "./csv";
import { seededRandom } from "../test/random";


// Cells without quotes or CR (the plain path's input): empty, text, formula-like starts, phone forms.
const CELLS = ["", "=", "@", "Ann", "Smith 7", "-5", "-", "=1+2", "+", "+1 305 555 1234", "305-555-1234", "@x", "\tx", "1.23457E+9",
  " 2125551234 ", "(212) 555-2199", "2125552199", "12125552199", "1125552199", "2121005555", "x2125552199", "é", "12"];

function plainInput(r: () => number, delim: string): string {
  const lines: string[] = [];
  const rows = 1 + Math.floor(r() * 60);
  for (let i = 0; i < rows; i++) {
    if (r() < 0.05) {
      lines.push(""); // empty line
      continue;
    }
    const width = 1 + Math.floor(r() * 6);
    const cells: string[] = [];
    for (let c = 0; c < width; c++) {
      const cell = CELLS[Math.floor(r() * CELLS.length)];
      cells.push(delim === "\t" ? cell.replace(/\t/g, " ") : cell);
    }
    lines.push(cells.join(delim));
  }
  return lines.join("\n") + "\n";
}

function asPlain(p: ParsedRows) {
  const n = p.count;
  return {
    count: n,
    rowStart: Array.from(p.rowStart.subarray(0, n)),
    rowEnd: Array.from(p.rowEnd.subarray(0, n)),
    codes: Array.from(p.codes.subarray(0, n)),
    fields: Array.from(p.fields.subarray(0, n)),
    escape: Array.from(p.escape.subarray(0, n)),
  };
}

describe("parseRows fast path (no quote, no CR)", () => {
  it("gives exactly the general parser's rows, codes, field counts and escape flags", () => {
    const r = seededRandom(11);
    for (let round = 0; round < 400; round++) {
      const delim = [",", ";", "\t", "|"][round % 4];
      const text = plainInput(r, delim);
      const buf = new TextEncoder().encode(text);
      const phoneCol = Math.floor(r() * 4) - 1;
      const d = delim.charCodeAt(0);
      expect(asPlain(parseRows(buf, 0, buf.length, d, phoneCol))).toEqual(asPlain(parseRowsGeneral(buf, 0, buf.length, d, phoneCol)));
    }
  });

  it("finds fields four bytes at a time with the same results, aligned or not, next to bytes one bit from a delimiter", () => {
    const r = seededRandom(12);
    // bytes that differ from a delimiter or LF in one bit ("-" after ",", ":" after ";", "}" after "|", \x0b, \x08)
    const near = ["-", ":", "}", "\x0b", "\x08", "--5", ":x", "}}", "2125552199"];
    for (let round = 0; round < 300; round++) {
      const delim = [",", ";", "\t", "|"][round % 4];
      const lines = plainInput(r, delim).split("\n").slice(0, -1).map((line) => (r() < 0.5 ? line : `${line}${delim}${near[Math.floor(r() * near.length)]}`));
      const text = lines.join("\n") + "\n";
      const shift = round % 4;
      const mem = new TextEncoder().encode(" ".repeat(shift) + text);
      const buf = mem.subarray(shift); // byteOffset 1-3: the bytewise loop
      const d = delim.charCodeAt(0);
      const phoneCol = Math.floor(r() * 4) - 1;
      const general = asPlain(parseRowsGeneral(buf, 0, buf.length, d, phoneCol));
      expect(asPlain(parseRows(buf, 0, buf.length, d, phoneCol))).toEqual(general);
      const aligned = new Uint8Array(buf.length + (round % 7)); // any length: words end before the last bytes
      aligned.set(buf);
      expect(asPlain(parseRows(aligned, 0, buf.length, d, phoneCol))).toEqual(general);
    }
  });

  it("leaves batches with a quote, a CR or no final line feed to the general parser", () => {
    for (const text of ['a,"b\nc",2125552199\n', "a,2125552199\r\nb,2125552198\r\n", "a,2125552199\nb,2125552198"]) {
      const buf = new TextEncoder().encode(text);
      expect(asPlain(parseRows(buf, 0, buf.length, 44, 1))).toEqual(asPlain(parseRowsGeneral(buf, 0, buf.length, 44, 1)));
    }
    const quoted = new TextEncoder().encode('a,"b\nc",2125552199\n');
    expect(parseRows(quoted, 0, quoted.length, 44, 2).count).toBe(1); // the quoted line break stays inside the row
  });

  it("reuses a given results block and still grows past it", () => {
    const text = "1\n".repeat(5000);
    const buf = new TextEncoder().encode(text);
    const mem = new SharedArrayBuffer(64);
    const p = parseRows(buf, 0, buf.length, 44, 0, mem);
    expect(p.count).toBe(5000);
    expect(p.codes.buffer).not.toBe(mem);
  });
});
