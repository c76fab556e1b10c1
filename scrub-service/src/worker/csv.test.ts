import { describe, expect, it } from "vitest";
import { CLASS_BAD, CLASS_GOOD, CLASS_INVALID, emitRows, parseCodes, parseRows, parseRowsGeneral, type ParsedRows } from "./csv";
import { EXCHANGE_ENTRIES, exchangeIndex } from "../calling/class-index";
import { seededRandom } from "../test/random";

// Cells without quotes or CR (the plain path's input): empty, text, formula-like starts, phone forms.
const CELLS = [
  "",
  "=",
  "@",
  "Ann",
  "Smith 7",
  "-5",
  "-",
  "=1+2",
  "+",
  "+1 305 555 1234",
  "305-555-1234",
  "@x",
  "\tx",
  "1.23457E+9",
  " 2125551234 ",
  "(212) 555-2199",
  "2125552199",
  "12125552199",
  "1125552199",
  "2121005555",
  "x2125552199",
  "é",
  "12",
];

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
      const lines = plainInput(r, delim)
        .split("\n")
        .slice(0, -1)
        .map((line) => (r() < 0.5 ? line : `${line}${delim}${near[Math.floor(r() * near.length)]}`));
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

describe("parseCodes (a list file's numbers)", () => {
  // ten-character lines: in service, not in service (area code, exchange, 555-01XX), digits with a separator, a letter
  const TEN = ["2125552199", "3055550100", "2121005555", "9995551234", "2125550150", "212555-199", "212555219x", "0000000000", "1125552199"];

  it("gives parseRows's codes for every row: ten-digit lines, any other line, empty lines, any phone column", () => {
    const r = seededRandom(21);
    for (let round = 0; round < 400; round++) {
      const delim = [",", ";", "\t", "|"][round % 4];
      const lines = plainInput(r, delim).split("\n").slice(0, -1);
      for (let k = 0; k < 30; k++) lines.splice(Math.floor(r() * lines.length), 0, TEN[Math.floor(r() * TEN.length)] + (r() < 0.1 ? delim + "x" : ""));
      const text = lines.join("\n") + "\n";
      const buf = new TextEncoder().encode(text);
      const d = delim.charCodeAt(0);
      const phoneCol = round % 3 === 0 ? 0 : Math.floor(r() * 4) - 1;
      const want = parseRows(buf, 0, buf.length, d, phoneCol);
      const got = parseCodes(buf, 0, buf.length, d, phoneCol, round % 2 ? new SharedArrayBuffer(64) : undefined);
      expect([got.count, Array.from(got.codes.subarray(0, got.count))]).toEqual([want.count, Array.from(want.codes.subarray(0, want.count))]);
      expect(got.invalid).toBe(Array.from(want.codes.subarray(0, want.count)).filter((c) => c < 0).length);
    }
  });

  it("reads a file of ten-digit lines as numbers, and leaves batches with a quote, a CR or no final line feed to parseRows", () => {
    const buf = new TextEncoder().encode("2125552199\n3055550100\n2121005555\n");
    const p = parseCodes(buf, 0, buf.length, 44, 0);
    expect(Array.from(p.codes.subarray(0, p.count))).toEqual(Array.from(parseRows(buf, 0, buf.length, 44, 0).codes.subarray(0, 3)));
    expect(p.codes[0]).toBe(2125552199);
    expect(p.codes[1]).toBeLessThan(0); // 555-0100 is fictitious
    expect(p.codes[2]).toBeLessThan(0); // 100 is not an exchange in service
    for (const text of ['"2125552199"\n2125552198\n', "2125552199\r\n2125552198\r\n", "2125552199\n2125552198"]) {
      const b = new TextEncoder().encode(text);
      const c = parseCodes(b, 0, b.length, 44, 0);
      const want = parseRows(b, 0, b.length, 44, 0);
      expect(Array.from(c.codes.subarray(0, c.count))).toEqual(Array.from(want.codes.subarray(0, want.count)));
      expect(c.invalid).toBe(Array.from(want.codes.subarray(0, want.count)).filter((x) => x < 0).length);
    }
  });
});

describe("emitRows with cells appended to good rows (calling columns, exemption notes)", () => {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  /** Rows of 1–5 fields (header width 5) and 0–~320 bytes: every length mod 4, short and long, some escaped. */
  function input(r: () => number, d: string, rows: number): string {
    const lines: string[] = [];
    for (let i = 0; i < rows; i++) {
      const npa = r() < 0.1 ? 800 : 200 + Math.floor(r() * 800);
      const nxx = 200 + Math.floor(r() * 800);
      const phone = r() < 0.05 ? "1.23457E+9" : `${npa}${nxx}${String(Math.floor(r() * 10_000)).padStart(4, "0")}`;
      const cells = [phone, "x".repeat(Math.floor(r() * (r() < 0.2 ? 300 : 30)))];
      const more = Math.floor(r() * 4);
      for (let c = 0; c < more; c++) cells.push(r() < 0.05 ? "=1+2" : String(i).repeat(Math.floor(r() * 4)));
      lines.push(cells.join(d));
    }
    return lines.join("\n");
  }

  it("gives each good row its own bytes, padding, its class's cells and its note, as a row-by-row reference does", () => {
    const r = seededRandom(20261127);
    for (let round = 0; round < 40; round++) {
      const d = [",", ";", "|", "\t"][round % 4];
      const delim = d.charCodeAt(0);
      // the batch sits at an odd offset of its buffer, and its last row ends at the buffer's end (no word past it)
      const finalLf = round % 3 !== 0;
      const text = encoder.encode(input(r, d, 1 + Math.floor(r() * 300)) + (finalLf ? "\n" : ""));
      const offset = 1 + (round % 3);
      const buf = new Uint8Array(new SharedArrayBuffer(offset + text.length), offset);
      buf.set(text);
      const rows = parseRows(buf, 0, buf.length, delim, 0);
      const n = rows.count;
      const classes = new Uint8Array(n);
      for (let k = 0; k < n; k++) classes[k] = rows.codes[k] < 0 ? CLASS_INVALID : r() < 0.15 ? CLASS_BAD : CLASS_GOOD;
      // classes of numbers: class 0's cells are three delimiters (the shortest), the others 4–60 bytes
      const cellTexts = [
        d + d + d,
        ...Array.from(
          { length: 6 },
          (_, k) => d + "z".repeat(k) + d + "yes" + d + "2026-11-25T19:30:00Z".slice(0, 1 + Math.floor(r() * 20)) + "q".repeat(Math.floor(r() * 20)),
        ),
      ];
      const encoded = cellTexts.map((t) => encoder.encode(t));
      const starts = new Uint32Array(encoded.length + 1);
      const bytes = new Uint8Array(encoded.reduce((sum, e) => sum + e.length, 0));
      encoded.forEach((e, k) => {
        starts[k] = k ? starts[k - 1] + encoded[k - 1].length : 0;
        bytes.set(e, starts[k]);
      });
      starts[encoded.length] = bytes.length;
      const classOf = new Uint16Array(EXCHANGE_ENTRIES);
      for (let k = 0; k < classOf.length; k++) classOf[k] = 1 + (k % 6);
      for (let nxx = 200; nxx < 1000; nxx++) classOf[exchangeIndex(800, nxx)] = 0;
      const notes = ["", "ebr", '"a,b"'];
      const rowNote = new Uint32Array(n).map(() => Math.floor(r() * notes.length));
      const withNotes = round % 2 === 1;
      const base = { rows, classes, reasonIdx: new Uint8Array(n), reasons: ["dnc"], delim, width: 5, end: buf.length, describeInvalid: true };
      const counts = new Uint32Array(encoded.length);
      const got = emitRows(
        buf,
        { ...base, goodSuffixes: { classOf, bytes, starts, counts }, goodNotes: withNotes ? { rowNote, notes } : undefined },
        new SharedArrayBuffer(64),
      );
      const plain = emitRows(buf, base);
      // the reference: each good row as the plain emit writes it, then padding, cells and note added to it
      const plainGood = decoder.decode(plain[0]).split("\n");
      const expected: string[] = [];
      const expectedCounts = new Uint32Array(encoded.length);
      let g = 0;
      for (let k = 0; k < n; k++) {
        if (classes[k] !== CLASS_GOOD) continue;
        const code = rows.codes[k];
        const npa = Math.floor(code / 10_000_000);
        const cls = classOf[exchangeIndex(npa, Math.floor(code / 10_000) % 1000)];
        expectedCounts[cls]++;
        const pad = d.repeat(Math.max(0, 5 - rows.fields[k]));
        expected.push(plainGood[g++] + pad + cellTexts[cls] + (withNotes ? d + notes[rowNote[k]] : "") + "\n");
      }
      expect(decoder.decode(got[0])).toBe(expected.join(""));
      expect(Array.from(counts)).toEqual(Array.from(expectedCounts));
      expect(decoder.decode(got[1])).toBe(decoder.decode(plain[1]));
      expect(decoder.decode(got[2])).toBe(decoder.decode(plain[2]));

      // with phone_e164 (decision 184), with and without the cells: the same rows with the number after the padding,
      // before the cells in good and before the reason in bad and invalid (empty there); rows up to the buffer's end
      const e164Of = (k: number) => (rows.codes[k] < 0 ? "" : `+1${rows.codes[k]}`);
      const withCells = round % 4 < 2;
      const e = emitRows(
        buf,
        { ...base, phoneE164: true, goodSuffixes: withCells ? { classOf, bytes, starts, counts: new Uint32Array(encoded.length) } : undefined },
        new SharedArrayBuffer(64),
      );
      const want: string[][] = [[], [], []];
      const plainLines = [0, 1, 2].map((c) => decoder.decode(plain[c]).split("\n"));
      const at = [0, 0, 0];
      for (let k = 0; k < n; k++) {
        const c = classes[k];
        const line = plainLines[c][at[c]++];
        if (c === CLASS_GOOD) {
          const code = rows.codes[k];
          const cls = classOf[exchangeIndex(Math.floor(code / 10_000_000), Math.floor(code / 10_000) % 1000)];
          want[c].push(line + d.repeat(Math.max(0, 5 - rows.fields[k])) + d + e164Of(k) + (withCells ? cellTexts[cls] : "") + "\n");
        } else {
          const cut = line.lastIndexOf(d); // the reason holds no delimiter
          want[c].push(line.slice(0, cut) + d + e164Of(k) + line.slice(cut) + "\n");
        }
      }
      for (const c of [0, 1, 2]) expect(decoder.decode(e[c]), `class ${c}, round ${round}`).toBe(want[c].join(""));
    }
  });
});

describe("emitRows with phone_e164 (decision 184)", () => {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  function emit(text: string, d: string, classes: (rows: ParsedRows) => number[], extra: Partial<Parameters<typeof emitRows>[1]> = {}, width = 3) {
    const buf = encoder.encode(text);
    const delim = d.charCodeAt(0);
    const rows = parseRows(buf, 0, buf.length, delim, 0);
    const cls = Uint8Array.from(classes(rows));
    const out = emitRows(buf, {
      rows,
      classes: cls,
      reasonIdx: new Uint8Array(rows.count),
      reasons: ["dnc"],
      delim,
      width,
      end: buf.length,
      describeInvalid: true,
      phoneE164: true,
      ...extra,
    });
    return out.map((b) => decoder.decode(b));
  }
  const byCode = (rows: ParsedRows) => Array.from(rows.codes.subarray(0, rows.count), (c) => (c < 0 ? CLASS_INVALID : CLASS_GOOD));

  it("puts the number read, +1 and ten digits, after the row's own cells in every delimiter, the customer's cell kept escaped", () => {
    for (const d of [",", ";", "\t", "|"]) {
      const [good, bad, invalid] = emit(
        [`+1 212 736 4832${d}Ann${d}x`, `2127364833${d}=1+2${d}y`, `12${d}Bob${d}z`, `(305) 555-1234${d}Cy${d}w`].join("\n") + "\n",
        d,
        (rows) => byCode(rows).map((c, r) => (r === 3 ? CLASS_BAD : c)),
      );
      expect(good).toBe(`"'+1 212 736 4832"${d}Ann${d}x${d}+12127364832\n2127364833${d}"'=1+2"${d}y${d}+12127364833\n`);
      expect(bad).toBe(`(305) 555-1234${d}Cy${d}w${d}+13055551234${d}dnc\n`);
      expect(invalid).toBe(`12${d}Bob${d}z${d}${d}2 digits: a US phone number has 10 digits (11 starting with 1)\n`);
    }
  });

  it("pads short rows so phone_e164 is in its column in all three files", () => {
    const [good, bad, invalid] = emit("2127364832\n3055551234\nnope\n", ",", (rows) => byCode(rows).map((c, r) => (r === 1 ? CLASS_BAD : c)));
    expect(good).toBe("2127364832,,,+12127364832\n");
    expect(bad).toBe("3055551234,,,+13055551234,dnc\n");
    expect(invalid).toBe("nope,,,,not a phone number\n");
  });

  it("reads CRLF rows and quoted phone cells (with the delimiter and quotes inside) and ends every row with LF", () => {
    const text = '"212-736-4832","a,b",c\r\n"(305) 736-1234","say ""hi""",d\r\n2127360142,e\r\n"+1 (917) 736-0100",f,g\r\n';
    const [good] = emit(text, ",", byCode);
    expect(good).toBe(
      '"212-736-4832","a,b",c,+12127364832\n"(305) 736-1234","say ""hi""",d,+13057361234\n2127360142,e,,+12127360142\n"\'+1 (917) 736-0100",f,g,+19177360100\n',
    );
  });

  it("writes every number's digits exactly (each digit position, the two halves) beside the calling cells and notes", () => {
    const r = seededRandom(20261128);
    const numbers: string[] = [];
    for (let k = 0; k < 400; k++) {
      const npa = 200 + Math.floor(r() * 800);
      const nxx = 200 + Math.floor(r() * 800);
      const line = String(Math.floor(r() * 10_000)).padStart(4, "0");
      numbers.push(`${npa}${nxx}${line}`);
    }
    const text = numbers.map((n, k) => `${n},${"x".repeat(k % 7)}`).join("\n") + "\n";
    const buf = encoder.encode(text);
    const rows = parseRows(buf, 0, buf.length, 44, 0);
    const ok = Array.from(rows.codes.subarray(0, rows.count)).map((c) => c >= 0);
    const classes = Uint8Array.from(ok, (v, k) => (!v ? CLASS_INVALID : k % 5 === 0 ? CLASS_BAD : CLASS_GOOD));
    const notes = ["", "ebr"];
    const rowNote = Uint32Array.from(classes, (_, k) => k % 2);
    const [good, bad] = emitRows(buf, {
      rows,
      classes,
      reasonIdx: new Uint8Array(rows.count),
      reasons: ["dnc"],
      delim: 44,
      width: 2,
      end: buf.length,
      phoneE164: true,
      goodNotes: { rowNote, notes },
      badNotes: { rowNote, notes },
    }).map((b) => decoder.decode(b));
    const expectGood: string[] = [];
    const expectBad: string[] = [];
    numbers.forEach((n, k) => {
      if (classes[k] === CLASS_GOOD) expectGood.push(`${n},${"x".repeat(k % 7)},+1${n},${notes[k % 2]}\n`);
      if (classes[k] === CLASS_BAD) expectBad.push(`${n},${"x".repeat(k % 7)},+1${n},dnc,${notes[k % 2]}\n`);
    });
    expect(good).toBe(expectGood.join(""));
    expect(bad).toBe(expectBad.join(""));
  });
});
