/** Ed25519 signing of certificates with node:crypto; a key is named by the SHA-256 of its public half. */
import crypto from "node:crypto";
import { asJson, type CertificateFile, type CertificateSignature, type ScrubCertificate } from "./document";
import { canonicalJson, canonicalJsonFile } from "./canonical";

export interface SigningKey {
  id: string;
  publicKey: string;
  privateKey: crypto.KeyObject;
}

/** Raw 32-byte public key (base64) of an Ed25519 key. */
export function rawPublicKey(key: crypto.KeyObject): string {
  const jwk = crypto.createPublicKey(key).export({ format: "jwk" });
  return Buffer.from(jwk.x!, "base64url").toString("base64");
}

export function publicKeyObject(raw: string): crypto.KeyObject {
  return crypto.createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(raw, "base64").toString("base64url") }, format: "jwk" });
}

/** "ed25519-" + the first 16 hex digits of SHA-256(raw public key). */
export function keyIdOf(rawPublic: string): string {
  return "ed25519-" + crypto.createHash("sha256").update(Buffer.from(rawPublic, "base64")).digest("hex").slice(0, 16);
}

/** A signing key from PKCS#8 PEM (or its base64 body alone, as CERT_SIGNING_KEY may hold it). */
export function signingKeyFromPem(pem: string): SigningKey {
  const text = pem.includes("-----BEGIN") ? pem : `-----BEGIN PRIVATE KEY-----\n${pem.trim()}\n-----END PRIVATE KEY-----\n`;
  const privateKey = crypto.createPrivateKey(text);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("The certificate signing key must be an Ed25519 private key (PKCS#8).");
  const publicKey = rawPublicKey(privateKey);
  return { id: keyIdOf(publicKey), publicKey, privateKey };
}

export function newSigningKey(): { key: SigningKey; pem: string } {
  const { privateKey } = crypto.generateKeyPairSync("ed25519");
  const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  return { key: signingKeyFromPem(pem), pem };
}

export function signCertificate(certificate: ScrubCertificate, key: SigningKey): CertificateFile {
  const value = crypto.sign(null, Buffer.from(canonicalJson(asJson(certificate))), key.privateKey).toString("base64");
  const signature: CertificateSignature = { algorithm: "Ed25519", keyId: key.id, publicKey: key.publicKey, value };
  return { certificate, signature };
}

/** The certificate file's exact bytes. */
export function certificateText(file: CertificateFile): string {
  return canonicalJsonFile(asJson(file));
}
