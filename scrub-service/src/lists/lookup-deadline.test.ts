import { describe, expect, it } from "vitest";
import { ListStoreError } from "./store";
import { LookupBusyError, loopBlameMs, withLookupDeadline } from "./lookup";

/*
 * Issue #49 item 2: when the lookup's deadline passes, the error says what was late: the store (it did not answer
 * while the event loop was free) or this process's event loop (held up, the store's reply waiting behind it).
 */

/** Holds the event loop, as a long synchronous task of another request would. */
function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const never = () => new Promise<never>(() => {});

describe("the lookup's deadline tells a late store from a late event loop", () => {
  it("work that never answers while the loop is free: the store is blamed", async () => {
    // 1 s: a loaded test machine's own stalls (tens of ms) stay well under the quarter that would blame the loop
    const e = await withLookupDeadline(never, 1000).catch((x) => x);
    expect(e).toBeInstanceOf(ListStoreError);
    expect(e.message).toBe("The list store did not answer the lookup within 1000 ms.");
  });

  it("a 700 ms busy-wait during the lookup (the store answered in 5 ms): busy, with how late", async () => {
    const run = withLookupDeadline(() => sleep(5).then(() => "answer"), 500);
    busyWait(700);
    const e = await run.catch((x) => x);
    expect(e).toBeInstanceOf(LookupBusyError);
    expect(e.lateMs).toBeGreaterThanOrEqual(loopBlameMs(500));
    expect(e.message).toMatch(/event loop was \d+ ms late/);
  });

  it("the loop held before the deadline was due (not the timer late): still busy, not the store", async () => {
    // 300 ms held inside the lookup's window, then a reply that needs 250 ms more: the store had 200 ms of loop
    const run = withLookupDeadline(async () => {
      await sleep(1);
      busyWait(300);
      await sleep(250);
      return "answer";
    }, 500);
    const e = await run.catch((x) => x);
    expect(e).toBeInstanceOf(LookupBusyError);
    expect(e.lateMs).toBeGreaterThanOrEqual(250);
  });

  it("a short hiccup (well below a quarter of the deadline) and a store that never answers: the store is blamed", async () => {
    const run = withLookupDeadline(never, 500);
    await sleep(100);
    busyWait(10);
    const e = await run.catch((x) => x);
    expect(e).toBeInstanceOf(ListStoreError);
  });

  it("an answer in time is the answer; the ticker stops with the last lookup", async () => {
    expect(await withLookupDeadline(() => sleep(5).then(() => 42), 500)).toBe(42);
    expect(await Promise.all([withLookupDeadline(async () => 1, 500), withLookupDeadline(async () => 2, 500)])).toEqual([1, 2]);
  });
});
