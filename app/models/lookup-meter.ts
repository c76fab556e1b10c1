/*
 * This process's count of live lookups (POST /api/v1/lookup), per user and minute, before it is written to
 * `lookup_usage` (decision 111). Pure bookkeeping, no I/O: usage.server.ts counts into it, flushes it and reads
 * the database side of the usage.
 *
 * Each bucket keeps the absolute totals this process counted and the totals already written. A flush writes
 * the absolute totals into this process's own row (user, bucket, writer), so writing the same totals twice
 * changes nothing; `unflushed` is what the database does not hold yet.
 */

export interface MeterBucket {
  requests: number;
  numbers: number;
  flushedRequests: number;
  flushedNumbers: number;
}

export interface MeterRow {
  userId: string;
  bucketStart: number;
  requests: number;
  numbers: number;
}

interface UserMeter {
  buckets: Map<number, MeterBucket>;
  /** The usage the database held for a period (this process's rows as flushed then included), and when it was read. */
  known: { periodStart: number; periodEnd: number; used: number; at: number } | null;
  lastCounted: number;
}

export class LookupMeter {
  private users = new Map<string, UserMeter>();

  private user(userId: string): UserMeter {
    let u = this.users.get(userId);
    if (!u) this.users.set(userId, (u = { buckets: new Map(), known: null, lastCounted: 0 }));
    return u;
  }

  count(userId: string, bucketStart: number, amount: number, nowMs: number): void {
    const u = this.user(userId);
    let b = u.buckets.get(bucketStart);
    if (!b) u.buckets.set(bucketStart, (b = { requests: 0, numbers: 0, flushedRequests: 0, flushedNumbers: 0 }));
    b.requests += 1;
    b.numbers += amount;
    u.lastCounted = nowMs;
  }

  /** Numbers counted here for buckets in [start, end) that the database does not hold yet. */
  unflushed(userId: string, start: number, end: number): number {
    const u = this.users.get(userId);
    if (!u) return 0;
    let n = 0;
    for (const [at, b] of u.buckets) if (at >= start && at < end) n += b.numbers - b.flushedNumbers;
    return n;
  }

  /**
   * The user's usage of the period [start, end): what the database held when last read plus what was counted
   * here since and not yet written; null when it must be read (never read, another period, or older than maxAgeMs).
   */
  used(userId: string, start: number, end: number, nowMs: number, maxAgeMs: number): number | null {
    const k = this.users.get(userId)?.known;
    if (!k || k.periodStart !== start || k.periodEnd !== end || nowMs - k.at > maxAgeMs) return null;
    return k.used + this.unflushed(userId, start, end);
  }

  /** Records a read of the database's usage; call only while no flush is between writing and marking. */
  setKnown(userId: string, start: number, end: number, used: number, nowMs: number): void {
    this.user(userId).known = { periodStart: start, periodEnd: end, used, at: nowMs };
  }

  /** Forgets the database's usage (e.g. a purge was just reserved): the next lookup reads it again. */
  forget(userId: string): void {
    const u = this.users.get(userId);
    if (u) u.known = null;
  }

  /** The buckets with counts the database does not hold, as absolute totals. */
  pending(): MeterRow[] {
    const rows: MeterRow[] = [];
    for (const [userId, u] of this.users) {
      for (const [bucketStart, b] of u.buckets) {
        if (b.requests !== b.flushedRequests) rows.push({ userId, bucketStart, requests: b.requests, numbers: b.numbers });
      }
    }
    return rows;
  }

  /**
   * The rows (as returned by pending) are in the database now: call as soon as the write is done, so that
   * nothing reads them both from the database and as unwritten. What they add moves into the usage last read,
   * so `used` stays the same until the database is read again.
   */
  markFlushed(rows: MeterRow[]): void {
    for (const r of rows) {
      const u = this.users.get(r.userId);
      const b = u?.buckets.get(r.bucketStart);
      if (!u || !b) continue;
      const added = Math.max(0, r.numbers - b.flushedNumbers);
      b.flushedRequests = Math.max(b.flushedRequests, r.requests);
      b.flushedNumbers = Math.max(b.flushedNumbers, r.numbers);
      if (u.known && r.bucketStart >= u.known.periodStart && r.bucketStart < u.known.periodEnd) u.known.used += added;
    }
  }

  /** The period a user's limit was last checked for (to read its usage again after a flush). */
  knownPeriod(userId: string): { start: number; end: number } | null {
    const k = this.users.get(userId)?.known;
    return k ? { start: k.periodStart, end: k.periodEnd } : null;
  }

  /**
   * Drops written buckets older than retainMs and users with nothing left to write that counted nothing for
   * retainMs. A count arriving later for a dropped bucket starts it again from zero; the flush's upsert keeps
   * the larger total, so such a (clock gone back) count could be lost, never doubled.
   */
  prune(nowMs: number, retainMs: number): void {
    for (const [userId, u] of this.users) {
      for (const [at, b] of u.buckets) {
        if (b.requests === b.flushedRequests && at < nowMs - retainMs) u.buckets.delete(at);
      }
      if (u.buckets.size === 0 && u.lastCounted < nowMs - retainMs) this.users.delete(userId);
    }
  }

  get size(): number {
    return this.users.size;
  }
}
