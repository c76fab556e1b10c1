/**
 * A whole list's Bloom filter filled while its file is read (decision 162). Each parsed batch's numbers go to the
 * side thread's fill (bloom-add), which may run on past the parse, beside the sort and the writes. A batch waiting for
 * that thread holds its results block, so once HELP_BEHIND batches wait, this thread fills the next ones itself
 * instead of waiting: into a second filter of the same shape (gathered into the partitioned fill's chunks), ORed into
 * the first once the side thread is done — the union of two Bloom filters of one shape is the filter of the union, bit
 * for bit. (Waiting instead, at six batches, cost the 20M-number load ~0.2 s once the parse got faster.)
 */
import { BloomFilter, PARTITION_CHUNK } from "../worker/bloom";
import type { SideParser } from "./side-parser";

/** Side-thread batches not yet in the filter from which this thread fills batches itself (~3–7 MB of results each). */
const HELP_BEHIND = 16;

export class BloomPrefill {
  private readonly adds: Promise<void>[] = [];
  private behind = 0;
  /** This thread's filter and the numbers gathered for it. */
  private own: BloomFilter | null = null;
  private gathered: Float64Array | null = null;
  private n = 0;

  constructor(
    readonly bloom: BloomFilter,
    private readonly side: SideParser,
    private readonly helpBehind = HELP_BEHIND,
  ) {}

  /** Adds a batch's numbers (`codes` in shared memory; invalid ones skipped); `release` once nothing reads them. */
  add(codes: Float64Array, count: number, release: () => void): void {
    if (this.behind < this.helpBehind) {
      this.behind++;
      const added = this.side.addToBloom(this.bloom.shared, codes, count);
      this.adds.push(added);
      added.then(
        () => {
          this.behind--;
          release();
        },
        () => {},
      );
      return;
    }
    this.own ??= new BloomFilter({ sab: new SharedArrayBuffer(this.bloom.bits.byteLength), mask: this.bloom.mask, k: this.bloom.k });
    const buf = (this.gathered ??= new Float64Array(PARTITION_CHUNK));
    for (let i = 0; i < count; i++) {
      const x = codes[i];
      if (x < 0) continue;
      buf[this.n++] = x;
      if (this.n === buf.length) {
        this.own.addAll(buf, this.n);
        this.n = 0;
      }
    }
    release();
  }

  /** The last batch was added: resolves once `bloom` holds every number added. */
  finish(): Promise<void> {
    this.adds.push(this.side.addToBloom(this.bloom.shared, new Float64Array(0), 0, true));
    if (this.own && this.n) this.own.addAll(this.gathered!, this.n);
    this.gathered = null;
    const own = this.own;
    return Promise.all(this.adds).then(() => {
      if (!own) return;
      const into = this.bloom.bits;
      const from = own.bits;
      for (let i = 0; i < into.length; i++) into[i] |= from[i];
    });
  }

  /** Settles once the side thread no longer reads any batch (whether the fill worked or not). */
  settled(): Promise<unknown> {
    return Promise.allSettled(this.adds);
  }
}
