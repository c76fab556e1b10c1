/**
 * Values kept for a short while, for hot paths that may answer from a read that is at most `ttlMs` old
 * (the live lookup's key and list rows: decision 111). Bounded: past `maxEntries` it starts again empty.
 */
export class TtlCache<K, V> {
  private entries = new Map<K, { value: V; until: number }>();
  /** Milliseconds; replaceable so tests can move time. */
  clock: () => number = () => performance.now();

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 10_000,
  ) {}

  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Keeps `value` for the cache's time, or less when `ttlMs` is given and shorter. */
  set(key: K, value: V, ttlMs = this.ttlMs): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, until: this.clock() + Math.min(ttlMs, this.ttlMs) });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
