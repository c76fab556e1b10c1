/**
 * A number's dossier (issue #47, decision 197), format number-dossier/1, pure: what it holds, the decisions read from
 * its ledger entries, and its offline verification. The dossier is JSON: for one number and a window of UTC days, the
 * customer's decisions about it (lookup answers and reservations with their rules and list versions and the reason,
 * opt-outs received and honoured, exemption list changes naming it), the scrubs and own-list versions of the window
 * (batch entries: a row's outcome follows from the scrub's certificate and result files), the calls and texts of its
 * call history, its exemption records now and its opt-outs as stored, and the ledger proof: every entry of the window
 * from the anchor head, the ones above shown whole and the others as digests, and the signed day heads.
 */
import crypto from "node:crypto";
import { canonicalJson, type Json } from "../certificate/canonical";
import { isLink, verifyChainProof, type ChainProof, type LedgerCheck, type LedgerEntry } from "./chain";

export const DOSSIER_FORMAT = "number-dossier/1";

export interface DossierDecision {
  seq: number;
  at: string;
  kind: string;
  /** Kind by kind: a lookup's outcome and versions, an opt-out's instants, an exemption change's list and version. */
  detail: Json;
}

export interface NumberDossier {
  format: typeof DOSSIER_FORMAT;
  number: string;
  from: string;
  to: string;
  generatedAt: string;
  /** The lists and containers holding the number when the dossier was made (null: not asked, e.g. the CLI). */
  listsNow: Json;
  decisions: DossierDecision[];
  /** The window's scrubs and versions of the customer's own lists (batch entries). */
  batches: DossierDecision[];
  calls: { id: string; at: string; channel: string; outcome: string; subject: string; debtId: string | null; reserved: boolean }[];
  exemptionRecords: { listId: number; listName: string; version: number; basis: string; date: string }[];
  /**
   * Each scrub of the window searched for the number in its result files while they are kept: the file (good, bad,
   * invalid) and reason of each of its rows; `note` when the files are gone or too large to search here (the rows
   * then follow from the customer's copies, whose SHA-256 the certificate states).
   */
  scrubRows: { jobId: string; seq: number; rows: { file: string; reason: string | null }[]; note: string | null }[];
  optOuts: {
    id: string;
    receivedAt: string;
    offsetMinutes: number;
    honouredAt: string | null;
    channel: string;
    words: string;
    subject: string | null;
    createdAt: string;
  }[];
  proof: ChainProof;
}

type Obj = Record<string, Json>;

/** What an entry says about `number` (null: nothing). */
export function decisionOf(e: LedgerEntry, number: string): DossierDecision | null {
  const p = (e.payload ?? {}) as Obj;
  const base = { seq: e.seq, at: e.at, kind: e.kind };
  switch (e.kind) {
    case "lookup":
    case "reservation": {
      const answers = ((p.answers ?? []) as Json[][]).filter((a) => a[0] === number);
      if (!answers.length) return null;
      const [, suppressedBy, callableNow, reservationId] = answers[0];
      return {
        ...base,
        detail: {
          answeredAt: p.at ?? null,
          suppressedBy: suppressedBy ?? null,
          callableNow: callableNow ?? null,
          reservationId: reservationId ?? null,
          suppressionType: p.suppressionType ?? null,
          callingRulesVersion: p.callingRulesVersion ?? null,
          capsVersion: p.capsVersion ?? null,
          lists: p.lists ?? [],
          containers: p.containers ?? [],
          exemptionList: p.exemptionList ?? null,
          answerSha256: p.answerSha256 ?? null,
        },
      };
    }
    case "opt_out": {
      const mine = ((p.optOuts ?? []) as Obj[]).filter((o) => o.number === number);
      return mine.length ? { ...base, detail: { loadId: p.loadId ?? null, optOuts: mine } } : null;
    }
    case "opt_out_honoured":
      return e.numbers.includes(number) ? { ...base, detail: { honouredAt: p.honouredAt ?? null, loadId: p.loadId ?? null, listId: p.listId ?? null } } : null;
    case "exemption_list":
      return e.numbers.includes(number) ? { ...base, detail: p } : null;
    default:
      return null;
  }
}

/** The batch entries (scrubs, own-list versions) a dossier shows whole. */
export const isBatch = (e: LedgerEntry): boolean => e.kind === "scrub" || e.kind === "list_version";

export function decisionsOf(items: ChainProof["items"], number: string): { decisions: DossierDecision[]; batches: DossierDecision[] } {
  const decisions: DossierDecision[] = [];
  const batches: DossierDecision[] = [];
  for (const e of items) {
    if (isLink(e)) continue;
    if (isBatch(e)) batches.push({ seq: e.seq, at: e.at, kind: e.kind, detail: e.payload });
    else {
      const d = decisionOf(e, number);
      if (d) decisions.push(d);
    }
  }
  return { decisions, batches };
}

const sha = (t: string) => crypto.createHash("sha256").update(t).digest("hex");

/**
 * Verifies a dossier offline: its proof against the published keys (each shown entry's hash, each link, each signed
 * head), its decisions and batches exactly as read from the proof's entries, and each opt-out it lists found in an
 * opt-out entry of the ledger with the same instant, channel and words. Calls and exemption records are shown as
 * stored: the ledger does not cover them (said, not failed).
 */
export function verifyDossierText(text: string, publishedKeys: ReadonlyMap<string, string>): { ok: boolean; checks: LedgerCheck[]; doc: NumberDossier | null } {
  let d: NumberDossier;
  try {
    d = JSON.parse(text) as NumberDossier;
  } catch {
    return { ok: false, doc: null, checks: [{ subject: "dossier", ok: false, detail: "The dossier file is not valid JSON." }] };
  }
  if (!d || d.format !== DOSSIER_FORMAT || !d.proof || !Array.isArray(d.proof.items) || !Array.isArray(d.decisions)) {
    return { ok: false, doc: null, checks: [{ subject: "dossier", ok: false, detail: `The file is not a ${DOSSIER_FORMAT} dossier.` }] };
  }
  if (!publishedKeys.size)
    return {
      ok: false,
      doc: d,
      checks: [{ subject: "signing key", ok: false, detail: "No keys of the service were given: a dossier verifies only against the keys it publishes." }],
    };
  const checks: LedgerCheck[] = [];
  const proof = d.proof.ledger
    ? verifyChainProof(d.proof, publishedKeys)
    : {
        ok: true,
        checks: [
          {
            subject: "proof",
            ok: d.decisions.length === 0 && d.batches.length === 0 && d.proof.items.length === 0,
            detail:
              "The dossier carries no ledger proof: the account had no ledger entries when it was made (compare with the heads at /.well-known/ledger-heads).",
          },
        ] as LedgerCheck[],
      };
  checks.push(...proof.checks);
  const read = decisionsOf(d.proof.items, d.number);
  const same = (a: unknown, b: unknown) => canonicalJson(a as Json) === canonicalJson(b as Json);
  checks.push(
    same(read.decisions, d.decisions)
      ? { subject: "decisions", ok: true, detail: `The ${d.decisions.length} decision(s) listed are exactly what the proof's entries say about ${d.number}.` }
      : { subject: "decisions", ok: false, detail: "The decisions listed differ from what the proof's entries say about the number: the dossier was changed." },
  );
  checks.push(
    same(read.batches, d.batches)
      ? { subject: "batches", ok: true, detail: `The ${d.batches.length} scrub(s) and list version(s) listed are the proof's batch entries.` }
      : { subject: "batches", ok: false, detail: "The scrubs or list versions listed differ from the proof's entries: the dossier was changed." },
  );
  const received = read.decisions.filter((x) => x.kind === "opt_out").flatMap((x) => ((x.detail as Obj).optOuts ?? []) as Obj[]);
  for (const o of d.optOuts ?? []) {
    const hit = received.find((r) => r.receivedAt === o.receivedAt && r.channel === o.channel && r.wordsSha256 === sha(o.words));
    checks.push(
      hit
        ? { subject: `opt-out ${o.id}`, ok: true, detail: `The opt-out received ${o.receivedAt} (${o.channel}) is in the ledger as received, words unchanged.` }
        : {
            subject: `opt-out ${o.id}`,
            ok: false,
            detail: `The opt-out received ${o.receivedAt} (${o.channel}) is not in the ledger's window as listed: its words, instant or channel were changed, or it was recorded outside the window.`,
          },
    );
  }
  checks.push({
    subject: "as stored",
    ok: true,
    detail: `${d.calls?.length ?? 0} call(s) and text(s) and ${d.exemptionRecords?.length ?? 0} exemption record(s) are shown as stored; the ledger does not cover them (exemption list changes naming the number are among the decisions).`,
  });
  const scrubbed = new Set(read.batches.filter((b) => b.kind === "scrub").map((b) => b.seq));
  const strays = (d.scrubRows ?? []).filter((r) => !scrubbed.has(r.seq));
  checks.push(
    strays.length
      ? { subject: "scrub rows", ok: false, detail: `Rows are listed for scrubs the proof does not hold (entries ${strays.map((r) => r.seq).join(", ")}).` }
      : {
          subject: "scrub rows",
          ok: true,
          detail: `The number's rows in ${d.scrubRows?.length ?? 0} scrub(s) are read from their result files as kept; check those files' SHA-256 against each scrub's certificate (npm run verify -- --certificate … --results DIR).`,
        },
  );
  return { ok: checks.every((c) => c.ok), checks, doc: d };
}
