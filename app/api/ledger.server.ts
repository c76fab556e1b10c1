import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { ledgerQueue, type LedgerDraft } from "scrub-service";

/*
 * The live lookup's entries in the decision ledger (issue #47, decision 197). The answer's bytes are queued as they
 * are sent (O(1) on the request's path); at flush each becomes one entry: kind `lookup`, or `reservation` when the
 * request reserved, naming the valid numbers asked about, with the SHA-256 of the answer's bytes, its instant, the
 * rules and list versions it was decided on and each number's outcome: [number, suppressed_by, callableNow,
 * reservationId]. What a crash can lose is said in the queue (scrub-service/src/ledger/buffer.ts).
 */

interface AnswerEntry {
  number: string | null;
  suppressed_by?: string | null;
  callableNow?: boolean | null;
  reserved?: boolean;
  reservationId?: string | null;
}

interface Answer {
  data: AnswerEntry[];
  at?: string;
  suppression_type?: string;
  container_id?: number | null;
  calling_rules_version?: string;
  caps_version?: string;
  purpose?: string;
  subject?: string;
  lists?: { kind: string; version: number }[];
  containers?: { id: number; version: number }[];
  exemption_list?: { id: number; version: number };
  stale_lists?: { kind: string }[];
  emergency_periods?: { id: number }[];
}

/** The ledger entry of a lookup answer's JSON bytes (null when it named no valid number). */
export function lookupDraft(bytes: Uint8Array): LedgerDraft | null {
  const a = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")) as Answer;
  const valid = a.data.filter((e) => e.number !== null);
  if (!valid.length) return null;
  const reserve = valid.some((e) => "reserved" in e);
  return {
    kind: reserve ? "reservation" : "lookup",
    numbers: [...new Set(valid.map((e) => e.number!))],
    ref: null,
    payload: {
      at: a.at ?? null,
      answerSha256: crypto.createHash("sha256").update(bytes).digest("hex"),
      suppressionType: a.suppression_type ?? null,
      containerId: a.container_id ?? null,
      callingRulesVersion: a.calling_rules_version ?? null,
      capsVersion: a.caps_version ?? null,
      purpose: a.purpose ?? null,
      subject: a.subject ?? null,
      lists: a.lists ?? [],
      containers: a.containers ?? [],
      exemptionList: a.exemption_list ?? null,
      staleLists: (a.stale_lists ?? []).map((l) => l.kind),
      emergencyPeriods: (a.emergency_periods ?? []).map((p) => p.id),
      answers: valid.map((e) => [e.number!, e.suppressed_by ?? null, e.callableNow ?? null, e.reservationId ?? null]),
    },
  };
}

/** Queues a lookup answer sent to the customer for its ledger (never throws, never waits). */
export function recordLookupInLedger(db: Kysely<Database>, userId: string, bytes: Uint8Array): void {
  ledgerQueue.add(db, userId, () => lookupDraft(bytes));
}
