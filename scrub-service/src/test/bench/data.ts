/**
 * The scrub benchmarks' data (bench:scrub, scrub-service/bench/ab-scrub.ts): an input CSV of ROWS rows × 5 columns, the
 * litigation and DNC list files, a smaller input and the add/remove files, made once per parameters and kept in DIR
 * (file names carry the parameters and the numbering table's shape, so a changed generator makes new files).
 */
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { parsePhone } from "../../domain";
import { seededRandom } from "../testing";

export interface BenchDataOptions {
  dir: string;
  rows: number;
  /** Rows of the smaller input (≤ rows). */
  small: number;
  lit: number;
  dnc: number;
  /** Numbers in the add and remove files (0: none). */
  change: number;
  gzip: boolean;
}

export type BenchFiles = Awaited<ReturnType<typeof generate>>;

/**
 * Numbers every reasonable rule calls valid (so the peer's digits-only rule and ours agree on the data):
 * US and Canadian area codes libphonenumber validates, and of their exchanges (200–999 except N11 and 555) only
 * those our numbering table (decision 100) calls in service, so no row is invalid by one rule and valid by the other.
 */
const AREA_CODES = Array.from({ length: 800 }, (_, i) => 200 + i).filter((npa) => {
  const p = parsePhoneNumberFromString(`+1${npa}2345678`);
  return p?.isValid() && (p.country === "US" || p.country === "CA");
});
const PREFIXES = AREA_CODES.flatMap((npa) =>
  Array.from({ length: 800 }, (_, i) => 200 + i)
    .filter((nxx) => nxx % 100 !== 11 && nxx !== 555 && parsePhone(`${npa}${nxx}4567`).ok)
    .map((nxx) => npa * 1000 + nxx),
);
const r = seededRandom(20261122);
/** Records in the FTC change list. */
const FTC_CHANGES = 10_000;
const randomNumber = () => PREFIXES[Math.floor(r() * PREFIXES.length)] * 1e4 + Math.floor(r() * 1e4);

async function writeLines(file: string, count: number, line: (i: number) => string, flags = "w"): Promise<void> {
  const out = fs.createWriteStream(file, { flags, highWaterMark: 1 << 22 });
  let buf: string[] = [];
  for (let i = 0; i < count; i++) {
    buf.push(line(i));
    if (buf.length === 50_000) {
      if (!out.write(buf.join("\n") + "\n")) await new Promise<void>((res) => out.once("drain", () => res()));
      buf = [];
    }
  }
  if (buf.length) out.write(buf.join("\n") + "\n");
  await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
}

export async function generate(o: BenchDataOptions) {
  const { dir: DIR, rows: ROWS, small: SMALL, lit: LIT, dnc: DNC, change: CHANGE, gzip: GZIP } = o;
  fs.mkdirSync(DIR, { recursive: true });
  const tag = `${AREA_CODES.length}npa-${PREFIXES.length}nxx`;
  const lit = path.join(DIR, `lit-${LIT}-${tag}.txt`);
  const dnc = path.join(DIR, `dnc-${DNC}-${tag}.txt`);
  const input = path.join(DIR, `input-${ROWS}-${tag}.csv`);
  const small = path.join(DIR, `input-${SMALL}-${tag}.csv`);
  const add = path.join(DIR, `add-${CHANGE}-${tag}.txt`);
  const remove = path.join(DIR, `remove-${CHANGE}-${DNC}-${tag}.txt`);
  // an FTC change list (decision 162's goal: 10k records ≤ 200 ms): half deletions of listed numbers (past the
  // remove file's), half additions
  const ftcChanges = path.join(DIR, `ftc-changes-${FTC_CHANGES}-${CHANGE}-${DNC}-${tag}.txt`);
  const litSample: number[] = [];
  const dncSample: number[] = [];
  // The samples come from generating the list files: regenerate them with the inputs.
  const fresh = !fs.existsSync(input) || !fs.existsSync(small);
  if (fresh || !fs.existsSync(lit))
    await writeLines(lit, LIT, () => {
      const x = randomNumber();
      if (litSample.length < 10_000) litSample.push(x);
      return String(x);
    });
  if (fresh || !fs.existsSync(dnc))
    await writeLines(dnc, DNC, () => {
      const x = randomNumber();
      if (dncSample.length < 100_000) dncSample.push(x);
      return String(x);
    });
  if (CHANGE > 0 && !fs.existsSync(add)) await writeLines(add, CHANGE, () => String(randomNumber()));
  if (CHANGE > 0 && !fs.existsSync(remove)) await copyFirstLines(dnc, remove, CHANGE);
  if (!fs.existsSync(ftcChanges)) {
    const listed = await readLines(dnc, CHANGE, FTC_CHANGES / 2);
    const ftc = (n: string, action: string) => `${n.slice(0, 3)},${n.slice(3)},${action},2026-11-20`;
    await writeLines(ftcChanges, FTC_CHANGES, (i) => (i % 2 === 0 && listed[i / 2] ? ftc(listed[i / 2], "D") : ftc(String(randomNumber()), "A")));
  }
  const firsts = ["Ann", "Bob", "Cara", "Dan", "Eve"];
  const cities = ["Miami", "Austin", "New York", "Denver", "Boston"];
  const row = (i: number) => {
    const roll = r();
    let phone: string;
    if (roll < 0.01) phone = "1.23457E+9";
    else if (roll < 0.02 && litSample.length) phone = String(litSample[Math.floor(r() * litSample.length)]);
    else if (roll < 0.06 && dncSample.length) phone = String(dncSample[Math.floor(r() * dncSample.length)]);
    else phone = String(randomNumber());
    return `${i},${firsts[i % 5]},Smith${i % 97},${phone},${cities[i % 5]}`;
  };
  const header = "id,first_name,last_name,phone,city";
  for (const [file, n] of [
    [input, ROWS],
    [small, SMALL],
  ] as const) {
    if (!fresh) continue;
    fs.writeFileSync(file, header + "\n");
    await writeLines(file, n, row, "a");
  }
  // The full input gzipped (level 6, as gzip does by default), streamed; made again with the input.
  const gz = `${input}.gz`;
  if (GZIP && (fresh || !fs.existsSync(gz))) {
    await pipeline(fs.createReadStream(input, { highWaterMark: 1 << 20 }), zlib.createGzip({ level: 6 }), fs.createWriteStream(gz));
  }
  return { lit, dnc, input, small, add, remove, ftcChanges, gz: GZIP ? gz : null };
}

/** `count` lines of a file from line `skip`. */
async function readLines(from: string, skip: number, count: number): Promise<string[]> {
  const out: string[] = [];
  let seen = 0;
  let carry = "";
  for await (const chunk of fs.createReadStream(from, { highWaterMark: 1 << 20 })) {
    const lines = (carry + (chunk as Buffer).toString("latin1")).split("\n");
    carry = lines.pop() ?? "";
    for (const l of lines) {
      if (seen++ >= skip && l) out.push(l);
      if (out.length >= count) return out;
    }
  }
  return out;
}

async function copyFirstLines(from: string, to: string, count: number): Promise<void> {
  const out = fs.createWriteStream(to);
  let left = count;
  let carry = "";
  for await (const chunk of fs.createReadStream(from, { highWaterMark: 1 << 20 })) {
    const lines = (carry + (chunk as Buffer).toString("latin1")).split("\n");
    carry = lines.pop() ?? "";
    const take = lines.slice(0, left);
    left -= take.length;
    if (take.length) out.write(take.join("\n") + "\n");
    if (left <= 0) break;
  }
  await new Promise<void>((res) => out.end(() => res()));
}

/**
 * `count` distinct valid numbers (per the engine's normalizer: area codes and exchanges in service) from a seeded
 * generator, so each run of a benchmark asks the same.
 */
export function validNumbers(count: number, seed: number): string[] {
  let x = seed >>> 0;
  const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const out = new Set<string>();
  while (out.size < count) {
    const n = `${200 + Math.floor(next() * 800)}${200 + Math.floor(next() * 800)}${String(Math.floor(next() * 10_000)).padStart(4, "0")}`;
    if (parsePhone(n).ok) out.add(n);
  }
  return [...out];
}
