/**
 * Bulk access to list_blocks on both drivers, in PostgreSQL's binary COPY format (PostgreSQL: pg-copy-streams;
 * PGlite: COPY … '/dev/blob'): blocks of sorted numbers in, a list's blocks (or its numbers) out (decision 162).
 */
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import copyStreams from "pg-copy-streams";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { DbHandle } from "../../../db/client";
import { BITMAP_BYTES, decodeBlock, linesIn, type Block } from "../worker/exchange-blocks";

export type { Block };

export interface BulkSession {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number }>;
  /** COPY blocks (in exchange order, e.g. `blocksOf(numbers)`) into `table` (list_id, exchange, lines). */
  copyBlocks(table: string, listId: number, blocks: Iterable<Block>, opts?: { freeze?: boolean }): Promise<void>;
  /** The rows of `select exchange, lines …` (`select` is that query), read by binary COPY. */
  readBlocks(select: string): Promise<Block[]>;
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

function copyHeader(): Buffer {
  const head = Buffer.alloc(19); // signature, then flags and extension length 0
  SIGNATURE.copy(head);
  return head;
}

/** Bytes per buffer of binary COPY data. */
const COPY_BUFFER = 1 << 20;

/** COPY … (format binary) data of rows (listId, exchange, lines): 22 bytes of framing a row, then the block. */
export function* binaryBlockChunks(listId: number, blocks: Iterable<Block>): Generator<Buffer> {
  yield copyHeader();
  let buf = Buffer.allocUnsafe(COPY_BUFFER);
  let o = 0;
  for (const { exchange, lines } of blocks) {
    if (o + 22 + lines.length > buf.length) {
      yield buf.subarray(0, o);
      buf = Buffer.allocUnsafe(COPY_BUFFER);
      o = 0;
    }
    buf.writeInt16BE(3, o);
    buf.writeInt32BE(4, o + 2);
    buf.writeInt32BE(listId, o + 6);
    buf.writeInt32BE(4, o + 10);
    buf.writeInt32BE(exchange, o + 14);
    buf.writeInt32BE(lines.length, o + 18);
    buf.set(lines, o + 22);
    o += 22 + lines.length;
  }
  if (o) yield buf.subarray(0, o);
  const tail = Buffer.allocUnsafe(2);
  tail.writeInt16BE(-1);
  yield tail;
}

/** Rows (int4 exchange, bytea lines) of binary COPY output. */
export function parseBinaryBlocks(data: Uint8Array): Block[] {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (b.length < 19 || !b.subarray(0, 11).equals(SIGNATURE)) throw new Error("Not PostgreSQL binary COPY data.");
  let o = 15;
  o += 4 + b.readUInt32BE(o);
  const out: Block[] = [];
  for (;;) {
    const fields = b.readInt16BE(o);
    o += 2;
    if (fields === -1) return out;
    if (fields !== 2 || b.readInt32BE(o) !== 4) throw new Error("Unexpected row in binary COPY data of blocks.");
    const exchange = b.readInt32BE(o + 4);
    const len = b.readInt32BE(o + 8);
    o += 12;
    out.push({ exchange, lines: b.subarray(o, o + len) });
    o += len;
  }
}

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

async function pgCopyOut(client: pg.PoolClient | pg.Client, select: string): Promise<Block[]> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  await pipeline(client.query(copyStreams.to(`copy (${select}) to stdout (format binary)`)), sink);
  return parseBinaryBlocks(Buffer.concat(chunks));
}

function pgSession(client: pg.PoolClient): BulkSession {
  return {
    async query(text, params) {
      const r = await client.query(text, params as unknown[]);
      return { rows: r.rows, rowCount: r.rowCount ?? 0 };
    },
    async copyBlocks(table, listId, blocks, opts) {
      const freeze = opts?.freeze ? ", freeze" : "";
      const stream = client.query(copyStreams.from(`copy ${table} (list_id, exchange, lines) from stdin (format binary${freeze})`));
      await pipeline(Readable.from(binaryBlockChunks(listId, blocks)), stream);
    },
    readBlocks: (select) => pgCopyOut(client, select),
  };
}

async function pgliteCopyOut(tx: Transaction | PGlite, select: string): Promise<Block[]> {
  const r = await tx.query(`copy (${select}) to '/dev/blob' (format binary)`);
  return r.blob ? parseBinaryBlocks(new Uint8Array(await r.blob.arrayBuffer())) : [];
}

function pgliteSession(tx: Transaction | PGlite): BulkSession {
  return {
    async query(text, params) {
      const r = await tx.query(text, params as unknown[]);
      return { rows: r.rows as never[], rowCount: r.affectedRows ?? 0 };
    },
    async copyBlocks(table, listId, blocks) {
      const blob = new Blob([...binaryBlockChunks(listId, blocks)] as Uint8Array<ArrayBuffer>[]);
      await tx.query(`copy ${table} (list_id, exchange, lines) from '/dev/blob' (format binary)`, [], { blob });
    },
    readBlocks: (select) => pgliteCopyOut(tx, select),
  };
}

/** Area-code ranges read per statement (bounded memory: at most ~25 × 800 dense blocks). */
const NPA_STEP = 25;

/** The numbers of `blocks` (in exchange order) as one sorted array. */
export function numbersOfBlocks(blocks: readonly Block[]): Float64Array {
  let n = 0;
  for (const b of blocks) n += linesIn(b.lines);
  const out = new Float64Array(n);
  let at = 0;
  for (const b of blocks) at += decodeBlock(b.exchange, b.lines, out, at);
  return out;
}

/** The blocks of a list whose exchanges lie in [lo, hi), in exchange order. */
function rangeSelect(listId: number, lo: number, hi: number): string {
  return `select exchange, lines from list_blocks where list_id = ${Number(listId)} and exchange >= ${lo} and exchange < ${hi} order by exchange`;
}

async function readRange(handle: DbHandle, select: string): Promise<Block[]> {
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

/**
 * Every number of a list, in chunks (sorted, each chunk after the last). Reads by area-code ranges so memory stays
 * bounded; callers compare lists.version before and after to detect a concurrent change.
 */
/** Every block of a list, by area-code ranges, in exchange order (read on the session's transaction when given). */
export async function* readListBlocks(handle: DbHandle, listId: number, s?: BulkSession): AsyncGenerator<Block[]> {
  for (let npa = 200; npa < 1000; npa += NPA_STEP) {
    const select = rangeSelect(listId, npa * 1000, Math.min(1000, npa + NPA_STEP) * 1000);
    const blocks = s ? await s.readBlocks(select) : await readRange(handle, select);
    if (blocks.length) yield blocks;
  }
}

export async function* readListNumbers(handle: DbHandle, listId: number): AsyncGenerator<Float64Array> {
  for await (const blocks of readListBlocks(handle, listId)) yield numbersOfBlocks(blocks);
}

/** SQL: how many numbers a list's blocks hold (a bitmap's set bits, an array's 2-byte lines). */
export const BLOCK_LINES_SQL = `case when length(lines) = ${BITMAP_BYTES} then bit_count(lines) else length(lines) / 2 end`;
