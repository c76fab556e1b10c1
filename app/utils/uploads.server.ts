import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { UploadHandler } from "@remix-run/node";
import { env } from "./env.server";
import { formatBytes } from "./format";

/**
 * Purge uploads: streamed to `${DATA_DIR}/uploads/<userId>/<id>.csv` (never buffered whole), with a
 * `<id>.json` beside it (original name, size). The id is 32 random hex characters and the path is built
 * from the signed-in user's id, so another user's upload id simply does not exist for you.
 * A file over the cap is deleted as soon as the cap is passed; a file is only visible under its final
 * name after it was written completely (written as `.part`, then renamed).
 */

export interface StoredUpload {
  id: string;
  userId: string;
  /** Absolute path of the data. */
  path: string;
  originalName: string;
  bytes: number;
  createdAt: string;
  manual: boolean;
}

const ID_RE = /^[a-f0-9]{32}$/;
/** Largest field (non-file part) accepted in the multipart upload form. */
const MAX_FIELD_BYTES = 16 * 1024;

export class UploadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`File is too large. The limit is ${formatBytes(limit)}.`);
    this.name = "UploadTooLargeError";
  }
}

export function uploadLimitMessage(limit = env().MAX_UPLOAD_BYTES): string {
  return new UploadTooLargeError(limit).message;
}

export function uploadsRoot(): string {
  return path.resolve(env().DATA_DIR, "uploads");
}

function userDir(userId: string): string {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) throw new Error("invalid user id");
  return path.join(uploadsRoot(), userId);
}

/** A display-safe original file name (no directories, no control characters, bounded length). */
export function cleanOriginalName(name: string | undefined | null): string {
  const base = (name ?? "").split(/[/\\]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 200);
  return cleaned || "upload.csv";
}

async function writeMeta(upload: StoredUpload): Promise<void> {
  const metaPath = path.join(path.dirname(upload.path), `${upload.id}.json`);
  const { path: _p, ...rest } = upload;
  await fsp.writeFile(metaPath, JSON.stringify(rest));
}

async function drain(data: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const _chunk of data) {
    /* discard */
  }
}

/**
 * An upload handler for `unstable_parseMultipartFormData`: the part named `fileField` is streamed to disk
 * (with backpressure) and replaced in the form data by its upload id; other small text fields are kept;
 * other files are discarded. Throws UploadTooLargeError (nothing left on disk) past `maxBytes`.
 * An empty file input (no file chosen) yields no field.
 */
export function createCsvUploadHandler(opts: { userId: string; maxBytes?: number; fileField?: string }): UploadHandler {
  const maxBytes = opts.maxBytes ?? env().MAX_UPLOAD_BYTES;
  const fileField = opts.fileField ?? "file";
  return async ({ name, filename, data }) => {
    // A text field named like the file field is never taken as an upload id: only a file streamed by this
    // request counts (so a refused upload can never delete a file an earlier request stored).
    if (filename === undefined && name === fileField) {
      await drain(data);
      return undefined;
    }
    if (filename === undefined) {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of data) {
        size += chunk.byteLength;
        if (size > MAX_FIELD_BYTES) throw new UploadTooLargeError(MAX_FIELD_BYTES);
        chunks.push(Buffer.from(chunk));
      }
      return Buffer.concat(chunks).toString("utf8");
    }
    if (name !== fileField || filename === "") {
      await drain(data);
      return undefined;
    }
    const dir = userDir(opts.userId);
    await fsp.mkdir(dir, { recursive: true });
    const id = crypto.randomBytes(16).toString("hex");
    const finalPath = path.join(dir, `${id}.csv`);
    const partPath = `${finalPath}.part`;
    const out = fs.createWriteStream(partPath, { flags: "wx" });
    const failed = new Promise<never>((_, reject) => out.once("error", reject));
    failed.catch(() => {});
    let bytes = 0;
    try {
      for await (const chunk of data) {
        bytes += chunk.byteLength;
        if (bytes > maxBytes) throw new UploadTooLargeError(maxBytes);
        if (!out.write(chunk)) {
          await Promise.race([new Promise<void>((r) => out.once("drain", () => r())), failed]);
        }
      }
      await Promise.race([new Promise<void>((resolve) => out.end(() => resolve())), failed]);
      await fsp.rename(partPath, finalPath);
    } catch (e) {
      out.destroy();
      await fsp.rm(partPath, { force: true });
      throw e;
    }
    await writeMeta({
      id,
      userId: opts.userId,
      path: finalPath,
      originalName: cleanOriginalName(filename),
      bytes,
      createdAt: new Date().toISOString(),
      manual: false,
    });
    return id;
  };
}

/**
 * Stores typed numbers as a one-column CSV (header `Number`) and returns the upload. With `id` (the form's
 * submission id) a resent form finds the upload of its first submission instead of writing a second one.
 */
export async function saveManualUpload(userId: string, numbers: string[], opts: { id?: string } = {}): Promise<StoredUpload> {
  const body = `Number\n${numbers.join("\n")}\n`;
  if (opts.id && ID_RE.test(opts.id)) {
    const first = await sameSubmission(userId, opts.id, body);
    if (first !== "new") {
      if (first) return first;
      // The id was used for other numbers (e.g. an old form resent after editing): store these afresh.
      return saveManualUpload(userId, numbers);
    }
  }
  const dir = userDir(userId);
  await fsp.mkdir(dir, { recursive: true });
  const id = opts.id && ID_RE.test(opts.id) ? opts.id : crypto.randomBytes(16).toString("hex");
  const finalPath = path.join(dir, `${id}.csv`);
  try {
    await fsp.writeFile(`${finalPath}.part`, body, { flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !opts.id) throw e;
    // A parallel request of the same submission is writing it: wait for it.
    for (let i = 0; i < 50; i++) {
      const first = await sameSubmission(userId, id, body);
      if (first !== "new") return first ?? saveManualUpload(userId, numbers);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw e;
  }
  await fsp.rename(`${finalPath}.part`, finalPath);
  const upload: StoredUpload = {
    id,
    userId,
    path: finalPath,
    originalName: "manual-entry.csv",
    bytes: Buffer.byteLength(body),
    createdAt: new Date().toISOString(),
    manual: true,
  };
  await writeMeta(upload);
  return upload;
}

/** "new" when no upload has this id yet; the upload when it holds exactly `body`; null when it holds other data. */
async function sameSubmission(userId: string, id: string, body: string): Promise<StoredUpload | null | "new"> {
  const existing = await getUpload(userId, id);
  if (!existing) return "new";
  const content = await fsp.readFile(existing.path, "utf8").catch(() => null);
  return content === body ? existing : null;
}

/** The user's upload with this id, or undefined (unknown id, malformed id, someone else's, or gone). */
export async function getUpload(userId: string, id: string | null | undefined): Promise<StoredUpload | undefined> {
  if (!id || !ID_RE.test(id)) return undefined;
  const dir = userDir(userId);
  try {
    const meta = JSON.parse(await fsp.readFile(path.join(dir, `${id}.json`), "utf8")) as Omit<StoredUpload, "path">;
    const dataPath = path.join(dir, `${id}.csv`);
    await fsp.access(dataPath);
    if (meta.userId !== userId || meta.id !== id) return undefined;
    return { ...meta, path: dataPath };
  } catch {
    return undefined;
  }
}

export async function deleteUpload(upload: StoredUpload): Promise<void> {
  await fsp.rm(upload.path, { force: true });
  await fsp.rm(path.join(path.dirname(upload.path), `${upload.id}.json`), { force: true });
}

/** The first `maxBytes` of an upload as text (to refill the manual-entry box when going back). */
export async function readUploadHead(upload: StoredUpload, maxBytes = 2 * 1024 * 1024): Promise<string | null> {
  if (upload.bytes > maxBytes) return null;
  return fsp.readFile(upload.path, "utf8");
}

/** Uploads are kept this long (going back and forth in the wizard), then swept. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the user's uploads older than `ttlMs` (and `.part` leftovers of crashed uploads), except files a
 * queued or running job still reads. `inUse(paths)` answers which of the paths are still needed.
 * Returns the ids removed.
 */
export async function sweepStaleUploads(
  userId: string,
  inUse: (paths: string[]) => Promise<Set<string>>,
  opts: { now?: Date; ttlMs?: number } = {},
): Promise<string[]> {
  const dir = userDir(userId);
  const cutoff = (opts.now ?? new Date()).getTime() - (opts.ttlMs ?? UPLOAD_TTL_MS);
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const stale: string[] = [];
  for (const name of names) {
    const full = path.join(dir, name);
    const st = await fsp.stat(full).catch(() => null);
    if (!st || st.mtimeMs >= cutoff) continue;
    if (name.endsWith(".part")) await fsp.rm(full, { force: true });
    else if (name.endsWith(".csv") && ID_RE.test(name.slice(0, -4))) stale.push(full);
  }
  if (!stale.length) return [];
  const keep = await inUse(stale);
  const removed: string[] = [];
  for (const full of stale) {
    if (keep.has(full)) continue;
    const id = path.basename(full, ".csv");
    await fsp.rm(full, { force: true });
    await fsp.rm(path.join(dir, `${id}.json`), { force: true });
    removed.push(id);
  }
  return removed;
}
