import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../../../tests/setup/db";
import type { DbHandle } from "db/client";
import type { InProcessScrubService } from "../in-process";
import { seededRandom } from "../test/random";
import { parsePhone } from "../numbers/normalize";
import { adminListIds, cleanupService, createContainer, createUser, startService, storeKinds } from "../test/helpers";
import type { ListSnapshot } from "./store";

/** Distinct valid numbers from a seed. */
function randomNumbers(count: number, seed: number): number[] {
  const next = seededRandom(seed);
  const out = new Set<number>();
  while (out.size < count) {
    const p = parsePhone(String(2_000_000_000 + Math.floor(next() * 8_000_000_000)));
    if (p.ok) out.add(Number(p.number));
  }
  return [...out];
}

/*
 * The live lookup on the engine: exact answers whether or not this process holds the lists' Bloom filters (with
 * one, the store is asked only for the numbers it does not rule out), and a list change seen by the next lookup.
 */
for (const kind of storeKinds) {
  describe(`live lookup [${kind}]`, () => {
    let handle: DbHandle;
    let svc: InProcessScrubService;
    let userId: string;
    let container: number;
    let dnc: number;
    let litigation: number;
    const onDnc = new Set<number>();
    const onLitigation = new Set<number>();
    const inContainer = new Set<number>();
    let asked: number[];
    let storeAsked = 0;

    beforeAll(async () => {
      handle = await createTestDb();
      svc = await startService(handle, kind);
      userId = await createUser(handle);
      container = await createContainer(handle, userId);
      ({ dnc, litigation } = await adminListIds(handle));
      const pool = randomNumbers(24_000, 41);
      pool.slice(0, 20_000).forEach((n) => onDnc.add(n));
      pool.slice(19_000, 21_000).forEach((n) => onLitigation.add(n));
      pool.slice(20_500, 22_000).forEach((n) => inContainer.add(n));
      await svc.loadNumbers({ listId: dnc, mode: "add", numbers: [...onDnc].map(String) });
      await svc.loadNumbers({ listId: litigation, mode: "add", numbers: [...onLitigation].map(String) });
      await svc.loadNumbers({ listId: container, mode: "add", numbers: [...inContainer].map(String), userId });
      asked = pool.filter((_, i) => i % 24 === 0); // 1,000: on each list, on several, on none
      // count what the store is asked
      const snapshot = svc.store.snapshot.bind(svc.store);
      svc.store.snapshot = async (listId: number, version: number): Promise<ListSnapshot> => {
        const s = await snapshot(listId, version);
        return { ...s, has: (numbers, count) => ((storeAsked += count), s.has(numbers, count)) };
      };
    });

    afterAll(async () => {
      await cleanupService(svc);
      await handle.close();
    });

    const expected = (ids: { dnc: number; litigation: number; container: number }, lists: { id: number; hits: number[] }[]) => {
      const want = (set: Set<number>) => asked.flatMap((n, i) => (set.has(n) ? [i] : []));
      expect(lists.find((l) => l.id === ids.dnc)!.hits).toEqual(want(onDnc));
      expect(lists.find((l) => l.id === ids.litigation)!.hits).toEqual(want(onLitigation));
      expect(lists.find((l) => l.id === ids.container)!.hits).toEqual(want(inContainer));
    };

    it("answers exactly without the Bloom filters, then with them, asking the store for far fewer numbers", async () => {
      for (const id of [dnc, litigation, container]) svc.manager.dropBloom(id);
      storeAsked = 0;
      const first = await svc.lookup({ userId, numbers: asked });
      expected({ dnc, litigation, container }, first.lists);
      expect(storeAsked).toBe(asked.length * 3); // every number, every list
      for (const id of [dnc, litigation, container]) await svc.manager.ready(id); // what a scrub loads (the lookup loads them in the background)
      storeAsked = 0;
      const second = await svc.lookup({ userId, numbers: asked });
      expect(second).toEqual(first);
      const listed =
        asked.filter((n) => onDnc.has(n)).length + asked.filter((n) => onLitigation.has(n)).length + asked.filter((n) => inContainer.has(n)).length;
      expect(storeAsked).toBeGreaterThanOrEqual(listed); // every number on a list still goes to the store
      expect(storeAsked).toBeLessThan(listed + asked.length * 3 * 0.05); // and few of the rest (1 % false positives)
    });

    it("sees a change made through this process at once, at the new version", async () => {
      const before = await svc.lookup({ userId, numbers: asked });
      const fresh = asked.find((n) => !onLitigation.has(n))!;
      await svc.loadNumbers({ listId: litigation, mode: "add", numbers: [String(fresh)] });
      onLitigation.add(fresh);
      const after = await svc.lookup({ userId, numbers: asked });
      expected({ dnc, litigation, container }, after.lists);
      const version = (a: typeof after) => a.lists.find((l) => l.id === litigation)!.version;
      expect(version(after)).toBe(version(before) + 1);
      await svc.loadNumbers({ listId: litigation, mode: "remove", numbers: [String(fresh)] });
      onLitigation.delete(fresh);
      expected({ dnc, litigation, container }, (await svc.lookup({ userId, numbers: asked })).lists);
    });

    it("the store answers each number where it was asked: lines with leading zeros, repeats, any order, past one round", async () => {
      const own = await createContainer(handle, userId);
      // every line width the store must read back as the integer it holds (0, 7, 70, 700, 7000), in three area codes
      const listed = [212, 415, 907].flatMap((npa) => [0, 7, 70, 700, 7000, 9999].map((line) => npa * 10_000_000 + 2_340_000 + line));
      const notListed = listed.map((n) => n + 1).concat(listed.map((n) => n + 10_000)); // same set's neighbour, next exchange
      await svc.loadNumbers({ listId: own, mode: "add", numbers: listed.map(String), userId });
      const next = seededRandom(5);
      const dncNumbers = [...onDnc];
      const numbers: number[] = [];
      while (numbers.length < 45_000) {
        // more than one lookup round (20,000), shuffled, each number many times
        const r = next();
        numbers.push(
          r < 0.5
            ? listed[Math.floor(next() * listed.length)]
            : r < 0.8
              ? notListed[Math.floor(next() * notListed.length)]
              : dncNumbers[Math.floor(next() * 50)],
        );
      }
      const { snapshot } = await svc.manager.ready(own);
      const answers = await snapshot!.has(Float64Array.from(numbers), numbers.length);
      const wrong = numbers.flatMap((n, i) => ((answers[i] === 1) === listed.includes(n) ? [] : [`${i}: ${n} → ${answers[i]}`]));
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(answers.length).toBe(numbers.length);
    });
  });
}
