/** The verifier's file side: hashes the files a person has (input, a results folder) and checks them. */
import fs from "node:fs";
import path from "node:path";
import { OUTPUT_KINDS, type CertificateFile } from "./document";
import { sha256OfFile } from "./hash-file";
import { verifyCertificate, type Check, type FileDigests, type Verification } from "./verify";

export interface VerifyFilesInput {
  certificateText: string;
  inputPath?: string;
  /** A folder with good.csv, bad.csv, invalid.csv (the CLI's names) or the download names the certificate states. */
  resultsDir?: string;
  publishedKeys?: ReadonlyMap<string, string>;
}

function resultFile(dir: string, kind: (typeof OUTPUT_KINDS)[number], cert: CertificateFile | null): string | null {
  const names = [`${kind}.csv`, cert?.certificate.outputs?.[kind]?.fileName].filter((n): n is string => !!n);
  for (const n of names) {
    const p = path.join(dir, path.basename(n));
    if (fs.existsSync(p)) return p;
  }
  return null;
}

export async function verifyWithFiles(o: VerifyFilesInput): Promise<Verification> {
  let parsed: CertificateFile | null = null;
  try {
    parsed = JSON.parse(o.certificateText) as CertificateFile;
  } catch {
    /* reported by verifyCertificate */
  }
  const digests: FileDigests = {};
  const missing: Check[] = [];
  if (o.inputPath) {
    if (fs.existsSync(o.inputPath)) digests.input = await sha256OfFile(o.inputPath);
    else missing.push({ subject: "input", ok: false, detail: `The input file ${o.inputPath} does not exist.` });
  }
  if (o.resultsDir) {
    for (const kind of OUTPUT_KINDS) {
      const p = resultFile(o.resultsDir, kind, parsed);
      if (p) digests[kind] = await sha256OfFile(p);
      else missing.push({ subject: `${kind}.csv`, ok: false, detail: `${kind}.csv was not found in ${o.resultsDir}.` });
    }
  }
  const v = verifyCertificate(o.certificateText, { publishedKeys: o.publishedKeys, digests });
  const checks = [...v.checks, ...missing];
  return { ...v, checks, ok: checks.every((c) => c.ok) };
}

/** Keys as published at /.well-known/scrub-certificate-key ({ keys: [{ keyId, publicKey }] }). */
export function keysFromJson(text: string): Map<string, string> {
  const body = JSON.parse(text) as { keys?: { keyId?: unknown; publicKey?: unknown }[] };
  if (!Array.isArray(body.keys)) throw new Error("The keys file has no keys list (expected the JSON of /.well-known/scrub-certificate-key).");
  return new Map(
    body.keys.filter((k) => typeof k.keyId === "string" && typeof k.publicKey === "string").map((k) => [k.keyId as string, k.publicKey as string]),
  );
}
