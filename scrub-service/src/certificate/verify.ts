/**
 * Checks a certificate file: the file is byte for byte as issued (canonical JSON), its Ed25519 signature holds
 * under one of the keys the service publishes (the key the certificate embeds is only a hint: anyone can sign
 * with a key of their own and embed it), and each file given hashes to what the certificate states. Without the
 * service's published keys nothing verifies (docs/decisions/153). The CLI and /verify both use this.
 */
import crypto from "node:crypto";
import { canonicalJson, canonicalJsonFile } from "./canonical";
import { asJson, CERTIFICATE_FORMAT, OUTPUT_KINDS, type CertificateFile, type OutputKind } from "./document";
import { publicKeyObject } from "./sign";

export interface Check {
  /** What was checked: "certificate", "signature", "signing key", "input", "good.csv", "bad.csv", "invalid.csv". */
  subject: string;
  ok: boolean;
  detail: string;
}

export interface Verification {
  ok: boolean;
  certificate: CertificateFile | null;
  checks: Check[];
}

/** SHA-256 (hex) of files to compare; a missing entry is not checked. */
export type FileDigests = Partial<Record<"input" | OutputKind, string>>;

export interface VerifyOptions {
  /**
   * Keys the service publishes (key id → raw public key, base64), current and retired: the only keys a
   * certificate can verify under. Missing or empty: the signature is not accepted.
   */
  publishedKeys: ReadonlyMap<string, string> | undefined;
  digests?: FileDigests;
}

const isHex64 = (v: unknown): v is string => typeof v === "string" && /^[0-9a-f]{64}$/.test(v);
/** Base64 has spare bits in its last character: only the one spelling of the bytes counts. */
const isCanonicalBase64 = (v: string): boolean => Buffer.from(v, "base64").toString("base64") === v;

function shapeProblem(v: unknown): string | null {
  const f = v as Partial<CertificateFile> | null;
  if (!f || typeof f !== "object" || Array.isArray(f)) return "it is not a certificate (no certificate object)";
  const c = f.certificate as unknown as Record<string, unknown> | undefined;
  const s = f.signature as unknown as Record<string, unknown> | undefined;
  if (!c || typeof c !== "object") return "it has no certificate section";
  if (c.format !== CERTIFICATE_FORMAT) return `its format is not ${CERTIFICATE_FORMAT}`;
  if (!s || typeof s !== "object") return "it has no signature section";
  if (s.algorithm !== "Ed25519" || typeof s.keyId !== "string" || typeof s.publicKey !== "string" || typeof s.value !== "string") {
    return "its signature section is incomplete";
  }
  const input = c.input as Record<string, unknown> | undefined;
  const outputs = c.outputs as Record<string, Record<string, unknown>> | undefined;
  if (!input || !isHex64(input.sha256)) return "it states no input SHA-256";
  if (!outputs || OUTPUT_KINDS.some((k) => !outputs[k] || !isHex64(outputs[k].sha256))) return "it states no SHA-256 for each result file";
  return null;
}

export function verifyCertificate(text: string, opts: VerifyOptions): Verification {
  const checks: Check[] = [];
  const done = (certificate: CertificateFile | null): Verification => ({ ok: checks.every((c) => c.ok), certificate, checks });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    checks.push({ subject: "certificate", ok: false, detail: "The certificate file is not valid JSON (it was changed or is not a certificate)." });
    return done(null);
  }
  const problem = shapeProblem(parsed);
  if (problem) {
    checks.push({ subject: "certificate", ok: false, detail: `The certificate file cannot be checked: ${problem}.` });
    return done(null);
  }
  const file = parsed as CertificateFile;
  const exact = canonicalJsonFile(asJson(file)) === text;
  checks.push(
    exact
      ? { subject: "certificate", ok: true, detail: "The certificate file is byte for byte in its issued (canonical) form." }
      : { subject: "certificate", ok: false, detail: "The certificate file was changed: its bytes differ from the canonical form it was issued in." },
  );

  const { keyId, publicKey, value } = file.signature;
  const published = opts.publishedKeys?.get(keyId);
  let keyOk = false;
  let keyDetail: string;
  if (!opts.publishedKeys?.size) {
    keyDetail =
      "No keys of the service were given: a certificate verifies only against the keys the service publishes at /.well-known/scrub-certificate-key (pass --keys FILE|URL, or set APP_URL).";
  } else if (published === undefined) {
    keyDetail = `Not signed by this service: the key ${keyId} it names is not one of the service's published keys.`;
  } else if (published !== publicKey) {
    keyDetail = `Not signed by this service: the certificate names the service's key ${keyId} but carries a different public key.`;
  } else {
    keyOk = true;
    keyDetail = `Signed by key ${keyId}, one of the service's published keys.`;
  }
  checks.push({ subject: "signing key", ok: keyOk, detail: keyDetail });

  // Only the published key can make the signature hold; the embedded one is never used.
  let sigOk = false;
  if (published !== undefined) {
    try {
      sigOk =
        isCanonicalBase64(value) &&
        crypto.verify(null, Buffer.from(canonicalJson(asJson(file.certificate))), publicKeyObject(published), Buffer.from(value, "base64"));
    } catch {
      sigOk = false; // a published key that is not an Ed25519 point
    }
  }
  checks.push(
    sigOk
      ? { subject: "signature", ok: true, detail: "The Ed25519 signature matches the certificate's contents under the service's published key." }
      : published === undefined
        ? {
            subject: "signature",
            ok: false,
            detail: "The signature was not checked: no published key of the service is named by this certificate, so it is not signed by this service.",
          }
        : {
            subject: "signature",
            ok: false,
            detail:
              "The signature does not match the certificate's contents under the service's published key: the certificate was changed after it was signed, or not signed by this service.",
          },
  );

  const c = file.certificate;
  const d = opts.digests ?? {};
  if (d.input !== undefined) {
    const ok = d.input === c.input.sha256;
    checks.push({
      subject: "input",
      ok,
      detail: ok
        ? `The input file matches ${c.input.fileName} (SHA-256 ${c.input.sha256}).`
        : `The input file does not match: the certificate states SHA-256 ${c.input.sha256} for ${c.input.fileName}, the file given has ${d.input}.`,
    });
  }
  for (const kind of OUTPUT_KINDS) {
    const got = d[kind];
    if (got === undefined) continue;
    const want = c.outputs[kind].sha256;
    const ok = got === want;
    checks.push({
      subject: `${kind}.csv`,
      ok,
      detail: ok
        ? `${kind}.csv matches (SHA-256 ${want}, ${c.outputs[kind].records} rows).`
        : `${kind}.csv does not match: the certificate states SHA-256 ${want}, the file given has ${got}.`,
    });
  }
  return done(file);
}
