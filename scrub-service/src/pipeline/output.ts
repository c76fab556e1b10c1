/** The scrub's result files (good, bad, invalid): written to temp names, renamed into place on success. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { emitRows, LF, parseRows } from "../worker/csv";
import { inThreadHash, type StreamHash } from "./sha256-thread";

/** The column every result file gains after the customer's own: the number read, in E.164 (decision 184). */
export const PHONE_E164_COLUMN = "phone_e164";

export type OutputKind = "good" | "bad" | "invalid";

/**
 * One result file, written to a temp name and renamed by the caller when the scrub succeeded. Each write is
 * awaited until the bytes are in the file; it returns the SHA-256's ticket for them: the batch memory they come
 * from may be reused once `hashed(ticket)` (the hash may still be reading it).
 */
export class Output {
  readonly tmp: string;
  readonly final: string;
  private fh: fs.promises.FileHandle | null = null;
  records = 0;
  bytes = 0;

  constructor(
    dir: string,
    readonly kind: OutputKind,
    /** The file's SHA-256, fed what is written (here, or on a Sha256Thread while the bytes go to disk). */
    private readonly hash: StreamHash = inThreadHash(),
  ) {
    this.final = path.join(dir, `${kind}.csv`);
    // Unique per attempt: replicas share DATA_DIR and may share a pid (pid 1 in containers).
    this.tmp = path.join(dir, `.${kind}.csv.${process.pid}.${crypto.randomBytes(4).toString("hex")}.part`);
  }

  async open(): Promise<void> {
    this.fh = await fs.promises.open(this.tmp, "w");
  }

  async write(buf: Uint8Array, records: number): Promise<number> {
    this.records += records;
    this.bytes += buf.length;
    const ticket = this.hash.update(buf);
    let done = 0;
    while (done < buf.length) {
      const { bytesWritten } = await this.fh!.write(buf, done, buf.length - done);
      done += bytesWritten;
    }
    return ticket;
  }

  /** Whether the SHA-256 has read the bytes of `ticket` (and every earlier write's). */
  isHashed(ticket: number): boolean {
    return this.hash.isDone(ticket);
  }

  async hashed(ticket: number): Promise<void> {
    if (!this.hash.isDone(ticket)) await this.hash.whenDone(ticket);
  }

  async finish(): Promise<void> {
    await this.fh!.close();
    this.fh = null;
  }

  sha256(): Promise<string> {
    return this.hash.digest();
  }

  async abort(): Promise<void> {
    await this.fh?.close().catch(() => {});
    fs.rmSync(this.tmp, { force: true });
  }
}

/** The three result files of one scrub, written batch by batch in input order. */
export class ResultFiles {
  readonly good: Output;
  readonly bad: Output;
  readonly invalid: Output;
  readonly all: Output[];

  /** `hashes` makes each file's SHA-256 (default: in this thread). */
  constructor(dir: string, hashes: () => StreamHash = inThreadHash) {
    this.good = new Output(dir, "good", hashes());
    this.bad = new Output(dir, "bad", hashes());
    this.invalid = new Output(dir, "invalid", hashes());
    this.all = [this.good, this.bad, this.invalid];
  }

  async open(): Promise<void> {
    for (const o of this.all) await o.open();
  }

  /**
   * The input's byte-order mark (if any) and header row (bad and invalid get a `reason` column; good gets
   * `goodExtra`, the header cells of the columns appended to good rows, if any).
   */
  /**
   * The BOM (when the input had one) and the header row (when it has one): the file's own cells escaped, then
   * `phone_e164` in every file, then good.csv's `goodExtra` cells, `reason` in bad and invalid, and bad.csv's
   * `exemption` when `badExemption` (decision 184).
   */
  async writeHead(bom: boolean, header: { row: Uint8Array; delim: number } | null, goodExtra?: Uint8Array, badExemption = false): Promise<void> {
    const mark = bom ? new Uint8Array([0xef, 0xbb, 0xbf]) : new Uint8Array(0);
    for (const o of this.all) await o.write(mark, 0);
    if (!header) return;
    const h = headerBytes(header.row, header.delim, goodExtra, badExemption);
    await this.good.write(h.good, 0);
    await this.bad.write(h.bad, 0);
    await this.invalid.write(h.invalid, 0);
  }

  /**
   * One batch's emitted bytes and its rows per class (good, bad, invalid), the three files written at once.
   * Returns the ticket to pass to `hashed` before the batch's output memory is reused.
   */
  async writeBatch(bufs: [Uint8Array, Uint8Array, Uint8Array], counts: number[]): Promise<number> {
    const tickets = await Promise.all(this.all.map((o, i) => o.write(bufs[i], counts[i])));
    return Math.max(...tickets);
  }

  /**
   * Whether the SHA-256s have read every byte of the write that returned `ticket` (and of earlier ones): the
   * three files' hashes share one ticket counter (one Sha256Thread, or in place: always done).
   */
  isHashed(ticket: number): boolean {
    return this.good.isHashed(ticket);
  }

  /** Resolves once isHashed(ticket). */
  hashed(ticket: number): Promise<void> {
    return this.good.hashed(ticket);
  }

  /** Closes the files and renames them into place (only when the whole scrub succeeded). */
  async finish(): Promise<{ kind: OutputKind; path: string; records: number; bytes: number; sha256: string }[]> {
    for (const o of this.all) await o.finish();
    const sha256 = await Promise.all(this.all.map((o) => o.sha256()));
    for (const o of this.all) fs.renameSync(o.tmp, o.final);
    return this.all.map((o, i) => ({ kind: o.kind, path: o.final, records: o.records, bytes: o.bytes, sha256: sha256[i] }));
  }

  async abort(): Promise<void> {
    for (const o of this.all) await o.abort();
  }
}

/** The escaped bytes of a header row for the good, bad and invalid files (decision 184's column order). */
function headerBytes(
  row: Uint8Array,
  delim: number,
  goodExtra: Uint8Array | undefined,
  badExemption: boolean,
): { good: Uint8Array; bad: Uint8Array; invalid: Uint8Array } {
  const rows = parseRows(row, 0, row.length, delim, -1);
  const [own] = emitRows(row, {
    rows,
    classes: new Uint8Array(rows.count),
    reasonIdx: new Uint8Array(rows.count),
    reasons: [""],
    delim,
    width: 0,
  });
  const body = own.subarray(0, own.length - 1);
  const d = String.fromCharCode(delim);
  const encoder = new TextEncoder();
  const line = (...parts: Uint8Array[]): Uint8Array => {
    const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0) + 1);
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    out[o] = LF;
    return out;
  };
  const e164 = encoder.encode(`${d}${PHONE_E164_COLUMN}`);
  const reason = encoder.encode(`${d}reason`);
  return {
    good: line(body, e164, goodExtra ?? new Uint8Array(0)),
    bad: line(body, e164, reason, badExemption ? encoder.encode(`${d}exemption`) : new Uint8Array(0)),
    invalid: line(body, e164, reason),
  };
}
