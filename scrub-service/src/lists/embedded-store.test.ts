import { describe, expect, it } from "vitest";
import { EmbeddedListStore } from "./embedded-store";

describe("embedded list store", () => {
  it("builds a copy from chunks that split an area code, sorted or not, and serves old snapshots until swapped", async () => {
    const s = new EmbeddedListStore();
    const h1 = await s.replace(7, [new Float64Array([2125550001, 2125550002])]);
    await s.finishChange(7, 1, h1);
    const old = await s.snapshot(7, 1);
    const h2 = await s.replace(7, [
      new Float64Array([2125550003, 2125550005]), // sorted, area code 212 continues in the next chunk
      new Float64Array([2125550004, 3055550001]),
      new Float64Array([9995550009, 2125550003, 4155550000]), // unsorted, with a repeat
    ]);
    // until the swap, the old copy is served
    expect([...(await old.has(new Float64Array([2125550001, 2125550003]), 2))]).toEqual([1, 0]);
    await s.finishChange(7, 2, h2);
    await expect(s.snapshot(7, 1)).rejects.toThrow(/no current copy/);
    const now = await s.snapshot(7, 2);
    const ask = new Float64Array([2125550001, 2125550003, 2125550004, 2125550005, 3055550001, 4155550000, 9995550009, 9995550008]);
    expect([...(await now.has(ask, ask.length))]).toEqual([0, 1, 1, 1, 1, 1, 1, 0]);
    // adds and removes make a new copy too
    await s.beginChange(7);
    expect(await s.version(7)).toBeNull();
    await s.add(7, new Float64Array([2125550001]));
    await s.remove(7, new Float64Array([2125550003]));
    await s.finishChange(7, 3);
    const v3 = await s.snapshot(7, 3);
    expect([...(await v3.has(new Float64Array([2125550001, 2125550003, 2125550004]), 3))]).toEqual([1, 0, 1]);
  });
});
