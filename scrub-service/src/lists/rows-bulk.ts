/**
 * Bulk writes of a whole list on PostgreSQL (a replace, or an add into an empty list; decision 018): the
 * numbers go into a new table without an index (binary COPY), which then gets its primary key in one
 * sorted build, and is swapped in for the list's partition of list_numbers at the end of the transaction.
 */
import type { DbHandle } from "../../../db/client";
import { partitionOf, readListNumbers, type BulkSession } from "./pg-bulk";

/** Numbers up to which a replace counts the overlap with the old list by primary-key lookups. */
const LOOKUP_OVERLAP = 200_000;

/** |stored ∩ numbers| for sorted distinct numbers, streaming the list's committed rows in key order. */
async function overlapWithStored(handle: DbHandle, listId: number, numbers: Float64Array): Promise<number> {
  let j = 0;
  let n = 0;
  for await (const c of readListNumbers(handle, listId)) {
    for (let i = 0; i < c.length; i++) {
      const x = c[i];
      while (j < numbers.length && numbers[j] < x) j++;
      if (j < numbers.length && numbers[j] === x) n++;
    }
  }
  return n;
}

/**
 * COPY into the indexed table was capped at ~470k rows/s by index maintenance, the build aside runs at
 * ~1.2M rows/s. The table's check constraint implies the partition bound, so attaching it needs no scan.
 * Inside the caller's transaction, which holds the list's row lock; `swapPartition` puts it in place.
 * Returns the exact counts: already = |old ∩ new|, removed = old − already.
 */
export async function buildAside(
  handle: DbHandle,
  s: BulkSession,
  listId: number,
  numbers: Float64Array,
  oldSize: number,
): Promise<{ already: number; removed: number }> {
  const fresh = `${partitionOf(listId)}_new`;
  await s.query(`drop table if exists ${fresh}`);
  await s.query(
    `create table ${fresh} (list_id integer not null, number bigint not null, constraint ${fresh}_list check (list_id = ${Number(listId)}))`,
  );
  // The overlap with the old rows (committed, unchanged: this transaction holds the list's lock): small
  // loads look each number up by primary key; large ones stream the old list on another connection while
  // this one copies, and merge (both sorted).
  let overlap: Promise<number> = Promise.resolve(0);
  if (oldSize > 0 && numbers.length > LOOKUP_OVERLAP) {
    overlap = overlapWithStored(handle, listId, numbers);
    overlap.catch(() => {});
  }
  // FREEZE (allowed: the table is new in this transaction): rows are written frozen and all-visible, so
  // the first reader does not rewrite every page to set hint bits, and index-only scans work at once.
  await s.copyNumbers(fresh, listId, numbers, { freeze: true });
  await s.query(`alter table ${fresh} add constraint ${fresh}_pkey primary key (list_id, number)`);
  // statistics now (a sample): a partition nobody analyzed gets plans for ~100k rows (hash joins over 20M)
  await s.query(`analyze ${fresh}`);
  let already = 0;
  if (oldSize > 0 && numbers.length <= LOOKUP_OVERLAP) {
    const r = await s.query<{ n: string | number | bigint }>(
      `select count(*) as n from ${fresh} f join list_numbers l on l.list_id = $1 and l.number = f.number`,
      [listId],
    );
    already = Number(r.rows[0].n);
  } else {
    already = await overlap;
  }
  return { already, removed: oldSize - already };
}

/** Detaches and drops the list's old partition and attaches the one `buildAside` built, in the caller's transaction. */
export async function swapPartition(s: BulkSession, listId: number): Promise<void> {
  const part = partitionOf(listId);
  const fresh = `${part}_new`;
  const old = await s.query<{ t: string | null }>("select to_regclass($1)::text as t", [part]);
  if (old.rows[0]?.t) {
    await s.query(`alter table list_numbers detach partition ${part}`);
    await s.query(`drop table ${part}`);
  }
  await s.query(`alter table ${fresh} rename to ${part}`);
  await s.query(`alter table ${part} rename constraint ${fresh}_pkey to ${part}_pkey`);
  await s.query(`alter table ${part} rename constraint ${fresh}_list to ${part}_list`);
  await s.query(`alter table list_numbers attach partition ${part} for values in (${Number(listId)})`);
}
