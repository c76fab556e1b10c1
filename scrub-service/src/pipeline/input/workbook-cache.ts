/**
 * A workbook is decoded once per upload, on a thread of its own (workbook-thread.ts: the event loop that serves
 * pages never parses a sheet, and a decode's heap is capped): its sheet is converted to UTF-8 CSV into a file beside the upload
 * (`<upload>.<key>.decoded`), which the preview, the row count and the scrub then read as plain text. The probe
 * of 2026-11-25 saw each request re-read 30M shared strings (preview 40 s, start 50 s, 4.4 GB for three loads at
 * once). At most maxWorkbookDecodes() workbooks are decoded at once per process (others wait their turn), and a
 * request for a sheet being decoded waits for that decode instead of starting another (docs/decisions/152).
 * Files outside DATA_DIR/uploads (the CLI's input) are decoded into the temporary folder and removed at exit.
 */
import { engineConfig, withEngineConfig } from "../../config";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import nodePath from "node:path";
import { Worker } from "node:worker_threads";
import { defaultWorkbookThreadPath } from "../../dist-paths";
import { Turns } from "../../ops/turns";
import { explainReadError, InputFormatError, isInputFormatError } from "./errors";
import { maxWorkbookDecodes, workbookHeapMb } from "./limits";
import { fromThreadError, type DecodeJob, type ThreadError } from "./workbook-decode";

/** Decodes waiting for their turn, released in order. */
const slots = new Turns(maxWorkbookDecodes);
const inFlight = new Map<string, Promise<string>>();
/** Refusals by cache key (a hostile workbook is refused again at once, not decoded again). */
const refused = new Map<string, Error>();
const temporary = new Set<string>();

/** Decodes started and the most running at once in this process (tests and the benchmark read them). */
export const workbookDecodeStats = { started: 0, peakActive: 0 };

function uploadsRoot(): string {
  return nodePath.resolve(engineConfig().DATA_DIR, "uploads");
}

function cachePath(path: string, sheet: string | null, st: fs.Stats): string {
  const key = crypto
    .createHash("sha256")
    .update(`${sheet ?? ""}\0${st.size}\0${st.mtimeMs}\0${st.ino}`)
    .digest("hex")
    .slice(0, 16);
  const resolved = nodePath.resolve(path);
  if (resolved.startsWith(uploadsRoot() + nodePath.sep)) return `${resolved}.${key}.decoded`;
  const dir = nodePath.join(os.tmpdir(), "dpt-decoded");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!temporary.size) sweepTemporary(dir);
  const file = nodePath.join(dir, `${crypto.createHash("sha256").update(resolved).digest("hex").slice(0, 16)}.${key}.decoded`);
  if (!temporary.size) process.once("exit", () => temporary.forEach((f) => fs.rmSync(f, { force: true })));
  temporary.add(file);
  return file;
}

/** Removes decoded files older than an hour that a process killed before its exit handler left behind. */
function sweepTemporary(dir: string): void {
  const cutoff = Date.now() - 60 * 60 * 1000;
  for (const name of fs.readdirSync(dir)) {
    const file = nodePath.join(dir, name);
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (st && st.mtimeMs < cutoff) fs.rmSync(file, { force: true });
  }
}

/** Decodes on a workbook thread (workbook-thread.ts) and resolves when `job.part` is written, or rejects. */
function decodeOnThread(job: DecodeJob): Promise<void> {
  return new Promise((resolve, reject) => {
    const heapMb = workbookHeapMb();
    const thread = new Worker(defaultWorkbookThreadPath(), {
      workerData: withEngineConfig(job),
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (e: Error | null) => {
      if (settled) return;
      settled = true;
      if (e) reject(e);
      else resolve();
    };
    thread.once("message", (m: { ok: true } | { ok: false; error: ThreadError }) => settle(m.ok ? null : fromThreadError(m.error)));
    thread.once("error", (e: NodeJS.ErrnoException) =>
      settle(
        e.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? new InputFormatError(`The Excel file needs more than ${heapMb} MB of memory to read. Save the sheet as CSV and upload that instead.`)
          : e,
      ),
    );
    thread.once("exit", (code) => settle(code === 0 ? null : new Error(`the workbook thread stopped (exit ${code})`)));
  });
}

async function decode(path: string, sheet: string | null, target: string, packed: number): Promise<string> {
  const release = await slots.take();
  workbookDecodeStats.started++;
  workbookDecodeStats.peakActive = Math.max(workbookDecodeStats.peakActive, slots.active);
  const part = `${target}.${process.pid}-${crypto.randomBytes(4).toString("hex")}.part`;
  try {
    await decodeOnThread({ path, sheet, part, packed });
    await fs.promises.rename(part, target);
    return target;
  } catch (e) {
    await fs.promises.rm(part, { force: true });
    throw explainReadError("Excel file")(e); // the readers' own refusals and system errors pass as they are
  } finally {
    release();
  }
}

/** The path of the sheet as UTF-8 CSV, decoded now or earlier. Throws the readers' InputFormatError. */
export async function decodedWorkbook(path: string, sheet: string | null): Promise<string> {
  const st = await fs.promises.stat(path);
  const target = cachePath(path, sheet, st);
  const known = refused.get(target);
  if (known) throw known;
  if (fs.existsSync(target)) return target;
  let running = inFlight.get(target);
  if (!running) {
    running = decode(path, sheet, target, st.size).finally(() => inFlight.delete(target));
    inFlight.set(target, running);
  }
  try {
    return await running;
  } catch (e) {
    if (isInputFormatError(e)) {
      refused.set(target, e);
      while (refused.size > 256) refused.delete(refused.keys().next().value!);
    }
    throw e;
  }
}
