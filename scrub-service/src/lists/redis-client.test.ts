/** Which Redis the list store uses, from the environment (decisions 112 and 113). */
import { describe, expect, it } from "vitest";
import { createRedisClient, describeRedisTarget, redisTargetFromEnv } from "./redis-client";

describe("redisTargetFromEnv", () => {
  it("picks the cluster, then Sentinel, then one node", () => {
    const all = {
      REDIS_CLUSTER_NODES: "127.0.0.1:7101",
      REDIS_SENTINELS: "127.0.0.1:7211",
      REDIS_SENTINEL_NAME: "dps",
      REDIS_URL: "redis://127.0.0.1:6379",
    };
    expect(redisTargetFromEnv(all)?.kind).toBe("cluster");
    expect(redisTargetFromEnv({ ...all, REDIS_CLUSTER_NODES: undefined })?.kind).toBe("sentinel");
    expect(redisTargetFromEnv({ REDIS_URL: all.REDIS_URL })?.kind).toBe("node");
    expect(redisTargetFromEnv({})).toBeNull();
  });

  it("reads the Sentinels, the primary's name and the credentials, and never prints a password", () => {
    const t = redisTargetFromEnv({
      REDIS_SENTINELS: "redis://app:s3cret@10.0.0.5:26379, 10.0.0.6:26380,[::1]:26381",
      REDIS_SENTINEL_NAME: "lists",
      REDIS_SENTINEL_PASSWORD: "sentinel-pass",
    });
    expect(t).toEqual({
      kind: "sentinel",
      name: "lists",
      sentinels: [
        { host: "10.0.0.5", port: 26379 },
        { host: "10.0.0.6", port: 26380 },
        { host: "::1", port: 26381 },
      ],
      username: "app",
      password: "s3cret",
      sentinelPassword: "sentinel-pass",
    });
    expect(describeRedisTarget(t!)).toBe('Redis Sentinel "lists" (10.0.0.5:26379, 10.0.0.6:26380, ::1:26381)');
  });

  it("refuses Sentinels without the primary's name, and an entry that is not host:port", () => {
    expect(() => redisTargetFromEnv({ REDIS_SENTINELS: "127.0.0.1:7211" })).toThrow(/REDIS_SENTINEL_NAME/);
    expect(() => redisTargetFromEnv({ REDIS_SENTINELS: "127.0.0.1:nope", REDIS_SENTINEL_NAME: "dps" })).toThrow(
      /REDIS_SENTINELS: "127.0.0.1:nope" is not host:port/,
    );
  });
});

describe("createRedisClient's reconnect pauses", () => {
  // Nobody listens on port 1: the clients are only inspected, then disconnected.
  const target = { kind: "node", url: "redis://127.0.0.1:1" } as const;
  const pauseAt = (c: ReturnType<typeof createRedisClient>, times: number) => (c.options as { retryStrategy: (n: number) => number }).retryStrategy(times);

  it("are ioredis's own by default, and never longer than reconnectMaxMs when it is given (tests that stop Redis)", () => {
    const own = createRedisClient(target);
    const capped = createRedisClient(target, { reconnectMaxMs: 50 });
    try {
      expect(pauseAt(own, 100)).toBeGreaterThan(50);
      expect([1, 2, 100, 10_000].map((n) => pauseAt(capped, n))).toEqual([50, 50, 50, 50]);
    } finally {
      own.disconnect();
      capped.disconnect();
    }
  });
});
