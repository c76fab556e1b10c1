import crypto from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { verifyCertificate, type FileDigests, type Verification } from "scrub-service";
import { keyMap, publishedKeys } from "~/models/certificate.server";
import { VERIFY_FILE_FIELDS, type VerifyFileField } from "./verify-fields";
import { tooManyFieldsMessage } from "~/intake/upload-form.server";
import { takeBudget, takeRateLimit } from "~/utils/throttle.server";
/** A certificate is a few KB; anything larger is not one. */
export const MAX_CERTIFICATE_BYTES = 1024 * 1024;

/**
 * What one client may make the server do on /verify (docs/decisions/153): 30 checks an hour per address, and
 * files hashed here (JavaScript off) at most the upload cap per request, all files together, and 1 GiB an hour
 * per address. With JavaScript on the browser hashes and sends 64 hex digits per file, so people are not slowed.
 */
export const VERIFY_LIMITS = { perHour: 30, hashMiBPerHour: 1024, windowMs: 60 * 60 * 1000 } as const;

export const VERIFY_RATE_LIMITED =
  "Too many certificate checks from your address in the last hour. Please try again later, or run npm run verify on your own computer.";
export const VERIFY_HASH_BUDGET_SPENT =
  "Your address has had more file bytes checked here in the last hour than we hash for one visitor. Turn JavaScript on (your browser then hashes the files) or run npm run verify on your own computer.";

export interface VerifyForm {
  certificateText: string | null;
  digests: FileDigests;
  /** Where each digest came from. */
  hashedBy: Partial<Record<VerifyFileField, "browser" | "server">>;
  /** A message naming what was refused (too large, malformed). */
  error: string | null;
}

const isHex64 = (v: string) => /^[0-9a-f]{64}$/.test(v);
const sizeLabel = (n: number) => (n >= 1024 * 1024 ? `${Math.floor(n / 1024 / 1024)} MB` : `${Math.ceil(n / 1024)} KB`);

/** The /verify form's count limits (a certificate, four files and their digests fit well inside). */
export const VERIFY_FORM_LIMITS = { fields: 20, parts: 30, files: 5 } as const;

/**
 * Reads the /verify form, streamed: the certificate kept (≤ 1 MiB), each other file hashed as it arrives and
 * never stored (at most `maxBytes` for all files together), or its SHA-256 taken from a `<field>Sha256` text field.
 */
export async function readVerifyForm(request: Request, maxBytes: number): Promise<VerifyForm> {
  const form: VerifyForm = { certificateText: null, digests: {}, hashedBy: {}, error: null };
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data") || !request.body) {
    return { ...form, error: "Send the form as multipart/form-data with the certificate file." };
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: Object.fromEntries(request.headers), limits: { fieldSize: 1024, ...VERIFY_FORM_LIMITS } });
  } catch {
    return { ...form, error: "The form could not be read." };
  }
  // past a count limit busboy drops the rest: the form is refused naming the limit, not read as if it were whole
  let countLimit: string | null = null;
  parser.on("fieldsLimit", () => (countLimit ??= tooManyFieldsMessage("fields", VERIFY_FORM_LIMITS.fields)));
  parser.on("partsLimit", () => (countLimit ??= tooManyFieldsMessage("parts", VERIFY_FORM_LIMITS.parts)));
  parser.on("filesLimit", () => (countLimit ??= tooManyFieldsMessage("files", VERIFY_FORM_LIMITS.files)));
  const cert: Buffer[] = [];
  let certBytes = 0;
  let hashedInAll = 0;
  const done = new Promise<void>((resolve, reject) => {
    parser.on("field", (name, value) => {
      const field = VERIFY_FILE_FIELDS.find((f) => `${f}Sha256` === name);
      const v = value.trim().toLowerCase();
      if (field && v && form.digests[field] === undefined) {
        if (isHex64(v)) {
          form.digests[field] = v;
          form.hashedBy[field] = "browser";
        } else form.error ??= `The ${field} SHA-256 sent is not 64 hexadecimal digits.`;
      }
    });
    parser.on("file", (name, stream, info) => {
      stream.on("error", () => {});
      const field = VERIFY_FILE_FIELDS.find((f) => f === name);
      if (name === "certificate") {
        stream.on("data", (chunk: Buffer) => {
          certBytes += chunk.length;
          if (certBytes <= MAX_CERTIFICATE_BYTES) cert.push(chunk);
        });
        return;
      }
      if (!field || !info.filename) {
        stream.resume();
        return;
      }
      const hash = crypto.createHash("sha256");
      let bytes = 0;
      let over = false;
      stream.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        hashedInAll += chunk.length;
        // all files together stay within maxBytes: past it nothing more is hashed
        if (hashedInAll > maxBytes) over = true;
        if (!over) hash.update(chunk);
      });
      stream.on("end", () => {
        if (over)
          form.error ??= `The files are larger than ${sizeLabel(maxBytes)} together: check them with npm run verify, or with JavaScript on (hashed in your browser).`;
        else if (bytes > 0 && form.digests[field] === undefined) {
          form.digests[field] = hash.digest("hex");
          form.hashedBy[field] = "server";
        }
      });
    });
    parser.on("close", resolve);
    parser.on("error", reject);
  });
  try {
    await Promise.all([pipeline(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>), parser), done]);
  } catch {
    return { ...form, error: "The form could not be read." };
  }
  if (countLimit) return { ...form, error: countLimit };
  if (certBytes > MAX_CERTIFICATE_BYTES) return { ...form, error: "That file is too large to be a scrub certificate." };
  if (certBytes === 0) return { ...form, error: "Choose the certificate file (certificate.json)." };
  return { ...form, certificateText: Buffer.concat(cert).toString("utf8") };
}

export type VerifyOutcome =
  | { error: string; result: null; status?: number }
  | { error: null; result: Pick<Verification, "ok" | "checks" | "certificate"> & { hashedBy: VerifyForm["hashedBy"] } };

/**
 * Reads the form and checks the certificate against the published keys and the digests given. Each client
 * (address) is rate-limited, and the file bytes it may have hashed here are taken from its hourly budget before
 * the body is read, by the body's declared length (a body without one is hashed up to 1 MiB only).
 */
export async function verifyUpload(db: Kysely<Database>, request: Request, maxBytes: number, client = "unknown"): Promise<VerifyOutcome> {
  if (!(await takeRateLimit(db, `verify:ip:${client}`, VERIFY_LIMITS.perHour, VERIFY_LIMITS.windowMs))) {
    await request.body?.cancel().catch(() => {});
    return { error: VERIFY_RATE_LIMITED, result: null, status: 429 };
  }
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  const hashable = Number.isFinite(declared) && declared > 0 ? Math.min(declared, maxBytes) : 1024 * 1024;
  const mib = Math.ceil(hashable / (1024 * 1024));
  if (hashable > 64 * 1024 && !(await takeBudget(db, `verify-hash:ip:${client}`, mib, VERIFY_LIMITS.hashMiBPerHour, VERIFY_LIMITS.windowMs))) {
    await request.body?.cancel().catch(() => {});
    return { error: VERIFY_HASH_BUDGET_SPENT, result: null, status: 429 };
  }
  const form = await readVerifyForm(request, hashable);
  if (form.error || !form.certificateText) return { error: form.error ?? "Choose the certificate file (certificate.json).", result: null };
  const v = verifyCertificate(form.certificateText, { publishedKeys: keyMap(await publishedKeys(db)), digests: form.digests });
  return { error: null, result: { ok: v.ok, checks: v.checks, certificate: v.certificate, hashedBy: form.hashedBy } };
}
