/**
 * The bulk restore's own connection (redis-raw.ts) and its RESP (restoreCommands), against a real Redis: the sets it
 * creates hold exactly the numbers, their DUMP equals the one of a set SADD built (so the payload is what Redis itself
 * writes, in each of its length encodings), its SADD/SREM commands leave intsets of exactly the lines, and an error
 * reply or a refused AUTH fails the send with Redis's words.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { skipWithout } from "../../../tests/setup/services";
import { REDIS_URL, uniquePrefix } from "../test/helpers";
import { memberCommands, npa3, restoreCommands } from "./redis-codec";
import { command, RawRedis } from "./redis-raw";

const noRedis = await skipWithout("redis-raw.test.ts", [{ kind: "tcp", name: "Redis", url: REDIS_URL ?? "" }]);

/** The server's DUMP version, as the store reads it from a probe key. */
async function rdbVersion(redis: Redis, key: string): Promise<number> {
  await redis.sadd(key, 1, 2);
  const d = (await redis.dumpBuffer(key))!;
  await redis.del(key);
  return d.readUInt16LE(d.length - 10);
}

// skipped only outside CI without a Redis (skipWithout fails CI instead, with the reason)
describe.skipIf(noRedis)("bulk RESTORE on a connection of our own", () => {
  const redis = new Redis(REDIS_URL!);
  const prefix = `${uniquePrefix()}n:1:1:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it("creates each NPA-NXX set with exactly its numbers, byte for byte the set SADD builds", async () => {
    // one area code: exchanges of 1, 20 (payload < 64 bytes), 500 and 9,000 lines (a length of 14 and of 32 bits)
    const npa = 212;
    const lines: [nxx: number, count: number][] = [
      [200, 1],
      [201, 20],
      [555, 500],
      [999, 9000],
    ];
    const numbers: number[] = [];
    for (const [nxx, count] of lines) for (let i = 0; i < count; i++) numbers.push((npa * 1000 + nxx) * 10_000 + Math.floor((i * 9973) / count));
    const sorted = Float64Array.from(new Set(numbers)).sort();
    const rdb = await rdbVersion(redis, `${prefix}probe`);
    const { buf, commands } = restoreCommands(sorted, 0, sorted.length, npa, rdb, prefix);
    expect(commands).toBe(lines.length);

    const raw = await RawRedis.open(redis);
    try {
      await raw.send([buf.subarray(0, 7), buf.subarray(7)], commands); // split mid-command: one stream either way
    } finally {
      raw.close();
    }
    for (const [nxx] of lines) {
      const key = `${prefix}{${npa3(npa)}}${nxx}`;
      const want = [...sorted].filter((x) => Math.floor(x / 10_000) === npa * 1000 + nxx).map((x) => x % 10_000);
      expect(
        (await redis.smembers(key)).map(Number).sort((a, b) => a - b),
        key,
      ).toEqual(want);
      expect(await redis.object("ENCODING", key)).toBe("intset");
      const built = `${prefix}sadd`;
      await redis.del(built);
      await redis.sadd(built, ...want);
      expect((await redis.dumpBuffer(key))!.equals((await redis.dumpBuffer(built))!), key).toBe(true);
      await redis.del(built);
    }
  });

  it("adds and removes lines with SADD/SREM commands: integers without leading zeros (an intset), 4,000 lines a command", async () => {
    const npa = 305;
    // lines 0, 7, 42, 999 (leading zeros in the 4-digit form) and a 9,000-line exchange (three commands)
    const numbers = Float64Array.from([...[0, 7, 42, 999].map((l) => 3_052_230_000 + l), ...Array.from({ length: 9000 }, (_, i) => 3_055_550_000 + i)]);
    const added = memberCommands("SADD", numbers, 0, numbers.length, npa, prefix);
    expect(added.commands).toBe(1 + 3);
    const removals = Float64Array.from([3_052_230_007, ...Array.from({ length: 4500 }, (_, i) => 3_055_550_000 + 2 * i)]);
    const removed = memberCommands("SREM", removals, 0, removals.length, npa, prefix);
    const raw = await RawRedis.open(redis);
    try {
      await raw.send([added.buf], added.commands);
      await raw.send([removed.buf], removed.commands);
    } finally {
      raw.close();
    }
    const small = `${prefix}{305}223`;
    const dense = `${prefix}{305}555`;
    expect((await redis.smembers(small)).map(Number).sort((a, b) => a - b)).toEqual([0, 42, 999]);
    expect(await redis.object("ENCODING", small)).toBe("intset");
    const odd = Array.from({ length: 4500 }, (_, i) => 2 * i + 1);
    expect((await redis.smembers(dense)).map(Number).sort((a, b) => a - b)).toEqual(odd);
  });

  it("fails the send with Redis's error, and every send after it", async () => {
    const raw = await RawRedis.open(redis);
    try {
      const bad = command(["RESTORE", `${prefix}bad`, "0", "not a payload", "REPLACE"]);
      await expect(raw.send([bad], 1)).rejects.toThrow(/DUMP payload version or checksum are wrong/);
      await expect(raw.send([command(["PING"])], 1)).rejects.toThrow(/checksum/);
      expect(await redis.exists(`${prefix}bad`)).toBe(0);
    } finally {
      raw.close();
    }
  });

  it("opens with the connection's credentials: a password the server does not take is refused", async () => {
    const withPassword = new Redis(REDIS_URL!, { password: "not-this-one", lazyConnect: true });
    // connected without AUTH (ioredis tolerates a server without a password); our connection sends it and fails
    withPassword.options.password = undefined;
    await withPassword.connect();
    withPassword.options.password = "not-this-one";
    try {
      await expect(RawRedis.open(withPassword)).rejects.toThrow(/AUTH|password/i);
    } finally {
      withPassword.disconnect();
    }
  });
});
