/**
 * SHA-256 of the scrub's input and result files on a thread of its own. Certificates (#16) need a plain
 * SHA-256 of each file's bytes; computed on the pipeline's main thread it was ~0.17 s of every 3M-row scrub
 * (228 MB at ~1.4 GB/s) in the thread that reads, orders and writes, while the two cores had idle time
 * (docs/decisions/090, "bench:scrub before and after"). Here the main thread only posts views of the batch
 * memory it already has (SharedArrayBuffers: nothing is copied), the updates of one synchronous run in one
 * message, and the thread hashes them in posting order.
 *
 * Batch memory is reused: a caller may reuse bytes it posted only once `isDone(ticket)` (or `whenDone`) says
 * the thread has hashed them. The thread says so in shared memory (`done`), never with a message. The hashes are the same bytes in the same order as hashing in place (a test
 * compares both with a plain SHA-256 of the files).
 *
 * The thread's code is a few lines of plain JavaScript run with `eval` (no build step, so the app's bundle,
 * the CLI and the tests start it the same way).
 */
import crypto from "node:crypto";
import { Worker } from "node:worker_threads";

const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const crypto = require("node:crypto");
const done = workerData.done;
const hashes = new Map();
const hashOf = (stream) => {
  let h = hashes.get(stream);
  if (!h) hashes.set(stream, (h = crypto.createHash("sha256")));
  return h;
};
parentPort.on("message", (m) => {
  if (m.op === "update") {
    for (const p of m.pieces) {
      hashOf(p.stream).update(p.bytes);
      Atomics.store(done, 0, p.ticket);
    }
    Atomics.notify(done, 0);
  } else {
    parentPort.postMessage({ stream: m.stream, hex: hashOf(m.stream).digest("hex") });
    hashes.delete(m.stream);
  }
});
`;

/** Atomics.waitAsync (ES2024; Node 16+), typed here because the project's lib is ES2023. */
const waitAsync = (
  Atomics as unknown as { waitAsync(a: Int32Array, index: number, value: number): { async: boolean; value: Promise<unknown> | string } }
).waitAsync;

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
  /** [0]: the last ticket hashed. Tickets grow by one per update across all streams, hashed in order. */
  private readonly done = new Int32Array(new SharedArrayBuffer(4));
  private ticket = 0;
  private streams = 0;
  /** Updates not posted yet: every update of one synchronous run goes out in one message (see flush). */
  private pending: { stream: number; ticket: number; bytes: Uint8Array }[] = [];
  private readonly digests = new Map<number, { resolve: (hex: string) => void; reject: (e: Error) => void }>();
  private failed: Error | null = null;

  constructor() {
    this.worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { done: this.done } });
    this.worker.on("message", (m: { stream: number; hex: string }) => {
      this.digests.get(m.stream)?.resolve(m.hex);
      this.digests.delete(m.stream);
    });
    this.worker.on("error", (e) => this.fail(e));
    this.worker.on("exit", (code) => this.fail(new Error(`The SHA-256 thread stopped (exit ${code}).`)));
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
    this.worker.postMessage({ op: "update", pieces });
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
      this.worker.postMessage({ op: "digest", stream });
    });
  }

  async close(): Promise<void> {
    this.fail(new Error("The SHA-256 thread was closed."));
    this.worker.removeAllListeners("exit");
    await this.worker.terminate();
  }
}
