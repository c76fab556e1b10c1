import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache";

describe("TtlCache", () => {
  it("answers until the time runs out, then forgets", () => {
    let now = 1000;
    const c = new TtlCache<string, number>(500);
    c.clock = () => now;
    c.set("a", 1);
    expect(c.get("a")).toBe(1);
    now = 1499;
    expect(c.get("a")).toBe(1);
    now = 1500;
    expect(c.get("a")).toBeUndefined();
  });

  it("keeps a value for less than its time when asked, never more", () => {
    let now = 0;
    const c = new TtlCache<string, number>(500);
    c.clock = () => now;
    c.set("short", 1, 100);
    c.set("long", 2, 10_000);
    now = 100;
    expect(c.get("short")).toBeUndefined();
    now = 499;
    expect(c.get("long")).toBe(2);
    now = 500;
    expect(c.get("long")).toBeUndefined();
  });

  it("delete and clear forget at once; past its size it starts again empty", () => {
    const c = new TtlCache<number, number>(60_000, 3);
    c.set(1, 1);
    c.set(2, 2);
    c.delete(1);
    expect(c.get(1)).toBeUndefined();
    expect(c.get(2)).toBe(2);
    c.set(3, 3);
    c.set(4, 4);
    expect(c.get(2)).toBe(2);
    c.set(5, 5); // the map held 3 (its size): emptied first
    expect(c.get(2)).toBeUndefined();
    expect(c.get(5)).toBe(5);
    c.clear();
    expect(c.get(5)).toBeUndefined();
  });
});
