/**
 * The live lookup's appends (decision 197): the lookup must not wait on the ledger (its budget is ~1 ms at p99), so an
 * answer is queued in this process and the queue is flushed every FLUSH_MS, or at once when FLUSH_AT entries wait: per
 * customer one transaction (one head lock) for all its queued entries, in the order they were queued. The entry's
 * payload is made at flush time (`make`), off the request's path. What a crash can lose: the answers of the last
 * FLUSH_MS (and of a flush that failed and was still being retried), never an entry already committed; a lost answer
 * leaves no gap in the chain (it was never in it). A flush that fails keeps its entries queued for the next one, up to
 * MAX_QUEUED entries per process and MAX_TRIES flushes, beyond which they are dropped, logged and counted (`dropped`).
 */
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import { log } from "../ops/log";
import type { LedgerDraft } from "./chain";
import { appendLedger } from "./store";

export const FLUSH_MS = 250;
export const FLUSH_AT = 2_000;
export const MAX_QUEUED = 200_000;

interface Queued {
  db: Kysely<Database>;
  userId: string;
  at: Date;
  make: () => LedgerDraft | null;
  /** Flushes that failed with it. */
  tries: number;
}

/** Flushes one entry may fail before it is dropped (counted): a database gone for good (MAX_TRIES × FLUSH_MS). */
export const MAX_TRIES = 240;

export class LedgerQueue {
  private queued: Queued[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** Entries dropped because the queue was full (flushes kept failing). */
  dropped = 0;
  /** Entries appended by flushes. */
  appended = 0;

  constructor(private readonly o: { flushMs?: number; flushAt?: number; maxQueued?: number } = {}) {}

  /** Queues one decision (O(1): its payload is made at flush). */
  add(db: Kysely<Database>, userId: string, make: () => LedgerDraft | null, at: Date = new Date()): void {
    this.queued.push({ db, userId, make, at, tries: 0 });
    const max = this.o.maxQueued ?? MAX_QUEUED;
    if (this.queued.length > max) {
      const over = this.queued.length - max;
      this.queued.splice(0, over);
      this.dropped += over;
    }
    if (this.queued.length >= (this.o.flushAt ?? FLUSH_AT)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.o.flushMs ?? FLUSH_MS);
      this.timer.unref();
    }
  }

  get size(): number {
    return this.queued.length;
  }

  /** Appends everything queued now (one transaction per customer); resolves when done. Errors are logged, the entries kept. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.flushing) return this.flushing.then(() => (this.queued.length ? this.flush() : undefined));
    const batch = this.queued;
    this.queued = [];
    if (!batch.length) return Promise.resolve();
    this.flushing = (async () => {
      const groups = new Map<Kysely<Database>, Map<string, Queued[]>>();
      for (const q of batch) {
        let byUser = groups.get(q.db);
        if (!byUser) groups.set(q.db, (byUser = new Map()));
        const list = byUser.get(q.userId);
        if (list) list.push(q);
        else byUser.set(q.userId, [q]);
      }
      const failed: Queued[] = [];
      for (const [db, byUser] of groups) {
        for (const [userId, items] of byUser) {
          const drafts: LedgerDraft[] = [];
          for (const it of items) {
            try {
              const d = it.make();
              if (d) drafts.push(d);
            } catch (e) {
              log().warn({ err: e instanceof Error ? e.message : String(e) }, "[ledger] an answer could not be made into an entry; left out");
            }
          }
          try {
            await appendLedger(db, userId, drafts);
            this.appended += drafts.length;
          } catch (e) {
            const tries = items[0].tries + 1;
            if (tries >= MAX_TRIES) {
              this.dropped += drafts.length;
              log().error(
                { err: e instanceof Error ? e.message : String(e), entries: drafts.length },
                "[ledger] entries dropped after repeated failed flushes",
              );
              continue;
            }
            failed.push(...drafts.map((d) => ({ db, userId, at: items[0].at, make: () => d, tries })));
            log().warn({ err: e instanceof Error ? e.message : String(e), entries: drafts.length }, "[ledger] flush failed; kept for the next one");
          }
        }
      }
      if (failed.length) {
        this.queued = [...failed, ...this.queued];
        if (!this.timer) {
          this.timer = setTimeout(() => void this.flush(), this.o.flushMs ?? FLUSH_MS);
          this.timer.unref();
        }
      }
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }
}

/** This process's queue of lookup answers and reservations. */
export const ledgerQueue = new LedgerQueue();

/** Flushes this process's queue (tests, and the server's shutdown). */
export function flushLedger(): Promise<void> {
  return ledgerQueue.flush();
}
