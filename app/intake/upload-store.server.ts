import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { env } from "~/utils/env.server";
import { formatBytes } from "~/utils/format";
import { UPLOAD_ID_RE, UUID_RE } from "~/utils/ids";
import { CodedError } from "scrub-service/domain";

/**
 * The one upload store. Every file a person or an API client sends (purge wizard, container and DNC dialogs,
 * the staging endpoint, the API, typed numbers written as CSV) is kept as
 * `${DATA_DIR}/uploads/<userId>/<id>.csv` with `<id>.json` beside it. The id is 32 random hex characters and
 * the folder is the signed-in user's, so another user's id simply does not exist for you. A file is written as
 * `.part` and only renamed into place once complete; a file over the cap is deleted as soon as it passes it.
 */

export interface StoredUpload {
  id: string;
  userId: string;
  /** Absolute path of the data. */
  path: string;
  /** The browser's file name (base name, display-safe). */
  originalName: string;
  bytes: number;
  createdAt: string;
  /** Typed-in numbers written as a one-column CSV. */
  manual: boolean;
  /** Sent ahead of its form (upload progress); its id is a one-time token for the list dialogs. */
  staged: boolean;
}

export class UploadTooLargeError extends CodedError {
  constructor(readonly limit: number) {
    super("too_large", uploadTooLargeMessage(limit));
    this.name = "UploadTooLargeError";
  }
}

/** The one "no room to store it" message: the server's disk is full, which is never the sender's fault. */
export const STORAGE_FULL_MESSAGE = "The server has no room to store this upload just now. Nothing is wrong with your file; please try again later.";

/** The disk (or the quota) was full while an upload was being stored; nothing of it is kept. */
export class StorageFullError extends CodedError {
  readonly status = 507;
  constructor(readonly cause: unknown) {
    super("storage_full", STORAGE_FULL_MESSAGE, { cause });
    this.name = "StorageFullError";
  }
}

/** A write failure as StorageFullError when the disk or quota is full; any other error as it is. */
function orStorageFull(e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT" ? new StorageFullError(e) : e;
}

/** The one "file too large" message (web, API and the server's early refusal say the same). */
export function uploadTooLargeMessage(limit = env().MAX_UPLOAD_BYTES): string {
  return `File is too large. The limit is ${formatBytes(limit)}.`;
}

export function uploadsRoot(): string {
  return path.resolve(env().DATA_DIR, "uploads");
}

function userDir(userId: string): string {
  if (!UUID_RE.test(userId)) throw new Error("invalid user id");
  return path.join(uploadsRoot(), userId.toLowerCase());
}

/** A display-safe original file name (no directories, no control characters, bounded length). */
export function cleanOriginalName(name: string | undefined | null): string {
  const base = (name ?? "").split(/[/\\]/).pop() ?? "";
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, 200);
  return cleaned || "upload.csv";
}

const newId = () => crypto.randomBytes(16).toString("hex");
const metaPath = (upload: Pick<StoredUpload, "path" | "id">) => path.join(path.dirname(upload.path), `${upload.id}.json`);

/** Writes the upload's metadata beside its data; on failure (a full disk) neither is kept. */
async function writeMeta(upload: StoredUpload): Promise<void> {
  const { path: _p, ...rest } = upload;
  try {
    await fsp.writeFile(metaPath(upload), JSON.stringify(rest));
  } catch (e) {
    await Promise.all([fsp.rm(metaPath(upload), { force: true }), fsp.rm(upload.path, { force: true })]);
    throw orStorageFull(e);
  }
}

/**
 * The one place an upload's bytes are read: streams `data` to the user's folder (with backpressure) and returns
 * the stored upload. Past `maxBytes` the rest of the part is read and dropped (so the client gets our answer, not a reset connection), nothing is kept, and UploadTooLargeError is thrown.
 * Returns null for an empty part without a name (no file chosen).
 */
export async function storeUploadStream(
  userId: string,
  fileName: string | undefined,
  data: AsyncIterable<Uint8Array>,
  opts: { maxBytes?: number; staged?: boolean } = {},
): Promise<StoredUpload | null> {
  const maxBytes = opts.maxBytes ?? env().MAX_UPLOAD_BYTES;
  const dir = userDir(userId);
  await fsp.mkdir(dir, { recursive: true });
  const id = newId();
  const finalPath = path.join(dir, `${id}.csv`);
  const partPath = `${finalPath}.${WRITER_TAG}.part`;
  const out = fs.createWriteStream(partPath, { flags: "wx" });
  const failed = new Promise<never>((_, reject) => out.once("error", reject));
  let writeError: unknown = null;
  failed.catch((e) => (writeError ??= e));
  let bytes = 0;
  try {
    // Past the cap or after a write error (a full disk) the rest is read and dropped: leaving the loop early
    // would stall the multipart parser that feeds `data`, and the client would get no answer.
    for await (const chunk of data) {
      bytes += chunk.byteLength;
      if (bytes > maxBytes || writeError) continue;
      if (!out.write(chunk)) await Promise.race([new Promise<void>((r) => out.once("drain", () => r())), failed]).catch(() => {});
    }
    if (writeError) throw writeError;
    await Promise.race([new Promise<void>((resolve) => out.end(() => resolve())), failed]);
    if (bytes > maxBytes) throw new UploadTooLargeError(maxBytes);
    if (bytes === 0 && !fileName) {
      await fsp.rm(partPath, { force: true });
      return null;
    }
    await fsp.rename(partPath, finalPath);
  } catch (e) {
    out.destroy();
    await fsp.rm(partPath, { force: true });
    throw orStorageFull(e);
  }
  const upload: StoredUpload = {
    id,
    userId,
    path: finalPath,
    originalName: cleanOriginalName(fileName),
    bytes,
    createdAt: new Date().toISOString(),
    manual: false,
    staged: opts.staged ?? false,
  };
  await writeMeta(upload);
  return upload;
}

/**
 * Stores typed numbers as a one-column CSV (header `Number`) and returns the upload. With `id` (the form's
 * submission id) a resent form finds the upload of its first submission instead of writing a second one.
 */
export async function saveTypedNumbers(userId: string, numbers: string[], opts: { id?: string } = {}): Promise<StoredUpload> {
  const body = `Number\n${numbers.join("\n")}\n`;
  const wanted = opts.id && UPLOAD_ID_RE.test(opts.id) ? opts.id : undefined;
  if (wanted) {
    const first = await sameSubmission(userId, wanted, body);
    if (first !== "new") {
      if (first) return first;
      // The id was used for other numbers (e.g. an old form resent after editing): store these afresh.
      return saveTypedNumbers(userId, numbers);
    }
  }
  const dir = userDir(userId);
  await fsp.mkdir(dir, { recursive: true });
  const id = wanted ?? newId();
  const finalPath = path.join(dir, `${id}.csv`);
  try {
    await fsp.writeFile(`${finalPath}.part`, body, { flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST" || !wanted) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") await fsp.rm(`${finalPath}.part`, { force: true });
      throw orStorageFull(e);
    }
    // A parallel request of the same submission is writing it: wait for it.
    for (let i = 0; i < 50; i++) {
      const first = await sameSubmission(userId, id, body);
      if (first !== "new") return first ?? saveTypedNumbers(userId, numbers);
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
    staged: false,
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

/** The user's upload with this id, or undefined (unknown id, malformed id, someone else's, claimed, or gone). */
export async function getUpload(userId: string, id: unknown): Promise<StoredUpload | undefined> {
  if (typeof id !== "string" || !UPLOAD_ID_RE.test(id) || !UUID_RE.test(userId)) return undefined;
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

/**
 * Takes a staged upload of this user for one form: returns it and forgets its id, so the token works once
 * (the file stays for the load that reads it; the sweep removes it afterwards).
 */
export async function claimStagedUpload(userId: string, token: unknown): Promise<StoredUpload | undefined> {
  const upload = await getUpload(userId, token);
  if (!upload?.staged) return undefined;
  try {
    await fsp.rm(metaPath(upload));
  } catch {
    return undefined; // claimed by a parallel request
  }
  return { ...upload, staged: false };
}

export async function deleteUpload(upload: Pick<StoredUpload, "path" | "id">): Promise<void> {
  await fsp.rm(upload.path, { force: true });
  await fsp.rm(metaPath(upload), { force: true });
  // a workbook's decoded sheets beside it (scrub-service/src/pipeline/input/workbook-cache.ts)
  const prefix = `${path.basename(upload.path)}.`;
  for (const name of await fsp.readdir(path.dirname(upload.path)).catch(() => [] as string[])) {
    if (name.startsWith(prefix) && (name.endsWith(".decoded") || name.endsWith(".part")))
      await fsp.rm(path.join(path.dirname(upload.path), name), { force: true });
  }
}

/** The first `maxBytes` of an upload as text (to refill the manual-entry box when going back). */
export async function readUploadHead(upload: StoredUpload, maxBytes = 2 * 1024 * 1024): Promise<string | null> {
  if (upload.bytes > maxBytes) return null;
  return fsp.readFile(upload.path, "utf8");
}

/** Each user keeps at most this many staged (unclaimed) files; older ones are deleted. */
export const MAX_STAGED_PER_USER = 2;

/** Deletes the user's staged uploads beyond the newest MAX_STAGED_PER_USER. */
export async function pruneStagedUploads(userId: string): Promise<void> {
  const dir = userDir(userId);
  const staged: { id: string; createdAt: string }[] = [];
  for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith(".json")) continue;
    const meta = await fsp
      .readFile(path.join(dir, name), "utf8")
      .then((t) => JSON.parse(t) as StoredUpload)
      .catch(() => null);
    if (meta?.staged) staged.push({ id: meta.id, createdAt: meta.createdAt });
  }
  staged.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  for (const s of staged.slice(MAX_STAGED_PER_USER)) await deleteUpload({ id: s.id, path: path.join(dir, `${s.id}.csv`) });
}

/**
 * Who writes an upload's `.part`: this host and process (`<id>.csv.<host>~<pid>.part`), so a later start can tell
 * a dead writer's leftover from a live one's file on a DATA_DIR other processes share (decision 175).
 */
const WRITER_TAG = `${os.hostname().replace(/[^A-Za-z0-9.-]/g, "_")}~${process.pid}`;
const TAGGED_PART = /^[0-9a-f]+\.csv\.([A-Za-z0-9._-]+)~(\d+)\.part$/;

/** A `.part` no live writer touched for this long is a leftover whoever wrote it (Node ends a request after 5 min). */
export const PART_QUIET_MS = 10 * 60 * 1000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Deletes `.part` files of the upload store that no live writer is writing (issue #49: a 300 MB `.part` left by a
 * SIGTERM stayed for a day). `atStart`: this process writes none yet, so its own pid's are leftovers (a pid
 * reused after a restart). `shared`: other processes may write in this DATA_DIR (services mode; in embedded
 * mode PGlite's lock makes this process the only one, and every `.part` found at start is a leftover):
 * - written by this host: kept only while that process lives (and is not this one at start);
 * - anything else (another host's, one of an older version without a tag, the engine's workbook decodes): kept
 *   until untouched for `quietMs` (a live writer changes its mtime with every chunk).
 * Returns the paths removed.
 */
export async function cleanPartialUploads(opts: { atStart: boolean; shared: boolean; now?: number; quietMs?: number }): Promise<string[]> {
  const root = uploadsRoot();
  const now = opts.now ?? Date.now();
  const quietMs = opts.quietMs ?? PART_QUIET_MS;
  const host = WRITER_TAG.slice(0, WRITER_TAG.lastIndexOf("~"));
  const removed: string[] = [];
  const users = (await fsp.readdir(root).catch(() => [] as string[])).filter((u) => UUID_RE.test(u));
  for (const user of users) {
    const dir = path.join(root, user);
    for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
      if (!name.endsWith(".part")) continue;
      const full = path.join(dir, name);
      let leftover: boolean;
      const tag = TAGGED_PART.exec(name);
      if (opts.atStart && !opts.shared) leftover = true;
      else if (tag && tag[1] === host) {
        const pid = Number(tag[2]);
        leftover = pid === process.pid ? opts.atStart : !processAlive(pid);
      } else {
        const st = await fsp.stat(full).catch(() => null);
        leftover = st !== null && now - st.mtimeMs >= quietMs;
      }
      if (!leftover) continue;
      await fsp.rm(full, { force: true });
      removed.push(full);
    }
  }
  return removed;
}

/** Uploads are kept this long (going back and forth in the wizard, a staged file waiting for its form). */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes every user's uploads older than `ttlMs` (and `.part` leftovers no live writer has, cleanPartialUploads), except files a
 * queued or running job or load still reads: `inUse(paths)` answers which of the paths are still needed.
 * Returns the paths removed. Run hourly by the housekeeping (app/intake/sweep.server.ts).
 */
export async function sweepStaleUploads(inUse: (paths: string[]) => Promise<Set<string>>, opts: { now?: Date; ttlMs?: number } = {}): Promise<string[]> {
  const root = uploadsRoot();
  const cutoff = (opts.now ?? new Date()).getTime() - (opts.ttlMs ?? UPLOAD_TTL_MS);
  // `.part` files go by their writer, not by the day (cleanPartialUploads)
  await cleanPartialUploads({ atStart: false, shared: true, now: (opts.now ?? new Date()).getTime() });
  const removed: string[] = [];
  const users = (await fsp.readdir(root).catch(() => [] as string[])).filter((u) => UUID_RE.test(u));
  for (const user of users) {
    const dir = path.join(root, user);
    const stale: string[] = [];
    for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
      const full = path.join(dir, name);
      const st = await fsp.stat(full).catch(() => null);
      if (!st || st.mtimeMs >= cutoff) continue;
      if (name.endsWith(".part")) continue;
      else if (name.endsWith(".csv") && UPLOAD_ID_RE.test(name.slice(0, -4))) stale.push(full);
      else if (name.endsWith(".json") && !fs.existsSync(full.slice(0, -5) + ".csv")) await fsp.rm(full, { force: true });
      else if (name.endsWith(".decoded") && !fs.existsSync(full.replace(/\.csv\..*$/, ".csv"))) await fsp.rm(full, { force: true });
    }
    if (!stale.length) continue;
    const keep = await inUse(stale);
    for (const full of stale) {
      if (keep.has(full)) continue;
      await deleteUpload({ path: full, id: path.basename(full, ".csv") });
      removed.push(full);
    }
  }
  return removed;
}

/** Whether `p` is a file of the upload store (list loads delete their input once finished, nothing else). */
export function isStoredUploadPath(p: string): boolean {
  const resolved = path.resolve(p);
  return resolved.startsWith(uploadsRoot() + path.sep) && resolved.endsWith(".csv");
}
