/**
 * Bulk access to list_blocks on both drivers, in PostgreSQL's binary COPY format (PostgreSQL: pg-copy-streams;
 * PGlite: COPY … '/dev/blob'): blocks of sorted numbers in, a list's blocks (or its numbers) out (decision 162).
 */
import { once } from "node:events";
import { Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import type pg from "pg";
import copyStreams from "pg-copy-streams";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { DbHandle } from "db/client";
import { BITMAP_BYTES, numbersOfPacked, type BlockSink, type PackedBlocks } from "../worker/exchange-blocks";

export interface BulkSession {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number }>;
  /**
   * COPY into `table` (list_id, exchange, lines) the rows `make` writes into the CopyRows it is given. On PostgreSQL
   * each full buffer goes out while `make` goes on (it may await: the COPY overlaps the work that makes the rows,
   * and this session's connection is busy until it ends); a `make` that throws fails the COPY (CopyFail), and the
   * error is rethrown. Returns what `make` returns.
   */
  copyBlocks<T>(table: string, listId: number, make: (rows: CopyRows) => T | Promise<T>, opts?: { freeze?: boolean }): Promise<T>;
  /** The rows (exchange, lines) of `select` (a SELECT, or a DELETE … RETURNING), in exchange order. */
  readBlocks(select: string): Promise<PackedBlocks>;
}

/** What a database driver is good at, for choosing how a list change is written (lists/blocks.ts). */
export interface BulkTraits {
  /** PostgreSQL: a whole list is COPYed into a table without an index, indexed once and swapped in (decision 018). */
  indexesOnce: boolean;
  /** PGlite runs on this process's thread: one long statement blocks every web request (decision 017). */
  runsOnThisThread: boolean;
}

export function bulkTraits(handle: DbHandle): BulkTraits {
  const pg = handle.driver.kind === "pg";
  return { indexesOnce: pg, runsOnThisThread: !pg };
}

/** A list's partition of list_blocks (migration 0022 creates one per list). */
export function partitionOf(listId: number): string {
  return `list_blocks_${Number(listId)}`;
}

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

/** Bytes per buffer of binary COPY data. */
const COPY_BUFFER = 1 << 20;

function be32(b: Uint8Array, at: number, v: number): void {
  b[at] = v >>> 24;
  b[at + 1] = (v >>> 16) & 0xff;
  b[at + 2] = (v >>> 8) & 0xff;
  b[at + 3] = v & 0xff;
}

/**
 * COPY … (format binary) data of rows (listId, exchange, lines), written block by block straight into 1 MB buffers
 * (a BlockSink: the codec writes each block in place after its 22 bytes of row framing).
 */
export class CopyRows implements BlockSink {
  buf: Buffer;
  private at: number;
  private readonly full: Buffer[] = [];
  rows = 0;

  /**
   * `sendFull`: each full buffer is handed to it (and not kept) as the next one starts; `backlog`: a promise while
   * the buffers handed on wait for the database to take them (see sent).
   */
  constructor(
    private readonly listId: number,
    private readonly sendFull?: (data: Buffer) => void,
    private readonly backlog?: () => Promise<unknown> | undefined,
  ) {
    this.buf = Buffer.allocUnsafe(COPY_BUFFER);
    SIGNATURE.copy(this.buf);
    this.buf.fill(0, SIGNATURE.length, 19); // flags and header extension length
    this.at = 19;
  }

  reserve(exchange: number, bytes: number): number {
    if (this.at + 22 + bytes > this.buf.length) {
      if (this.sendFull) this.sendFull(this.buf.subarray(0, this.at));
      else this.full.push(this.buf.subarray(0, this.at));
      this.buf = Buffer.allocUnsafe(COPY_BUFFER);
      this.at = 0;
    }
    const b = this.buf;
    const o = this.at;
    b[o] = 0; // 3 fields
    b[o + 1] = 3;
    be32(b, o + 2, 4);
    be32(b, o + 6, this.listId);
    be32(b, o + 10, 4);
    be32(b, o + 14, exchange);
    be32(b, o + 18, bytes);
    this.at = o + 22 + bytes;
    this.rows++;
    return o + 22;
  }

  /** Settles once the database has taken what was handed on (at once when nothing waits): bounded memory. */
  async sent(): Promise<void> {
    await this.backlog?.();
  }

  /** The COPY data, with its end marker. */
  finish(): Buffer[] {
    const tail = Buffer.allocUnsafe(2);
    tail.writeInt16BE(-1);
    return [...this.full, this.buf.subarray(0, this.at), tail];
  }
}

/**
 * `select exchange, lines …` as one COPY statement whose one value is every block packed by PostgreSQL:
 * [exchange int4][length int4][lines] … in exchange order. One row instead of a row (and a CopyData message, a
 * chunk and a callback in Node) per block: reading a 20M-number list's 349k blocks took ~0.8 s row by row.
 */
function packedCopy(select: string, to: string): string {
  // plain rows, no ORDER BY (it doubled the server's time): rows come in the table's order, which a built-aside table
  // has by exchange; parsePackedCopy puts any others in order. Rows, not one string_agg of them: the aggregate's
  // concatenations took the server 174–192 ms for a 20M-number list against 62 ms (113–192 ms against 213–258 ms
  // received here). A WITH, so the rows may come from a DELETE … RETURNING too.
  return `copy (with b as (${select}) select exchange, lines from b) to ${to} (format binary)`;
}

/** The blocks of packedCopy's output (binary COPY rows of exchange, lines): the bytes are kept, blocks are offsets into them. */
export function parsePackedCopy(data: Uint8Array): PackedBlocks {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (b.length < 21 || !b.subarray(0, 11).equals(SIGNATURE)) throw new Error("Not PostgreSQL binary COPY data.");
  let o = 15;
  o += 4 + b.readUInt32BE(o);
  // a row takes 14 bytes besides its lines (field count, two lengths, the exchange): an upper bound for the arrays
  const most = Math.floor((b.length - o) / 14);
  const exchanges = new Int32Array(most);
  const starts = new Uint32Array(most);
  const ends = new Uint32Array(most);
  let count = 0;
  for (;;) {
    if (o + 2 > b.length) throw new Error("Binary COPY data of blocks ended before its trailer.");
    const fields = b.readInt16BE(o);
    if (fields === -1) break;
    if (count === most) throw new Error("More blocks than binary COPY data of blocks can hold.");
    if (fields !== 2 || o + 14 > b.length || b.readInt32BE(o + 2) !== 4) throw new Error("Unexpected row in binary COPY data of blocks.");
    exchanges[count] = b.readInt32BE(o + 6);
    const bytes = b.readInt32BE(o + 10);
    if (bytes < 0 || o + 14 + bytes > b.length) throw new Error("A block overran the binary COPY data.");
    starts[count] = o + 14;
    o += 14 + bytes;
    ends[count++] = o;
  }
  return inExchangeOrder({ count, exchanges, starts, ends, data: b });
}

/** Blocks sorted by exchange (blocks rewritten in place sit at the table's end). */
function inExchangeOrder(p: PackedBlocks): PackedBlocks {
  let sorted = true;
  for (let k = 1; k < p.count && sorted; k++) sorted = p.exchanges[k - 1] < p.exchanges[k];
  if (sorted) return p;
  const order = Array.from({ length: p.count }, (_, k) => k).sort((a, b) => p.exchanges[a] - p.exchanges[b]);
  const exchanges = new Int32Array(p.count);
  const starts = new Uint32Array(p.count);
  const ends = new Uint32Array(p.count);
  order.forEach((from, to) => {
    exchanges[to] = p.exchanges[from];
    starts[to] = p.starts[from];
    ends[to] = p.ends[from];
  });
  return { count: p.count, exchanges, starts, ends, data: p.data };
}

const NO_BLOCKS: PackedBlocks = { count: 0, exchanges: new Int32Array(0), starts: new Uint32Array(0), ends: new Uint32Array(0), data: new Uint8Array(0) };

/** Runs fn in one database transaction with bulk helpers. */
export async function withBulkTransaction<T>(handle: DbHandle, fn: (s: BulkSession) => Promise<T>): Promise<T> {
  if (handle.driver.kind === "pg") {
    const client = await handle.driver.pool.connect();
    try {
      await client.query("begin");
      const s = pgSession(client);
      const out = await fn(s);
      await client.query("commit");
      return out;
    } catch (e) {
      await client.query("rollback").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }
  const pglite = handle.driver.pglite;
  // Hold Kysely's (only) PGlite connection so no Kysely transaction interleaves with ours.
  return handle.db.connection().execute(() => pglite.transaction(async (tx) => fn(pgliteSession(tx))));
}

async function pgCopyOut(client: pg.PoolClient | pg.Client, select: string): Promise<PackedBlocks> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  await pipeline(client.query(copyStreams.to(packedCopy(select, "stdout"))), sink);
  return parsePackedCopy(Buffer.concat(chunks));
}

function pgSession(client: pg.PoolClient): BulkSession {
  return {
    async query(text, params) {
      const r = await client.query(text, params as unknown[]);
      return { rows: r.rows, rowCount: r.rowCount ?? 0 };
    },
    async copyBlocks(table, listId, make, opts) {
      const freeze = opts?.freeze ? ", freeze" : "";
      const stream = client.query(copyStreams.from(`copy ${table} (list_id, exchange, lines) from stdin (format binary${freeze})`));
      const done = finished(stream);
      done.catch(() => {}); // awaited below
      let made: Awaited<ReturnType<typeof make>>;
      try {
        const rows = new CopyRows(
          listId,
          (data) => stream.write(data),
          // (a stream that ends or fails meanwhile settles `done`: no wait for a drain that never comes)
          () => (stream.writableNeedDrain ? Promise.race([once(stream, "drain"), done]) : undefined),
        );
        made = await make(rows);
        for (const data of rows.finish()) stream.write(data);
      } catch (e) {
        stream.destroy(e as Error); // CopyFail: the server ends the COPY, the transaction is rolled back by the caller
        await done.catch(() => {});
        throw e;
      }
      stream.end();
      await done;
      return made;
    },
    readBlocks: (select) => pgCopyOut(client, select),
  };
}

async function pgliteCopyOut(tx: Transaction | PGlite, select: string): Promise<PackedBlocks> {
  const r = await tx.query(packedCopy(select, "'/dev/blob'"));
  return r.blob ? parsePackedCopy(new Uint8Array(await r.blob.arrayBuffer())) : NO_BLOCKS;
}

function pgliteSession(tx: Transaction | PGlite): BulkSession {
  return {
    async query(text, params) {
      const r = await tx.query(text, params as unknown[]);
      return { rows: r.rows as never[], rowCount: r.affectedRows ?? 0 };
    },
    async copyBlocks(table, listId, make) {
      // PGlite takes a COPY's data whole: the rows are made first
      const rows = new CopyRows(listId);
      const made = await make(rows);
      if (!rows.rows) return made;
      const blob = new Blob(rows.finish() as Uint8Array<ArrayBuffer>[]);
      await tx.query(`copy ${table} (list_id, exchange, lines) from '/dev/blob' (format binary)`, [], { blob });
      return made;
    },
    readBlocks: (select) => pgliteCopyOut(tx, select),
  };
}

/** Area-code ranges read per statement (bounded memory: at most ~25 × 800 dense blocks). */
const NPA_STEP = 25;

/** The blocks of a list whose exchanges lie in [lo, hi) (in table order: parsePackedCopy sorts them). */
function rangeSelect(listId: number, lo: number, hi: number): string {
  return `select exchange, lines from list_blocks where list_id = ${Number(listId)} and exchange >= ${lo} and exchange < ${hi}`;
}

async function readRange(handle: DbHandle, select: string): Promise<PackedBlocks> {
  if (handle.driver.kind === "pglite") {
    const pglite = handle.driver.pglite;
    return handle.db.connection().execute(() => pgliteCopyOut(pglite, select));
  }
  const client = await handle.driver.pool.connect();
  try {
    return await pgCopyOut(client, select);
  } finally {
    client.release();
  }
}

/** The exchange ranges a list is read in (area codes 200–999, NPA_STEP at a time): [lo, hi) of exchanges. */
export function* exchangeRanges(): Generator<[lo: number, hi: number]> {
  for (let npa = 200; npa < 1000; npa += NPA_STEP) yield [npa * 1000, Math.min(1000, npa + NPA_STEP) * 1000];
}

/** A list's blocks whose exchanges lie in [lo, hi), in exchange order, on the session's transaction. */
export function readBlocksIn(s: BulkSession, listId: number, lo: number, hi: number): Promise<PackedBlocks> {
  return s.readBlocks(rangeSelect(listId, lo, hi));
}

/**
 * VACUUM of one table (outside any transaction). PGlite runs no autovacuum: blocks rewritten in place there leave
 * their old versions until someone vacuums.
 */
export async function vacuum(handle: DbHandle, table: string): Promise<void> {
  if (handle.driver.kind === "pglite") {
    const pglite = handle.driver.pglite;
    await handle.db.connection().execute(() => pglite.exec(`vacuum ${table}`));
  } else {
    await handle.driver.pool.query(`vacuum ${table}`);
  }
}

/**
 * Every block of a list, range by range, in exchange order (read on the session's transaction when given). AHEAD
 * ranges are read ahead: the database reads the next range while the caller works on this one (bounded memory: AHEAD
 * + 1 ranges).
 */
export async function* readListBlocks(handle: DbHandle, listId: number, s?: BulkSession): AsyncGenerator<{ lo: number; hi: number; blocks: PackedBlocks }> {
  const read = ([lo, hi]: [number, number]) => (s ? readBlocksIn(s, listId, lo, hi) : readRange(handle, rangeSelect(listId, lo, hi)));
  const ranges = [...exchangeRanges()];
  const ahead: Promise<PackedBlocks>[] = [];
  const queue = (r: number) => {
    if (r >= ranges.length) return;
    const p = read(ranges[r]);
    p.catch(() => {}); // awaited in turn (a caller that stops early leaves it to settle)
    ahead.push(p);
  };
  for (let r = 0; r <= AHEAD; r++) queue(r);
  for (let r = 0; r < ranges.length; r++) {
    const blocks = await ahead.shift()!;
    queue(r + AHEAD + 1);
    yield { lo: ranges[r][0], hi: ranges[r][1], blocks };
  }
}

/** Ranges read ahead by readListBlocks (more, or on connections of their own, measured no faster: 1M add into 20M). */
const AHEAD = 1;

/**
 * Every number of a list, in chunks (sorted, each chunk after the last). Reads by area-code ranges so memory stays
 * bounded; callers compare lists.version before and after to detect a concurrent change (or read on the session's
 * transaction).
 */
export async function* readListNumbers(handle: DbHandle, listId: number, s?: BulkSession): AsyncGenerator<Float64Array> {
  for await (const { blocks } of readListBlocks(handle, listId, s)) if (blocks.count) yield numbersOfPacked(blocks);
}

/** SQL: how many numbers a list's blocks hold (a bitmap's set bits, an array's 2-byte lines). */
export const BLOCK_LINES_SQL = `case when length(lines) = ${BITMAP_BYTES} then bit_count(lines) else length(lines) / 2 end`;
