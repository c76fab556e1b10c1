/**
 * How much PostgreSQL (or PGlite) keeps for a list (decision 162): the bytes of its list_blocks partition (table, key
 * and TOAST), per listed number, and the whole database's size. Opened after the CLI runs exited.
 */
import { sql } from "kysely";
import { openDatabase } from "db/client";

export interface ListStorage {
  listNumbers: number;
  blocks: number;
  listBytes: number;
  bytesPerNumber: number | null;
  databaseBytes: number;
}

export async function listStorage(env: Record<string, string>, kind: string): Promise<ListStorage> {
  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR });
  try {
    const list = await handle.db
      .selectFrom("lists")
      .select(["id", "size"])
      .where("kind", "=", kind as never)
      .executeTakeFirstOrThrow();
    const part = `list_blocks_${list.id}`;
    const r = await sql<{ bytes: string; blocks: string; db: string }>`select pg_total_relation_size(${part}::regclass) as bytes,
        (select count(*) from ${sql.table(part)}) as blocks, pg_database_size(current_database()) as db`.execute(handle.db);
    const listNumbers = Number(list.size);
    const listBytes = Number(r.rows[0].bytes);
    return {
      listNumbers,
      blocks: Number(r.rows[0].blocks),
      listBytes,
      bytesPerNumber: listNumbers ? Number((listBytes / listNumbers).toFixed(2)) : null,
      databaseBytes: Number(r.rows[0].db),
    };
  } finally {
    await handle.close();
  }
}
