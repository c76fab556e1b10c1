/**
 * SHA-256 of the scrub's input and result files on a thread of its own. Certificates (#16) need a plain
 * SHA-256 of each file's bytes; computed on the pipeline's main thread it was ~0.17 s of every 3M-row scrub
 * (228 MB at ~1.4 GB/s) in the thread that reads, orders and writes, while the two cores had idle time
 * (docs/decisions/090, "bench:scrub before and after"). Here the main thread only posts views of the batch
 * memory it already has (SharedArrayBuffers: nothing is copied) and the thread hashes them in posting order.
 *
 * Batch memory is reused: a caller may reuse bytes it posted only once `isDone(ticket)` (or `whenDone`) says
 * the thread has hashed them. The hashes are the same bytes in the same order as hashing in place (a test
 * compares both with a plain SHA-256 of the files).
 *
 * The thread's code is a few lines of plain JavaScript run with `eval` (no build step, so the app's bundle,
 * the CLI and the tests start it the same way).
 */
import crypto from "node:crypto";
import { Worker } from "node:worker_threads";

const THREAD_SOURCE = `
const { parentPort } = require("node:worker_threads");
const crypto = require("node:crypto");
const hashes = new Map();
let done = null;
parentPort.on("message", (m) => {
  if (m.op === "init") { done = m.done; return; }
  let h = hashes.get(m.stream);
  if (!h) hashes.set(m.stream, (h = crypto.createHash("sha256")));
  if (m.op === "update") {
    h.update(m.bytes);
    Atomics.store(done, 0, m.ticket);
    parentPort.postMessage({ done: m.ticket });
  } else {
    parentPort.postMessage({ stream: m.stream, hex: h.digest("hex") });
    hashes.delete(m.stream);
  }
});
`;

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
  private readonly digests = new Map<number, { resolve: (hex: string) => void; reject: (e: Error) => void }>();
  /** whenDone callers. */
  private waiting: { ticket: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  private failed: Error | null = null;

  constructor() {
    this.worker = new Worker(THREAD_SOURCE, { eval: true });
    this.worker.postMessage({ op: "init", done: this.done });
    this.worker.on("message", (m: { stream: number; hex: string } | { done: number }) => {
      if ("done" in m) {
        if (!this.waiting.length) return;
        const ready = this.waiting.filter((w) => w.ticket <= m.done);
        this.waiting = this.waiting.filter((w) => w.ticket > m.done);
        for (const w of ready) w.resolve();
        return;
      }
      this.digests.get(m.stream)?.resolve(m.hex);
      this.digests.delete(m.stream);
    });
    this.worker.on("error", (e) => this.fail(e));
    this.worker.on("exit", (code) => this.fail(new Error(`The SHA-256 thread stopped (exit ${code}).`)));
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const d of this.digests.values()) d.reject(this.failed);
    this.digests.clear();
    for (const w of this.waiting.splice(0)) w.reject(this.failed);
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
    // A view of shared memory is posted as is; other bytes are copied by postMessage.
    this.worker.postMessage({ op: "update", stream, ticket, bytes });
    return ticket;
  }

  private isDone(ticket: number): boolean {
    return Atomics.load(this.done, 0) >= ticket;
  }

  private whenDone(ticket: number): Promise<void> {
    if (this.isDone(ticket)) return Promise.resolve();
    if (this.failed) return Promise.reject(this.failed);
    // the thread answers every update with its ticket: a waiter is woken by that message (and rejected when the
    // thread fails), with no polling or timeout
    return new Promise<void>((resolve, reject) => this.waiting.push({ ticket, resolve, reject }));
  }

  private digest(stream: number): Promise<string> {
    if (this.failed) return Promise.reject(this.failed);
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
