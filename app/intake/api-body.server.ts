import { z } from "zod";
import { ApiError, fieldError } from "~/api/api.server";
import { readUploadForm } from "./upload-form.server";
import { deleteUpload, saveTypedNumbers, type StoredUpload } from "./upload-store.server";

/*
 * Request bodies of the public API: multipart/form-data with a CSV `file` (through the one upload reader:
 * streamed to disk, 413 past MAX_UPLOAD_BYTES) or application/json with a list of numbers (written as a
 * one-column CSV so both go through the same engine). The caller checks the key and the plan first.
 */

/** Largest JSON body (a list of 100,000 numbers is about 1.5 MB). */
export const MAX_JSON_BYTES = 10 * 1024 * 1024;
export const MAX_JSON_NUMBERS = 100_000;

export type ApiBody = { kind: "multipart"; fields: Record<string, string[]>; upload: StoredUpload | null } | { kind: "json"; value: unknown };

/** Reads the body; the caller must `discardBody` the upload if it does not hand it to a job. */
export async function readApiBody(request: Request, userId: string): Promise<ApiBody> {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const form = await readUploadForm(request, { userId, maxTextBytes: 64 * 1024 });
    if (form.refusal)
      throw new ApiError(
        form.refusal.status,
        form.refusal.code ?? (form.refusal.status === 413 ? "payload_too_large" : "insufficient_storage"),
        form.refusal.message,
      );
    if (form.malformed || form.textTooLarge) {
      await form.discard();
      throw new ApiError(422, "validation_failed", "The multipart body could not be read.");
    }
    if (form.manyFiles) throw fieldError("file", "send one CSV file per request");
    const fields: Record<string, string[]> = {};
    for (const [k, v] of form.fields.entries()) if (typeof v === "string") (fields[k] ??= []).push(v);
    return { kind: "multipart", fields, upload: form.upload };
  }
  if (type.startsWith("application/json")) return { kind: "json", value: await readJsonCapped(request, MAX_JSON_BYTES) };
  throw new ApiError(415, "unsupported_media_type", "Send multipart/form-data (with a CSV file) or application/json.");
}

/** A body that must be JSON: 415 saying what to send (`shape`) for another type, else as `readJsonCapped`. */
export async function readJsonOnly(request: Request, max: number, shape: string): Promise<unknown> {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  if (!type.startsWith("application/json")) throw new ApiError(415, "unsupported_media_type", `Send application/json: ${shape}.`);
  return readJsonCapped(request, max);
}

/**
 * A JSON body, bounded before it is parsed: 413 when the declared length or the bytes read pass `max` (the read
 * stops there), 400 when it is not JSON. The one JSON reader of the API.
 */
export async function readJsonCapped(
  request: Request,
  max: number,
  tooLargeMessage = `The request body is too large. The limit is ${max} bytes.`,
): Promise<unknown> {
  return parseJsonBody(await readBodyCapped(request, max, tooLargeMessage));
}

/** The body's bytes, refused (413) past `max`: on the declared length before reading, and while reading. */
export async function readBodyCapped(
  request: Request,
  max: number,
  tooLargeMessage = `The request body is too large. The limit is ${max} bytes.`,
): Promise<Buffer> {
  const tooLarge = () => new ApiError(413, "payload_too_large", tooLargeMessage);
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > max) throw tooLarge();
  const chunks: Uint8Array[] = [];
  if (request.body) {
    const reader = request.body.getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/** JSON from a body's bytes (UTF-8), or 400 invalid_json. */
export function parseJsonBody(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new ApiError(400, "invalid_json", "The request body is not valid JSON.");
  }
}

export async function discardBody(body: ApiBody | null): Promise<void> {
  if (body?.kind === "multipart" && body.upload) await deleteUpload(body.upload).catch(() => {});
}

/** A list of numbers from JSON: strings or integers, 1 to 100,000 of them. */
export const numbersSchema = z
  .array(z.union([z.string().max(40, "Each number must be at most 40 characters"), z.number().int().nonnegative()]), {
    error: "numbers must be a list of phone numbers",
  })
  .min(1, "Send at least one number")
  .max(MAX_JSON_NUMBERS, `Send at most ${MAX_JSON_NUMBERS} numbers per request; upload a CSV file for more`);

/** Writes JSON numbers as a one-column CSV (header Number) in the user's uploads. */
export async function saveNumbersAsCsv(userId: string, numbers: (string | number)[]): Promise<StoredUpload> {
  const cleaned = numbers.map((n) =>
    String(n)
      .replace(/[\r\n",]/g, " ")
      .trim(),
  );
  // a full disk (StorageFullError) is answered by the API's mapper: 507 insufficient_storage
  return saveTypedNumbers(userId, cleaned);
}
