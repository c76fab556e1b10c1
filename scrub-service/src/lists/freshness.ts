/**
 * The freshness of the lists a scrub or a lookup checks, read from the database (issue #49, decision 174): each
 * loaded list with a freshness rule (the federal DNC list and every state list) against its own rule, and the
 * admin setting "refuse stale DNC" that makes a stale list stop every DNC scrub (the app's intake for the web and
 * the API, the engine at job start for every path: the CLI in process or through the scrub service).
 */
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { listFreshness, staleListsMessage, type ListFreshness } from "../evaluation";
import { listsOfSuppression, takesRegistryDate, type ListKind, type SuppressionTypeName } from "../list-types";
import { CodedError } from "../errors";

type Db = Kysely<Database>;

/**
 * The loaded lists with a freshness rule among `kinds` (null: every one), as of `now`. A list never loaded (no
 * registry date) or holding no numbers is not checked by a scrub, so it is left out here too.
 */
export async function readListFreshness(db: Db, kinds: readonly string[] | null, now: Date = new Date()): Promise<ListFreshness[]> {
  const wanted = (kinds ?? null)?.filter(takesRegistryDate) as ListKind[] | undefined;
  if (wanted && !wanted.length) return [];
  let q = db
    .selectFrom("lists")
    .select(["kind", "registry_date", "size"])
    .where("kind", "!=", "container")
    .where("deleted_at", "is", null)
    .where("registry_date", "is not", null);
  if (wanted) q = q.where("kind", "in", wanted);
  const rows = await q.execute();
  return rows
    .filter((r) => r.kind === "dnc" || Number(r.size) > 0)
    .map((r) => listFreshness(r.kind, r.registry_date, now))
    .filter((f): f is ListFreshness => f !== null);
}

/** The freshness of the lists a suppression type checks. */
export function freshnessOfSuppression(db: Db, type: SuppressionTypeName, now: Date = new Date()): Promise<ListFreshness[]> {
  return readListFreshness(db, listsOfSuppression(type), now);
}

/** Whether the admin setting "refuse stale DNC" (DNC purges refused past a list's rule) is on. */
export async function refusesStaleLists(db: Db): Promise<boolean> {
  const row = await db.selectFrom("app_settings").select("value").where("name", "=", "refuseStaleDnc").executeTakeFirst();
  if (!row) return false;
  const v = typeof row.value === "string" ? JSON.parse(row.value) : row.value;
  return v === true;
}

/** A scrub refused because a list it checks is past its freshness rule while "refuse stale DNC" is on. */
export class StaleListsRefusal extends CodedError {
  constructor(message: string) {
    super("invalid_input", message, { field: "suppressionType" });
    this.name = "StaleListsRefusal";
  }
}

/**
 * The refusal of a scrub of this suppression type now: null when it may run (the setting is off, or no list it
 * checks is stale), else the message naming every stale list at once.
 */
export async function staleListRefusal(db: Db, type: SuppressionTypeName, now: Date = new Date()): Promise<string | null> {
  const lists = await freshnessOfSuppression(db, type, now);
  if (!lists.some((l) => l.stale)) return null;
  if (!(await refusesStaleLists(db))) return null;
  return staleListsMessage(lists);
}
