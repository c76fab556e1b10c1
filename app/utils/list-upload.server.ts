import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { unstable_parseMultipartFormData } from "@remix-run/node";
import { env } from "./env.server";
import { formatBytes } from "./format";

/*
 * List loads (containers, DNC): a form with text fields up to a few MB (manual entry of up to 100,000 numbers)
 * and one streamed file. (Purge uploads use uploads.server.ts.)
 */

/** One file written to disk from a form: the full stream, under the size cap, renamed into place when complete. */
export interface StoredUpload {
  /** Absolute path of the complete file. */
  path: string;
  /** The browser's file name (basename only). */
  fileName: string;
  bytes: number;
  /**
   * An upper bound of the numbers in the file, for the plan-usage reservation: its non-empty lines, less one
   * when the first of them has no digit (a header such as `Phone`).
   */
  lines: number;
}

export interface UploadForm {
  formData: FormData;
  /** Files by field name (only fields listed in `fileFields`, only non-empty files). */
  files: Map<string, StoredUpload>;
  /** Set when a file was larger than the cap: nothing of it is kept. */
  tooLarge: boolean;
  /** Set when a text field was larger than its cap. */
  textTooLarge: boolean;
  /** Deletes the stored files (call whenever they are not handed over to a job). */
  discard(): Promise<void>;
  /** Takes over a file staged earlier by the same user (`uploadToken`), as if it came with this form. */
  adoptStaged(field: string, userId: string, token: unknown): Promise<boolean>;
}

export function uploadTooLargeMessage(maxBytes = env().MAX_UPLOAD_BYTES): string {
  return `The file is too large. The largest file accepted is ${formatBytes(maxBytes)}.`;
}


export function uploadsDir(area: string): string {
  return path.resolve(env().DATA_DIR, "uploads", area);
}

function isMultipart(request: Request): boolean {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

/**
 * Reads a form that may carry files, streaming each file part to `${DATA_DIR}/uploads/<area>/` (never held in
 * memory). A file over `maxBytes` is not kept (its part is read to the end and dropped, so the browser gets our
 * answer rather than a reset connection) and `tooLarge` is set. Files are written as `.part` and renamed when
 * complete; on any failure every file of this request is deleted. Plain url-encoded forms work too.
 */
export async function readUploadForm(
  request: Request,
  opts: { area: string; fileFields: string[]; maxBytes?: number; maxTextBytes?: number },
): Promise<UploadForm> {
  const maxBytes = opts.maxBytes ?? env().MAX_UPLOAD_BYTES;
  const maxTextBytes = opts.maxTextBytes ?? 4 * 1024 * 1024;
  const files = new Map<string, StoredUpload>();
  const written: string[] = [];
  let tooLarge = false;
  let textTooLarge = false;
  const discard = async () => {
    await Promise.all(written.map((p) => fs.promises.rm(p, { force: true })));
    files.clear();
  };
  const adoptStaged = async (field: string, userId: string, token: unknown) => {
    if (files.has(field)) return true;
    const upload = await claimStagedUpload(userId, token);
    if (!upload) return false;
    written.push(upload.path);
    files.set(field, upload);
    return true;
  };

  if (!isMultipart(request)) {
    let formData: FormData;
    try {
      formData = await request.formData();
    } catch {
      formData = new FormData();
    }
    for (const [, v] of formData) if (typeof v === "string" && v.length > maxTextBytes) textTooLarge = true;
    return { formData, files, tooLarge, textTooLarge, discard, adoptStaged };
  }

  const dir = uploadsDir(opts.area);
  await fs.promises.mkdir(dir, { recursive: true });

  try {
    const formData = await unstable_parseMultipartFormData(request, async (part) => {
      const { name, filename, data } = part;
      if (opts.fileFields.includes(name) && !filename) {
        for await (const _ of data) void _; // an empty file input (or a text value posing as the file)
        return undefined;
      }
      if (filename === undefined || !opts.fileFields.includes(name)) {
        if (filename !== undefined) {
          for await (const _ of data) void _; // a file in a field we do not take: drop it
          return undefined;
        }
        const chunks: Uint8Array[] = [];
        let size = 0;
        for await (const chunk of data) {
          size += chunk.byteLength;
          if (size <= maxTextBytes) chunks.push(chunk);
        }
        if (size > maxTextBytes) {
          textTooLarge = true;
          return undefined;
        }
        return Buffer.concat(chunks).toString("utf8");
      }
      const id = crypto.randomUUID();
      const partPath = path.join(dir, `${id}.part`);
      const finalPath = path.join(dir, `${id}.csv`);
      written.push(partPath, finalPath);
      const out = fs.createWriteStream(partPath);
      let bytes = 0;
      const rows = new RowCounter();
      let over = false;
      try {
        for await (const chunk of data) {
          bytes += chunk.byteLength;
          if (over) continue;
          if (bytes > maxBytes) {
            over = true;
            continue;
          }
          rows.push(chunk);
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", resolve));
        }
      } finally {
        await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
      }
      if (over) {
        tooLarge = true;
        await fs.promises.rm(partPath, { force: true });
        return undefined;
      }
      if (bytes === 0 || !filename) {
        await fs.promises.rm(partPath, { force: true });
        return undefined;
      }
      await fs.promises.rename(partPath, finalPath);
      files.set(name, { path: finalPath, fileName: filename, bytes, lines: rows.count() });
      return `upload:${id}`;
    });
    return { formData, files, tooLarge, textTooLarge, discard, adoptStaged };
  } catch (e) {
    await discard();
    if (e instanceof TypeError) {
      // Not parseable as multipart: answer as an empty form (a 400 from the caller), never a 500.
      return { formData: new FormData(), files, tooLarge, textTooLarge, discard, adoptStaged };
    }
    throw e;
  }
}

/*
 * Staged uploads (JavaScript only): the dialog uploads the chosen file at once to /resources/list-uploads with a
 * progress bar, gets a token, and the form then posts the token instead of the file. Staged files live under
 * `uploads/lists/staged/<userId>/<token>.csv` (+ `.json`), so a token is only ever found by the user who
 * staged it. Each user keeps at most MAX_STAGED files (older ones are deleted); unclaimed ones are swept after
 * STAGED_TTL_MS.
 */
const TOKEN_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_STAGED = 2;
export const STAGED_TTL_MS = 24 * 60 * 60 * 1000;

function stagedDir(userId: string): string {
  if (!TOKEN_RE.test(userId)) throw new Error("invalid user id");
  return path.join(uploadsDir("lists"), "staged", userId);
}

export interface StagedUpload {
  token: string;
  fileName: string;
  bytes: number;
}

/** Stores the request's `file` part as a staged upload of the user (413 message via `tooLarge`). */
export async function stageUpload(
  request: Request,
  userId: string,
): Promise<{ ok: true; upload: StagedUpload } | { ok: false; status: number; error: string }> {
  const area = path.join("lists", "staged", userId);
  stagedDir(userId); // validates the id
  const form = await readUploadForm(request, { area, fileFields: ["file"], maxTextBytes: 16 * 1024 });
  if (form.tooLarge) return { ok: false, status: 413, error: uploadTooLargeMessage() };
  const f = form.files.get("file");
  if (!f) return { ok: false, status: 400, error: "You must upload a CSV file with phone numbers." };
  const token = path.basename(f.path, ".csv");
  await fs.promises.writeFile(path.join(stagedDir(userId), `${token}.json`), JSON.stringify({ fileName: f.fileName, bytes: f.bytes, lines: f.lines }));
  await pruneStaged(userId, token);
  return { ok: true, upload: { token, fileName: f.fileName, bytes: f.bytes } };
}

async function pruneStaged(userId: string, keep: string): Promise<void> {
  const dir = stagedDir(userId);
  const entries = (await fs.promises.readdir(dir)).filter((n) => n.endsWith(".csv") && n !== `${keep}.csv`);
  const withTimes = await Promise.all(
    entries.map(async (n) => ({ n, t: (await fs.promises.stat(path.join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  withTimes.sort((a, b) => b.t - a.t);
  for (const { n } of withTimes.slice(MAX_STAGED - 1)) {
    const base = n.slice(0, -4);
    await fs.promises.rm(path.join(dir, `${base}.csv`), { force: true });
    await fs.promises.rm(path.join(dir, `${base}.json`), { force: true });
  }
}

/** Moves the user's staged upload out of staging and returns it; undefined for any other token. */
export async function claimStagedUpload(userId: string, token: unknown): Promise<StoredUpload | undefined> {
  if (typeof token !== "string" || !TOKEN_RE.test(token) || !TOKEN_RE.test(userId)) return undefined;
  const dir = stagedDir(userId);
  let meta: { fileName: string; bytes: number; lines: number };
  try {
    meta = JSON.parse(await fs.promises.readFile(path.join(dir, `${token}.json`), "utf8"));
  } catch {
    return undefined;
  }
  const target = path.join(uploadsDir("lists"), `${token}.csv`);
  try {
    await fs.promises.rename(path.join(dir, `${token}.csv`), target);
  } catch {
    return undefined;
  }
  await fs.promises.rm(path.join(dir, `${token}.json`), { force: true });
  return { path: target, fileName: meta.fileName, bytes: meta.bytes, lines: meta.lines };
}

let lastStagedSweep = 0;

/** Deletes staged uploads nobody claimed within the TTL (at most every 10 minutes per process unless forced). */
export async function sweepStagedUploads(now = Date.now(), force = false): Promise<void> {
  if (!force && now - lastStagedSweep < 10 * 60 * 1000) return;
  lastStagedSweep = now;
  const root = path.join(uploadsDir("lists"), "staged");
  let users: string[];
  try {
    users = await fs.promises.readdir(root);
  } catch {
    return;
  }
  for (const u of users) {
    const dir = path.join(root, u);
    for (const n of await fs.promises.readdir(dir).catch(() => [] as string[])) {
      const st = await fs.promises.stat(path.join(dir, n)).catch(() => null);
      if (st && now - st.mtimeMs > STAGED_TTL_MS) await fs.promises.rm(path.join(dir, n), { force: true });
    }
  }
}

/** Counts non-empty lines of a byte stream and whether the first one holds a digit (see StoredUpload.lines). */
export class RowCounter {
  private lines = 0;
  private content = false;
  private first: "pending" | "digit" | "none" = "pending";
  private firstHasDigit = false;

  push(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 10) {
        if (this.content) this.endLine();
        continue;
      }
      if (b === 13 || b === 32 || b === 9) continue;
      this.content = true;
      if (this.first === "pending" && b >= 48 && b <= 57) this.firstHasDigit = true;
    }
  }

  private endLine(): void {
    this.lines++;
    this.content = false;
    if (this.first === "pending") this.first = this.firstHasDigit ? "digit" : "none";
  }

  count(): number {
    let n = this.lines;
    let first = this.first;
    if (this.content) {
      n++;
      if (first === "pending") first = this.firstHasDigit ? "digit" : "none";
    }
    return first === "none" ? n - 1 : n;
  }
}
