/**
 * Counts the numbers a list file can hold: its non-empty lines, less one when the first of them has no digit (a
 * header such as `Phone`). Fed the decoded text (countRecords with skipHeader), so a .gz, .zip or .xlsx counts
 * the rows it holds, not its compressed bytes' line feeds.
 */
export class RowCounter {
  /** headerRule false: every non-empty line counts (the header is judged elsewhere). */
  constructor(private readonly opts: { headerRule: boolean } = { headerRule: true }) {}
  private lines = 0;
  private content = false;
  private first: "pending" | "digit" | "none" = "pending";
  private firstHasDigit = false;

  push(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 10) {
        if (this.content) this.endLine();
        continue;
      }
      if (b === 13 || b === 32 || b === 9) continue;
      this.content = true;
      if (this.first === "pending" && b >= 48 && b <= 57) this.firstHasDigit = true;
    }
  }

  private endLine(): void {
    this.lines++;
    this.content = false;
    if (this.first === "pending") this.first = this.firstHasDigit ? "digit" : "none";
  }

  count(): number {
    let n = this.lines;
    let first = this.first;
    if (this.content) {
      n++;
      if (first === "pending") first = this.firstHasDigit ? "digit" : "none";
    }
    return this.opts.headerRule && first === "none" ? n - 1 : n;
  }
}
