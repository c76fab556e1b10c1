/**
 * The list store answers "is this number on list L?" for the Bloom filter's positives.
 * Redis sets when REDIS_URL or REDIS_CLUSTER_NODES is set, an embedded in-process index otherwise. PostgreSQL stays the source
 * of truth: the store holds a copy tagged with the list's version, and a copy that is missing, being
 * changed, or of another version makes scrubs fail closed (ListStoreError), never report "clean".
 */
import { CodedError } from "../errors";

/** After a lost or stale copy: the operator's next step, for the log. */
const REBUILD_HINT = "Rebuild the list store with `npm run lists -- rebuild` once it answers.";
/** After a store that did not answer: a failover to a replica normally keeps every copy, so no blind rebuild. */
const STATUS_HINT =
  "Once Redis answers again, `npm run lists -- status` shows whether its copies survived (after a failover to a replica they " +
  "normally have); rebuild only if it names a stale list: `npm run lists -- rebuild`.";

export class ListStoreError extends CodedError {
  /**
   * `transient`: the store did not answer (a connection lost, a failover under way) or the list's copy was
   * replaced meanwhile; the same scrub run again a little later may succeed. A lost or stale copy is not.
   * `hint`: the operator's next step for the log; by default the one `transient` calls for, none where the
   * message already names it.
   */
  constructor(
    message: string,
    readonly transient = false,
    hint: "default" | "in-message" = "default",
  ) {
    super("list_store_unavailable", message, { operatorHint: hint === "in-message" ? undefined : transient ? STATUS_HINT : REBUILD_HINT });
    this.name = "ListStoreError";
  }
}

/** "changes": an FTC change list, its additions and its removals (disjoint) in one change and one version. */
export type ChangeMode = "add" | "remove" | "replace" | "changes";

const NONE = new Float64Array(0);

/** The numbers a change adds and the ones it removes (sorted, distinct), whatever its mode. */
export function changeSides(mode: ChangeMode, numbers: Float64Array, removals: Float64Array = NONE): { adds: Float64Array; removes: Float64Array } {
  if (mode === "remove") return { adds: NONE, removes: numbers };
  return { adds: numbers, removes: mode === "changes" ? removals : NONE };
}

/** What the database held when a change took the list's lock (nothing written yet). */
export interface ChangeStart {
  /** lists.version and lists.size before the change. */
  version: number;
  size: number;
  /** After the change the list is exactly its numbers: a replace, or an add into an empty list. */
  wholeList: boolean;
}

/**
 * The store's side of one add/remove/replace of sorted, distinct numbers. The ListManager calls these
 * around the database's writes (lists/blocks.ts), the same way for every store and database:
 *
 *   store.change(…)        before the database is touched
 *   started(start)         in a transaction holding the list's row lock, before any row is written
 *   written(counts)        the rows are written (all of them, also when the database took several transactions)
 *   beforeCommit()         in the last transaction, before it makes the new version visible
 *   committed(version)     after that commit: the copy becomes current at `version`
 *   failed()               the change failed before its commit (rolled back, or partly written)
 *
 * Each store decides what to do at each step: Redis (shared by every process) marks its copy changing and
 * writes while the database does, the embedded index (this process's memory) applies the change after
 * the commit.
 */
export interface StoreChange {
  started(start: ChangeStart): Promise<void>;
  written(counts: { added: number; removed: number }): Promise<void>;
  beforeCommit(): Promise<void>;
  committed(version: number): Promise<void>;
  failed(): Promise<void>;
}

/** Where a list's copy lives, for status (a store that has nothing to say leaves it out). */
export interface CopyDetail {
  /** Per Redis master: the area codes it serves and how many serve the current copy. */
  nodes?: { node: string; areaCodes: number; current: number }[];
  /** Why the copy is not usable beyond its version, e.g. an older key layout. */
  note?: string;
}

export interface ListStore {
  /** For status and logs only: callers never branch on it (the interface hides the store). */
  readonly kind: "redis" | "embedded";
  /**
   * Whether a scrub that finds no current copy has this process fill it from the database (the embedded
   * index: a cache in this process's memory), or waits for a load or `lists rebuild` to write it and fails
   * closed after the wait (Redis: one copy for every process).
   */
  readonly fillsOnDemand: boolean;
  /** The version of the list's copy, or null when missing or in the middle of a change. */
  version(listId: number): Promise<number | null>;
  /**
   * A reader of exactly `version` of the list for one scrub: throws ListStoreError when the store has no
   * such copy (missing, changing, other version, unreachable). Its `has` throws when the copy goes away.
   */
  snapshot(listId: number, version: number): Promise<ListSnapshot>;
  /** Marks the copy as changing (version → null) before numbers are added or removed. */
  beginChange(listId: number): Promise<void>;
  /** Adds sorted distinct numbers to the current copy. */
  add(listId: number, numbers: Float64Array): Promise<void>;
  /** Removes numbers from the current copy. */
  remove(listId: number, numbers: Float64Array): Promise<void>;
  /** Builds a complete new copy aside from chunks of numbers; the old copy is served until `finishChange`. */
  replace(listId: number, chunks: AsyncIterable<Float64Array> | Iterable<Float64Array>): Promise<ReplaceHandle>;
  /** Makes the copy current at `version` (after the database committed it). */
  finishChange(listId: number, version: number, replaced?: ReplaceHandle): Promise<void>;
  /** Drops a replacement that was not committed. */
  abortReplace(listId: number, replaced: ReplaceHandle): Promise<void>;
  /** The store's side of one add/remove/replace/changes (see StoreChange); `removals`: the changes mode's deletions. */
  change(listId: number, mode: ChangeMode, numbers: Float64Array, removals?: Float64Array): StoreChange;
  /** Every number of the copy at `version`, when the store can read them back cheaply (else null). */
  numbersOf(listId: number, version: number): Iterable<Float64Array> | null;
  /** Writes the copy at `version` to `file` for the next process on this disk; false when the store keeps no such copies. */
  saveCopy(listId: number, version: number, file: string): Promise<boolean>;
  /** Serves `version` from a file saveCopy wrote; false (nothing changed) when missing, damaged or not supported. */
  loadCopy(listId: number, version: number, file: string): Promise<boolean>;
  /** Removes the list's copy entirely. */
  drop(listId: number): Promise<void>;
  /** Optional detail for `npm run lists -- status` and the start-up check. */
  describeCopy?(listId: number): Promise<CopyDetail>;
  /** Bytes the store uses (Redis used_memory, or the embedded arrays). */
  memoryBytes(): Promise<number>;
  /** Resolves when the store answers (Redis: the node, the Sentinels' primary or every cluster master); for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface ListSnapshot {
  readonly listId: number;
  readonly version: number;
  /** Membership of numbers[0..count) (1 = on the list). */
  has(numbers: Float64Array, count: number): Promise<Uint8Array>;
}

export interface ReplaceHandle {
  generation: number;
}

/** Area code and the 7-digit rest of a normalized number. */
export function splitNumber(x: number): [npa: number, rest: number] {
  const npa = Math.floor(x / 10_000_000);
  return [npa, x - npa * 10_000_000];
}

const CHUNK = 1_000_000;

/** Numbers in chunks of a million (what stores and filters take at a time). */
export function chunksOf(a: Float64Array): Float64Array[] {
  const out: Float64Array[] = [];
  for (let s = 0; s < a.length; s += CHUNK) out.push(a.subarray(s, Math.min(a.length, s + CHUNK)));
  return out;
}
