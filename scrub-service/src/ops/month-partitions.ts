/**
 * Tables partitioned by range on an instant, one partition per UTC month named `<table>_yYYYYmMM`, each made on demand
 * by the table's `<table>_ensure_month(date)` function (migrations 0028, 0032): the one helper that makes the months an
 * instant falls in and drops the months wholly before a cutoff. The ledger uses it; call_records (calls/store.ts) runs
 * the same steps.
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "db/schema";

/** "YYYY-MM-01" of the UTC month of an instant. */
export function monthStart(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}-01`;
}

/** Runs `<table>_ensure_month` for each month the instants fall in (through `run`: a session or transaction may be given). */
export async function ensureMonths(run: (text: string, params: unknown[]) => Promise<unknown>, table: string, atMs: Iterable<number>): Promise<void> {
  for (const m of [...new Set([...atMs].map(monthStart))].sort()) await run(`select ${table}_ensure_month($1::date)`, [m]);
}

/**
 * Detaches and drops every monthly partition of `table` that ends on or before the first of `cutoff`'s month (every
 * row in it is older than the cutoff). Idempotent: another process's drop of the same month is not an error.
 */
export async function dropMonthsBefore(db: Kysely<Database>, table: string, cutoff: Date): Promise<string[]> {
  const cutoffMonth = monthStart(cutoff.getTime());
  const parts = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid
      join pg_class p on p.oid = i.inhparent
    where p.relname = ${table}`.execute(db);
  const pattern = new RegExp(`^${table}_y(\\d{4})m(\\d{2})$`);
  const dropped: string[] = [];
  for (const { name } of parts.rows) {
    const m = pattern.exec(name);
    if (!m || `${m[1]}-${m[2]}-01` >= cutoffMonth) continue;
    try {
      await sql`alter table ${sql.id(table)} detach partition ${sql.id(name)}`.execute(db);
    } catch (e) {
      if (!(await sql`select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid where c.relname = ${name}`.execute(db)).rows.length) continue;
      throw e;
    }
    await sql`drop table if exists ${sql.id(name)}`.execute(db);
    dropped.push(name);
  }
  return dropped.sort();
}
