/**
 * The embedded call counters (decision 196): this process's memory, beside the embedded list index. Only with the
 * embedded database (PGlite), which one process opens: every record is written through this process, so its memory
 * sees every one. Built from the database when the process starts (until then a lookup reads the database), as the
 * embedded index fills its lists. A compare-and-set runs without an await between its check and its write, which is
 * the per-number critical section.
 */
import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import {
  COUNTER_RETAIN_MS,
  mergeRecords,
  nextVersion,
  RebuildGate,
  type CallCounterStore,
  type CasMode,
  type CasOp,
  type CasResult,
  type CounterEntry,
} from "./counters";
import { readRecentCalls } from "./store";

const EMPTY: CounterEntry = { version: 0, records: [] };

export class EmbeddedCallCounters implements CallCounterStore {
  readonly kind = "embedded" as const;
  private readonly entries = new Map<string, CounterEntry>();
  private ready = false;
  /** Bumped by every loss: a rebuild that began before one does not mark the store ready. */
  private epoch = 0;
  private readonly gate: RebuildGate;
  private readonly sweeper: NodeJS.Timeout;

  readonly now: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    o: { rebuildGapMs?: number; now?: () => number } = {},
  ) {
    this.now = o.now ?? Date.now;
    this.gate = new RebuildGate(() => this.rebuild(), "embedded", o.rebuildGapMs);
    // numbers not written for longer than the window hold nothing any cap counts
    this.sweeper = setInterval(() => this.sweep(this.now()), 3_600_000);
    this.sweeper.unref();
  }

  private key(owner: string, number: number): string {
    return `${owner}:${number}`;
  }

  async read(owner: string, numbers: readonly number[]): Promise<{ entries: CounterEntry[]; ready: boolean[] }> {
    const ready = this.ready;
    if (!ready && this.rebuilding === 0) void this.requestRebuild();
    return { entries: numbers.map((n) => this.entries.get(this.key(owner, n)) ?? EMPTY), ready: numbers.map(() => ready) };
  }

  async cas(owner: string, ops: readonly CasOp[], mode: CasMode): Promise<CasResult[]> {
    if (mode === "ready" && !this.ready) return ops.map(() => "not-ready");
    if (mode === "not-ready" && this.ready) return ops.map(() => "ready");
    return ops.map((op) => {
      const k = this.key(owner, op.number);
      const cur = this.entries.get(k);
      if ((cur?.version ?? 0) !== op.version) return "conflict";
      if (op.records.length === 0) this.entries.delete(k);
      else this.entries.set(k, { version: nextVersion(cur?.version ?? 0), records: op.records });
      return "ok";
    });
  }

  requestRebuild(): Promise<void> {
    return this.gate.request();
  }

  private rebuilding = 0;

  async rebuild(): Promise<void> {
    if (this.ready) return;
    this.rebuilding++;
    try {
      await this.fill();
    } finally {
      this.rebuilding--;
    }
  }

  private async fill(): Promise<void> {
    const epoch = this.epoch;
    const nowMs = this.now();
    await readRecentCalls(this.db, nowMs - COUNTER_RETAIN_MS, (owner, byNumber) => {
      for (const [number, add] of byNumber) {
        const k = this.key(owner, number);
        const cur = this.entries.get(k) ?? EMPTY;
        this.entries.set(k, { version: nextVersion(cur.version), records: mergeRecords(cur.records, add, nowMs) });
      }
    });
    if (this.epoch === epoch) this.ready = true;
  }

  /** Forgets everything, as a restarted process would (tests): not ready until rebuilt. */
  lose(): void {
    this.entries.clear();
    this.ready = false;
    this.epoch++;
  }

  private sweep(nowMs: number): void {
    const oldest = nowMs - COUNTER_RETAIN_MS;
    for (const [k, e] of this.entries) if (e.records.length === 0 || e.records[e.records.length - 1].atMs <= oldest) this.entries.delete(k);
  }

  async usage(): Promise<{ bytes: number; numbers: number; keys: number }> {
    let records = 0;
    for (const e of this.entries.values()) records += e.records.length;
    // a record object (~7 fields) ~80 bytes, an entry and its key ~150: an estimate, not a measurement
    return { bytes: this.entries.size * 150 + records * 80, numbers: this.entries.size, keys: this.entries.size };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
