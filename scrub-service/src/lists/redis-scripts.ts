/**
 * The Lua scripts of the Redis list store (redis-store.ts), each touching keys of one hash slot so that a call stays on
 * one Redis Cluster node, and their typed names on the client.
 */
import type { RedisClient } from "./redis-client";

/**
 * Membership of many numbers whose area codes this node serves: KEYS[1] routes the call (an area code's
 * `live` key), ARGV[1] the store prefix, ARGV[2] the list, ARGV[3] the snapshot's generation, ARGV[4] the
 * numbers grouped by area code (packByArea): per group the NPA, a 5-digit count and that many 7-digit rests.
 * Answers a string of '0'/'1' in packed order, or '!R<NPA>' when an area code serves another generation
 * (replaced) and '!L<NPA>' when it has no entry (lost). One call per node and batch: per-area-code calls
 * cost ioredis ~14 µs and ~1 KB of garbage each. Undeclared keys of several slots of one node are allowed to
 * scripts without flags (Redis 7); a key of another node is refused by Redis, so a stale slot map fails
 * the call, never answers wrongly. Per number only the set's name and the member are built (a member with
 * leading zeros is passed as its integer, which is how an intset holds it); the `live` check and the set
 * name's prefix are once per area code, and answers are constant strings (decision 090: ~24 % less Redis CPU
 * per lookup than one number at a time).
 */
const LOOKUP_LUA = `
local p, list, gen, s = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local sub, byte, call = string.sub, string.byte, redis.call
local base = p .. 'n:' .. list .. ':' .. gen .. ':{'
local out, k, o = {}, 0, 0
while o < #s do
  local npa = sub(s, o + 1, o + 3)
  local count = tonumber(sub(s, o + 4, o + 8))
  o = o + 8
  local g = call('hget', p .. 'live:{' .. npa .. '}', list)
  if g ~= gen then return (g and '!R' or '!L') .. npa end
  local set = base .. npa .. '}'
  for j = 1, count do
    local line = sub(s, o + 4, o + 7)
    if byte(line, 1) == 48 then line = tostring(tonumber(line)) end
    k = k + 1
    out[k] = call('sismember', set .. sub(s, o + 1, o + 3), line) == 1 and '1' or '0'
    o = o + 7
  end
end
return table.concat(out)`;

/**
 * The `live` entries of one node's area codes: ARGV[1] prefix, ARGV[2] list, ARGV[3] generation, ARGV[4]
 * 'set' | 'del' | 'check', ARGV[5] area codes (3 characters each). 'check' answers one character per code:
 * '1' this generation, '2' another one, '0' none.
 */
const LIVE_LUA = `
local p, list, gen, op, s = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local out = {}
for i = 0, #s / 3 - 1 do
  local key = p .. 'live:{' .. string.sub(s, i * 3 + 1, i * 3 + 3) .. '}'
  if op == 'set' then redis.call('hset', key, list, gen)
  elseif op == 'del' then redis.call('hdel', key, list)
  else
    local g = redis.call('hget', key, list)
    out[i + 1] = g == gen and '1' or (g and '2' or '0')
  end
end
return table.concat(out)`;

/**
 * Marks an in-place change's copy current: KEYS[1] the list's meta, ARGV[1] the change's token (written by
 * beginChange), ARGV[2] the version. Only when this node holds that very change: a primary promoted from a
 * replica that never received the change's start (or a change another process replaced meanwhile) answers
 * 0 and keeps its copy as it is, which the version check then reads as stale (decision 113).
 */
const FINISH_LUA = `
local m = KEYS[1]
if redis.call('hget', m, 'state') ~= 'changing' or redis.call('hget', m, 'change') ~= ARGV[1] then return 0 end
redis.call('hset', m, 'version', ARGV[2], 'state', 'ready')
redis.call('hdel', m, 'change')
return 1`;

/** Unlinks every possible NPA-NXX set under one area code's prefix (ARGV[1], ending in {NPA}): 1,000 names. */
const UNLINK_AREA_LUA = `
local p = ARGV[1]
local names = {}
for nxx = 0, 999 do names[nxx + 1] = p .. string.format('%03d', nxx) end
return redis.call('unlink', unpack(names))`;

export type ScriptRedis = {
  scrubUnlinkArea(key: string, prefix: string): Promise<number>;
  scrubLookup(key: string, prefix: string, list: string, gen: string, packed: Buffer): Promise<string | null>;
  scrubLive(key: string, prefix: string, list: string, gen: string, op: string, npas: string): Promise<string>;
  scrubFinish(key: string, token: string, version: string): Promise<number>;
};

/** Registers the scripts on a client (ioredis loads each by SHA and falls back to EVAL). */
export function defineScrubScripts(redis: RedisClient): void {
  redis.defineCommand("scrubLookup", { numberOfKeys: 1, lua: LOOKUP_LUA });
  redis.defineCommand("scrubLive", { numberOfKeys: 1, lua: LIVE_LUA });
  redis.defineCommand("scrubUnlinkArea", { numberOfKeys: 1, lua: UNLINK_AREA_LUA });
  redis.defineCommand("scrubFinish", { numberOfKeys: 1, lua: FINISH_LUA });
}
