/**
 * The fair floor for the scrub benchmark: a bare line split of the input in a fresh child process (no heap
 * left over from generating data), 64 KiB reads and 1 MiB reads, best of several runs each.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const SCRIPT = path.join(import.meta.dirname, "line-split.mjs");

export interface SplitRun {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  readBytes: number;
}

export interface Floor {
  best: SplitRun;
  byReadSize: { readBytes: number; runs: number[]; best: number }[];
}

async function splitOnce(file: string, readBytes: number): Promise<SplitRun> {
  const { stdout } = await run(process.execPath, [SCRIPT, file, String(readBytes)]);
  return JSON.parse(stdout) as SplitRun;
}

export async function fairFloor(file: string, runs = 5, readSizes = [64 << 10, 1 << 20]): Promise<Floor> {
  const all: SplitRun[] = [];
  const byReadSize = [];
  for (const readBytes of readSizes) {
    const these: SplitRun[] = [];
    for (let i = 0; i < runs; i++) these.push(await splitOnce(file, readBytes));
    all.push(...these);
    byReadSize.push({ readBytes, runs: these.map((r) => r.rowsPerSecond), best: Math.max(...these.map((r) => r.rowsPerSecond)) });
  }
  const best = all.reduce((a, b) => (b.rowsPerSecond > a.rowsPerSecond ? b : a));
  return { best, byReadSize };
}
