/**
 * One workbook's sheet decoded to UTF-8 CSV in a file: the work a workbook thread does (workbook-thread.ts), also
 * callable in the caller's thread. Pure streaming, bounded by the expansion limits.
 */
import fs from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { xlsxAsCsv } from "./xlsx";
import { zipBombErrorFor } from "./zip";

/** Counts the decoded bytes against the expansion limits (shared strings can make a small sheet huge). */
function decodedGuard(packed: number): Transform {
  let out = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      out += chunk.length;
      const refusal = zipBombErrorFor(packed, out);
      cb(refusal, refusal ? undefined : chunk);
    },
  });
}

export interface DecodeJob {
  path: string;
  sheet: string | null;
  /** The file written (the caller renames it into place). */
  part: string;
  /** The upload's size: the expansion limits are ratios of it. */
  packed: number;
}

export async function decodeWorkbookTo(job: DecodeJob): Promise<void> {
  await pipeline(Readable.from(xlsxAsCsv(job.path, job.sheet)), decodedGuard(job.packed), fs.createWriteStream(job.part, { mode: 0o600 }));
}

/** An error as it crosses from the thread: enough to rebuild what the readers threw. */
export interface ThreadError {
  name: string;
  message: string;
  syscall?: string;
  code?: string;
}

export function toThreadError(e: unknown): ThreadError {
  const err = e instanceof Error ? e : new Error(String(e));
  const sys = err as NodeJS.ErrnoException;
  return { name: err.name, message: err.message, syscall: sys.syscall, code: sys.code };
}

export function fromThreadError(t: ThreadError): Error {
  const e = new Error(t.message) as NodeJS.ErrnoException;
  e.name = t.name;
  if (t.syscall) e.syscall = t.syscall;
  if (t.code) e.code = t.code;
  return e;
}
