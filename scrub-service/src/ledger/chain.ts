/**
 * The decision ledger's chain (issue #47, decision 197), pure: no I/O. An entry's canonical form is the canonical JSON
 * (decision 110) of { seq, at, kind, numbers, ref, payload }, its digest the SHA-256 of that form's UTF-8 bytes; its
 * hash is SHA-256(previous hash's 32 bytes ‖ its digest's 32 bytes), the first entry's previous hash 64 zeros. Hashing
 * the digest (not the form itself) lets a proof stand for an entry it does not show by its digest alone (a `link`): a
 * number's dossier proves its own entries up to a signed head without carrying every other entry in between. Each finished UTC day the chain's head (the
 * last entry recorded that day) is signed with the certificate key (Ed25519, certificate/sign.ts): a day head is the
 * canonical JSON of { format, ledger, day, seq, hash, signedAt }, `ledger` being the customer's public ledger id.
 *
 * `verifyLedgerExport` checks an export offline against the service's published keys: every head's signature under a
 * published key, every entry's hash and link, the sequence without gaps or reversals, and each signed head found in
 * the chain at its seq with its hash. A changed entry, a deleted one, two reordered or a forged head each fail it with
 * a message naming what and where.
 */
import crypto from "node:crypto";
import { canonicalJson, type Json } from "../certificate/canonical";
import { publicKeyObject, type SigningKey } from "../certificate/sign";

export const LEDGER_EXPORT_FORMAT = "decision-ledger/1";
export const LEDGER_HEAD_FORMAT = "ledger-day-head/1";
export const GENESIS_HASH = "0".repeat(64);

export const LEDGER_KINDS = ["scrub", "lookup", "reservation", "opt_out", "opt_out_honoured", "exemption_list", "list_version"] as const;
export type LedgerEntryKind = (typeof LEDGER_KINDS)[number];

/** What a caller appends: the chain gives it its seq, instant and hashes. */
export interface LedgerDraft {
  kind: LedgerEntryKind;
  /** The numbers the decision is about (10 digits), none for a batch (a scrub: its rows follow from its certificate). */
  numbers: readonly (number | string)[];
  /** A batch's reference (job id, load id, list id …), or null. */
  ref: string | null;
  payload: Json;
}

/** An entry as stored and exported. */
export interface LedgerEntry {
  seq: number;
  /** When it was recorded (ISO 8601, UTC, milliseconds): non-decreasing along the chain. */
  at: string;
  kind: LedgerEntryKind;
  numbers: string[];
  ref: string | null;
  payload: Json;
  prevHash: string;
  hash: string;
}

export interface ChainHead {
  seq: number;
  hash: string;
}

/** The canonical bytes an entry's hash covers. */
export function entryCanonical(e: Pick<LedgerEntry, "seq" | "at" | "kind" | "numbers" | "ref" | "payload">): string {
  return canonicalJson({ seq: e.seq, at: e.at, kind: e.kind, numbers: e.numbers, ref: e.ref, payload: e.payload });
}

/** SHA-256 of an entry's canonical form, hex. */
export function entryDigest(canonical: string): string {
  return crypto.createHash("sha256").update(canonical, "utf8").digest("hex");
}

/** SHA-256(previous hash's bytes ‖ the entry digest's bytes), hex. */
export function linkHash(prevHash: string, digest: string): string {
  return crypto.createHash("sha256").update(Buffer.from(prevHash, "hex")).update(Buffer.from(digest, "hex")).digest("hex");
}

/** An entry's hash from its previous hash and its canonical form. */
export function entryHash(prevHash: string, canonical: string): string {
  return linkHash(prevHash, entryDigest(canonical));
}

/** An entry a proof does not show: its seq and digest, enough to carry the chain past it. */
export interface LedgerLink {
  seq: number;
  digest: string;
}

export const isLink = (e: LedgerEntry | LedgerLink): e is LedgerLink => "digest" in e && !("kind" in e);

export const numberText = (n: number | string): string => String(n).padStart(10, "0");

/** The drafts chained after `head`, all recorded at `at` (ISO). */
export function chainEntries(head: ChainHead, drafts: readonly LedgerDraft[], at: string): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  let { seq, hash } = head;
  for (const d of drafts) {
    seq++;
    const body = { seq, at, kind: d.kind, numbers: d.numbers.map(numberText), ref: d.ref, payload: d.payload };
    const h = entryHash(hash, entryCanonical(body));
    out.push({ ...body, prevHash: hash, hash: h });
    hash = h;
  }
  return out;
}

/** A chain's head at the end of a UTC day, as signed. */
export interface DayHead {
  ledger: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  seq: number;
  hash: string;
  signedAt: string;
}

export interface SignedDayHead extends DayHead {
  keyId: string;
  /** Ed25519 over dayHeadCanonical(head), base64. */
  signature: string;
}

export function dayHeadCanonical(h: DayHead): string {
  return canonicalJson({ format: LEDGER_HEAD_FORMAT, ledger: h.ledger, day: h.day, seq: h.seq, hash: h.hash, signedAt: h.signedAt });
}

export function signDayHead(h: DayHead, key: SigningKey): SignedDayHead {
  const signature = crypto.sign(null, Buffer.from(dayHeadCanonical(h)), key.privateKey).toString("base64");
  return { ledger: h.ledger, day: h.day, seq: h.seq, hash: h.hash, signedAt: h.signedAt, keyId: key.id, signature };
}

/** Whether the head's signature holds under the published key it names: "ok", or why not. */
export function checkDayHead(h: SignedDayHead, publishedKeys: ReadonlyMap<string, string>): "ok" | "unknown key" | "bad signature" {
  const pub = publishedKeys.get(h.keyId);
  if (pub === undefined) return "unknown key";
  try {
    const sig = Buffer.from(h.signature, "base64");
    if (sig.toString("base64") !== h.signature) return "bad signature";
    return crypto.verify(null, Buffer.from(dayHeadCanonical(h)), publicKeyObject(pub), sig) ? "ok" : "bad signature";
  } catch {
    return "bad signature";
  }
}

/** An export: a customer's entries in a window, the signed head before them (its anchor) and the signed heads within. */
export interface LedgerExport {
  format: typeof LEDGER_EXPORT_FORMAT;
  ledger: string;
  from: string;
  to: string;
  exportedAt: string;
  /** The latest signed head before the first entry; null when the entries start the chain (seq 1). */
  anchor: SignedDayHead | null;
  entries: LedgerEntry[];
  dayHeads: SignedDayHead[];
}

export interface LedgerCheck {
  subject: string;
  ok: boolean;
  detail: string;
}

export interface LedgerVerification {
  ok: boolean;
  checks: LedgerCheck[];
  /** Each entry's recomputed hash by seq (those that were checked). */
  hashes: Map<number, string>;
}

const isHex64 = (v: unknown): v is string => typeof v === "string" && /^[0-9a-f]{64}$/.test(v);
const dayOf = (iso: string): string => iso.slice(0, 10);
const MAX_PROBLEMS = 20;

function headShape(h: unknown): h is SignedDayHead {
  const o = h as Record<string, unknown> | null;
  return (
    !!o &&
    typeof o === "object" &&
    typeof o.ledger === "string" &&
    typeof o.day === "string" &&
    /^\d{4}-\d{2}-\d{2}$/.test(o.day) &&
    Number.isSafeInteger(o.seq) &&
    isHex64(o.hash) &&
    typeof o.signedAt === "string" &&
    typeof o.keyId === "string" &&
    typeof o.signature === "string"
  );
}

function entryShape(e: unknown): e is LedgerEntry {
  const o = e as Record<string, unknown> | null;
  return (
    !!o &&
    typeof o === "object" &&
    Number.isSafeInteger(o.seq) &&
    typeof o.at === "string" &&
    (LEDGER_KINDS as readonly string[]).includes(o.kind as string) &&
    Array.isArray(o.numbers) &&
    (o.ref === null || typeof o.ref === "string") &&
    "payload" in o &&
    isHex64(o.prevHash) &&
    isHex64(o.hash)
  );
}

/** The shape problem of a parsed export, or null. */
export function ledgerExportProblem(v: unknown): string | null {
  const d = v as Partial<LedgerExport> | null;
  if (!d || typeof d !== "object" || Array.isArray(d)) return "it is not a ledger export (no object)";
  if (d.format !== LEDGER_EXPORT_FORMAT) return `its format is not ${LEDGER_EXPORT_FORMAT}`;
  if (typeof d.ledger !== "string" || !d.ledger) return "it names no ledger";
  if (!Array.isArray(d.entries)) return "it has no entries list";
  if (!Array.isArray(d.dayHeads)) return "it has no dayHeads list";
  const badEntry = d.entries.findIndex((e) => !entryShape(e));
  if (badEntry >= 0) return `its entry at index ${badEntry} is incomplete`;
  const badHead = d.dayHeads.findIndex((h) => !headShape(h));
  if (badHead >= 0) return `its day head at index ${badHead} is incomplete`;
  if (d.anchor !== null && d.anchor !== undefined && !headShape(d.anchor)) return "its anchor head is incomplete";
  return null;
}

/**
 * Verifies an export against the service's published keys (key id → raw public key, base64). Every problem found is a
 * failed check naming the entry's seq or the head's day; what holds is said once.
 */
export function verifyLedgerExport(doc: LedgerExport, publishedKeys: ReadonlyMap<string, string>): LedgerVerification {
  return verifyChainProof({ ledger: doc.ledger, anchor: doc.anchor, items: doc.entries, dayHeads: doc.dayHeads }, publishedKeys);
}

/** A chain's stretch: from the anchor (or the start), each entry shown or only linked by its digest, and the signed heads. */
export interface ChainProof {
  ledger: string;
  anchor: SignedDayHead | null;
  items: (LedgerEntry | LedgerLink)[];
  dayHeads: SignedDayHead[];
}

/** verifyLedgerExport's checks on a stretch whose entries may be links (a dossier's proof). */
export function verifyChainProof(doc: ChainProof, publishedKeys: ReadonlyMap<string, string>): LedgerVerification {
  const checks: LedgerCheck[] = [];
  const hashes = new Map<number, string>();
  let problems = 0;
  const fail = (subject: string, detail: string) => {
    if (problems++ < MAX_PROBLEMS) checks.push({ subject, ok: false, detail });
  };

  // 1. the signed heads: each under a published key, of this ledger
  const heads = [...(doc.anchor ? [doc.anchor] : []), ...doc.dayHeads];
  let headsOk = 0;
  for (const h of heads) {
    const subject = `day head ${h.day}`;
    if (h.ledger !== doc.ledger) {
      fail(subject, `The day head of ${h.day} is of another ledger (${h.ledger}, not ${doc.ledger}).`);
      continue;
    }
    const r = checkDayHead(h, publishedKeys);
    if (r === "unknown key")
      fail(subject, `The day head of ${h.day} (seq ${h.seq}) is signed by key ${h.keyId}, which is not one of the service's published keys: forged.`);
    else if (r === "bad signature")
      fail(
        subject,
        `The day head of ${h.day} (seq ${h.seq}) does not match its Ed25519 signature under the service's published key ${h.keyId}: it was changed or forged.`,
      );
    else headsOk++;
  }
  if (heads.length && headsOk === heads.length)
    checks.push({ subject: "day heads", ok: true, detail: `${heads.length} signed day head(s), each signature holding under a published key.` });

  // 2. the chain: from the anchor (or the genesis), no gap, no reversal, every link and hash
  let expectSeq = doc.anchor ? doc.anchor.seq + 1 : 1;
  let expectPrev = doc.anchor ? doc.anchor.hash : GENESIS_HASH;
  const start = doc.anchor ? `the anchor head of ${doc.anchor.day} (seq ${doc.anchor.seq})` : "the start of the ledger (seq 1)";
  let chainOk = true;
  let lastAt = "";
  const bySeq = new Map<number, LedgerEntry>();
  for (const e of doc.items) {
    const subject = `entry ${e.seq}`;
    if (isLink(e)) {
      // an entry not shown: only its place in the sequence can be checked, its digest carries the chain
      if (e.seq !== expectSeq) {
        chainOk = false;
        fail(subject, `Entry ${e.seq} (linked) is out of sequence: entry ${expectSeq} was expected here (entries deleted or reordered).`);
      }
      const h = linkHash(expectPrev, /^[0-9a-f]{64}$/.test(e.digest) ? e.digest : GENESIS_HASH);
      hashes.set(e.seq, h);
      expectPrev = h;
      expectSeq = e.seq + 1;
      continue;
    }
    if (e.seq !== expectSeq) {
      chainOk = false;
      if (e.seq > expectSeq)
        fail(
          subject,
          `Entr${e.seq - expectSeq === 1 ? `y ${expectSeq} is` : `ies ${expectSeq}–${e.seq - 1} are`} missing: after ${
            expectSeq - 1 === (doc.anchor?.seq ?? 0) ? start : `entry ${expectSeq - 1}`
          } comes entry ${e.seq} (deleted).`,
        );
      else fail(subject, `Entry ${e.seq} is out of order: entry ${expectSeq} was expected here (entries reordered or repeated).`);
    }
    if (e.prevHash !== expectPrev) {
      chainOk = false;
      fail(
        subject,
        `Entry ${e.seq} does not link to the entry before it: it states previous hash ${e.prevHash.slice(0, 16)}…, the chain gives ${expectPrev.slice(0, 16)}… (an entry before it was changed, removed or moved).`,
      );
    }
    let computed: string;
    try {
      computed = entryHash(e.prevHash, entryCanonical(e));
    } catch {
      computed = "";
    }
    if (computed !== e.hash) {
      chainOk = false;
      fail(subject, `Entry ${e.seq} was changed: its contents hash to ${computed.slice(0, 16) || "(not canonical JSON)"}…, it states ${e.hash.slice(0, 16)}….`);
    }
    if (e.at < lastAt) {
      chainOk = false;
      fail(subject, `Entry ${e.seq} is recorded at ${e.at}, before the entry ahead of it (${lastAt}): entries reordered.`);
    }
    lastAt = e.at;
    // the chain continues from what this entry's contents really hash to
    const h = entryHash(expectPrev, entryCanonical(e));
    hashes.set(e.seq, h);
    bySeq.set(e.seq, e);
    expectPrev = h;
    expectSeq = e.seq + 1;
  }
  if (chainOk)
    checks.push({
      subject: "chain",
      ok: true,
      detail: doc.items.length
        ? `Entries ${doc.items[0].seq}–${doc.items[doc.items.length - 1].seq} follow ${start} without a gap, each hash and link as recomputed.`
        : `No entries in the window; the chain continues from ${start}.`,
    });

  // 3. every signed head found in the chain at its seq with its hash, and at the end of its day
  const lastSeq = doc.items.length ? doc.items[doc.items.length - 1].seq : (doc.anchor?.seq ?? 0);
  let signedThrough = doc.anchor?.seq ?? 0;
  let headsInChain = true;
  for (const h of doc.dayHeads) {
    const subject = `day head ${h.day}`;
    if (doc.anchor && h.seq < doc.anchor.seq) {
      headsInChain = false;
      fail(subject, `The day head of ${h.day} signs seq ${h.seq}, before the anchor's seq ${doc.anchor.seq}: heads out of order.`);
      continue;
    }
    if (h.seq > lastSeq) {
      headsInChain = false;
      fail(
        subject,
        `The day head of ${h.day} signs entry ${h.seq}, but the export ends at entry ${lastSeq}: entries ${lastSeq + 1}–${h.seq} are missing (deleted).`,
      );
      continue;
    }
    const got = h.seq === doc.anchor?.seq ? doc.anchor.hash : hashes.get(h.seq);
    if (got !== h.hash) {
      headsInChain = false;
      fail(
        subject,
        `The day head of ${h.day} signed entry ${h.seq} with hash ${h.hash.slice(0, 16)}…, the entries give ${(got ?? "nothing").slice(0, 16)}…: an entry up to ${h.seq} was changed, removed or reordered after it was signed.`,
      );
      continue;
    }
    const at = bySeq.get(h.seq)?.at;
    const next = bySeq.get(h.seq + 1)?.at;
    if ((at && dayOf(at) > h.day) || (next && dayOf(next) <= h.day)) {
      headsInChain = false;
      fail(subject, `The day head of ${h.day} does not end its day: entry ${h.seq} or ${h.seq + 1} is recorded on another day than the head says.`);
      continue;
    }
    signedThrough = Math.max(signedThrough, h.seq);
  }
  // a day with entries before the last signed day must have its own head
  const headDays = new Set(doc.dayHeads.map((h) => h.day));
  const lastHeadDay = doc.dayHeads.reduce((m, h) => (h.day > m ? h.day : m), "");
  for (const day of new Set(doc.items.flatMap((e) => (isLink(e) ? [] : [dayOf(e.at)])))) {
    if (day < lastHeadDay && !headDays.has(day)) {
      headsInChain = false;
      fail(`day head ${day}`, `Entries are recorded on ${day} but the export holds no signed head for that day (its head was removed).`);
    }
  }
  if (headsInChain && doc.dayHeads.length)
    checks.push({ subject: "signed heads", ok: true, detail: `Each of the ${doc.dayHeads.length} day head(s) in the window matches the chain at its entry.` });
  if (lastSeq > signedThrough && chainOk)
    checks.push({
      subject: "unsigned",
      ok: true,
      detail: `Entries ${signedThrough + 1}–${lastSeq} come after the last signed head: linked, not yet signed (their day has not ended, or was not signed yet).`,
    });
  if (problems > MAX_PROBLEMS) checks.push({ subject: "more", ok: false, detail: `${problems - MAX_PROBLEMS} more problem(s) not listed.` });
  return { ok: checks.every((c) => c.ok), checks, hashes };
}

/** Parses and verifies an export's text. */
export function verifyLedgerText(text: string, publishedKeys: ReadonlyMap<string, string>): LedgerVerification & { doc: LedgerExport | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, doc: null, hashes: new Map(), checks: [{ subject: "ledger", ok: false, detail: "The ledger file is not valid JSON." }] };
  }
  const problem = ledgerExportProblem(parsed);
  if (problem)
    return { ok: false, doc: null, hashes: new Map(), checks: [{ subject: "ledger", ok: false, detail: `The ledger file cannot be checked: ${problem}.` }] };
  if (!publishedKeys.size)
    return {
      ok: false,
      doc: parsed as LedgerExport,
      hashes: new Map(),
      checks: [{ subject: "signing key", ok: false, detail: "No keys of the service were given: a ledger verifies only against the keys it publishes." }],
    };
  return { ...verifyLedgerExport(parsed as LedgerExport, publishedKeys), doc: parsed as LedgerExport };
}
