/** Tests reading and writing a list's exchange blocks directly (behind the service's back). */
import { sql } from "kysely";
import type { DbHandle } from "db/client";
import { BlockList, changeBlocks, exchangeOf, packBlocks } from "../worker/exchange-blocks";

/** The numbers the database holds for a list, in order (migration 0022's list_block_numbers). */
export async function storedNumbers(handle: DbHandle, listId: number): Promise<number[]> {
  const r = await sql<{ number: string | bigint }>`select number from list_block_numbers(${listId}) order by number`.execute(handle.db);
  return r.rows.map((x) => Number(x.number));
}

/** How many block rows a list has. */
export async function blockRows(handle: DbHandle, listId: number): Promise<number> {
  const r = await handle.db
    .selectFrom("list_blocks")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("list_id", "=", listId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Puts one number into a list's blocks without the service (lists.size and version untouched). */
export async function insertNumberBehindTheBack(handle: DbHandle, listId: number, number: number): Promise<void> {
  const exchange = exchangeOf(number);
  const row = await handle.db.selectFrom("list_blocks").select("lines").where("list_id", "=", listId).where("exchange", "=", exchange).executeTakeFirst();
  const out = new BlockList();
  changeBlocks(packBlocks(row ? [{ exchange, lines: row.lines }] : []), Float64Array.of(number), "add", out);
  const [after] = out.blocks;
  if (!after) return; // already there
  await handle.db.deleteFrom("list_blocks").where("list_id", "=", listId).where("exchange", "=", exchange).execute();
  await handle.db.insertInto("list_blocks").values({ list_id: listId, exchange, lines: after.lines }).execute();
}
