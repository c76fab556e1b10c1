/**
 * A workbook's shared strings, packed: UTF-8 bytes in 1 MiB pages and each string's start and length in typed
 * arrays of 64 Ki entries, so a string costs its bytes plus 8 (an array of JS strings costs ~40 more each, which
 * made 30M short strings take GBs). Pages are added, never copied, so growing never holds two copies.
 */
const PAGE_BYTES = 1024 * 1024;
const INDEX_PAGE = 65_536;

export class SharedStrings {
  private pages: Buffer[] = [];
  private used = PAGE_BYTES;
  private starts: Uint32Array[] = [];
  private lengths: Uint32Array[] = [];
  count = 0;
  bytes = 0;

  push(s: string): void {
    const len = Buffer.byteLength(s);
    if (len > PAGE_BYTES) throw new RangeError("A shared string is longer than a page.");
    if (this.used + len > PAGE_BYTES) {
      this.pages.push(Buffer.allocUnsafe(PAGE_BYTES));
      this.used = 0;
    }
    const page = this.pages.length - 1;
    this.pages[page].write(s, this.used, "utf8");
    const slot = this.count % INDEX_PAGE;
    if (slot === 0) {
      this.starts.push(new Uint32Array(INDEX_PAGE));
      this.lengths.push(new Uint32Array(INDEX_PAGE));
    }
    const ix = (this.count / INDEX_PAGE) | 0;
    this.starts[ix][slot] = page * PAGE_BYTES + this.used;
    this.lengths[ix][slot] = len;
    this.used += len;
    this.bytes += len;
    this.count++;
  }

  /** The i-th string; "" for an index the table does not hold (as Excel shows a broken reference). */
  get(i: number): string {
    if (!Number.isInteger(i) || i < 0 || i >= this.count) return "";
    const ix = (i / INDEX_PAGE) | 0;
    const slot = i % INDEX_PAGE;
    const start = this.starts[ix][slot];
    const page = Math.floor(start / PAGE_BYTES);
    const off = start - page * PAGE_BYTES;
    return this.pages[page].toString("utf8", off, off + this.lengths[ix][slot]);
  }
}
