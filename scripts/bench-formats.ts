/**
 * Input-format benchmark (not a test): generates a 1M-row CSV, the same rows as .csv.gz and as an .xlsx
 * workbook, and scrubs each through the built CLI in a fresh process (embedded mode, its own data directory),
 * printing rows/s and the scrub process's peak RSS (process.resourceUsage().maxRSS, reported by the CLI).
 *
 *   npm run bench:formats                       # 1,000,000 rows
 *   BENCH_FORMAT_ROWS=100000 npm run bench:formats   BENCH_DIR=/tmp/bench-formats
 *
 * Prints figures only; nothing is asserted (the machine's load is printed beside them).
 */
import crypto from "node:crypto";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";
import ExcelJS from "exceljs";
import { seededRandom } from "scrub-service/testing";
import { cli, makeUser } from "scrub-service/bench";

const ROWS = Number(process.env.BENCH_FORMAT_ROWS ?? 1_000_000);
const DIR = path.resolve(process.env.BENCH_DIR ?? "/tmp/bench-formats");
const LIT = 10_000;

const r = seededRandom(20261123);
const number = () => 2000000000 + Math.floor(r() * 7_999_999_999);
/** Valid-looking numbers: area codes and exchanges 200–999 (the normalizer marks the rest invalid, which is fine). */
const phone = () => {
  const n = String(number());
  return `${n.slice(0, 3)}${String(200 + Math.floor(r() * 700))}${n.slice(6)}`;
};
const FIRST = ["Ann", "Bob", "José", "Zoë", "Dan"];

function rowOf(i: number): [number, string, string, string] {
  return [i, FIRST[i % 5], `Smith${i % 97}`, phone()];
}

async function writeCsv(file: string): Promise<void> {
  const out = fs.createWriteStream(file, { highWaterMark: 1 << 22 });
  out.write("id,first_name,last_name,phone\n");
  let buf: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    buf.push(rowOf(i).join(","));
    if (buf.length === 50_000) {
      if (!out.write(buf.join("\n") + "\n")) await new Promise<void>((res) => out.once("drain", () => res()));
      buf = [];
    }
  }
  if (buf.length) out.write(buf.join("\n") + "\n");
  await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
}

/** The same rows as a workbook: exceljs's streaming writer, numbers as number cells, names as shared strings. */
async function writeXlsx(file: string): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: false });
  const ws = wb.addWorksheet("Leads");
  ws.addRow(["id", "first_name", "last_name", "phone"]).commit();
  const rr = seededRandom(20261123); // the CSV's numbers again
  for (let i = 0; i < ROWS; i++) {
    const n = String(2000000000 + Math.floor(rr() * 7_999_999_999));
    const p = `${n.slice(0, 3)}${String(200 + Math.floor(rr() * 700))}${n.slice(6)}`;
    ws.addRow([i, FIRST[i % 5], `Smith${i % 97}`, Number(p)]).commit();
  }
  ws.commit();
  await wb.commit();
}

const fmt = (n: number | null | undefined) => (n == null ? "—" : n.toLocaleString("en-US"));
const mb = (n: number) => Math.round(n / 1e6);

async function main() {
  fs.mkdirSync(DIR, { recursive: true });
  console.log(`[bench:formats] ${fmt(ROWS)} rows; data in ${DIR}`);
  console.log(
    `[bench:formats] machine: ${os.availableParallelism()} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const csv = path.join(DIR, `input-${ROWS}.csv`);
  const gz = `${csv}.gz`;
  const xlsx = path.join(DIR, `input-${ROWS}.xlsx`);
  const lit = path.join(DIR, `lit-${LIT}.txt`);
  const t = performance.now();
  if (!fs.existsSync(csv)) await writeCsv(csv);
  if (!fs.existsSync(gz)) await pipeline(fs.createReadStream(csv, { highWaterMark: 1 << 20 }), zlib.createGzip({ level: 6 }), fs.createWriteStream(gz));
  if (!fs.existsSync(xlsx)) await writeXlsx(xlsx);
  if (!fs.existsSync(lit)) fs.writeFileSync(lit, Array.from({ length: LIT }, phone).join("\n") + "\n");
  console.log(
    `[bench:formats] data ready in ${((performance.now() - t) / 1000).toFixed(1)} s: csv ${mb(fs.statSync(csv).size)} MB, gz ${mb(fs.statSync(gz).size)} MB, xlsx ${mb(fs.statSync(xlsx).size)} MB`,
  );
  await promisify(execFile)(process.execPath, ["scrub-service/scripts/build-worker.mjs"]);

  const dataDir = path.join(DIR, `data-${crypto.randomBytes(3).toString("hex")}`);
  const env = { DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", SCRUB_SERVICE_URL: "" };
  try {
    const userId = await makeUser(env);
    await cli(["lists", "replace", "--list", "litigation", "--input", lit], env);
    const results = [];
    for (const [label, file] of [
      ["csv (reference)", csv],
      [".csv.gz", gz],
      [".xlsx", xlsx],
    ] as const) {
      const s = await cli(
        ["scrub", "--input", file, "--type", "LitigationOnly", "--out", path.join(DIR, `out-${label.replace(/\W/g, "")}`), "--user", userId],
        env,
      );
      const row = {
        input: label,
        status: s.status,
        error: s.error,
        rows: s.rows,
        read: s.input,
        seconds: s.seconds,
        rowsPerSecond: s.rowsPerSecond,
        jobSeconds: s.jobSeconds,
        jobRowsPerSecond: s.jobSeconds ? Math.round(s.rows / s.jobSeconds) : null,
        maxRssMB: mb(s.maxRssBytes),
      };
      results.push(row);
      console.log(
        `[bench:formats] ${label}: ${row.status}, ${fmt(row.rows)} rows in ${row.seconds.toFixed(2)} s = ${fmt(row.rowsPerSecond)} rows/s ` +
          `(job ${fmt(row.jobRowsPerSecond)} rows/s), peak RSS ${row.maxRssMB} MB; read as ${JSON.stringify(row.read)}`,
      );
    }
    const base = results[0].rowsPerSecond;
    for (const x of results.slice(1)) console.log(`[bench:formats] ${x.input} / csv rate: ${base ? (x.rowsPerSecond / base).toFixed(2) : "—"}×`);
    console.log(
      `[bench:formats] load average after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    const out = path.join(DIR, "bench-formats.json");
    fs.writeFileSync(
      out,
      JSON.stringify({ date: new Date().toISOString(), rows: ROWS, cores: os.availableParallelism(), loadAverage: os.loadavg(), results }, null, 2),
    );
    console.log(`[bench:formats] written to ${out}`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
