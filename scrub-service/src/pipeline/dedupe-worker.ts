/**
 * Duplicate detection on a thread of its own (decision 017): the main thread's ordered step spent
 * ~150–200 ns per row in the duplicate set (a cache miss per row), which made it the scrub's bottleneck.
 * Batches are posted in input order and a worker thread handles its messages one at a time in the order
 * they were posted, so "first occurrence wins" holds exactly as in the in-thread NumberSet. The codes are
 * the parse step's shared memory (not copied); the answer is written into shared memory too.
 *
 * The thread runs worker/dedupe-thread.ts (built to scrub-service/dist/dedupe-thread.mjs), the same NumberSet.
 */
import { withEngineConfig } from "../config";
import { Worker } from "node:worker_threads";
import { NumberSet } from "../worker/number-set";
import { defaultDedupeThreadPath } from "../dist-paths";

export class DedupeWorker {
  private worker: Worker;
  /** Whether this object started the thread (and ends it on close), or shares the scrub's side thread. */
  private readonly owned: boolean;
  private waiting: { id: number; out: Uint8Array; resolve: (u: Uint8Array) => void; reject: (e: Error) => void }[] = [];
  private nextId = 0;
  private failed: Error | null = null;
  private readonly onMessage = (id: unknown): void => {
    if (typeof id !== "number") return; // the SHA-256s' answers on a shared side thread
    const w = this.waiting.shift();
    if (!w || w.id !== id) return this.fail(new Error("The duplicate check answered out of order."));
    w.resolve(w.out);
  };
  private readonly onError = (e: Error): void => this.fail(e);
  private readonly onExit = (code: number): void => this.fail(new Error(`The duplicate check stopped (exit ${code}).`));

  /** A thread of its own from `thread` (a path), or the scrub's side thread (a Worker the caller ends). */
  constructor(thread: string | Worker = defaultDedupeThreadPath()) {
    this.owned = typeof thread === "string";
    this.worker = typeof thread === "string" ? new Worker(thread, { workerData: withEngineConfig({}) }) : thread;
    this.worker.on("message", this.onMessage);
    this.worker.on("error", this.onError);
    this.worker.on("exit", this.onExit);
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const w of this.waiting.splice(0)) w.reject(this.failed);
  }

  /**
   * Posts one batch (call in input order): resolves to flags, 1 = a duplicate of an earlier row (of this or
   * an earlier batch). Invalid rows (code < 0) are never duplicates.
   */
  check(codes: Float64Array, count: number, out?: Uint8Array): Promise<Uint8Array> {
    if (this.failed) return Promise.reject(this.failed);
    // `out` (shared memory, `count` bytes, any content) is reused batch memory; the thread overwrites it.
    const flags =
      out && out.buffer instanceof SharedArrayBuffer && out.length >= count
        ? out.subarray(0, count)
        : new Uint8Array(new SharedArrayBuffer(Math.max(1, count)), 0, count);
    const id = this.nextId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      this.waiting.push({ id, out: flags, resolve, reject });
      this.worker.postMessage({ id, codes, count, out: flags });
    });
  }

  async close(): Promise<void> {
    this.fail(new Error("The duplicate check was closed."));
    this.worker.off("message", this.onMessage);
    this.worker.off("error", this.onError);
    this.worker.off("exit", this.onExit);
    if (this.owned) await this.worker.terminate();
  }
}

/** The in-thread equivalent (small files: no thread start-up). */
export function dedupeInThread(): (codes: Float64Array, count: number) => Uint8Array {
  const seen = new NumberSet();
  return (codes, count) => {
    const out = new Uint8Array(count);
    seen.addMany(codes, count, out);
    return out;
  };
}
