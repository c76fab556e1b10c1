/**
 * Bulk access to list_numbers on both drivers: COPY in (PostgreSQL: pg-copy-streams, binary format; PGlite:
 * COPY … FROM '/dev/blob', text), and streaming every number of a list out in chunks (COPY … TO).
 */
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import copyStreams from "pg-copy-streams";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { DbHandle } from "../../../db/client";

export interface BulkSession {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number }>;
  /** COPY rows "listId\tnumber" of sorted numbers into `table` (list_id, number). */
  copyNumbers(table: string, listId: number, numbers: Float64Array, opts?: { freeze?: boolean }): Promise<void>;
}

/** What a database driver is good at, for choosing how a list change is written (lists/rows.ts). */
export interface BulkTraits {
  /**
   * PostgreSQL: a whole list is written faster into a new table that is indexed once and swapped in than
   * by COPY into the indexed partition (decision 018).
   */
  buildsAside: boolean;
  /** PGlite runs on this process's thread: one long statement blocks every web request (decision 017). */
  runsOnThisThread: boolean;
}

export function bulkTraits(handle: DbHandle): BulkTraits {
  const pg = handle.driver.kind === "pg";
  return { buildsAside: pg, runsOnThisThread: !pg };
}

/** A list's partition of list_numbers (migration 0006 creates one per list). */
export function partitionOf(listId: number): string {
  return `list_numbers_${Number(listId)}`;
}

const COPY_CHUNK = 1_000_000;

function* textChunks(listId: number, numbers: Float64Array): Generator<string> {
  const prefix = `${listId}\t`;
  for (let s = 0; s < numbers.length; s += COPY_CHUNK) {
    const e = Math.min(numbers.length, s + COPY_CHUNK);
    const parts: string[] = new Array(e - s);
    for (let i = s; i < e; i++) parts[i - s] = prefix + numbers[i];
    yield parts.join("\n") + "\n";
  }
}

/** Rows per buffer of binary COPY data (22 bytes a row: ~1.4 MB). */
const BINARY_ROWS = 65_536;

/**
 * COPY … (format binary) data of rows (listId, number), written straight into Buffers: no per-row string
 * (building "id\tnumber" strings cost ~7.5 s and most of the GC of a 20M-number load). Numbers are
 * non-negative integers below 2^53.
 */
export function* binaryCopyChunks(listId: number, numbers: Float64Array): Generator<Buffer> {
  const head = Buffer.alloc(19);
  head.write("PGCOPY\n\xff\r\n\0", 0, "latin1"); // signature; flags and extension length stay 0
  yield head;
  for (let s = 0; s < numbers.length; s += BINARY_ROWS) {
    const e = Math.min(numbers.length, s + BINARY_ROWS);
    const b = Buffer.allocUnsafe((e - s) * 22);
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    let o = 0;
    for (let i = s; i < e; i++) {
      const x = numbers[i];
      dv.setUint32(o, 0x0002_0000); // 2 fields, then the first field's length (4) …
      dv.setUint16(o + 4, 4);
      dv.setInt32(o + 6, listId);
      dv.setUint32(o + 10, 8);
      dv.setUint32(o + 14, Math.floor(x / 4294967296));
      dv.setUint32(o + 18, x >>> 0);
      o += 22;
    }
    yield b;
  }
  const tail = Buffer.alloc(2);
  tail.writeInt16BE(-1);
  yield tail;
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

function pgSession(client: pg.PoolClient): BulkSession {
  return {
    async query(text, params) {
      const r = await client.query(text, params as unknown[]);
      return { rows: r.rows, rowCount: r.rowCount ?? 0 };
    },
    async copyNumbers(table, listId, numbers, opts) {
      if (!numbers.length) return;
      const freeze = opts?.freeze ? ", freeze" : "";
      const stream = client.query(copyStreams.from(`copy ${table} (list_id, number) from stdin (format binary${freeze})`));
      await pipeline(Readable.from(binaryCopyChunks(listId, numbers)), stream);
    },
  };
}

function pgliteSession(tx: Transaction | PGlite): BulkSession {
  return {
    async query(text, params) {
      const r = await tx.query(text, params as unknown[]);
      return { rows: r.rows as never[], rowCount: r.affectedRows ?? 0 };
    },
    async copyNumbers(table, listId, numbers) {
      for (const chunk of textChunks(listId, numbers)) {
        await tx.query(`copy ${table} (list_id, number) from '/dev/blob'`, [], { blob: new Blob([chunk]) });
      }
    },
  };
}

function parseNumbers(text: string): Float64Array {
  const out = new Float64Array(text.length / 11 + 1);
  let n = 0;
  let v = 0;
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      any = true;
    } else if (c === 10) {
      if (any) out[n++] = v;
      v = 0;
      any = false;
    }
  }
  if (any) out[n++] = v;
  return out.subarray(0, n);
}

/** Area-code ranges read per statement (bounded memory on PGlite). */
const NPA_STEP = 25;

/**
 * Every number of a list, in chunks (sorted within a chunk). Reads by area-code ranges so memory stays
 * bounded; callers compare lists.version before and after to detect a concurrent change.
 */
export async function* readListNumbers(handle: DbHandle, listId: number): AsyncGenerator<Float64Array> {
  for (let npa = 200; npa < 1000; npa += NPA_STEP) {
    const lo = npa * 10_000_000;
    const hi = Math.min(1000, npa + NPA_STEP) * 10_000_000;
    const sql = `copy (select number from list_numbers where list_id = ${Number(listId)} and number >= ${lo} and number < ${hi} order by number) to `;
    if (handle.driver.kind === "pglite") {
      const pglite = handle.driver.pglite;
      const r = await handle.db.connection().execute(() => pglite.query(`${sql} '/dev/blob'`));
      const text = r.blob ? await r.blob.text() : "";
      const nums = parseNumbers(text);
      if (nums.length) yield nums;
    } else {
      const client = await handle.driver.pool.connect();
      try {
        const chunks: Buffer[] = [];
        const sink = new Writable({
          write(chunk: Buffer, _enc, cb) {
            chunks.push(chunk);
            cb();
          },
        });
        await pipeline(client.query(copyStreams.to(`${sql} stdout`)), sink);
        const nums = parseNumbers(Buffer.concat(chunks).toString("latin1"));
        if (nums.length) yield nums;
      } finally {
        client.release();
      }
    }
  }
}
