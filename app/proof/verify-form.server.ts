import crypto from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { verifyCertificate, type FileDigests, type Verification } from "../../scrub-service/src/certificate/verify";
import { keyMap, publishedKeys } from "~/models/certificate.server";
import { VERIFY_FILE_FIELDS, type VerifyFileField } from "./verify-fields";
/** A certificate is a few KB; anything larger is not one. */
export const MAX_CERTIFICATE_BYTES = 1024 * 1024;

export interface VerifyForm {
  certificateText: string | null;
  digests: FileDigests;
  /** Where each digest came from. */
  hashedBy: Partial<Record<VerifyFileField, "browser" | "server">>;
  /** A message naming what was refused (too large, malformed). */
  error: string | null;
}

const isHex64 = (v: string) => /^[0-9a-f]{64}$/.test(v);

/**
 * Reads the /verify form, streamed: the certificate kept (≤ 1 MiB), each other file hashed as it arrives and
 * never stored (at most `maxBytes` each), or its SHA-256 taken from a `<field>Sha256` text field.
 */
export async function readVerifyForm(request: Request, maxBytes: number): Promise<VerifyForm> {
  const form: VerifyForm = { certificateText: null, digests: {}, hashedBy: {}, error: null };
  if (!(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data") || !request.body) {
    return { ...form, error: "Send the form as multipart/form-data with the certificate file." };
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: Object.fromEntries(request.headers), limits: { fieldSize: 1024, fields: 20, parts: 30, files: 5 } });
  } catch {
    return { ...form, error: "The form could not be read." };
  }
  const cert: Buffer[] = [];
  let certBytes = 0;
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
      stream.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= maxBytes) hash.update(chunk);
      });
      stream.on("end", () => {
        if (bytes > maxBytes) form.error ??= `The ${field} file is larger than ${Math.floor(maxBytes / 1024 / 1024)} MB: check it with npm run verify, or with JavaScript on (hashed in your browser).`;
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
  if (certBytes > MAX_CERTIFICATE_BYTES) return { ...form, error: "That file is too large to be a scrub certificate." };
  if (certBytes === 0) return { ...form, error: "Choose the certificate file (certificate.json)." };
  return { ...form, certificateText: Buffer.concat(cert).toString("utf8") };
}

export type VerifyOutcome =
  | { error: string; result: null }
  | { error: null; result: Pick<Verification, "ok" | "checks" | "certificate"> & { hashedBy: VerifyForm["hashedBy"] } };

/** Reads the form and checks the certificate against the published keys and the digests given. */
export async function verifyUpload(db: Kysely<Database>, request: Request, maxBytes: number): Promise<VerifyOutcome> {
  const form = await readVerifyForm(request, maxBytes);
  if (form.error || !form.certificateText) return { error: form.error ?? "Choose the certificate file (certificate.json).", result: null };
  const v = verifyCertificate(form.certificateText, { publishedKeys: keyMap(await publishedKeys(db)), digests: form.digests });
  return { error: null, result: { ok: v.ok, checks: v.checks, certificate: v.certificate, hashedBy: form.hashedBy } };
}
