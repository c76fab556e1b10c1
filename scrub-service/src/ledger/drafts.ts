/**
 * What each decision puts in the ledger (decision 197), pure: the entry drafts of a completed scrub, an exemption
 * list's change, a version of a customer's own list and the opt-outs received and honoured. A scrub is one batch
 * entry: its rows' outcomes are reproducible from the certificate it states by SHA-256 (the result files' hashes,
 * counts, list versions and rules versions are in both), not one entry per row.
 */
import crypto from "node:crypto";
import type { ScrubCertificate } from "../certificate/document";
import type { LedgerDraft } from "./chain";

/** Numbers named one by one in an entry up to this many; a larger change is a batch entry, reproducible from its hash. */
export const MAX_NUMBERS_NAMED = 1_000;

export function scrubDraft(certificate: ScrubCertificate, certificateText: string, keyId: string): LedgerDraft {
  const c = certificate;
  return {
    kind: "scrub",
    numbers: [],
    ref: c.jobId,
    payload: {
      jobId: c.jobId,
      certificateSha256: crypto.createHash("sha256").update(certificateText).digest("hex"),
      certificateKeyId: keyId,
      completedAt: c.completedAt,
      input: { fileName: c.input.fileName, sha256: c.input.sha256, bytes: c.input.bytes },
      outputs: Object.fromEntries(Object.entries(c.outputs).map(([k, o]) => [k, { sha256: o.sha256, records: o.records }])),
      counts: { total: c.counts.total, good: c.counts.good, bad: c.counts.bad, invalid: c.counts.invalid, byReason: { ...c.counts.byReason } },
      suppressionType: c.suppressionType,
      lists: c.lists.map((l) => ({ kind: l.kind, listId: l.listId, version: l.version, count: l.count })),
      normalizerRulesVersion: c.normalizerRulesVersion,
      callingRulesVersion: c.callingWindow?.rulesVersion ?? null,
      capsVersion: c.callingWindow?.calls?.capsVersion ?? null,
      exemptions: c.exemptions ? { listId: c.exemptions.listId, version: c.exemptions.version, sha256: c.exemptions.sha256 } : null,
      evaluatedAt: c.evaluation?.at ?? c.callingWindow?.at ?? null,
    },
  };
}

export function exemptionListDraft(o: {
  listId: number;
  name: string;
  mode: string;
  version: number;
  size: number;
  sha256: string | null;
  /** The numbers the change named (rows given, numbers removed), or null when more than MAX_NUMBERS_NAMED. */
  numbers: readonly number[] | null;
  removed: number;
  rows: number;
}): LedgerDraft {
  const named = o.numbers !== null;
  return {
    kind: "exemption_list",
    numbers: o.numbers ? [...new Set(o.numbers)] : [],
    ref: `exemption-list:${o.listId}`,
    payload: {
      listId: o.listId,
      name: o.name,
      mode: o.mode,
      version: o.version,
      size: o.size,
      sha256: o.sha256,
      rows: o.rows,
      removed: o.removed,
      numbersNamed: named,
    },
  };
}

export function listVersionDraft(o: {
  listId: number;
  name: string;
  internalDnc: boolean;
  loadId: string;
  version: number;
  size: number;
  sourceSha256: string;
  sourceFormat: string;
}): LedgerDraft {
  return {
    kind: "list_version",
    numbers: [],
    ref: o.loadId,
    payload: {
      listId: o.listId,
      name: o.name,
      internalDnc: o.internalDnc,
      loadId: o.loadId,
      version: o.version,
      size: o.size,
      sourceSha256: o.sourceSha256,
      sourceFormat: o.sourceFormat,
    },
  };
}

/** Opt-outs as received (decision 195): each one's number, instant, offset, channel and the SHA-256 of its words and subject. */
export function optOutDraft(o: {
  ids: readonly string[];
  listId: number;
  loadId: string;
  source: string;
  records: readonly { number: number; receivedMs: number; offsetMinutes: number; channel: string; words: string; subject: string | null }[];
}): LedgerDraft {
  const sha = (t: string) => crypto.createHash("sha256").update(t).digest("hex");
  return {
    kind: "opt_out",
    numbers: [...new Set(o.records.map((r) => r.number))],
    ref: o.loadId,
    payload: {
      listId: o.listId,
      loadId: o.loadId,
      source: o.source,
      optOuts: o.records.map((r, i) => ({
        id: o.ids[i] ?? null,
        number: String(r.number),
        receivedAt: new Date(r.receivedMs).toISOString(),
        offsetMinutes: r.offsetMinutes,
        channel: r.channel,
        wordsSha256: sha(r.words),
        subjectSha256: r.subject === null ? null : sha(r.subject),
      })),
    },
  };
}

/** The opt-outs' numbers added to the internal do-not-call list: honoured at that instant by that load. */
export function optOutHonouredDraft(o: { numbers: readonly number[]; listId: number; loadId: string; honouredAt: Date; ids: readonly string[] }): LedgerDraft {
  return {
    kind: "opt_out_honoured",
    numbers: [...new Set(o.numbers)],
    ref: o.loadId,
    payload: { listId: o.listId, loadId: o.loadId, honouredAt: o.honouredAt.toISOString(), ids: [...o.ids] },
  };
}
