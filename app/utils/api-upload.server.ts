import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { z } from "zod";
import { env } from "./env.server";
import { ApiError } from "./api.server";
import { createCsvUploadHandler, deleteUpload, getUpload, saveManualUpload, UploadTooLargeError, type StoredUpload } from "./uploads.server";

/*
 * Request bodies of the public API: multipart/form-data with a CSV `file` (streamed to disk under
 * ${DATA_DIR}/uploads/<user>/, never buffered, 413 past MAX_UPLOAD_BYTES) or application/json with a list of
 * numbers (written as a one-column CSV so both go through the same engine).
 */

/** Largest JSON body (a list of 100,000 numbers is about 1.5 MB). */
export const MAX_JSON_BYTES = 10 * 1024 * 1024;
export const MAX_JSON_NUMBERS = 100_000;

export type ApiBody =
  | { kind: "multipart"; fields: Record<string, string[]>; upload: StoredUpload | null }
  | { kind: "json"; value: unknown };

function tooLarge(limit: number): ApiError {
  return new ApiError(413, "payload_too_large", `The request body is too large. The limit is ${limit} bytes.`);
}

/** Reads the body; the caller must `discardBody` the upload if it does not hand it to a job. */
export async function readApiBody(request: Request, userId: string): Promise<ApiBody> {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  const maxUpload = env().MAX_UPLOAD_BYTES;
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (type.startsWith("multipart/form-data")) {
    // Refuse at once when the client says the body is too large (a small allowance for the form's other parts).
    if (Number.isFinite(declared) && declared > maxUpload + 64 * 1024) throw tooLarge(maxUpload);
    let form: FormData;
    // Only files streamed by this request count: a text field named "file" holding some earlier upload's id
    // must not pick up (or, on a refusal, delete) a file that belongs to another job.
    const streamed = new Set<string>();
    const store = createCsvUploadHandler({ userId, maxBytes: maxUpload });
    const handler: UploadHandler = async (part) => {
      const value = await store(part);
      if (part.filename !== undefined && part.name === "file" && typeof value === "string") streamed.add(value);
      return value;
    };
    try {
      form = await unstable_parseMultipartFormData(request, handler);
    } catch (e) {
      if (e instanceof UploadTooLargeError) throw tooLarge(e.limit);
      throw new ApiError(422, "validation_failed", "The multipart body could not be read.");
    }
    const fields: Record<string, string[]> = {};
    const uploads: StoredUpload[] = [];
    for (const [k, v] of form.entries()) {
      if (typeof v !== "string") continue;
      if (k === "file") {
        const stored = streamed.has(v) ? await getUpload(userId, v) : undefined;
        if (stored) uploads.push(stored);
        continue;
      }
      (fields[k] ??= []).push(v);
    }
    if (uploads.length > 1) {
      await Promise.all(uploads.map((u) => deleteUpload(u).catch(() => {})));
      throw new ApiError(422, "validation_failed", "file: send one CSV file per request", [{ field: "file", message: "send one CSV file per request" }]);
    }
    return { kind: "multipart", fields, upload: uploads[0] ?? null };
  }
  if (type.startsWith("application/json")) {
    if (Number.isFinite(declared) && declared > MAX_JSON_BYTES) throw tooLarge(MAX_JSON_BYTES);
    const text = await readTextCapped(request, MAX_JSON_BYTES);
    try {
      return { kind: "json", value: JSON.parse(text) };
    } catch {
      throw new ApiError(400, "invalid_json", "The request body is not valid JSON.");
    }
  }
  throw new ApiError(415, "unsupported_media_type", "Send multipart/form-data (with a CSV file) or application/json.");
}

async function readTextCapped(request: Request, max: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge(max);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function discardBody(body: ApiBody | null): Promise<void> {
  if (body?.kind === "multipart" && body.upload) await deleteUpload(body.upload).catch(() => {});
}

/** A list of numbers from JSON: strings or integers, 1 to 100,000 of them. */
export const numbersSchema = z
  .array(
    z.union([z.string().max(40, "Each number must be at most 40 characters"), z.number().int().nonnegative()]),
    { error: "numbers must be a list of phone numbers" },
  )
  .min(1, "Send at least one number")
  .max(MAX_JSON_NUMBERS, `Send at most ${MAX_JSON_NUMBERS} numbers per request; upload a CSV file for more`);

/** Writes JSON numbers as a one-column CSV (header Number) in the user's uploads. */
export async function saveNumbersAsCsv(userId: string, numbers: (string | number)[]): Promise<StoredUpload> {
  const cleaned = numbers.map((n) => String(n).replace(/[\r\n",]/g, " ").trim());
  return saveManualUpload(userId, cleaned);
}
