/**
 * Assembles a number's dossier (./dossier-doc.ts) from the database: the proof's stretch of the owner's chain (entries
 * naming the number and batch entries whole, every other entry as its stored digest), its calls, exemption records and
 * opt-outs. Scoped by the owner's user id throughout.
 */
import fs from "node:fs";
import readline from "node:readline";
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "db/schema";
import type { Json } from "../certificate/canonical";
import { EXEMPTION_BASES, isoDateOfDay } from "../exemption-rules/windows";
import { exemptionsOfNumbers, listExemptionLists } from "../exemptions";
import type { LedgerEntry, LedgerLink, SignedDayHead } from "./chain";
import { numberText } from "./chain";
import { decisionsOf, DOSSIER_FORMAT, type NumberDossier } from "./dossier-doc";
import { anchorBefore, entryOfRow, ledgerIdOf } from "./store";

type Db = Kysely<Database> | Transaction<Database>;
const DAY_MS = 86_400_000;
/** Most entries (shown or linked) one dossier's proof may cross: a longer window is refused. */
export const MAX_DOSSIER_LINKS = 1_000_000;

export class DossierTooLarge extends Error {}

/** Largest result file searched for the number (bigger ones are named, not read). */
export const MAX_SEARCHED_FILE_BYTES = 256 * 1024 * 1024;

/** The cells of one CSV line (double quotes, "" inside them). */
function csvCells(line: string): string[] {
  const out: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      out.push(cell);
      cell = "";
    } else cell += c;
  }
  out.push(cell);
  return out;
}

/** The number's rows in one scrub's result files, while they are kept. */
async function scrubRowsOf(db: Db, userId: string, jobId: string, seq: number, digits: string): Promise<NumberDossier["scrubRows"][number]> {
  const files = await db
    .selectFrom("result_files")
    .select(["kind", "path", "bytes"])
    .where("job_id", "=", jobId)
    .where("user_id", "=", userId)
    .orderBy("kind")
    .execute();
  const gone = "The result files are no longer kept: the number's rows follow from your copies of them, whose SHA-256 the certificate states.";
  if (!files.length) return { jobId, seq, rows: [], note: gone };
  const rows: { file: string; reason: string | null }[] = [];
  const notes: string[] = [];
  const e164 = `+1${digits}`;
  for (const f of files) {
    if (!fs.existsSync(f.path)) {
      notes.push(`${f.kind}: ${gone}`);
      continue;
    }
    if (Number(f.bytes) > MAX_SEARCHED_FILE_BYTES) {
      notes.push(`${f.kind}.csv is larger than ${MAX_SEARCHED_FILE_BYTES / 1024 / 1024} MiB: not searched here.`);
      continue;
    }
    const lines = readline.createInterface({ input: fs.createReadStream(f.path, { encoding: "utf8" }), crlfDelay: Infinity });
    let header: string[] | null = null;
    for await (const line of lines) {
      if (header === null) {
        header = csvCells(line.replace(/^\uFEFF/, ""));
        continue;
      }
      if (!line.includes(e164)) continue;
      const cells = csvCells(line);
      if (cells[header.indexOf("phone_e164")] !== e164) continue;
      const r = header.indexOf("reason");
      rows.push({ file: f.kind, reason: r >= 0 ? (cells[r] ?? null) : null });
    }
  }
  return { jobId, seq, rows, note: notes.length ? notes.join(" ") : null };
}

type HeadRow = { day: string; seq: string | number | bigint; hash: string; signed_at: Date | string; key_id: string; signature: string };

export async function buildDossier(
  db: Db,
  userId: string,
  number: number,
  window: { from: string; to: string },
  o: { now?: Date; listsNow?: Json } = {},
): Promise<NumberDossier> {
  const now = o.now ?? new Date();
  const digits = numberText(number);
  const startMs = Date.parse(`${window.from}T00:00:00Z`);
  const endMs = Date.parse(`${window.to}T00:00:00Z`) + DAY_MS;
  const ledger = await ledgerIdOf(db, userId);
  let proof: NumberDossier["proof"] = { ledger: ledger ?? "", anchor: null, items: [], dayHeads: [] };
  if (ledger) {
    const heads = (await db
      .selectFrom("ledger_day_heads")
      .select([sql<string>`day::text`.as("day"), "seq", "hash", "signed_at", "key_id", "signature"])
      .where("user_id", "=", userId)
      .where("day", ">=", window.from)
      .where("day", "<=", window.to)
      .orderBy("day")
      .execute()) as HeadRow[];
    const head = (r: HeadRow): SignedDayHead => ({
      ledger,
      day: r.day,
      seq: Number(r.seq),
      hash: r.hash,
      signedAt: new Date(r.signed_at).toISOString(),
      keyId: r.key_id,
      signature: r.signature,
    });
    const anchor = await anchorBefore(db, userId, window.from);
    const inWindow = heads.filter((h) => h.day >= window.from).map(head);
    const firstSeq = (anchor?.seq ?? 0) + 1;
    const span = await db
      .selectFrom("ledger_entries")
      .select(sql<string>`coalesce(max(seq), 0)::text`.as("last"))
      .where("user_id", "=", userId)
      .where("recorded_at", "<", new Date(endMs))
      .executeTakeFirstOrThrow();
    const lastSeq = Number(span.last);
    if (lastSeq - firstSeq + 1 > MAX_DOSSIER_LINKS)
      throw new DossierTooLarge(`The window crosses more than ${MAX_DOSSIER_LINKS} ledger entries: ask for fewer days.`);
    const items: (LedgerEntry | LedgerLink)[] = [];
    const PAGE = 50_000;
    for (let from = firstSeq; from <= lastSeq; from += PAGE) {
      const rows = await db
        .selectFrom("ledger_entries")
        .select([
          "seq",
          "digest",
          sql<boolean>`(numbers @> array[${digits}]::bigint[] or kind in ('scrub', 'list_version'))`.as("shown"),
          sql<string | null>`case when numbers @> array[${digits}]::bigint[] or kind in ('scrub', 'list_version') then payload end`.as("payload"),
          "recorded_at",
          "kind",
          "numbers",
          "ref",
          "prev_hash",
          "hash",
        ])
        .where("user_id", "=", userId)
        .where("seq", ">=", BigInt(from))
        .where("seq", "<", BigInt(Math.min(from + PAGE, lastSeq + 1)))
        .orderBy("seq")
        .execute();
      for (const r of rows) {
        if (r.shown && r.payload !== null) items.push(entryOfRow({ ...r, payload: r.payload } as Parameters<typeof entryOfRow>[0]));
        else items.push({ seq: Number(r.seq), digest: r.digest });
      }
    }
    proof = { ledger, anchor, items, dayHeads: inWindow };
  }
  const { decisions, batches } = decisionsOf(proof.items, digits);

  const scrubRows: NumberDossier["scrubRows"] = [];
  for (const b of batches) if (b.kind === "scrub") scrubRows.push(await scrubRowsOf(db, userId, String((b.detail as { jobId: string }).jobId), b.seq, digits));

  const calls = await db
    .selectFrom("call_records")
    .select(["id", "at", "channel", "outcome", "subject", "debt_id", "reserved"])
    .where("user_id", "=", userId)
    .where("number", "=", BigInt(number))
    .where("at", ">=", new Date(startMs))
    .where("at", "<", new Date(endMs))
    .orderBy("at")
    .orderBy("id")
    .limit(10_000)
    .execute();
  const exemptionRecords: NumberDossier["exemptionRecords"] = [];
  for (const list of await listExemptionLists(db, userId)) {
    const found = await exemptionsOfNumbers(db, { id: list.id, userId, numbers: [number] });
    const r = found?.records.get(number);
    if (found && r)
      exemptionRecords.push({
        listId: list.id,
        listName: list.name,
        version: found.list.version,
        basis: EXEMPTION_BASES[r.basis] ?? String(r.basis),
        date: isoDateOfDay(r.day),
      });
  }
  const optOuts = await db
    .selectFrom("opt_outs")
    .select(["id", "received_at", "received_offset_minutes", "honoured_at", "channel", "words", "subject", "created_at"])
    .where("user_id", "=", userId)
    .where("number", "=", BigInt(number))
    .where("created_at", ">=", new Date(startMs))
    .where("created_at", "<", new Date(endMs))
    .orderBy("received_at")
    .execute();
  return {
    format: DOSSIER_FORMAT,
    number: digits,
    from: window.from,
    to: window.to,
    generatedAt: now.toISOString(),
    listsNow: o.listsNow ?? null,
    decisions,
    batches,
    calls: calls.map((c) => ({
      id: String(c.id),
      at: new Date(c.at).toISOString(),
      channel: c.channel,
      outcome: c.outcome,
      subject: c.subject,
      debtId: c.debt_id,
      reserved: c.reserved,
    })),
    exemptionRecords,
    scrubRows,
    optOuts: optOuts.map((x) => ({
      id: String(x.id),
      receivedAt: new Date(x.received_at).toISOString(),
      offsetMinutes: x.received_offset_minutes,
      honouredAt: x.honoured_at ? new Date(x.honoured_at).toISOString() : null,
      channel: x.channel,
      words: x.words,
      subject: x.subject,
      createdAt: new Date(x.created_at).toISOString(),
    })),
    proof,
  };
}
