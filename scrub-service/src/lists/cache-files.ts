/**
 * Files in DATA_DIR/cache that save a list's Bloom filter and the store's copy for one version, so the next
 * process (a CLI scrub, a restarted server) neither rebuilds the filter nor reads the list back out of the
 * database (decision 019). A file is written whole (temp + rename), so one that exists is complete.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { BLOOM_LAYOUT, type BloomFilter } from "../worker/bloom";
import type { ListInfo } from "./versions";

export class CacheFiles {
  constructor(readonly dir: string) {}

  /**
   * The stamp (created/updated times, bumped with the version) tells apart lists of other databases that
   * share this disk and happen to have the same id and version.
   */
  bloomFile(info: ListInfo, bloom: BloomFilter): string {
    return path.join(this.dir, `bloom-${info.id}-v${info.version}-${info.stamp}-m${bloom.sizeBits}-k${bloom.k}-${BLOOM_LAYOUT}.bin`);
  }

  copyFile(info: ListInfo): string {
    return path.join(this.dir, `index-${info.id}-v${info.version}-${info.stamp}.bin`);
  }

  /** Reads a Bloom filter file of exactly this size into `bloom`; false when there is none. */
  async readBloom(file: string, bloom: BloomFilter): Promise<boolean> {
    if (!fs.existsSync(file) || fs.statSync(file).size !== bloom.bits.byteLength) return false;
    const fh = await fs.promises.open(file, "r");
    try {
      await fh.read(new Uint8Array(bloom.shared.sab), 0, bloom.bits.byteLength, 0);
    } finally {
      await fh.close();
    }
    return true;
  }

  async writeBloom(info: ListInfo, bloom: BloomFilter): Promise<void> {
    await this.writeWhole(this.bloomFile(info, bloom), `bloom-${info.id}-v`, async (tmp) => {
      await fs.promises.writeFile(tmp, new Uint8Array(bloom.shared.sab));
      return true;
    });
  }

  /** Saves the store's copy through `save` (false: the store keeps no such copies). */
  async writeCopy(info: ListInfo, save: (file: string) => Promise<boolean>): Promise<void> {
    await this.writeWhole(this.copyFile(info), `index-${info.id}-v`, save);
  }

  /** Writes a file whole and removes the list's older ones; a failure only loses the cache. */
  private async writeWhole(file: string, listPrefix: string, write: (tmp: string) => Promise<boolean>): Promise<void> {
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      for (const old of fs.readdirSync(this.dir)) {
        if (old.startsWith(listPrefix)) fs.rmSync(path.join(this.dir, old), { force: true });
      }
      // Unique per writer: replicas share DATA_DIR/cache and may share a pid (pid 1 in containers).
      const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
      if (await write(tmp)) fs.renameSync(tmp, file);
    } catch {
      /* a cache only */
    }
  }
}
