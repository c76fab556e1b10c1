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
  /** Number of lines (newline count, plus one when the file does not end with one): an upper bound of its rows. */
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

  if (!isMultipart(request)) {
    let formData: FormData;
    try {
      formData = await request.formData();
    } catch {
      formData = new FormData();
    }
    for (const [, v] of formData) if (typeof v === "string" && v.length > maxTextBytes) textTooLarge = true;
    return { formData, files, tooLarge, textTooLarge, discard };
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
      let newlines = 0;
      let last = -1;
      let over = false;
      try {
        for await (const chunk of data) {
          bytes += chunk.byteLength;
          if (over) continue;
          if (bytes > maxBytes) {
            over = true;
            continue;
          }
          for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
          last = chunk[chunk.length - 1] ?? last;
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
      files.set(name, { path: finalPath, fileName: filename, bytes, lines: newlines + (last === 10 ? 0 : 1) });
      return `upload:${id}`;
    });
    return { formData, files, tooLarge, textTooLarge, discard };
  } catch (e) {
    await discard();
    if (e instanceof TypeError) {
      // Not parseable as multipart: answer as an empty form (a 400 from the caller), never a 500.
      return { formData: new FormData(), files, tooLarge, textTooLarge, discard };
    }
    throw e;
  }
}
