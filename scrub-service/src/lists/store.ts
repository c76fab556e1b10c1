/**
 * The list store answers "is this number on list L?" for the Bloom filter's positives.
 * Redis sets when REDIS_URL is set, an embedded in-process index otherwise. PostgreSQL stays the source
 * of truth: the store holds a copy tagged with the list's version, and a copy that is missing, being
 * changed, or of another version makes scrubs fail closed (ListStoreError), never report "clean".
 */

export class ListStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListStoreError";
  }
}

export interface ListStore {
  readonly kind: "redis" | "embedded";
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
  /** Removes the list's copy entirely. */
  drop(listId: number): Promise<void>;
  /** Bytes the store uses (Redis used_memory, or the embedded arrays). */
  memoryBytes(): Promise<number>;
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
