/**
 * SHA-256 of the scrub's input and result files off the main thread. Certificates (#16) need a plain SHA-256 of
 * each file's bytes; computed on the pipeline's main thread it was ~0.17 s of every 3M-row scrub (228 MB at
 * ~1.4 GB/s) in the thread that reads, orders and writes (docs/decisions/090, "bench:scrub before and after").
 * Here the main thread only posts views of the batch memory it already has (SharedArrayBuffers: nothing is
 * copied), the updates of one synchronous run in one message, and the scrub's side thread (the duplicate
 * check's, worker/dedupe-thread.ts: one thread less to start and schedule) hashes them in posting order.
 *
 * Batch memory is reused: a caller may reuse bytes it posted only once `isDone(ticket)` (or `whenDone`) says
 * the thread has hashed them. The thread says so in shared memory (`done`), never with a message. The hashes
 * are the same bytes in the same order as hashing in place (a test compares both with a plain SHA-256 of the
 * files).
 */
import { withEngineConfig } from "../config";
import crypto from "node:crypto";
import { Worker } from "node:worker_threads";
import { defaultDedupeThreadPath } from "../dist-paths";
import type { Sha256Digest, Sha256Message } from "../worker/sha256-messages";

/** Atomics.waitAsync (ES2024; Node 16+), typed here because the project's lib is ES2023. */
const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, index: number, value: number): { async: boolean; value: Promise<unknown> | string } })
  .waitAsync;

/** A SHA-256 being fed: in this thread (small files) or by a Sha256Thread. */
export interface StreamHash {
  /** Adds bytes; returns a ticket: the bytes may be reused once `isDone(ticket)`. */
  update(bytes: Uint8Array): number;
  isDone(ticket: number): boolean;
  whenDone(ticket: number): Promise<void>;
  /** Hex digest of everything added (call once, after the last update). */
  digest(): Promise<string>;
}

/** Hashes in the calling thread, at once (every ticket is done). */
export function inThreadHash(): StreamHash {
  const h = crypto.createHash("sha256");
  return {
    update(bytes) {
      h.update(bytes);
      return 0;
    },
    isDone: () => true,
    whenDone: async () => {},
    digest: async () => h.digest("hex"),
  };
}

export class Sha256Thread {
  private readonly worker: Worker;
  /** Whether this object started the thread (and ends it on close), or shares the scrub's side thread. */
  private readonly owned: boolean;
  /** [0]: the last ticket hashed. Tickets grow by one per update across all streams, hashed in order. */
  private readonly done = new Int32Array(new SharedArrayBuffer(4));
  private ticket = 0;
  private streams = 0;
  /** Updates not posted yet: every update of one synchronous run goes out in one message (see flush). */
  private pending: { stream: number; ticket: number; bytes: Uint8Array }[] = [];
  private readonly digests = new Map<number, { resolve: (hex: string) => void; reject: (e: Error) => void }>();
  private failed: Error | null = null;
  private readonly onMessage = (m: unknown): void => {
    if (typeof m !== "object" || m === null || !("hex" in m)) return; // the duplicate check's answers
    const d = m as Sha256Digest;
    this.digests.get(d.stream)?.resolve(d.hex);
    this.digests.delete(d.stream);
  };
  private readonly onError = (e: Error): void => this.fail(e);
  private readonly onExit = (code: number): void => this.fail(new Error(`The SHA-256 thread stopped (exit ${code}).`));

  /** On `sideThread` (a worker/dedupe-thread.ts thread the caller ends), else on a thread of its own. */
  constructor(sideThread?: Worker) {
    this.owned = !sideThread;
    this.worker = sideThread ?? new Worker(defaultDedupeThreadPath(), { workerData: withEngineConfig({}) });
    this.worker.on("message", this.onMessage);
    this.worker.on("error", this.onError);
    this.worker.on("exit", this.onExit);
    this.post({ op: "sha256-init", done: this.done });
  }

  private post(m: Sha256Message): void {
    this.worker.postMessage(m);
  }

  private fail(e: Error): void {
    this.failed ??= e;
    this.pending = [];
    for (const d of this.digests.values()) d.reject(this.failed);
    this.digests.clear();
    Atomics.notify(this.done, 0); // whenDone callers wake up and see `failed`
  }

  /** A new SHA-256, fed in the order of its update calls. */
  stream(): StreamHash {
    const id = this.streams++;
    return {
      update: (bytes) => this.update(id, bytes),
      isDone: (t) => this.isDone(t),
      whenDone: (t) => this.whenDone(t),
      digest: () => this.digest(id),
    };
  }

  private update(stream: number, bytes: Uint8Array): number {
    if (this.failed) throw this.failed;
    const ticket = ++this.ticket;
    // A view of shared memory is posted as is (reusable once its ticket is done); other bytes are copied now,
    // so the caller may reuse them at once.
    const piece = bytes.buffer instanceof SharedArrayBuffer ? bytes : bytes.slice();
    if (!this.pending.length) queueMicrotask(this.flush);
    this.pending.push({ stream, ticket, bytes: piece });
    return ticket;
  }

  /**
   * Posts the pending updates in one message. A message per update woke the thread (and, with its answer, the
   * main thread) four times per batch; the thread now answers through `done` in shared memory only.
   */
  private readonly flush = (): void => {
    if (!this.pending.length || this.failed) return;
    const pieces = this.pending;
    this.pending = [];
    this.post({ op: "sha256-update", pieces });
  };

  private isDone(ticket: number): boolean {
    return Atomics.load(this.done, 0) >= ticket;
  }

  private async whenDone(ticket: number): Promise<void> {
    for (;;) {
      if (this.failed) throw this.failed;
      const hashed = Atomics.load(this.done, 0);
      if (hashed >= ticket) return;
      this.flush();
      const wait = waitAsync(this.done, 0, hashed);
      if (wait.async) await wait.value;
    }
  }

  private digest(stream: number): Promise<string> {
    if (this.failed) return Promise.reject(this.failed);
    this.flush(); // the stream's last updates go first
    return new Promise<string>((resolve, reject) => {
      this.digests.set(stream, { resolve, reject });
      this.post({ op: "sha256-digest", stream });
    });
  }

  async close(): Promise<void> {
    this.fail(new Error("The SHA-256 thread was closed."));
    this.worker.off("message", this.onMessage);
    this.worker.off("error", this.onError);
    this.worker.off("exit", this.onExit);
    if (this.owned) await this.worker.terminate();
  }
}
