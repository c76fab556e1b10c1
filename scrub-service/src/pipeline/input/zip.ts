/**
 * Zip and gzip containers, streamed: yauzl reads a zip's central directory and one member at a time (never
 * the whole archive); gzip goes through zlib. Both refuse zip bombs: a member (or a gzip stream) that expands
 * more than `maxRatio()` times, or an archive that unpacks to more than `maxUnpackedBytes()` (docs/decisions/105).
 */
import { engineConfig } from "../../config";
import { Transform, type Readable } from "node:stream";
import type yauzl from "yauzl";
import { explainReadError, InputFormatError, reasonText, sizeText } from "./errors";

/** Largest total a compressed upload may unpack to: SCRUB_MAX_UNPACKED_BYTES, default 8 GiB (a 10M-row CSV is ~0.4 GB). */
export function maxUnpackedBytes(): number {
  return engineConfig().SCRUB_MAX_UNPACKED_BYTES;
}

/** Largest expansion accepted: real CSV compresses 4–10×, Excel's XML 10–30×; a deflate bomb ~1000×. */
export function maxRatio(): number {
  return engineConfig().SCRUB_MAX_UNPACK_RATIO;
}

/** Below this many unpacked bytes the ratio is not checked (tiny files compress absurdly well). */
const RATIO_FLOOR = 16 * 1024 * 1024;

export function zipBombError(packed: number, unpacked: number): InputFormatError {
  return new InputFormatError(
    `The compressed file was refused: ${sizeText(packed)} unpack to ${
      unpacked > maxUnpackedBytes() ? "more than " + sizeText(maxUnpackedBytes()) : sizeText(unpacked)
    } ` + `(the limits are ${maxRatio()} times the packed size and ${sizeText(maxUnpackedBytes())} in all). Upload the file itself, uncompressed.`,
  );
}

/** The refusal for `unpacked` bytes out of `packed`, or null while within the limits. */
export function zipBombErrorFor(packed: number, unpacked: number): InputFormatError | null {
  return unpacked > maxUnpackedBytes() || (unpacked > RATIO_FLOOR && unpacked > packed * maxRatio()) ? zipBombError(packed, unpacked) : null;
}

function checkExpansion(packed: number, unpacked: number): void {
  const refusal = zipBombErrorFor(packed, unpacked);
  if (refusal) throw refusal;
}

export interface ZipArchive {
  zip: yauzl.ZipFile;
  /** Files only (no folders, no macOS resource forks). */
  files: yauzl.Entry[];
}

const MAX_ENTRIES = 10_000;

export async function openZip(path: string): Promise<ZipArchive> {
  // loaded with the first zip or workbook, not by every process that might read one (a CLI scrub of a CSV)
  const { default: zipReader } = await import("yauzl");
  let zip: yauzl.ZipFile;
  try {
    zip = await zipReader.openPromise(path, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (e) {
    throw new InputFormatError(`The zip file is damaged and cannot be opened (${reasonText(e)}).`);
  }
  if (zip.entryCount > MAX_ENTRIES) {
    zip.close();
    throw new InputFormatError(`The zip file holds ${zip.entryCount.toLocaleString("en-US")} entries; upload one CSV or Excel file.`);
  }
  const files: yauzl.Entry[] = [];
  try {
    for await (const e of zip.eachEntry()) {
      if (e.fileName.endsWith("/") || e.fileName.startsWith("__MACOSX/") || /(^|\/)\.DS_Store$/.test(e.fileName)) continue;
      files.push(e);
    }
  } catch (e) {
    zip.close();
    throw new InputFormatError(`The zip file is damaged (${reasonText(e)}).`);
  }
  let total = 0;
  for (const f of files) {
    total += f.uncompressedSize;
    if (f.isEncrypted()) {
      zip.close();
      throw new InputFormatError(`The zip file is password-protected (${f.fileName}). Upload it without a password.`);
    }
    try {
      checkExpansion(f.compressedSize, f.uncompressedSize);
      checkExpansion(zip.fileSize, total);
    } catch (err) {
      zip.close();
      throw err;
    }
  }
  return { zip, files };
}

/** A member's bytes; yauzl checks they match the sizes the archive declares (a lying header is an error). */
export async function memberStream(a: ZipArchive, entry: yauzl.Entry): Promise<Readable> {
  try {
    return await a.zip.openReadStreamPromise(entry);
  } catch (e) {
    throw new InputFormatError(`The zip member ${entry.fileName} cannot be read (${reasonText(e)}).`);
  }
}

/** Reads a small member whole (workbook parts such as xl/workbook.xml), at most `limit` bytes. */
export async function memberText(a: ZipArchive, entry: yauzl.Entry, limit = 64 * 1024 * 1024): Promise<string> {
  if (entry.uncompressedSize > limit) throw new InputFormatError(`${entry.fileName} is larger than ${sizeText(limit)}.`);
  const chunks: Buffer[] = [];
  try {
    for await (const c of await memberStream(a, entry)) chunks.push(c as Buffer);
  } catch (e) {
    throw explainReadError(`zip member ${entry.fileName}`)(e); // a damaged deflate stream, a lying size
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Passes a gzip stream's output through while counting it against the caps; `packedSoFar()` gives the
 * compressed bytes read so far. The count runs on the data as it flows, so a bomb stops within one chunk.
 */
export function expansionGuard(packedSoFar: () => number): Transform {
  let out = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      out += chunk.length;
      try {
        checkExpansion(packedSoFar(), out);
      } catch (e) {
        cb(e as Error);
        return;
      }
      cb(null, chunk);
    },
  });
}
