/**
 * Live lookups (POST /api/v1/lookup): which lists hold each of a few numbers, answered at once. The admin
 * lists of the registry and the one user's containers are read with their versions in one query; each list's
 * store copy is read at exactly that version (one store call per list, all lists at once), so a copy that is
 * missing, being changed or stale fails the whole lookup (ListStoreError) instead of answering "not listed".
 */
import { ADMIN_LIST_KINDS, type ListKind } from "../list-types";
import type { ListManager } from "./manager";
import { ListStoreError } from "./store";
import type { ListInfo } from "./versions";

export interface LookupInput {
  /** The account whose containers are checked (never another account's). */
  userId: string;
  /** Valid normalized 10-digit numbers, distinct (the caller normalizes with worker/normalize.ts). */
  numbers: number[];
}

export interface LookupList {
  id: number;
  kind: ListKind;
  name: string;
  /** lists.version that was read. */
  version: number;
  /** Indexes into `numbers` of the numbers on this list, ascending. */
  hits: number[];
}

export interface LookupAnswer {
  /** The admin lists in registry order, then the user's containers by id. */
  lists: LookupList[];
}

export const MAX_LOOKUP_NUMBERS = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkLookupInput(input: unknown): LookupInput {
  const v = input as Partial<LookupInput> | null;
  if (!v || typeof v.userId !== "string" || !UUID.test(v.userId)) throw new RangeError("userId must be a user id.");
  if (!Array.isArray(v.numbers) || v.numbers.length > MAX_LOOKUP_NUMBERS) {
    throw new RangeError(`numbers must be a list of at most ${MAX_LOOKUP_NUMBERS} numbers.`);
  }
  for (const n of v.numbers) {
    if (typeof n !== "number" || !Number.isInteger(n) || n < 2_000_000_000 || n > 9_999_999_999) throw new RangeError("numbers must be 10-digit numbers.");
  }
  return { userId: v.userId, numbers: v.numbers };
}

export async function lookupNumbers(manager: ListManager, input: LookupInput): Promise<LookupAnswer> {
  const rows = await manager.handle.db
    .selectFrom("lists")
    .select(["id", "kind", "name", "user_id", "size", "version", "created_at", "updated_at"])
    .where("deleted_at", "is", null)
    .where((eb) => eb.or([eb("kind", "in", ADMIN_LIST_KINDS), eb.and([eb("kind", "=", "container"), eb("user_id", "=", input.userId)])]))
    .orderBy("id")
    .execute();
  const ordered = [
    ...ADMIN_LIST_KINDS.map((kind) => {
      const row = rows.find((r) => r.kind === kind);
      if (!row) throw new ListStoreError(`The ${kind} list does not exist.`);
      return row;
    }),
    ...rows.filter((r) => r.kind === "container"),
  ];
  const numbers = Float64Array.from(input.numbers);
  const lists = await Promise.all(
    ordered.map(async (r): Promise<LookupList> => {
      const info: ListInfo = {
        id: r.id,
        kind: r.kind,
        userId: r.user_id,
        size: Number(r.size),
        version: Number(r.version),
        deleted: false,
        stamp: `${new Date(r.created_at).getTime()}-${new Date(r.updated_at).getTime()}`,
      };
      const hits: number[] = [];
      const snapshot = numbers.length ? await manager.snapshotAt(info) : null;
      if (snapshot) {
        const on = await snapshot.has(numbers, numbers.length);
        for (let i = 0; i < on.length; i++) if (on[i]) hits.push(i);
      }
      return { id: r.id, kind: r.kind, name: r.name, version: info.version, hits };
    }),
  );
  return { lists };
}
