import { sql } from "kysely";
import type { Db } from "./service";

/** Owns batch (CLI) jobs run without --user: no password and Blocked, so nobody can sign in as it (decision 123). */
export const OPERATOR_EMAIL = "operator@batch.invalid";

/** The operator account's id, created on first use; concurrent callers get the same row. */
export async function operatorAccountId(db: Db): Promise<string> {
  await sql`
    insert into users (email, first_name, last_name, company, role, status)
    values (${OPERATOR_EMAIL}, 'Batch', 'Operator', 'Command line', 'UnlimitedUser', 'Blocked')
    on conflict (lower(email)) where deleted_at is null do nothing`.execute(db);
  const row = await db
    .selectFrom("users")
    .select("id")
    .where(sql<string>`lower(email)`, "=", OPERATOR_EMAIL)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return row.id;
}
