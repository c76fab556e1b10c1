/**
 * Any supported input as a pull source of UTF-8 CSV bytes, which the batch reader fills its buffers from.
 * A plain UTF-8 file is read straight from disk (the fast path, unchanged); everything else is a chain of
 * streams (file → gunzip / zip member / xlsx-to-CSV → iconv-lite) pulled one chunk at a time, so a slow
 * consumer holds the producer back (backpressure) and nothing is unpacked whole into memory or onto disk.
 */
import fs from "node:fs";
import { pipeline, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { explainReadError as damaged } from "./errors";
import { detectInput, type DetectOptions, type InputInfo } from "./detect";
import { decodedWorkbook } from "./workbook-cache";
import { expansionGuard, memberStream, openZip, type ZipArchive } from "./zip";

/** Packed bytes handed to the gzip inflater at a time. */
const GZIP_WINDOW_BYTES = 64 * 1024;

export interface ByteSource {
  /** Reads up to `length` bytes into `into` at `offset`; 0 at the end. */
  read(into: Uint8Array, offset: number, length: number): Promise<number>;
  /** The file's own bytes (a plain file: offsets in the source are file offsets). */
  readonly direct: boolean;
  /** Input file size, and how much of it has been consumed so far (progress). */
  readonly size: number;
  readonly consumed: number;
  close(): Promise<void>;
}

export interface OpenedInput {
  info: InputInfo;
  source: ByteSource;
}

class FileSource implements ByteSource {
  readonly direct = true;
  consumed = 0;
  constructor(
    private readonly fh: fs.promises.FileHandle,
    readonly size: number,
  ) {}
  async read(into: Uint8Array, offset: number, length: number): Promise<number> {
    const { bytesRead } = await this.fh.read(into, offset, length, null);
    this.consumed += bytesRead;
    return bytesRead;
  }
  async close(): Promise<void> {
    await this.fh.close().catch(() => {});
  }
}

/** A decoded copy on disk (a workbook's sheet): its bytes are not the upload's, so never `direct`. */
class DecodedFileSource implements ByteSource {
  readonly direct = false;
  private read_ = 0;
  constructor(
    private readonly fh: fs.promises.FileHandle,
    private readonly decodedSize: number,
    readonly size: number,
  ) {}
  get consumed(): number {
    return this.decodedSize ? Math.round((this.read_ / this.decodedSize) * this.size) : 0;
  }
  async read(into: Uint8Array, offset: number, length: number): Promise<number> {
    const { bytesRead } = await this.fh.read(into, offset, length, null);
    this.read_ += bytesRead;
    return bytesRead;
  }
  async close(): Promise<void> {
    await this.fh.close().catch(() => {});
  }
}

/** Pulls chunks from an async iterable (strings are UTF-8 encoded), keeping the unread rest of one chunk. */
class StreamSource implements ByteSource {
  readonly direct = false;
  private it: AsyncIterator<Buffer | string>;
  private pending: Buffer | null = null;
  private done = false;

  constructor(
    iterable: AsyncIterable<Buffer | string>,
    readonly size: number,
    private readonly progress: () => number,
    private readonly cleanup: () => void,
    private readonly explain: (e: unknown) => Error,
  ) {
    this.it = iterable[Symbol.asyncIterator]();
  }

  get consumed(): number {
    return Math.min(this.size, Math.round(this.progress()));
  }

  async read(into: Uint8Array, offset: number, length: number): Promise<number> {
    while (!this.pending || this.pending.length === 0) {
      if (this.done) return 0;
      let r: IteratorResult<Buffer | string>;
      try {
        r = await this.it.next();
      } catch (e) {
        throw this.explain(e);
      }
      if (r.done) {
        this.done = true;
        return 0;
      }
      this.pending = typeof r.value === "string" ? Buffer.from(r.value, "utf8") : r.value;
    }
    const n = Math.min(length, this.pending.length);
    into.set(this.pending.subarray(0, n), offset);
    this.pending = this.pending.subarray(n);
    return n;
  }

  async close(): Promise<void> {
    this.done = true;
    await this.it.return?.().catch(() => undefined);
    this.cleanup();
  }
}

/**
 * The text of one stream as UTF-8 (UTF-8 passes through; iconv-lite decodes the rest, dropping a BOM). iconv-lite
 * is loaded with the first such file, not by every process that reads UTF-8 CSV only.
 */
async function asUtf8(raw: Readable, info: InputInfo): Promise<Readable> {
  if (info.encoding === "utf-8") return raw;
  const { default: iconv } = await import("iconv-lite");
  const decoder = iconv.decodeStream(info.encoding === "windows-1252" ? "win1252" : info.encoding);
  return pipeline(raw, decoder, () => {}) as unknown as Readable;
}

async function* zipMembers(a: ZipArchive, info: InputInfo, unpacked: { n: number }): AsyncGenerator<Buffer | string> {
  for (const entry of a.files.filter((f) => info.members.includes(f.fileName))) {
    let last = 0x0a;
    for await (const chunk of await asUtf8(await memberStream(a, entry), info)) {
      const b = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : (chunk as Buffer);
      if (!b.length) continue;
      unpacked.n += b.length;
      last = b[b.length - 1];
      yield b;
    }
    // members are read one after the other: each must end its last line
    if (last !== 0x0a) yield "\n";
  }
}

/** The file's bytes as they are (no decoding). */
export async function rawSource(path: string): Promise<ByteSource> {
  const fh = await fs.promises.open(path, "r");
  return new FileSource(fh, (await fh.stat()).size);
}

/** Detects the input and opens it as UTF-8 CSV bytes. */
export async function openInput(path: string, opts: DetectOptions = {}): Promise<OpenedInput> {
  const info = await detectInput(path, opts);
  const size = (await fs.promises.stat(path)).size;
  if (info.format === "xlsx") {
    // decoded once per upload into a file beside it (workbook-cache.ts); read here as text, hashed from the upload
    const csv = await decodedWorkbook(path, info.sheet);
    const fh = await fs.promises.open(csv, "r");
    return { info, source: new DecodedFileSource(fh, (await fh.stat()).size, size) };
  }
  if (info.container === "zip") {
    const a = await openZip(path);
    const total = a.files.filter((f) => info.members.includes(f.fileName)).reduce((s, f) => s + f.uncompressedSize, 0);
    const unpacked = { n: 0 };
    const source = new StreamSource(
      zipMembers(a, info, unpacked),
      size,
      () => (total ? (unpacked.n / total) * size : 0),
      () => a.zip.close(),
      damaged("zip file"),
    );
    return { info, source };
  }
  if (info.container === "gzip") {
    // Small windows: the guard compares what came out with the packed bytes the inflater actually took in
    // (bytesWritten), and at most one 64 KiB window is handed to it at a time, so a bomb is stopped within
    // about 200 × 64 KiB of output, not after everything read ahead has inflated (docs/decisions/151).
    const raw = fs.createReadStream(path, { highWaterMark: GZIP_WINDOW_BYTES });
    const gunzip = createGunzip({ chunkSize: GZIP_WINDOW_BYTES });
    const out = pipeline(
      raw,
      gunzip,
      expansionGuard(() => gunzip.bytesWritten),
      () => {},
    ) as unknown as Readable;
    const text = await asUtf8(out, info);
    return {
      info,
      source: new StreamSource(
        text,
        size,
        () => raw.bytesRead,
        () => raw.destroy(),
        damaged("gzip file"),
      ),
    };
  }
  if (info.encoding === "utf-8") return { info, source: await rawSource(path) };
  const raw = fs.createReadStream(path, { highWaterMark: 1024 * 1024 });
  return {
    info,
    source: new StreamSource(
      await asUtf8(raw, info),
      size,
      () => raw.bytesRead,
      () => raw.destroy(),
      damaged("file"),
    ),
  };
}
