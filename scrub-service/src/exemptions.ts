/**
 * A customer's exemption lists in the database (decisions 161, 176): created empty, loaded atomically (every row or
 * none: a new generation written beside the current one, then the list moved to it with a new version and SHA-256),
 * and read whole by a scrub at one version. Used by the app (screens, API), the CLI and the job runner: one way to
 * write and read them.
 */
import { createHash, type Hash } from "node:crypto";
import { sql, type Kysely, type RawBuilder } from "kysely";
import type { Database } from "db/schema";
import { ExemptionInputError } from "./exemption-files/file";
import { Turns } from "./ops/turns";
import { appendLedger } from "./ledger/store";
import { exemptionListDraft, MAX_NUMBERS_NAMED } from "./ledger/drafts";
import type { ExemptionIndex } from "./exemption-rules/decide";
import type { ExemptionRow } from "./exemption-rules/parse";
import { DAY_MS, EXEMPTION_BASES, isoDateOfDay } from "./exemption-rules/windows";

export { ExemptionInputError };

type Db = Kysely<Database>;

const basisIndex = (basis: string) => (EXEMPTION_BASES as readonly string[]).indexOf(basis);

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

type ListRow = {
  id: number;
  user_id: string;
  name: string;
  description: string;
  size: bigint | number;
  version: bigint | number;
  sha256: string | null;
  created_at: Date;
  updated_at: Date;
};

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

/**
 * Deletes the user's list and its records; false when it is not theirs. Refused (ExemptionInputError) while a queued
 * or running scrub uses it; finished scrubs keep their record of it in their certificates (the job's reference is
 * cleared by the foreign key, the certificate is signed text).
 */
export async function deleteExemptionList(db: Db, input: { id: number; userId: string }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const list = await trx
      .selectFrom("exemption_lists")
      .select("id")
      .where("id", "=", input.id)
      .where("user_id", "=", input.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!list) return false;
    const busy = await trx
      .selectFrom("scrub_jobs")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("exemption_list_id", "=", input.id)
      .where("status", "in", ["queued", "running"])
      .executeTakeFirstOrThrow();
    if (Number(busy.n) > 0) {
      throw new ExemptionInputError([
        `A purge that uses this exemption list is queued or running (${busy.n}); delete the list when it has finished. Nothing was deleted.`,
      ]);
    }
    const r = await trx
      .deleteFrom("exemption_lists")
      .where("id", "=", input.id)
      .where("user_id", "=", input.userId)
      .returning(["name", "version"])
      .executeTakeFirst();
    if (!r) return false;
    await appendLedger(trx, input.userId, [
      {
        kind: "exemption_list",
        numbers: [],
        ref: `exemption-list:${input.id}`,
        payload: { listId: input.id, name: r.name, version: Number(r.version), deleted: true },
      },
    ]);
    return true;
  });
}

/** The user's list with this id, or undefined (another user's id reads as none). */
export async function findExemptionList(db: Db, input: { id: number; userId: string }): Promise<ExemptionListInfo | undefined> {
  const row = await db.selectFrom("exemption_lists").select(COLUMNS).where("id", "=", input.id).where("user_id", "=", input.userId).executeTakeFirst();
  return row ? listInfo(row as ListRow) : undefined;
}

export async function listExemptionLists(db: Db, userId: string): Promise<ExemptionListInfo[]> {
  const rows = await db
    .selectFrom("exemption_lists")
    .select(COLUMNS)
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((r) => listInfo(r as ListRow));
}

/** SHA-256 of rows as `phone,basis,date\n` lines sorted by phone (anyone can recompute it from an export). */
export function exemptionSha256(rows: ExemptionIndex): string {
  const h = createHash("sha256");
  hashRows(h, rows.numbers, rows.basis, rows.day);
  return h.digest("hex");
}

function hashRows(h: Hash, numbers: ArrayLike<number>, basis: ArrayLike<number>, day: ArrayLike<number>): void {
  let chunk = "";
  for (let i = 0; i < numbers.length; i++) {
    chunk += `${numbers[i]},${EXEMPTION_BASES[basis[i]]},${isoDateOfDay(day[i])}\n`;
    if (chunk.length > 1 << 16) {
      h.update(chunk);
      chunk = "";
    }
  }
  h.update(chunk);
}

export interface ExemptionLoadResult {
  list: ExemptionListInfo;
  /** Numbers the load wrote (new or changed). */
  written: number;
}

/** The most exemption records an account's lists may hold in all (its plan's), or null: no limit. */
export interface ExemptionLimit {
  max: number;
  planName: string;
}

/**
 * Replaces the list's rows with `rows` (`replace`) or merges them in (`add`: a number already on the list with the
 * same basis keeps the later date; with another basis the load is refused, naming the number). All or nothing, and
 * never in the readers' way (decision 176): the rows are written as a new generation in statements of a bounded
 * size (the event loop and, embedded, the one PGlite connection are free between them), merged and hashed there,
 * then one short transaction moves the list to it; scrubs and lookups read the previous generation until then.
 * One load of a list runs at a time (`loading_since`); the account's plan limit is checked in that transaction.
 */
export async function loadExemptions(
  db: Db,
  input: { listId: number; userId: string; mode: LoadMode; rows: ExemptionIndex; remove?: readonly number[]; limit?: ExemptionLimit | null },
): Promise<ExemptionLoadResult> {
  const limit = input.limit ?? null;
  if (limit && input.mode === "replace") await checkLimit(db, input.userId, input.listId, input.rows.numbers.length, limit);
  const release = await writeTurns.take();
  try {
    return await loadClaimed(db, input, limit);
  } finally {
    release();
  }
}

/**
 * One load writes at a time per process: a page's query then waits behind at most one paced statement, not one of
 * each running load (five 1M-row loads at once held other users' pages 0.8 s at p50 on the embedded database).
 */
const writeTurns = new Turns(() => 1);

/**
 * add: merge (a number on both keeps the later date; another basis is refused); replace: the rows become the list;
 * edit: each row replaces the number's record whatever it was, and the numbers in `remove` leave the list (#44).
 */
export type LoadMode = "add" | "replace" | "edit";

async function loadClaimed(
  db: Db,
  input: { listId: number; userId: string; mode: LoadMode; rows: ExemptionIndex; remove?: readonly number[] },
  limit: ExemptionLimit | null,
): Promise<ExemptionLoadResult> {
  const claimed = await claimList(db, input.listId, input.userId);
  const gen = Number((await sql<{ g: string }>`select nextval('exemption_generation_seq')::text as g`.execute(db)).rows[0].g);
  let committed = false;
  try {
    await deleteRecords(db, input.listId, sql`generation <> ${claimed.generation}`);
    const staged = new StagedGeneration(db, input.listId, gen);
    const current = input.mode === "replace" ? null : currentPages(db, input.listId, claimed.generation);
    const written =
      input.mode === "edit" ? await writeEdited(staged, input.rows, new Set(input.remove ?? []), current!) : await writeMerged(staged, input.rows, current);
    const { size, sha256 } = await staged.finish();
    const row = await db.transaction().execute(async (trx) => {
      if (limit) await checkLimit(trx, input.userId, input.listId, size, limit, true);
      const moved = await trx
        .updateTable("exemption_lists")
        .set({ generation: gen, size, version: sql`version + 1`, sha256, updated_at: sql`now()`, loading_since: null })
        .where("id", "=", input.listId)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      // the change goes in the owner's ledger with it (decision 197)
      const count = input.rows.numbers.length + (input.remove?.length ?? 0);
      const named = count <= MAX_NUMBERS_NAMED ? [...input.rows.numbers, ...(input.remove ?? [])] : null;
      await appendLedger(trx, input.userId, [
        exemptionListDraft({
          listId: input.listId,
          name: moved.name,
          mode: input.mode,
          version: Number(moved.version),
          size: Number(moved.size),
          sha256: moved.sha256,
          numbers: named,
          removed: input.remove?.length ?? 0,
          rows: input.rows.numbers.length,
        }),
      ]);
      return moved;
    });
    committed = true;
    await deleteRecords(db, input.listId, sql`generation = ${claimed.generation}`);
    return { list: listInfo(row as ListRow), written };
  } finally {
    if (!committed) {
      await deleteRecords(db, input.listId, sql`generation = ${gen}`).catch(() => {});
      await db
        .updateTable("exemption_lists")
        .set({ loading_since: null })
        .where("id", "=", input.listId)
        .execute()
        .catch(() => {});
    }
  }
}

/** A load claims its list; a claim older than an hour is a load that died with its process. */
const STALE_CLAIM = sql<Date>`now() - interval '1 hour'`;

async function claimList(db: Db, listId: number, userId: string): Promise<{ generation: number }> {
  const row = await db
    .updateTable("exemption_lists")
    .set({ loading_since: sql`now()` })
    .where("id", "=", listId)
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("loading_since", "is", null), eb("loading_since", "<", STALE_CLAIM)]))
    .returning("generation")
    .executeTakeFirst();
  if (row) return { generation: Number(row.generation) };
  const exists = await db.selectFrom("exemption_lists").select("id").where("id", "=", listId).where("user_id", "=", userId).executeTakeFirst();
  throw new ExemptionInputError([
    exists ? "Another load of this exemption list is running; try again when it has finished." : "The exemption list no longer exists.",
  ]);
}

/** Refuses a load that would take the account's lists past its plan's limit (locking them: two loads cannot both pass). */
async function checkLimit(db: Db, userId: string, listId: number, size: number, limit: ExemptionLimit, lock = false): Promise<void> {
  let q = db.selectFrom("exemption_lists").select(["id", "size"]).where("user_id", "=", userId);
  if (lock) q = q.forUpdate();
  const others = (await q.execute()).filter((r) => r.id !== listId).reduce((sum, r) => sum + Number(r.size), 0);
  if (others + size <= limit.max) return;
  const left = Math.max(0, limit.max - others);
  throw new ExemptionInputError([
    `This list would hold ${size.toLocaleString("en-US")} numbers, and your ${limit.planName} plan's exemption lists hold at most ${limit.max.toLocaleString("en-US")} in all (${left.toLocaleString("en-US")} left for this list). Nothing was loaded.`,
  ]);
}

/**
 * How many rows one statement writes, reads or deletes: sized from the last statement's time so that none holds the
 * embedded database (which runs on this thread: ~450 ms for 20,000 rows measured) or a PostgreSQL connection for
 * more than about STATEMENT_MS, between MIN_ROWS and MAX_ROWS.
 */
const STATEMENT_MS = 50;
const MIN_ROWS = 1_000;
const MAX_ROWS = 50_000;

class StatementPace {
  rows = 5_000;
  /** Runs one statement of at most `rows` rows; `done` says how many it wrote, read or deleted. */
  async run<T>(statement: (rows: number) => Promise<T>, done: (result: T) => number): Promise<T> {
    const started = performance.now();
    const result = await statement(this.rows);
    const ms = Math.max(1, performance.now() - started);
    const n = done(result);
    if (n > 0) this.rows = Math.round(Math.min(MAX_ROWS, Math.max(MIN_ROWS, (n * STATEMENT_MS) / ms)));
    await yieldTurn();
    return result;
  }
}

/** Lets other requests run between two statements of a long load (the embedded database runs on this thread). */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The rows of a new generation, written in phone order a statement's worth at a time and hashed as they go (the
 * SHA-256 is of exactly the rows stored).
 */
class StagedGeneration {
  private numbers: number[] = [];
  private basis: number[] = [];
  private days: number[] = [];
  private size = 0;
  private readonly hash = createHash("sha256");
  private readonly pace = new StatementPace();

  constructor(
    private readonly db: Db,
    private readonly listId: number,
    private readonly gen: number,
  ) {}

  async add(number: number, basis: number, day: number): Promise<void> {
    this.numbers.push(number);
    this.basis.push(basis);
    this.days.push(day);
    if (this.numbers.length >= this.pace.rows) await this.flush();
  }

  async finish(): Promise<{ size: number; sha256: string }> {
    await this.flush();
    return { size: this.size, sha256: this.hash.digest("hex") };
  }

  private async flush(): Promise<void> {
    if (!this.numbers.length) return;
    const { numbers, basis, days } = this;
    this.numbers = [];
    this.basis = [];
    this.days = [];
    hashRows(this.hash, numbers, basis, days);
    this.size += numbers.length;
    await this.pace.run(
      () =>
        sql`insert into exemption_records (list_id, generation, number, basis, on_date)
        select ${this.listId}, ${this.gen}, t.n, (array['purchase','inquiry','consent'])[t.b + 1], date '1970-01-01' + t.d
        from unnest(${numbers.map(String)}::bigint[], ${basis}::int[], ${days}::int[]) as t(n, b, d)`.execute(this.db),
      () => numbers.length,
    );
  }
}

type Page = { numbers: number[]; basis: number[]; days: number[] };

/** The list's rows of one generation in phone order, a page at a time. */
async function* currentPages(db: Db, listId: number, generation: number): AsyncGenerator<Page> {
  const pace = new StatementPace();
  let after = -1n;
  for (;;) {
    const { rows } = await pace.run(
      (limit) =>
        sql<{ number: string; basis: string; day: number }>`
        select number::text as number, basis, on_date - date '1970-01-01' as day from exemption_records
        where list_id = ${listId} and generation = ${generation} and number > ${after}
        order by number limit ${limit}`.execute(db),
      (r) => r.rows.length,
    );
    if (!rows.length) return;
    yield {
      numbers: rows.map((r) => Number(r.number)),
      basis: rows.map((r) => basisIndex(r.basis)),
      days: rows.map((r) => Number(r.day)),
    };
    after = BigInt(rows[rows.length - 1].number);
  }
}

/**
 * Writes `rows` (sorted, one per number) into the staged generation, merged with the current rows when there are
 * any (`add`): a number on both with one basis keeps the later date; with two bases the load is refused (the first
 * 20 named). Answers the numbers the load wrote (new, or a later date).
 */
async function writeMerged(staged: StagedGeneration, rows: ExemptionIndex, current: AsyncGenerator<Page> | null): Promise<number> {
  const n = rows.numbers.length;
  if (!current) {
    for (let i = 0; i < n; i++) await staged.add(rows.numbers[i], rows.basis[i], rows.day[i]);
    return n;
  }
  const conflicts: string[] = [];
  let written = 0;
  let i = 0;
  const take = async (k: number) => {
    if (!conflicts.length) await staged.add(rows.numbers[k], rows.basis[k], rows.day[k]);
    written++;
  };
  for await (const page of current) {
    for (let j = 0; j < page.numbers.length; j++) {
      const old = page.numbers[j];
      while (i < n && rows.numbers[i] < old) await take(i++);
      if (i < n && rows.numbers[i] === old) {
        if (rows.basis[i] !== page.basis[j]) {
          if (conflicts.length < 20) {
            conflicts.push(
              `${old} is already on the list as ${EXEMPTION_BASES[page.basis[j]]} ${isoDateOfDay(page.days[j])}; replace the list to change its basis.`,
            );
          }
          i++;
          continue;
        }
        if (rows.day[i] > page.days[j]) {
          await take(i++);
          continue;
        }
        i++;
      }
      if (!conflicts.length) await staged.add(old, page.basis[j], page.days[j]);
    }
  }
  while (i < n) await take(i++);
  if (conflicts.length) throw new ExemptionInputError(conflicts);
  return written;
}

/**
 * Writes the current rows into the staged generation with an edit applied: a row of `rows` (sorted, one per
 * number) takes the number's place whatever its record was, a number in `remove` is left out. Answers the rows
 * set plus the rows removed.
 */
async function writeEdited(staged: StagedGeneration, rows: ExemptionIndex, remove: ReadonlySet<number>, current: AsyncGenerator<Page>): Promise<number> {
  const n = rows.numbers.length;
  let i = 0;
  let removed = 0;
  for await (const page of current) {
    for (let j = 0; j < page.numbers.length; j++) {
      const old = page.numbers[j];
      while (i < n && rows.numbers[i] < old) await staged.add(rows.numbers[i], rows.basis[i], rows.day[i++]);
      if (remove.has(old)) {
        if (i < n && rows.numbers[i] === old) i++;
        removed++;
        continue;
      }
      if (i < n && rows.numbers[i] === old) {
        await staged.add(old, rows.basis[i], rows.day[i++]);
        continue;
      }
      await staged.add(old, page.basis[j], page.days[j]);
    }
  }
  while (i < n) await staged.add(rows.numbers[i], rows.basis[i], rows.day[i++]);
  return n + removed;
}

/** Deletes a list's records matching `where`, a paced number per statement. */
async function deleteRecords(db: Db, listId: number, where: RawBuilder<unknown>): Promise<void> {
  const pace = new StatementPace();
  for (;;) {
    const step = pace.rows;
    const r = await pace.run(
      (limit) =>
        sql`
        delete from exemption_records where list_id = ${listId} and (generation, number) in (
          select generation, number from exemption_records where list_id = ${listId} and ${where} limit ${limit})`.execute(db),
      (res) => Number(res.numAffectedRows ?? 0),
    );
    if (Number(r.numAffectedRows ?? 0) < step) break;
  }
}

export interface ExemptionSnapshot {
  list: ExemptionListInfo;
  index: ExemptionIndex;
}

type VersionRow = ListRow & { generation: bigint };

/**
 * Reads the user's list row and, through `read`, its records at that row's generation, in one snapshot (repeatable
 * read) and without a lock: a load running meanwhile neither waits for the reader nor shows through (decision 176).
 * Undefined when the list is not the user's.
 */
/** `userId` reads the list as that user's (an export); a scrub reads its order's list by id (its owner's when accepted). */
async function atCurrentVersion<T>(db: Db, input: { id: number; userId?: string }, read: (trx: Db, row: VersionRow) => Promise<T>): Promise<T | undefined> {
  return db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const row = await trx
        .selectFrom("exemption_lists")
        .select([...COLUMNS, "generation"])
        .where("id", "=", input.id)
        .$if(input.userId !== undefined, (q) => q.where("user_id", "=", input.userId!))
        .executeTakeFirst();
      return row ? read(trx, row as VersionRow) : undefined;
    });
}

/**
 * The whole list at one version, for a scrub: its order's list by id (the owner's, checked when the order was
 * accepted); with `userId`, only as that user's.
 */
export async function readExemptionSnapshot(db: Db, input: { id: number; userId?: string }): Promise<ExemptionSnapshot | undefined> {
  return atCurrentVersion(db, input, async (trx, row) => {
    const rows = await trx
      .selectFrom("exemption_records")
      .select(["number", "basis", sql<number>`on_date - date '1970-01-01'`.as("day")])
      .where("list_id", "=", input.id)
      .where("generation", "=", row.generation)
      .orderBy("number")
      .execute();
    const index: ExemptionIndex = {
      numbers: Float64Array.from(rows, (r) => Number(r.number)),
      basis: Uint8Array.from(rows, (r) => basisIndex(r.basis)),
      day: Int32Array.from(rows, (r) => Number(r.day)),
    };
    return { list: listInfo(row), index };
  });
}

/** The user's list and the records of a few numbers (the live lookup), keyed by number, at one version. */
export async function exemptionsOfNumbers(
  db: Db,
  input: { id: number; userId: string; numbers: readonly number[] },
): Promise<{ list: ExemptionListInfo; records: Map<number, ExemptionRow> } | undefined> {
  return atCurrentVersion(db, input, async (trx, row) => {
    const records = new Map<number, ExemptionRow>();
    if (input.numbers.length) {
      const rows = await trx
        .selectFrom("exemption_records")
        .select(["number", "basis", sql<number>`on_date - date '1970-01-01'`.as("day")])
        .where("list_id", "=", input.id)
        .where("generation", "=", row.generation)
        .where(
          "number",
          "in",
          input.numbers.map((n) => BigInt(n)),
        )
        .execute();
      for (const r of rows) records.set(Number(r.number), { number: Number(r.number), basis: basisIndex(r.basis), day: Number(r.day) });
    }
    return { list: listInfo(row), records };
  });
}

/** Exemption records the user's lists hold in all (the plan limit's usage). */
export async function exemptionRecordsHeld(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("exemption_lists")
    .select(sql<string>`coalesce(sum(size), 0)::text`.as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One exemption record as a screen shows it. */
export interface ExemptionRecordView {
  number: number;
  basis: (typeof EXEMPTION_BASES)[number];
  /** YYYY-MM-DD */
  date: string;
}

/**
 * A page of the user's list at its current version, in phone order, optionally only the numbers starting with
 * `prefix` (digits); `after`: the last number of the previous page. Undefined when the list is not the user's.
 */
export async function browseExemptionRecords(
  db: Db,
  input: { id: number; userId: string; prefix?: string; after?: number; limit: number },
): Promise<{ list: ExemptionListInfo; records: ExemptionRecordView[]; more: boolean } | undefined> {
  return atCurrentVersion(db, input, async (trx, row) => {
    let q = trx
      .selectFrom("exemption_records")
      .select(["number", "basis", sql<number>`on_date - date '1970-01-01'`.as("day")])
      .where("list_id", "=", input.id)
      .where("generation", "=", row.generation);
    const prefix = input.prefix && /^\d{1,10}$/.test(input.prefix) ? input.prefix : "";
    if (prefix) {
      // numbers are 10 digits: a prefix is a range
      const low = BigInt(prefix.padEnd(10, "0"));
      const high = BigInt(prefix.padEnd(10, "9"));
      q = q.where("number", ">=", low).where("number", "<=", high);
    }
    if (input.after !== undefined) q = q.where("number", ">", BigInt(input.after));
    const rows = await q
      .orderBy("number")
      .limit(input.limit + 1)
      .execute();
    return {
      list: listInfo(row),
      records: rows
        .slice(0, input.limit)
        .map((r) => ({ number: Number(r.number), basis: EXEMPTION_BASES[basisIndex(r.basis)], date: isoDateOfDay(Number(r.day)) })),
      more: rows.length > input.limit,
    };
  });
}

/** A list's records by basis at its current version, and how many of each have ended under the given windows at `atMs`. */
export async function exemptionCounts(
  db: Db,
  input: { id: number; userId: string; purchaseMonths: number; inquiryMonths: number; atMs: number },
): Promise<{ basis: (typeof EXEMPTION_BASES)[number]; records: number; ended: number }[] | undefined> {
  const today = isoDateOfDay(Math.floor(input.atMs / DAY_MS));
  return atCurrentVersion(db, input, async (trx, row) => {
    const rows = await sql<{ basis: string; records: string; ended: string }>`
      select basis, count(*)::text as records, count(*) filter (where
        (basis = 'purchase' and on_date + make_interval(months => ${input.purchaseMonths}) <= ${today}::date) or
        (basis = 'inquiry' and on_date + make_interval(months => ${input.inquiryMonths}) <= ${today}::date))::text as ended
      from exemption_records where list_id = ${input.id} and generation = ${row.generation} group by basis`.execute(trx);
    const by = new Map(rows.rows.map((r) => [r.basis, r]));
    return EXEMPTION_BASES.map((basis) => ({ basis, records: Number(by.get(basis)?.records ?? 0), ended: Number(by.get(basis)?.ended ?? 0) }));
  });
}
