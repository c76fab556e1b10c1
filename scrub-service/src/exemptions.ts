/**
 * A customer's exemption lists in the database (decision 161): created empty, loaded atomically (every row or
 * none, under a lock on the list's row, a new version and SHA-256 per load), and read whole by a scrub at one
 * version. Used by the app (screens, API), the CLI and the job runner: one way to write and read them.
 */
import { createHash } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";
import type { ExemptionIndex } from "./worker/exemptions/decide";
import { parseExemptionText, type ExemptionRow } from "./worker/exemptions/parse";
import { DAY_MS, EXEMPTION_BASES, isoDateOfDay } from "./worker/exemptions/windows";

type Db = Kysely<Database>;

/** Rows written per INSERT (4 parameters each, well under PostgreSQL's 65,535). */
const INSERT_CHUNK = 2000;

/** The rows were refused: each message names its line. Nothing was written. */
export class ExemptionInputError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join("\n"));
    this.name = "ExemptionInputError";
  }
}

export interface ExemptionListInfo {
  id: number;
  userId: string;
  name: string;
  description: string;
  size: number;
  version: number;
  sha256: string | null;
  createdAt: string;
  updatedAt: string;
}

type ListRow = { id: number; user_id: string; name: string; description: string; size: bigint | number; version: bigint | number; sha256: string | null; created_at: Date; updated_at: Date };

export function listInfo(r: ListRow): ExemptionListInfo {
  return {
    id: r.id,
    userId: r.user_id,
    name: r.name,
    description: r.description,
    size: Number(r.size),
    version: Number(r.version),
    sha256: r.sha256,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

const COLUMNS = ["id", "user_id", "name", "description", "size", "version", "sha256", "created_at", "updated_at"] as const;

export async function createExemptionList(db: Db, input: { userId: string; name: string; description?: string }): Promise<ExemptionListInfo> {
  const row = await db
    .insertInto("exemption_lists")
    .values({ user_id: input.userId, name: input.name, description: input.description ?? "", size: 0, version: 0 })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return listInfo(row as ListRow);
}

/** The user's list with this id, or undefined (another user's id reads as none). */
export async function findExemptionList(db: Db, input: { id: number; userId: string }): Promise<ExemptionListInfo | undefined> {
  const row = await db.selectFrom("exemption_lists").select(COLUMNS).where("id", "=", input.id).where("user_id", "=", input.userId).executeTakeFirst();
  return row ? listInfo(row as ListRow) : undefined;
}

export async function listExemptionLists(db: Db, userId: string): Promise<ExemptionListInfo[]> {
  const rows = await db.selectFrom("exemption_lists").select(COLUMNS).where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id", "desc").execute();
  return rows.map((r) => listInfo(r as ListRow));
}

/** Today's UTC day number (a record dated later is refused). */
export function todayDay(now = new Date()): number {
  return Math.floor(now.getTime() / DAY_MS);
}

/** The rows of an upload or typed text, checked; throws ExemptionInputError naming every bad line. */
export function readExemptionRows(text: string, now = new Date()): ExemptionRow[] {
  const parsed = parseExemptionText(text, todayDay(now));
  if (!parsed.ok) throw new ExemptionInputError(parsed.errors);
  return parsed.rows;
}

/** SHA-256 of the rows as `phone,basis,date\n` lines sorted by phone (anyone can recompute it from an export). */
export function exemptionSha256(rows: readonly ExemptionRow[]): string {
  const h = createHash("sha256");
  let chunk = "";
  for (const r of rows) {
    chunk += `${r.number},${EXEMPTION_BASES[r.basis]},${isoDateOfDay(r.day)}\n`;
    if (chunk.length > 1 << 16) {
      h.update(chunk);
      chunk = "";
    }
  }
  h.update(chunk);
  return h.digest("hex");
}

async function readRows(db: Db, listId: number): Promise<ExemptionRow[]> {
  const rows = await db
    .selectFrom("exemption_records")
    .select(["number", "basis", sql<number>`on_date - date '1970-01-01'`.as("day")])
    .where("list_id", "=", listId)
    .orderBy("number")
    .execute();
  return rows.map((r) => ({ number: Number(r.number), basis: (EXEMPTION_BASES as readonly string[]).indexOf(r.basis), day: Number(r.day) }));
}

export interface ExemptionLoadResult {
  list: ExemptionListInfo;
  /** Numbers the load wrote (new or changed). */
  written: number;
}

/**
 * Replaces the list's rows with `rows` (`replace`) or merges them in (`add`: a number already on the list with the
 * same basis keeps the later date; with another basis the load is refused, naming the number). All or nothing:
 * one transaction holding the list's row lock, so two loads of one list never interleave and a scrub reading the
 * list sees one version or the next.
 */
export async function loadExemptions(
  db: Db,
  input: { listId: number; userId: string; mode: "add" | "replace"; rows: ExemptionRow[] },
): Promise<ExemptionLoadResult> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx
      .selectFrom("exemption_lists")
      .select("id")
      .where("id", "=", input.listId)
      .where("user_id", "=", input.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) throw new ExemptionInputError(["The exemption list no longer exists."]);
    let rows = input.rows;
    let written = rows.length;
    if (input.mode === "add") {
      const merged = new Map((await readRows(trx, input.listId)).map((r) => [r.number, r]));
      const conflicts: string[] = [];
      written = 0;
      for (const r of rows) {
        const old = merged.get(r.number);
        if (old && old.basis !== r.basis) {
          if (conflicts.length < 20) {
            conflicts.push(`${r.number} is already on the list as ${EXEMPTION_BASES[old.basis]} ${isoDateOfDay(old.day)}; replace the list to change its basis.`);
          }
          continue;
        }
        if (old && old.day >= r.day) continue;
        merged.set(r.number, r);
        written++;
      }
      if (conflicts.length) throw new ExemptionInputError(conflicts);
      rows = [...merged.values()].sort((a, b) => a.number - b.number);
    }
    await trx.deleteFrom("exemption_records").where("list_id", "=", input.listId).execute();
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx
        .insertInto("exemption_records")
        .values(
          rows.slice(i, i + INSERT_CHUNK).map((r) => ({
            list_id: input.listId,
            number: r.number,
            basis: EXEMPTION_BASES[r.basis],
            on_date: isoDateOfDay(r.day),
          })),
        )
        .execute();
    }
    const row = await trx
      .updateTable("exemption_lists")
      .set({ size: rows.length, version: sql`version + 1`, sha256: exemptionSha256(rows), updated_at: sql`now()` })
      .where("id", "=", input.listId)
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return { list: listInfo(row as ListRow), written };
  });
}

export interface ExemptionSnapshot {
  list: ExemptionListInfo;
  index: ExemptionIndex;
}

/** The whole list at one version (for a scrub), read in one transaction with a share lock on its row. */
export async function readExemptionSnapshot(db: Db, input: { id: number; userId: string }): Promise<ExemptionSnapshot | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("exemption_lists")
      .select(COLUMNS)
      .where("id", "=", input.id)
      .where("user_id", "=", input.userId)
      .forShare()
      .executeTakeFirst();
    if (!row) return undefined;
    const rows = await readRows(trx, input.id);
    const index: ExemptionIndex = {
      numbers: Float64Array.from(rows, (r) => r.number),
      basis: Uint8Array.from(rows, (r) => r.basis),
      day: Int32Array.from(rows, (r) => r.day),
    };
    return { list: listInfo(row as ListRow), index };
  });
}

/**
 * The user's list and the records of a few numbers (the live lookup), keyed by number, read at one version; undefined
 * when the list is not the user's.
 */
export async function exemptionsOfNumbers(
  db: Db,
  input: { id: number; userId: string; numbers: readonly number[] },
): Promise<{ list: ExemptionListInfo; records: Map<number, ExemptionRow> } | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("exemption_lists").select(COLUMNS).where("id", "=", input.id).where("user_id", "=", input.userId).forShare().executeTakeFirst();
    if (!row) return undefined;
    const records = new Map<number, ExemptionRow>();
    if (input.numbers.length) {
      const rows = await trx
        .selectFrom("exemption_records")
        .select(["number", "basis", sql<number>`on_date - date '1970-01-01'`.as("day")])
        .where("list_id", "=", input.id)
        .where("number", "in", input.numbers.map((n) => BigInt(n)))
        .execute();
      for (const r of rows) {
        records.set(Number(r.number), { number: Number(r.number), basis: (EXEMPTION_BASES as readonly string[]).indexOf(r.basis), day: Number(r.day) });
      }
    }
    return { list: listInfo(row as ListRow), records };
  });
}
