/**
 * The side thread's SHA-256s (pipeline/sha256-thread.ts is the other end): streams fed in posting order, each
 * hashed piece's ticket stored in shared memory (`done`) for the poster, a digest answered by message.
 */
import crypto from "node:crypto";

export type Sha256Message =
  | { op: "sha256-init"; done: Int32Array }
  | { op: "sha256-update"; pieces: { stream: number; ticket: number; bytes: Uint8Array }[] }
  | { op: "sha256-digest"; stream: number };

export interface Sha256Digest {
  stream: number;
  hex: string;
}

export function isSha256Message(m: unknown): m is Sha256Message {
  return typeof m === "object" && m !== null && typeof (m as { op?: unknown }).op === "string" && (m as { op: string }).op.startsWith("sha256-");
}

/** Handles the messages in order; `reply` posts a digest. */
export function sha256Handler(reply: (d: Sha256Digest) => void): (m: Sha256Message) => void {
  const hashes = new Map<number, crypto.Hash>();
  let done: Int32Array = new Int32Array(new SharedArrayBuffer(4));
  const hashOf = (stream: number) => {
    let h = hashes.get(stream);
    if (!h) hashes.set(stream, (h = crypto.createHash("sha256")));
    return h;
  };
  return (m) => {
    if (m.op === "sha256-init") {
      done = m.done;
    } else if (m.op === "sha256-update") {
      for (const p of m.pieces) {
        hashOf(p.stream).update(p.bytes);
        Atomics.store(done, 0, p.ticket);
      }
      Atomics.notify(done, 0);
    } else {
      reply({ stream: m.stream, hex: hashOf(m.stream).digest("hex") });
      hashes.delete(m.stream);
    }
  };
}
