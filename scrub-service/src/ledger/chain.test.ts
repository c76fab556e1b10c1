/**
 * The ledger's chain (decision 197), pure: an honest export verifies; a changed entry, a deleted one, two reordered
 * (as they are, and renumbered with every hash recomputed), a forged head, a head re-signed with a key the service does
 * not publish, and a removed head each fail with a message naming the entry or the day.
 */
import { describe, expect, it } from "vitest";
import { newSigningKey } from "../certificate/sign";
import {
  chainEntries,
  entryCanonical,
  entryDigest,
  entryHash,
  GENESIS_HASH,
  LEDGER_EXPORT_FORMAT,
  signDayHead,
  verifyChainProof,
  verifyLedgerExport,
  type LedgerEntry,
  type LedgerExport,
} from "./chain";

const service = newSigningKey().key;
const intruder = newSigningKey().key;
const keys = new Map([[service.id, service.publicKey]]);
const LEDGER = "lg_test";

/** Three days of entries (2, 3 and 2 a day), the first two days signed. */
function honest(): LedgerExport {
  const days = ["2026-11-25T10:00:00.000Z", "2026-11-26T09:00:00.000Z", "2026-11-27T08:00:00.000Z"];
  const perDay = [2, 3, 2];
  let head = { seq: 0, hash: GENESIS_HASH };
  const entries: LedgerEntry[] = [];
  const dayHeads = [];
  for (let d = 0; d < days.length; d++) {
    for (let i = 0; i < perDay[d]; i++) {
      const [e] = chainEntries(
        head,
        [{ kind: "lookup", numbers: [2125550100 + entries.length], ref: null, payload: { suppressed_by: i % 2 ? "dnc" : null } }],
        days[d],
      );
      entries.push(e);
      head = { seq: e.seq, hash: e.hash };
    }
    if (d < 2)
      dayHeads.push(signDayHead({ ledger: LEDGER, day: days[d].slice(0, 10), seq: head.seq, hash: head.hash, signedAt: "2026-11-28T00:30:00.000Z" }, service));
  }
  return {
    format: LEDGER_EXPORT_FORMAT,
    ledger: LEDGER,
    from: "2026-11-25",
    to: "2026-11-27",
    exportedAt: "2026-11-28T12:00:00.000Z",
    anchor: null,
    entries,
    dayHeads,
  };
}

/** Recomputes every hash and link from entry `from` on (what an operator rewriting the table would do). */
function rehash(doc: LedgerExport, renumber = false): LedgerExport {
  let prev = GENESIS_HASH;
  doc.entries = doc.entries.map((e, i) => {
    const seq = renumber ? i + 1 : e.seq;
    const hash = entryHash(prev, entryCanonical({ ...e, seq }));
    const out = { ...e, seq, prevHash: prev, hash };
    prev = hash;
    return out;
  });
  return doc;
}

const failures = (doc: LedgerExport) => {
  const v = verifyLedgerExport(doc, keys);
  expect(v.ok).toBe(false);
  return v.checks.filter((c) => !c.ok).map((c) => c.detail);
};

describe("the decision ledger's chain", () => {
  it("verifies an honest export, saying which entries are signed and which are not yet", () => {
    const v = verifyLedgerExport(honest(), keys);
    expect(v.ok).toBe(true);
    expect(v.checks.map((c) => c.detail).join("\n")).toMatch(/Entries 1–7 follow the start of the ledger/);
    expect(v.checks.find((c) => c.subject === "unsigned")?.detail).toMatch(/Entries 6–7 come after the last signed head/);
  });

  it("detects a changed entry, and the same change with every hash after it recomputed", () => {
    const doc = honest();
    doc.entries[2] = { ...doc.entries[2], payload: { suppressed_by: "litigation" } };
    expect(failures(doc)[0]).toMatch(/^Entry 3 was changed: its contents hash to/);
    const rewritten = rehash(doc);
    expect(failures(rewritten)).toEqual([expect.stringMatching(/^The day head of 2026-11-26 signed entry 5 with hash .* an entry up to 5 was changed/)]);
  });

  it("detects a changed number and a changed instant", () => {
    const doc = honest();
    doc.entries[0] = { ...doc.entries[0], numbers: ["2125559999"] };
    expect(failures(doc)[0]).toMatch(/^Entry 1 was changed/);
    const other = honest();
    other.entries[6] = { ...other.entries[6], at: "2026-11-27T08:00:00.001Z" };
    expect(failures(other)).toEqual([expect.stringMatching(/^Entry 7 was changed/)]);
  });

  it("detects a deleted entry, and the deletion with the rest renumbered and rehashed", () => {
    const doc = honest();
    doc.entries.splice(3, 1);
    expect(failures(doc)[0]).toBe("Entry 4 is missing: after entry 3 comes entry 5 (deleted).");
    const renumbered = rehash(honest(), false);
    renumbered.entries.splice(3, 1);
    expect(failures(rehash(renumbered, true)).join("\n")).toMatch(/The day head of 2026-11-26 signed entry 5 with hash/);
    // the last signed entry deleted: the head names an entry the export does not hold
    const tail = honest();
    tail.entries.splice(4, 3);
    expect(failures(tail)).toEqual([
      expect.stringMatching(/^The day head of 2026-11-26 signs entry 5, but the export ends at entry 4: entries 5–5 are missing/),
    ]);
    // the first entry deleted: the export no longer starts the ledger
    const first = honest();
    first.entries.shift();
    expect(failures(first)[0]).toMatch(/^Entry 1 is missing: after the start of the ledger \(seq 1\) comes entry 2/);
  });

  it("detects two entries reordered, and reordered with seqs and hashes rewritten", () => {
    const doc = honest();
    [doc.entries[2], doc.entries[3]] = [doc.entries[3], doc.entries[2]];
    const f = failures(doc);
    expect(f[0]).toMatch(/^Entries 3–3 are missing|^Entry 3 is missing/);
    expect(f.join("\n")).toMatch(/Entry 3 is out of order: entry 5 was expected here/);
    const rewritten = honest();
    [rewritten.entries[2], rewritten.entries[3]] = [rewritten.entries[3], rewritten.entries[2]];
    expect(failures(rehash(rewritten, true))).toEqual([expect.stringMatching(/^The day head of 2026-11-26 signed entry 5 .* changed, removed or reordered/)]);
  });

  it("detects a forged head, a head re-signed with a key the service does not publish, and a removed head", () => {
    const forged = honest();
    forged.dayHeads[0] = { ...forged.dayHeads[0], hash: forged.entries[0].hash, seq: 1 };
    expect(failures(forged)[0]).toMatch(
      /^The day head of 2026-11-25 \(seq 1\) does not match its Ed25519 signature under the service's published key ed25519-/,
    );
    // an operator who rewrote entry 3 and signs the new heads with a key of its own
    const resigned = honest();
    resigned.entries[2] = { ...resigned.entries[2], payload: { suppressed_by: "litigation" } };
    rehash(resigned);
    resigned.dayHeads = resigned.dayHeads.map((h) => signDayHead({ ...h, hash: resigned.entries[h.seq - 1].hash }, intruder));
    expect(failures(resigned)).toEqual([
      `The day head of 2026-11-25 (seq 2) is signed by key ${intruder.id}, which is not one of the service's published keys: forged.`,
      `The day head of 2026-11-26 (seq 5) is signed by key ${intruder.id}, which is not one of the service's published keys: forged.`,
    ]);
    const removed = honest();
    removed.dayHeads.shift();
    expect(failures(removed)).toEqual(["Entries are recorded on 2026-11-25 but the export holds no signed head for that day (its head was removed)."]);
  });

  it("verifies a window that starts after an anchor head, and refuses one that skips past it", () => {
    const full = honest();
    const window: LedgerExport = { ...full, from: "2026-11-26", anchor: full.dayHeads[0], entries: full.entries.slice(2), dayHeads: full.dayHeads.slice(1) };
    expect(verifyLedgerExport(window, keys).ok).toBe(true);
    const skipped = { ...window, entries: full.entries.slice(3) };
    expect(failures(skipped)[0]).toMatch(/^Entry 3 is missing: after the anchor head of 2026-11-25 \(seq 2\) comes entry 4/);
    expect(verifyLedgerExport(full, new Map()).ok).toBe(false);
  });

  it("proves one number's entry up to a signed head with the others as digests only (a dossier's proof)", () => {
    const doc = honest();
    const items = doc.entries.map((e, i) => (i === 2 ? e : { seq: e.seq, digest: entryDigest(entryCanonical(e)) }));
    const proof = { ledger: LEDGER, anchor: null, items, dayHeads: doc.dayHeads };
    expect(verifyChainProof(proof, keys).checks.filter((c) => !c.ok)).toEqual([]);
    const shownChanged = { ...proof, items: items.map((e, i) => (i === 2 ? { ...(e as LedgerEntry), payload: { suppressed_by: "litigation" } } : e)) };
    expect(verifyChainProof(shownChanged, keys).checks.find((c) => !c.ok)?.detail).toMatch(/^Entry 3 was changed/);
    const linkChanged = { ...proof, items: items.map((e, i) => (i === 0 ? { seq: 1, digest: "0".repeat(64) } : e)) };
    const v = verifyChainProof(linkChanged, keys);
    expect(v.ok).toBe(false);
    expect(v.checks.filter((c) => !c.ok).map((c) => c.detail)).toContainEqual(expect.stringMatching(/^The day head of 2026-11-25 signed entry 2 with hash/));
    const linkDropped = { ...proof, items: items.filter((_, i) => i !== 1) };
    expect(verifyChainProof(linkDropped, keys).checks.find((c) => !c.ok)?.detail).toMatch(/^Entry 2 is missing: after entry 1 comes entry 3/);
  });
});
