/**
 * What a scrub certificate states (format scrub-certificate/1) and its file: the canonical JSON of
 * { certificate, signature }, where the signature is Ed25519 over canonicalJson(certificate).
 */
import type { Json } from "./canonical";

export const CERTIFICATE_FORMAT = "scrub-certificate/1";
/** A DNC registry download may be used for calls within this many days (16 CFR 310.4(b)(3)(iv), 47 CFR 64.1200(c)(2)). */
export const REGISTRY_VALID_DAYS = 31;
export const REGISTRY_WARN_DAYS = 25;

export interface OutputProof {
  fileName: string;
  sha256: string;
  records: number;
  bytes: number;
}

/** One list version a scrub was checked against. */
export interface ListVersionProof {
  /** litigation, dnc, a state list (dnc-tx …) or container (list-types.ts). */
  kind: string;
  listId: number;
  name: string;
  version: number;
  /** Numbers on the list at that version. */
  count: number;
  /** The load that produced this version (null for a list never loaded). */
  loadId: string | null;
  loadedAt: string | null;
  /** The registry date the admin stated for the download (DNC, a state list), else the load time. */
  registryDate: string | null;
  sourceFileName: string | null;
  sourceSha256: string | null;
}

export interface ScrubCertificate {
  format: typeof CERTIFICATE_FORMAT;
  jobId: string;
  issuedAt: string;
  owner: { userId: string; name: string; email: string; company: string };
  startedAt: string | null;
  completedAt: string;
  input: { fileName: string; sha256: string; bytes: number };
  suppressionType: "LitigationOnly" | "DNCAndLitigation";
  stateFilter: string[] | null;
  counts: { total: number; good: number; bad: number; invalid: number; byReason: Record<string, number> };
  lists: ListVersionProof[];
  normalizerRulesVersion: string;
  outputs: { good: OutputProof; bad: OutputProof; invalid: OutputProof };
  /** DNC purges: the registry clock when the job completed. */
  dncRegistry: { registryDate: string; ageDays: number; validUntil: string; withinWindow: boolean } | null;
  /** Present when good.csv carries the calling-window columns: their instant and the data they come from. */
  callingWindow?: {
    at: string;
    rulesVersion: string;
    timeZoneSource: string;
    /**
     * The emergency no-call periods in force or upcoming at the instant that the evaluation applied (decision 181):
     * each with its states, area codes, days, declaring authority, source and the good rows it held back.
     */
    emergencyPeriods?: {
      id: number;
      states: string[];
      areaCodes: number[] | null;
      firstDay: string;
      lastDay: string;
      authority: string;
      sourceUrl: string;
      heldRows: number;
    }[];
    /**
     * The calls counted against the frequency caps (decision 191): CAPS_VERSION, the purpose and subject, the debt
     * column, the owner's call history read (its window's start, records and SHA-256) and the good rows the caps held.
     */
    calls?: {
      capsVersion: string;
      purpose: "telemarketing" | "debt-collection";
      subject: string;
      debtColumn: string | null;
      history: { since: string; records: number; sha256: string };
      rowsWithCalls: number;
      heldByCaps: number;
      byCap: { cap: string; cite: string; rows: number }[];
    };
  };
  /** Present when the scrub applied a customer's exemption list (decision 161). */
  exemptions?: ExemptionProof;
  /**
   * Present when an evaluation instant was asked for (decision 174): whether it lay before the run (`replay`: the
   * answers are not valid for calls now) or after the checked lists' "valid for calls until", with the notes.
   */
  evaluation?: { at: string; replay: boolean; beyondListValidity: boolean; notes: string[] };
  /** Present when the scrub ran with lists past their freshness rule (the "refuse stale DNC" setting off): each one. */
  staleLists?: { kind: string; registryDate: string; ageDays: number; ruleDays: number }[];
}

/** The exemption list a scrub applied, at which version, at which instant, and what each basis let through. */
export interface ExemptionProof {
  listId: number;
  name: string;
  version: number;
  /** SHA-256 (hex) of the list's rows as `phone,basis,date` lines sorted by phone. */
  sha256: string | null;
  /** Numbers on the list at that version. */
  count: number;
  /** The instant the records were judged at, YYYY-MM-DDTHH:MM:SSZ. */
  at: string;
  /** Good rows each basis let through. */
  byBasis: { purchase: number; inquiry: number; consent: number };
  /** The windows of each exemptible list the scrub checked (months; the rule's source). */
  windows: { kind: string; purchaseMonths: number; inquiryMonths: number; source: string }[];
  /**
   * The records of listed numbers the scrub's decision read, per outcome and basis (decision 184): `applied` (they let
   * the number be called: byBasis), `expired` (a window ended, or the list's rule has none for the basis),
   * `neverApplicable` (litigation or the container holds the number), `notYet` (dated after the instant). Absent in
   * summaries and certificates made before it.
   */
  records?: Record<"applied" | "expired" | "neverApplicable" | "notYet", { purchase: number; inquiry: number; consent: number }>;
}

export interface CertificateSignature {
  algorithm: "Ed25519";
  keyId: string;
  /** Raw 32-byte public key, base64. */
  publicKey: string;
  /** Signature over canonicalJson(certificate), base64. */
  value: string;
}

export interface CertificateFile {
  certificate: ScrubCertificate;
  signature: CertificateSignature;
}

export const OUTPUT_KINDS = ["good", "bad", "invalid"] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];

export function asJson(v: unknown): Json {
  return v as Json;
}

/** Whole days between the registry date and now (floor). */
export function ageInDays(registryDate: Date, now: Date): number {
  return Math.floor((now.getTime() - registryDate.getTime()) / 86_400_000);
}

/** A Good file is valid for calls until the registry date + 31 days. */
export function validUntil(registryDate: Date): Date {
  return new Date(registryDate.getTime() + REGISTRY_VALID_DAYS * 86_400_000);
}
