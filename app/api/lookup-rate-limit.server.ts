import type { RateLimitResult } from "./rate-limit.server";
import { LOOKUP_BURST, LOOKUP_REQUESTS_PER_SECOND } from "./lookup-budget";

export { LOOKUP_BURST, LOOKUP_REQUESTS_PER_SECOND };

/*
 * The live lookup's own request budget (decision 111): a dialer asks per call, hundreds of times a second, which
 * the API's 1000 requests per hour (decision 051) would stop within seconds. Lookups do not count against that
 * hourly budget; they take a token from a per-key bucket (and, with the integration's rate-limit toggle on, from
 * one bucket shared by the integration's keys) that refills LOOKUP_REQUESTS_PER_SECOND a second up to
 * LOOKUP_BURST. What a lookup costs the customer is its numbers, counted against the plan's DNC suppression usage.
 *
 * Kept in each app process's memory: a per-second budget read from PostgreSQL on every request would cost the
 * lookup its latency target, and losing it on a restart gives a client at most one burst more. With several app
 * processes behind a balancer a key can reach that many times the rate (stated in the decision).
 */

interface Bucket {
  tokens: number;
  at: number;
}

export class LookupRateLimiter {
  private buckets = new Map<string, Bucket>();
  /** Milliseconds; replaceable so tests can hold time still. */
  clock: () => number = Date.now;

  constructor(
    readonly perSecond = LOOKUP_REQUESTS_PER_SECOND,
    readonly burst = LOOKUP_BURST,
  ) {}

  private level(name: string, now: number): Bucket {
    let b = this.buckets.get(name);
    if (!b) {
      if (this.buckets.size >= 100_000) this.dropFull(now);
      if (this.buckets.size >= 100_000) this.buckets.clear(); // 100,000 keys busy within two seconds: start afresh
      this.buckets.set(name, (b = { tokens: this.burst, at: now }));
    } else if (now > b.at) {
      b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) * this.perSecond) / 1000);
      b.at = now;
    }
    return b;
  }

  /**
   * Takes one token from every bucket, or from none when any is empty (a refused request costs nothing: the
   * client is told when to come back). Headers: Limit = requests per second, Remaining = whole tokens left in
   * the emptiest bucket, Reset = Unix second by which it is full again.
   */
  take(names: string[]): RateLimitResult {
    const now = this.clock();
    const levels = names.map((n) => this.level(n, now));
    const lowest = Math.min(...levels.map((b) => b.tokens));
    const limited = lowest < 1;
    if (!limited) for (const b of levels) b.tokens -= 1;
    const left = limited ? lowest : lowest - 1;
    return {
      limit: this.perSecond,
      remaining: Math.max(0, Math.floor(left)),
      reset: Math.ceil((now + ((this.burst - left) / this.perSecond) * 1000) / 1000),
      limited,
      retryAfter: limited ? 1 : 0,
      windowSeconds: 1,
    };
  }

  private dropFull(now: number): void {
    for (const [name, b] of this.buckets) {
      if (b.tokens + ((now - b.at) * this.perSecond) / 1000 >= this.burst) this.buckets.delete(name);
    }
  }
}

export const lookupRateLimiter = new LookupRateLimiter();
