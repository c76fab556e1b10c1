import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { env } from "~/utils/env.server";
import {
  deleteUpload,
  STORAGE_FULL_MESSAGE,
  storeUploadStream,
  StorageFullError,
  uploadTooLargeMessage,
  UploadTooLargeError,
  type StoredUpload,
} from "./upload-store.server";

/*
 * The one reader of upload forms (the purge wizard, the container and DNC dialogs, the staging endpoint and the
 * API): multipart/form-data parsed by busboy (RFC 7578 part headers, quoted and RFC 5987 `filename*`
 * parameters, so a name such as `leads;2024.csv`, `Q1=final.csv`, `"q".csv` or `Клиенты.csv` is read whole).
 * The `file` part streams into the upload store; text fields are capped. Callers check who may upload BEFORE
 * calling this: it reads the body.
 */

/** The field that carries the file. */
export const FILE_FIELD = "file";

/** Room for the form's other parts when a declared Content-Length is compared with the file cap. */
const ENVELOPE_BYTES = 1024 * 1024;

export interface UploadForm {
  /** The text fields (never the file). */
  fields: FormData;
  /** The stored `file` part (null when none was sent or it was empty). */
  upload: StoredUpload | null;
  /** Set when a file was larger than the cap: nothing of it is kept. Holds the cap. */
  tooLarge: number | null;
  /**
   * Why the file was not kept, as every caller answers it: larger than the cap (413), or no room on our disk
   * (507, never blaming the file). Null when the file (if any) was stored.
   */
  refusal: { status: 413 | 507; message: string; code?: "too_many_fields" } | null;
  /** Set when a text field was larger than its cap. */
  textTooLarge: boolean;
  /** More than one file was sent in `file` (all were deleted). */
  manyFiles: boolean;
  /** The body was not a readable form. */
  malformed: boolean;
  /** Deletes the stored file (call whenever it is not handed over to a job or a load). */
  discard(): Promise<void>;
}

/** How many text fields and parts an upload form may have (busboy's limits; a real form has a dozen). */
export const MAX_FORM_FIELDS = 1000;
export const MAX_FORM_PARTS = 1100;

/**
 * The words of a form past busboy's count limits (issue #49: 5,001 `at` fields were answered "attach a CSV file",
 * the file part having been dropped past the parts limit): the limit is named, whatever else the form held.
 */
export function tooManyFieldsMessage(kind: "fields" | "parts" | "files", limit: number): string {
  const what = kind === "fields" ? "text fields" : kind === "files" ? "files" : "parts (fields and files together)";
  return `The form has too many ${what}: the limit is ${limit.toLocaleString("en-US")}. Nothing was read past it, so nothing was stored; send each field once.`;
}

/** The refusal of a file past the cap (`limit`), or none. */
function tooLargeRefusal(limit: number | null): UploadForm["refusal"] {
  return limit ? { status: 413, message: uploadTooLargeMessage(limit) } : null;
}

function emptyForm(patch: Partial<UploadForm> = {}): UploadForm {
  return {
    fields: new FormData(),
    upload: null,
    tooLarge: null,
    refusal: tooLargeRefusal(patch.tooLarge ?? null),
    textTooLarge: false,
    manyFiles: false,
    malformed: false,
    discard: async () => {},
    ...patch,
  };
}

export function isMultipart(request: Request): boolean {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

/** Whether the client declared a body that cannot fit under the cap (refused before reading a byte). */
export function declaredTooLarge(request: Request, maxBytes = env().MAX_UPLOAD_BYTES): boolean {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  return Number.isFinite(declared) && declared > maxBytes + ENVELOPE_BYTES;
}

/**
 * Reads a form that may carry a file. Plain url-encoded forms work too (no file). A file over `maxBytes` is
 * read to the end of its part and dropped (`tooLarge`); on any failure the stored file is deleted.
 */
export async function readUploadForm(
  request: Request,
  opts: { userId: string; maxBytes?: number; maxTextBytes?: number; staged?: boolean },
): Promise<UploadForm> {
  const maxBytes = opts.maxBytes ?? env().MAX_UPLOAD_BYTES;
  const maxTextBytes = opts.maxTextBytes ?? 4 * 1024 * 1024;
  if (declaredTooLarge(request, maxBytes)) return emptyForm({ tooLarge: maxBytes });

  if (!isMultipart(request)) {
    let fields: FormData;
    try {
      fields = await request.formData();
    } catch {
      return emptyForm({ malformed: true });
    }
    let textTooLarge = false;
    for (const [, v] of fields) if (typeof v === "string" && v.length > maxTextBytes) textTooLarge = true;
    return emptyForm({ fields, textTooLarge });
  }
  if (!request.body) return emptyForm({ malformed: true });

  const fields = new FormData();
  const stored: StoredUpload[] = [];
  const writes: Promise<void>[] = [];
  let tooLarge: number | null = null;
  let storageFull = false;
  let textTooLarge = false;
  const discard = async () => {
    await Promise.all(stored.map((u) => deleteUpload(u).catch(() => {})));
    stored.length = 0;
  };

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: Object.fromEntries(request.headers),
      defParamCharset: "utf8",
      limits: { fieldSize: maxTextBytes + 1, fields: MAX_FORM_FIELDS, parts: MAX_FORM_PARTS, headerPairs: 100 },
    });
  } catch {
    return emptyForm({ malformed: true });
  }

  // busboy drops what comes past a count limit and says so once: the first limit reached is the form's refusal
  let countLimit: UploadForm["refusal"] = null;
  const overCount = (kind: "fields" | "parts", limit: number) => () => {
    countLimit ??= { status: 413, code: "too_many_fields", message: tooManyFieldsMessage(kind, limit) };
  };
  parser.on("fieldsLimit", overCount("fields", MAX_FORM_FIELDS));
  parser.on("partsLimit", overCount("parts", MAX_FORM_PARTS));

  const done = new Promise<void>((resolve, reject) => {
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) textTooLarge = true;
      // A text value posing as the file is never taken for one.
      else if (name !== FILE_FIELD) fields.append(name, value);
    });
    parser.on("file", (name, stream, info) => {
      // A broken body errors the parser and this stream, once per listener: the parser's error is the one we answer.
      stream.on("error", () => {});
      if (name !== FILE_FIELD) {
        stream.resume(); // a file in a field we do not take: drop it
        return;
      }
      const write = storeUploadStream(opts.userId, browserFileName(info.filename), stream, { maxBytes, staged: opts.staged }).then(
        (u) => {
          if (u) stored.push(u);
        },
        (e) => {
          stream.resume();
          if (e instanceof UploadTooLargeError) tooLarge = e.limit;
          else if (e instanceof StorageFullError) storageFull = true;
          else throw e;
        },
      );
      write.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
      writes.push(write);
    });
    parser.on("close", resolve);
    parser.on("error", reject);
  });

  try {
    const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>);
    await Promise.all([pipeline(body, parser), done]);
    await Promise.all(writes);
  } catch (e) {
    await Promise.allSettled(writes);
    await discard();
    if (isClientError(e)) return emptyForm({ malformed: true });
    throw e;
  }
  if (countLimit) {
    await discard();
    return emptyForm({ fields, refusal: countLimit });
  }
  if (stored.length > 1) {
    await discard();
    return emptyForm({ fields, manyFiles: true, discard });
  }
  if (storageFull) {
    await discard();
    return emptyForm({ fields, refusal: { status: 507, message: STORAGE_FULL_MESSAGE } });
  }
  return { fields, upload: stored[0] ?? null, tooLarge, refusal: tooLargeRefusal(tooLarge), textTooLarge, manyFiles: false, malformed: false, discard };
}

/**
 * Browsers escape a file name's `"`, CR and LF as `%22`, `%0D`, `%0A` in the part header (HTML's
 * multipart/form-data encoding algorithm; a name is otherwise sent as UTF-8 as is): undo exactly those.
 */
export function browserFileName(name: string | undefined): string | undefined {
  return name?.replace(/%22/g, '"').replace(/%0[ad]/gi, "");
}

/** A broken body (busboy's parse errors, an aborted request), as opposed to a failure of ours (disk, bugs). */
function isClientError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if ((e as NodeJS.ErrnoException).code === "ECONNRESET" || e.name === "AbortError") return true;
  return /^(Unexpected end of form|Malformed|Part terminated early|Multipart: Boundary not found)/i.test(e.message);
}
