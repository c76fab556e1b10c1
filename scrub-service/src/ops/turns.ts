/** At most `limit()` holders at once; the others wait their turn, released in order. */
export class Turns {
  private busy = 0;
  private waiting: (() => void)[] = [];
  constructor(private readonly limit: () => number) {}
  async take(): Promise<() => void> {
    if (this.busy >= this.limit()) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    };
  }
  get active(): number {
    return this.busy;
  }
  get queued(): number {
    return this.waiting.length;
  }
}
