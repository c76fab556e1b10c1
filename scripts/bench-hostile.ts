/**
 * Hostile-file benchmark (not a test; issue #26): generates the files of the black-box probe and reads each the
 * way a request does (the preview, then the plan count at submission, then the scrub's reader), each case in a
 * fresh process, printing the process's peak RSS (VmHWM), the time to the answer, the answer, and the longest
 * event-loop stall while it ran (what another user's request served by the same process would have waited).
 *
 *   npm run bench:hostile                 BENCH_DIR=/tmp/bench-hostile   BENCH_SST_STRINGS=30000000
 *   BENCH_SERVED=1 npm run bench:hostile  the same files through the production server while another customer's
 *                                         requests are timed (scripts/bench/hostile-served.ts)
 *   BENCH_ONLY=exemptions                 only the exemption files (issue #49): 64 MB of one-cell lines, a 30 MB cell,
 *                                         five valid 1,000,000-row lists at once (served: new lists through the API)
 *
 * Cases: exemption files (above), a 10 GiB gzip bomb of identical rows (~10 MB), a gzip of 20M distinct rows (not a bomb by ratio: the
 * plan count decides), the workbook with a cell at column ZZZZZZ, the workbook of 30M shared strings (~80 MB,
 * as declared and with no declared count), and three of them at once in one process. Prints figures only.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { rawXlsxBytes, sheetXml, writeGzipBomb } from "scrub-service/testing";
import { servedRuns, setupAccounts } from "./bench/hostile-served";

const DIR = path.resolve(process.env.BENCH_DIR ?? "/tmp/bench-hostile");
const SST_STRINGS = Number(process.env.BENCH_SST_STRINGS ?? 30_000_000);
const DISTINCT_ROWS = Number(process.env.BENCH_DISTINCT_ROWS ?? 20_000_000);

type Case = { name: string; files: string[]; as?: "scrub" | "exemptions" };

/** A zip written member by member, each deflated in pieces to a temporary file first (a member too large for memory). */
function writeZipStreamed(file: string, members: { name: string; data: Buffer | (() => Iterable<Buffer>) }[]): void {
  const fd = fs.openSync(file, "w");
  const central: Buffer[] = [];
  let offset = 0;
  const write = (b: Buffer) => {
    fs.writeSync(fd, b);
    offset += b.length;
  };
  for (const m of members) {
    const name = Buffer.from(m.name);
    const chunks = typeof m.data === "function" ? m.data() : [m.data];
    // deflate to a temporary file first: the local header needs the sizes and CRC
    const tmp = `${file}.member`;
    const tfd = fs.openSync(tmp, "w");
    let crc = 0;
    let size = 0;
    const out: Buffer[] = [];
    let packed = 0;
    const flushOut = () => {
      for (const b of out) {
        fs.writeSync(tfd, b);
        packed += b.length;
      }
      out.length = 0;
    };
    for (const c of chunks) {
      crc = zlib.crc32(c, crc);
      size += c.length;
      out.push(zlib.deflateRawSync(c, { level: 1, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
      flushOut();
    }
    out.push(zlib.deflateRawSync(Buffer.alloc(0), { level: 1 }));
    flushOut();
    fs.closeSync(tfd);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(packed, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(0x0800, 8);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt32LE(crc >>> 0, 16);
    cd.writeUInt32LE(packed, 20);
    cd.writeUInt32LE(size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    write(local);
    write(name);
    const rfd = fs.openSync(tmp, "r");
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let n; (n = fs.readSync(rfd, buf)) > 0;) write(buf.subarray(0, n));
    fs.closeSync(rfd);
    fs.rmSync(tmp);
  }
  const cdBytes = Buffer.concat(central);
  const cdStart = offset;
  write(cdBytes);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cdBytes.length, 12);
  end.writeUInt32LE(cdStart, 16);
  write(end);
  fs.closeSync(fd);
}

/** The 30M-string workbook: every row's phone cell a shared string, the table after the sheet as Excel writes it. */
function writeSstWorkbook(file: string, strings: number, declare: boolean): void {
  const rows = Math.min(strings, 1_000_000);
  const sheet = sheetXml([
    `<row r="1"><c r="A1" t="inlineStr"><is><t>Phone</t></is></c></row>`,
    ...Array.from({ length: Math.min(rows, 1000) }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="s"><v>${i}</v></c></row>`),
  ]);
  const rels =
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
    `<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
  const workbook =
    `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
    `<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  writeZipStreamed(file, [
    { name: "[Content_Types].xml", data: Buffer.from(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`) },
    { name: "xl/workbook.xml", data: Buffer.from(workbook) },
    { name: "xl/_rels/workbook.xml.rels", data: Buffer.from(rels) },
    { name: "xl/worksheets/sheet1.xml", data: Buffer.from(sheet) },
    {
      name: "xl/sharedStrings.xml",
      data: function* () {
        yield Buffer.from(
          `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"${declare ? ` count="${strings}" uniqueCount="${strings}"` : ""}>`,
        );
        const step = 100_000;
        for (let i = 0; i < strings; i += step) {
          let s = "";
          for (let j = i; j < Math.min(strings, i + step); j++) s += `<si><t>${(2_000_000_000 + j).toString(36)}</t></si>`;
          yield Buffer.from(s);
        }
        yield Buffer.from("</sst>");
      },
    },
  ]);
}

function writeDistinctGz(file: string, rows: number): void {
  const fd = fs.openSync(file, "w");
  fs.writeSync(fd, zlib.gzipSync("Phone,Name\n"));
  const step = 200_000;
  for (let i = 0; i < rows; i += step) {
    let s = "";
    for (let j = i; j < Math.min(rows, i + step); j++) s += `${2_122_000_000 + ((j * 7_919) % 7_000_000_000)},n${j}\n`;
    fs.writeSync(fd, zlib.gzipSync(s, { level: 6 }));
  }
  fs.closeSync(fd);
}

async function generate(): Promise<Case[]> {
  fs.mkdirSync(DIR, { recursive: true });
  const f = (n: string) => path.join(DIR, n);
  const made = (p: string, make: () => void) => {
    if (!fs.existsSync(p)) {
      const t = Date.now();
      make();
      console.log(`generated ${path.basename(p)} (${(fs.statSync(p).size / 1024 / 1024).toFixed(1)} MB) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
    return p;
  };
  const bomb = made(f("bomb-10gib.csv.gz"), () => writeGzipBomb(f("bomb-10gib.csv.gz"), "2125551234\n", 64 * 1024 * 1024, 160));
  const distinct = made(f(`distinct-${DISTINCT_ROWS}.csv.gz`), () => writeDistinctGz(f(`distinct-${DISTINCT_ROWS}.csv.gz`), DISTINCT_ROWS));
  const zzz = made(f("zzzzzz.xlsx"), () =>
    fs.writeFileSync(f("zzzzzz.xlsx"), rawXlsxBytes({ sheet: sheetXml([`<row r="1"><c r="A1"><v>1</v></c><c r="ZZZZZZ1"><v>2</v></c></row>`]) })),
  );
  const sstDeclared = made(f(`sst-${SST_STRINGS}-declared.xlsx`), () => writeSstWorkbook(f(`sst-${SST_STRINGS}-declared.xlsx`), SST_STRINGS, true));
  const sstSilent = made(f(`sst-${SST_STRINGS}.xlsx`), () => writeSstWorkbook(f(`sst-${SST_STRINGS}.xlsx`), SST_STRINGS, false));
  // exemption files (issue #49): one-cell lines, one 30 MB cell, and five valid lists of the documented maximum
  const ones = made(f("exemptions-ones-64mb.csv"), () => fs.writeFileSync(f("exemptions-ones-64mb.csv"), Buffer.alloc(64 * 1024 * 1024, "1\n")));
  const cell = made(f("exemptions-cell-30mb.csv"), () =>
    fs.writeFileSync(f("exemptions-cell-30mb.csv"), Buffer.concat([Buffer.from("2125552345,purchase,"), Buffer.alloc(30 * 1024 * 1024, "7")])),
  );
  const valid = [201, 305, 415, 512, 646].map((area) =>
    made(f(`exemptions-1m-${area}.csv`), () => {
      const rows: string[] = ["phone,basis,date"];
      // exchanges 220–299 and 320–339: no N11 service code among them
      const number = (i: number) => area * 1e7 + (i < 800_000 ? 2_200_000 + i : 3_200_000 + (i - 800_000));
      for (let i = 0; i < 1_000_000; i++) rows.push(`${number(i)},${["purchase", "inquiry", "consent"][i % 3]},2026-0${1 + (i % 9)}-1${i % 10}`);
      fs.writeFileSync(f(`exemptions-1m-${area}.csv`), rows.join("\n") + "\n");
    }),
  );
  const exemptionCases: Case[] = [
    { name: "exemption file, 64 MB of one-cell lines", files: [ones], as: "exemptions" },
    { name: "exemption file, one 30 MB cell", files: [cell], as: "exemptions" },
    { name: "five valid 1,000,000-row exemption lists at once", files: valid, as: "exemptions" },
  ];
  if (process.env.BENCH_ONLY === "exemptions") return exemptionCases;
  return [
    ...exemptionCases,
    { name: "gzip bomb 10 GiB, identical rows", files: [bomb] },
    { name: `gzip of ${DISTINCT_ROWS.toLocaleString("en-US")} distinct rows`, files: [distinct] },
    { name: "workbook, a cell at ZZZZZZ", files: [zzz] },
    { name: `workbook, ${SST_STRINGS.toLocaleString("en-US")} shared strings (declared)`, files: [sstDeclared] },
    { name: `workbook, ${SST_STRINGS.toLocaleString("en-US")} shared strings (not declared)`, files: [sstSilent] },
    { name: "three at once: bomb + 30M-string workbook + distinct gzip", files: [bomb, sstSilent, distinct] },
    { name: "three 30M-string workbooks at once", files: [sstSilent, sstSilent, sstSilent] },
  ];
}

/** In the child: preview, plan count and full read of each file (all files at once), with the stall and peak RSS. */
async function child(files: string[], as: string): Promise<void> {
  const { previewCsv, countRecords, BatchReader } = await import("scrub-service/reader");
  const { readExemptionRows } = await import("scrub-service");
  let stall = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 10);
    last = now;
  }, 10);
  const started = performance.now();
  const one = async (file: string) => {
    const copy = path.join(os.tmpdir(), `bench-hostile-${process.pid}-${Math.random().toString(36).slice(2)}${path.extname(file)}`);
    fs.copyFileSync(file, copy); // a fresh upload each time: no decode cached from an earlier case
    try {
      if (as === "exemptions") return `read: ${(await readExemptionRows({ path: copy })).numbers.length.toLocaleString("en-US")} exemption rows`;
      await previewCsv(copy);
      const rows = await countRecords(copy, { dataRows: true });
      const reader = new BatchReader(copy, 4 * 1024 * 1024);
      await reader.open();
      while (await reader.next());
      await reader.close();
      return `read: ${rows.toLocaleString("en-US")} data rows`;
    } catch (e) {
      return `refused: ${(e as Error).message.slice(0, 110)}`;
    } finally {
      fs.rmSync(copy, { force: true });
    }
  };
  const answers = await Promise.all(files.map(one));
  clearInterval(tick);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1];
  process.stdout.write(JSON.stringify({ answers, seconds: (performance.now() - started) / 1000, peakRssMb: Number(hwm) / 1024, stallMs: stall }) + "\n");
}

async function main(): Promise<void> {
  if (process.argv[2] === "--child") return child(process.argv.slice(4), process.argv[3]);
  if (process.argv[2] === "--served-setup") return setupAccounts();
  const cases = await generate();
  if (process.env.BENCH_SERVED === "1") {
    await servedRuns(cases, import.meta.filename);
    return;
  }
  console.log(
    `\nload average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}, ${os.cpus().length} cores, Node ${process.version}\n`,
  );
  for (const c of cases) {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", import.meta.filename, "--child", c.as ?? "scrub", ...c.files], {
      maxBuffer: 1 << 20,
      timeout: 30 * 60_000,
    });
    const r = JSON.parse(stdout.trim().split("\n").at(-1)!) as { answers: string[]; seconds: number; peakRssMb: number; stallMs: number };
    console.log(`${c.name}\n  peak RSS ${r.peakRssMb.toFixed(0)} MB, ${r.seconds.toFixed(1)} s, longest event-loop stall ${r.stallMs.toFixed(0)} ms`);
    for (const a of r.answers) console.log(`  ${a}`);
  }
  console.log(
    `\nload average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}

await main();
